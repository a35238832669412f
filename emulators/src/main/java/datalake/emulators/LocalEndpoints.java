package datalake.emulators;

import datalake.lambda.SdkClientFactory;
import java.net.URI;
import java.util.Map;

/**
 * A dynalite and a moto of one's own, at known endpoints (the local runner's, the benchmarks'), as
 * {@link AwsEndpoints}: the same clients, credentials and region as {@link Emulators}'.
 */
public final class LocalEndpoints extends ClientsOfFactories {
    private final URI dynamoDb;
    private final URI moto;

    public LocalEndpoints(URI dynamoDb, URI moto) {
        this.dynamoDb = dynamoDb;
        this.moto = moto;
    }

    @Override
    public String name() {
        return "moto at " + moto + " + dynalite at " + dynamoDb;
    }

    @Override
    public SdkClientFactory dynamoDbClients() {
        return Emulators.clientsFor(dynamoDb);
    }

    @Override
    public SdkClientFactory s3Clients() {
        return Emulators.clientsFor(moto);
    }

    @Override
    public Map<String, String> endpointEnvironment() {
        return Emulators.endpointEnvironment(dynamoDb, moto);
    }

    public URI motoEndpoint() {
        return moto;
    }

    public URI dynamoDbEndpoint() {
        return dynamoDb;
    }
}
