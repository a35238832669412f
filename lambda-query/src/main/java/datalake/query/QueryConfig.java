package datalake.query;

import datalake.lambda.Environment;
import datalake.lambda.EnvironmentVariable;
import java.util.Map;

/**
 * The query function's configuration, read once from its environment (docs/DESIGN.md,
 * "Configuration") by lambda-support's {@link Environment}. Endpoints are not here: the SDK itself
 * reads {@code AWS_ENDPOINT_URL} and {@code AWS_ENDPOINT_URL_<SERVICE>}, the S3 presigner included.
 *
 * @param recordsTable  {@code DATALAKE_DYNAMODB_TABLE}, the records table
 * @param latestTable   {@code DATALAKE_LATEST_TABLE}, or null to find the latest file by scanning day buckets
 * @param storageBucket the bucket of {@code DATALAKE_STORAGE_URL} ({@code s3://bucket}), where files live by id
 * @param region        {@code AWS_REGION}; null only for an API built on clients of one's own
 * @param s3PathStyle   {@code DATALAKE_S3_PATH_STYLE} (see {@link Environment#s3PathStyle()})
 * @param httpUrl       {@code DATALAKE_HTTP_URL}, the public base URL of the API (a custom domain), or
 *                      null to build {@code next} and {@code http_url} from the request's Host header
 * @param functionName  {@code AWS_LAMBDA_FUNCTION_NAME}, the {@code Function} dimension of the metrics
 *                      (default {@value #DEFAULT_FUNCTION_NAME})
 */
public record QueryConfig(
        String recordsTable,
        String latestTable,
        String storageBucket,
        String region,
        boolean s3PathStyle,
        String httpUrl,
        String functionName) {

    static final String DEFAULT_FUNCTION_NAME = "lambda-query";

    public QueryConfig {
        if (recordsTable == null || recordsTable.isBlank()) {
            throw new IllegalArgumentException("DATALAKE_DYNAMODB_TABLE is not set; set it to the records table's name.");
        }
        if (storageBucket == null || storageBucket.isBlank()) {
            throw new IllegalArgumentException("DATALAKE_STORAGE_URL is not set; set it to s3://<bucket> of the data lake.");
        }
        if (latestTable != null && latestTable.isBlank()) {
            latestTable = null;
        }
        if (httpUrl != null) {
            httpUrl = httpUrl.isBlank() ? null : stripTrailingSlashes(httpUrl.strip());
        }
        if (functionName == null || functionName.isBlank()) {
            functionName = DEFAULT_FUNCTION_NAME;
        }
    }

    /** The minimal configuration: records table and storage bucket, no latest table (tests, tools). */
    public static QueryConfig of(String recordsTable, String storageBucket) {
        return new QueryConfig(recordsTable, null, storageBucket, null, false, null, null);
    }

    /** Reads the configuration; a {@code ConfigurationException} names the first bad variable. */
    public static QueryConfig from(Environment env) {
        String bucket = env.bucket(EnvironmentVariable.STORAGE_URL);
        if (bucket == null) {
            env.require(EnvironmentVariable.STORAGE_URL);
        }
        return new QueryConfig(
                env.require(EnvironmentVariable.DYNAMODB_TABLE),
                env.get(EnvironmentVariable.LATEST_TABLE),
                bucket,
                env.region(),
                env.s3PathStyle(),
                env.baseUrl(EnvironmentVariable.HTTP_URL),
                env.get(EnvironmentVariable.FUNCTION_NAME));
    }

    /** {@link #from(Environment)} on a map of the same variables (the runner's, a test's). */
    public static QueryConfig fromEnvironment(Map<String, String> env) {
        return from(Environment.of(env));
    }

    public QueryConfig withLatestTable(String table) {
        return new QueryConfig(recordsTable, table, storageBucket, region, s3PathStyle, httpUrl, functionName);
    }

    public QueryConfig withHttpUrl(String url) {
        return new QueryConfig(recordsTable, latestTable, storageBucket, region, s3PathStyle, url, functionName);
    }

    /** {@code s3://<bucket>}, what {@code /v0/archive/} reports as {@code storage_url}. */
    public String storageUrl() {
        return "s3://" + storageBucket;
    }

    private static String stripTrailingSlashes(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == '/') {
            end--;
        }
        return s.substring(0, end);
    }
}
