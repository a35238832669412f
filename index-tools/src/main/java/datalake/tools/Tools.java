package datalake.tools;

import datalake.ingester.Ingester;
import datalake.ingester.IngesterClients;
import datalake.ingester.IngesterConfig;
import datalake.ingester.Telemetry;
import datalake.lambda.Environment;
import datalake.lambda.SdkClientFactory;

/**
 * What both tools build from the environment, as the backfill function reads it (docs/DESIGN.md,
 * "Configuration"): DATALAKE_DYNAMODB_TABLE (required), DATALAKE_LATEST_TABLE, DATALAKE_MAX_BUCKET_SPAN,
 * DATALAKE_RETENTION_DAYS, AWS_REGION; credentials as the AWS CLI finds them; AWS_ENDPOINT_URL* for emulators.
 */
record Tools(IngesterConfig config, IngesterClients clients, Ingester ingester) implements AutoCloseable {
    static Tools fromEnvironment(int concurrency) {
        Environment env = Environment.system();
        IngesterConfig config = IngesterConfig.forBackfill(env);
        IngesterClients clients = IngesterClients.forBackfill(SdkClientFactory.forFunction(env, concurrency), config);
        Ingester ingester = Ingester.forAws(config, clients).concurrency(concurrency).telemetry(Telemetry.discarding())
                .build();
        return new Tools(config, clients, ingester);
    }

    @Override
    public void close() {
        ingester.close();
        clients.close();
    }
}
