package datalake.tools;

import datalake.dynamodb.RecordItems;
import datalake.dynamodb.ShardMapItem;
import datalake.ingester.Ingester;
import datalake.ingester.IngesterClients;
import datalake.ingester.IngesterConfig;
import datalake.ingester.Telemetry;
import datalake.lambda.ConfigurationException;
import datalake.lambda.Environment;
import datalake.lambda.EnvironmentVariable;
import datalake.lambda.SdkClientFactory;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;

/**
 * What both tools build from the environment, as the backfill function reads it (docs/DESIGN.md,
 * "Configuration"): DATALAKE_DYNAMODB_TABLE, DATALAKE_LATEST_TABLE, DATALAKE_MAX_BUCKET_SPAN and
 * DATALAKE_RETENTION_DAYS (required), AWS_REGION; credentials as the AWS CLI finds them; AWS_ENDPOINT_URL*
 * for emulators.
 */
record Tools(IngesterConfig config, IngesterClients clients, Ingester ingester) implements AutoCloseable {
    static Tools fromEnvironment(int concurrency) {
        Environment env = Environment.system();
        requireRecordSettings(env);
        requireLatestTable(env);
        IngesterConfig config = IngesterConfig.forBackfill(env);
        IngesterClients clients = IngesterClients.forBackfill(SdkClientFactory.forFunction(env, concurrency), config);
        try {
            return on(config, clients, env, concurrency, Clock.systemUTC());
        } catch (RuntimeException e) {
            clients.close();
            throw e;
        }
    }

    /**
     * The tools on {@code clients}, once their tables are found ({@link #requireTables}), with the ingester on
     * AWS's clock ({@link AwsClock}, from the workstation's {@code local} one): a commit's {@code observed_at}
     * orders it against the functions' commits of the same key, so on a laptop an hour ahead every upload of
     * the next hour would lose to what the tool indexed, and the index keep the older file.
     */
    static Tools on(IngesterConfig config, IngesterClients clients, Environment env, int concurrency, Clock local) {
        requireTables(config, clients, env);
        Clock aws = AwsClock.of(clients.dynamoDb(), config.recordsTable(), local);
        Ingester ingester = Ingester.forAws(config, clients).concurrency(concurrency).clock(aws)
                .telemetry(Telemetry.discarding()).build();
        return new Tools(config, clients, ingester);
    }

    /**
     * The settings records are made with, which the functions have from the stack's parameters: the tools
     * write the records the functions would, and remove the ones a file's span refuses, so a default in
     * the operator's shell is no guess at them (a file of 45 days on a stack that takes 60 would lose its
     * records; a stack's expiry would be dropped from every record written).
     */
    static void requireRecordSettings(Environment env) {
        if (env.get(EnvironmentVariable.MAX_BUCKET_SPAN) == null) {
            throw new ConfigurationException(EnvironmentVariable.MAX_BUCKET_SPAN.key() + " is not set; set it to the"
                    + " stack's MaxBucketSpan (30 unless it was changed), as the functions have it.");
        }
        if (env.get(EnvironmentVariable.RETENTION_DAYS) == null) {
            throw new ConfigurationException(EnvironmentVariable.RETENTION_DAYS.key()
                    + " is not set; set it to the stack's RetentionDays (0 for none), as the functions have it.");
        }
    }

    /**
     * The latest table, which every stack has: without it the tools would index files that /feeds and
     * latest never show (no entry offered), and reconcile could not see it.
     */
    static void requireLatestTable(Environment env) {
        if (env.get(EnvironmentVariable.LATEST_TABLE) == null) {
            throw new ConfigurationException(EnvironmentVariable.LATEST_TABLE.key() + " is not set; set it to the"
                    + " stack's latest table (the output LatestTableName), as the functions have it.");
        }
    }

    /**
     * One GetItem a table, before anything is listed or written, so that a table name that is wrong (a typo,
     * another stack's, another region) is one sentence naming it rather than a failure for every object,
     * or records written while their latest entries are not: the shard map's item in the records table,
     * and a key that no latest entry has (a {@code what_where_key} always holds a {@code :}).
     */
    static void requireTables(IngesterConfig config, IngesterClients clients, Environment env) {
        requireTable(clients, config.recordsTable(), EnvironmentVariable.DYNAMODB_TABLE, ShardMapItem.key(), env);
        requireTable(clients, config.latestTable(), EnvironmentVariable.LATEST_TABLE,
                Map.of(RecordItems.WHAT_WHERE_KEY, AttributeValue.fromS("#table-check")), env);
    }

    private static void requireTable(IngesterClients clients, String table, EnvironmentVariable variable,
            Map<String, AttributeValue> key, Environment env) {
        try {
            clients.dynamoDb().getItem(r -> r.tableName(table).key(key));
        } catch (ResourceNotFoundException e) {
            throw new ConfigurationException("there is no table " + table + " (" + variable.key() + ") in "
                    + env.region() + ".");
        }
    }

    /**
     * One sentence for a run that AWS (or the emulator it points at) did not answer, or refused: the SDK's
     * reason, and for no answer the endpoints the environment sets (the SDK's message names neither service
     * nor address); a stack trace would tell an operator nothing more.
     */
    static Optional<String> unanswered(String tool, Throwable failure, Environment env) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof AwsServiceException e) {
                return Optional.of(tool + ": " + e.awsErrorDetails().serviceName() + " refused a call ("
                        + e.awsErrorDetails().errorCode() + ": " + e.awsErrorDetails().errorMessage()
                        + "); check the bucket, the tables, AWS_REGION and the credentials' permissions.");
            }
            if (t instanceof SdkClientException e) {
                String reason = String.valueOf(e.getMessage()).lines().findFirst().orElse("").strip();
                String endpoints = new TreeMap<>(env.values()).entrySet().stream()
                        .filter(v -> v.getKey().startsWith("AWS_ENDPOINT_URL"))
                        .map(v -> v.getKey() + "=" + v.getValue()).collect(Collectors.joining(", "));
                return Optional.of(tool + ": AWS did not answer (" + reason + ") at "
                        + (endpoints.isEmpty() ? "AWS's own endpoints in " + env.region() : endpoints)
                        + "; check the endpoints, AWS_REGION and the credentials.");
            }
        }
        return Optional.empty();
    }

    @Override
    public void close() {
        ingester.close();
        clients.close();
    }
}
