package datalake.query;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Map;

/**
 * The query function's configuration, read once from the environment (README, "Configuration").
 *
 * @param recordsTable    {@code DATALAKE_DYNAMODB_TABLE}, the records table
 * @param latestTable     {@code DATALAKE_LATEST_TABLE}, or null to find the latest file by scanning day buckets
 * @param storageBucket   the bucket of {@code DATALAKE_STORAGE_URL} ({@code s3://bucket}), where files live by id
 * @param region          {@code AWS_REGION} (else {@code AWS_DEFAULT_REGION}), or null for the SDK's default chain
 * @param dynamoDbEndpoint {@code AWS_ENDPOINT_URL_DYNAMODB} (else {@code AWS_ENDPOINT_URL}), or null for AWS
 * @param s3Endpoint      {@code AWS_ENDPOINT_URL_S3} (else {@code AWS_ENDPOINT_URL}), or null for AWS
 * @param s3PathStyle     {@code DATALAKE_S3_PATH_STYLE=true}: path-style S3 URLs (moto, MinIO)
 * @param httpUrl         {@code DATALAKE_HTTP_URL}, the public base URL of the API (a custom domain), or
 *                        null to build {@code next} and {@code http_url} from the request's Host header
 */
public record QueryConfig(
        String recordsTable,
        String latestTable,
        String storageBucket,
        String region,
        URI dynamoDbEndpoint,
        URI s3Endpoint,
        boolean s3PathStyle,
        String httpUrl) {

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
    }

    /** The minimal configuration: records table and storage bucket, AWS endpoints, no latest table. */
    public static QueryConfig of(String recordsTable, String storageBucket) {
        return new QueryConfig(recordsTable, null, storageBucket, null, null, null, false, null);
    }

    /** Reads the configuration from environment variables (a map, so tests and runners can pass their own). */
    public static QueryConfig fromEnvironment(Map<String, String> env) {
        return new QueryConfig(
                env.get("DATALAKE_DYNAMODB_TABLE"),
                env.get("DATALAKE_LATEST_TABLE"),
                bucketOf(env.get("DATALAKE_STORAGE_URL")),
                firstSet(env.get("AWS_REGION"), env.get("AWS_DEFAULT_REGION")),
                endpoint(env, "AWS_ENDPOINT_URL_DYNAMODB"),
                endpoint(env, "AWS_ENDPOINT_URL_S3"),
                flag(env, "DATALAKE_S3_PATH_STYLE"),
                env.get("DATALAKE_HTTP_URL"));
    }

    public QueryConfig withLatestTable(String table) {
        return new QueryConfig(recordsTable, table, storageBucket, region, dynamoDbEndpoint, s3Endpoint, s3PathStyle,
                httpUrl);
    }

    public QueryConfig withHttpUrl(String url) {
        return new QueryConfig(recordsTable, latestTable, storageBucket, region, dynamoDbEndpoint, s3Endpoint,
                s3PathStyle, url);
    }

    /** {@code s3://<bucket>}, what {@code /v0/archive/} reports as {@code storage_url}. */
    public String storageUrl() {
        return "s3://" + storageBucket;
    }

    static String bucketOf(String storageUrl) {
        if (storageUrl == null || storageUrl.isBlank()) {
            return null;
        }
        String url = stripTrailingSlashes(storageUrl.strip());
        if (!url.startsWith("s3://") || url.length() == "s3://".length() || url.indexOf('/', 5) >= 0) {
            throw new IllegalArgumentException("DATALAKE_STORAGE_URL must be s3://<bucket>, not \"" + storageUrl + "\".");
        }
        return url.substring("s3://".length());
    }

    private static URI endpoint(Map<String, String> env, String serviceVariable) {
        String name = env.get(serviceVariable) != null && !env.get(serviceVariable).isBlank()
                ? serviceVariable : "AWS_ENDPOINT_URL";
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            URI uri = new URI(value.strip());
            if (uri.getScheme() == null || uri.getHost() == null) {
                throw new URISyntaxException(value, "no scheme or host");
            }
            return uri;
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(name + " must be an absolute URL such as http://127.0.0.1:8000, not \""
                    + value + "\".");
        }
    }

    private static boolean flag(Map<String, String> env, String name) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            return false;
        }
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "true", "1", "yes" -> true;
            case "false", "0", "no" -> false;
            default -> throw new IllegalArgumentException(name + " must be true or false, not \"" + value + "\".");
        };
    }

    private static String firstSet(String a, String b) {
        return a != null && !a.isBlank() ? a : (b != null && !b.isBlank() ? b : null);
    }

    private static String stripTrailingSlashes(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == '/') {
            end--;
        }
        return s.substring(0, end);
    }
}
