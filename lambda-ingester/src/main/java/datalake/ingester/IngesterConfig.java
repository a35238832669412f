package datalake.ingester;

import datalake.lambda.Environment;
import datalake.lambda.EnvironmentVariable;
import datalake.records.TimeBuckets;
import java.util.Map;

/**
 * The ingester's configuration, read once from its environment (docs/DESIGN.md, "Configuration") by
 * lambda-support's {@link Environment}. Endpoints are not here: the SDK itself reads
 * {@code AWS_ENDPOINT_URL} and {@code AWS_ENDPOINT_URL_<SERVICE>}.
 *
 * @param recordsTable   DATALAKE_DYNAMODB_TABLE (required)
 * @param latestTable    DATALAKE_LATEST_TABLE, or null to keep no latest table
 * @param reportTopicArn DATALAKE_REPORT_TOPIC_ARN, or null to publish no reports
 * @param deadLetterUrl  DATALAKE_DLQ_URL (required by the ingester; null for the backfill): where permanent
 *                       failures go
 * @param storageUrl     DATALAKE_STORAGE_URL ({@code s3://bucket}) or null; validated only, since the
 *                       bucket of each record comes from its notification
 * @param maxBucketSpan  DATALAKE_MAX_BUCKET_SPAN (default 30)
 * @param retentionDays  DATALAKE_RETENTION_DAYS, or null (unset or 0) to keep records forever
 * @param region         AWS_REGION (required)
 * @param s3PathStyle    DATALAKE_S3_PATH_STYLE (see {@link Environment#s3PathStyle()})
 * @param functionName   AWS_LAMBDA_FUNCTION_NAME (the metrics' Function dimension), default "lambda-ingester"
 * @param maxReceiveCount DATALAKE_MAX_RECEIVE_COUNT, the ingest queue's maxReceiveCount, or null: a message
 *                       failing transiently on that receive is dead-lettered by the ingester with its reason
 * @param concurrency    the objects followed at once: DATALAKE_INGEST_BATCH_SIZE, the trigger's batch size, so
 *                       that each step of a full batch goes out in one round of calls (8, a batch of 10 made
 *                       two), at least {@link Ingester#DEFAULT_CONCURRENCY} and at most
 *                       {@link Ingester#MAX_CONCURRENCY}; the default when unset, and for the backfill
 */
public record IngesterConfig(
        String recordsTable,
        String latestTable,
        String reportTopicArn,
        String deadLetterUrl,
        String storageUrl,
        int maxBucketSpan,
        Integer retentionDays,
        String region,
        boolean s3PathStyle,
        String functionName,
        Integer maxReceiveCount,
        int concurrency) {

    static final String DEFAULT_FUNCTION_NAME = "lambda-ingester";

    /** Reads the configuration; a {@code ConfigurationException} names the first bad variable. */
    public static IngesterConfig from(Environment env) {
        return read(env, true, DEFAULT_FUNCTION_NAME);
    }

    /**
     * The backfill function's configuration: the ingester's code path without a queue, so without a
     * dead-letter queue, a report topic or a maxReceiveCount.
     */
    public static IngesterConfig forBackfill(Environment env) {
        return read(env, false, BackfillHandler.DEFAULT_FUNCTION_NAME);
    }

    private static IngesterConfig read(Environment env, boolean fromQueue, String defaultFunctionName) {
        String function = env.get(EnvironmentVariable.FUNCTION_NAME);
        String storageBucket = env.bucket(EnvironmentVariable.STORAGE_URL);
        return new IngesterConfig(
                env.require(EnvironmentVariable.DYNAMODB_TABLE),
                env.get(EnvironmentVariable.LATEST_TABLE),
                fromQueue ? env.topicArn(EnvironmentVariable.REPORT_TOPIC_ARN) : null,
                fromQueue ? requiredUrl(env, EnvironmentVariable.DLQ_URL) : null,
                storageBucket == null ? null : "s3://" + storageBucket,
                env.positive(EnvironmentVariable.MAX_BUCKET_SPAN, TimeBuckets.DEFAULT_MAX_SPAN),
                env.positiveOrOff(EnvironmentVariable.RETENTION_DAYS),
                env.region(),
                env.s3PathStyle(),
                function == null ? defaultFunctionName : function,
                fromQueue ? env.positiveOrOff(EnvironmentVariable.MAX_RECEIVE_COUNT) : null,
                fromQueue ? concurrency(env.positive(EnvironmentVariable.INGEST_BATCH_SIZE, Ingester.DEFAULT_CONCURRENCY))
                        : Ingester.DEFAULT_CONCURRENCY);
    }

    /** {@link #from(Environment)} on a map of the same variables (the runner's, a test's). */
    public static IngesterConfig fromEnvironment(Map<String, String> env) {
        return from(Environment.of(env));
    }

    private static int concurrency(int batchSize) {
        return Math.clamp(batchSize, Ingester.DEFAULT_CONCURRENCY, Ingester.MAX_CONCURRENCY);
    }

    private static String requiredUrl(Environment env, EnvironmentVariable variable) {
        env.require(variable);
        return env.queueUrl(variable);
    }
}
