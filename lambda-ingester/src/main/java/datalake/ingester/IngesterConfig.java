package datalake.ingester;

import datalake.records.TimeBuckets;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Map;

/**
 * The ingester's configuration, read from the environment names of DESIGN.md. Endpoints are not
 * here: the SDK itself reads {@code AWS_ENDPOINT_URL} and {@code AWS_ENDPOINT_URL_<SERVICE>}.
 *
 * @param recordsTable   DATALAKE_DYNAMODB_TABLE (required)
 * @param latestTable    DATALAKE_LATEST_TABLE, or null to keep no latest table
 * @param reportTopicArn DATALAKE_REPORT_TOPIC_ARN, or null to publish no reports
 * @param deadLetterUrl  DATALAKE_DLQ_URL (required): where permanent failures go
 * @param storageUrl     DATALAKE_STORAGE_URL ({@code s3://bucket}) or null; informational here, since
 *                       the bucket of each record comes from its notification
 * @param maxBucketSpan  DATALAKE_MAX_BUCKET_SPAN (default 30)
 * @param retentionDays  DATALAKE_RETENTION_DAYS, or null (unset or 0) to keep records forever
 * @param region         AWS_REGION (required)
 * @param s3PathStyle    DATALAKE_S3_PATH_STYLE; when unset, true exactly when an endpoint override
 *                       (AWS_ENDPOINT_URL or AWS_ENDPOINT_URL_S3) is set, since emulators such as moto
 *                       serve buckets on paths while AWS itself prefers virtual-hosted names
 * @param functionName   AWS_LAMBDA_FUNCTION_NAME (the metrics' Function dimension), default "lambda-ingester"
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
        String functionName) {

    public static final String DYNAMODB_TABLE = "DATALAKE_DYNAMODB_TABLE";
    public static final String LATEST_TABLE = "DATALAKE_LATEST_TABLE";
    public static final String REPORT_TOPIC_ARN = "DATALAKE_REPORT_TOPIC_ARN";
    public static final String DLQ_URL = "DATALAKE_DLQ_URL";
    public static final String STORAGE_URL = "DATALAKE_STORAGE_URL";
    public static final String MAX_BUCKET_SPAN = "DATALAKE_MAX_BUCKET_SPAN";
    public static final String RETENTION_DAYS = "DATALAKE_RETENTION_DAYS";
    public static final String S3_PATH_STYLE = "DATALAKE_S3_PATH_STYLE";
    public static final String REGION = "AWS_REGION";
    public static final String FUNCTION_NAME = "AWS_LAMBDA_FUNCTION_NAME";
    static final String DEFAULT_FUNCTION_NAME = "lambda-ingester";

    /** Reads the configuration; {@link ConfigurationException} names the first bad variable. */
    public static IngesterConfig fromEnvironment(Map<String, String> env) {
        String topic = optional(env, REPORT_TOPIC_ARN);
        if (topic != null && !topic.startsWith("arn:")) {
            throw new ConfigurationException(REPORT_TOPIC_ARN + " must be an SNS topic ARN (arn:aws:sns:...), not \""
                    + topic + "\".");
        }
        String storage = optional(env, STORAGE_URL);
        if (storage != null && !storage.matches("s3://[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]/?")) {
            throw new ConfigurationException(STORAGE_URL + " must be s3://<bucket>, not \"" + storage + "\".");
        }
        String pathStyle = optional(env, S3_PATH_STYLE);
        boolean s3PathStyle;
        if (pathStyle == null) {
            s3PathStyle = optional(env, "AWS_ENDPOINT_URL") != null || optional(env, "AWS_ENDPOINT_URL_S3") != null;
        } else if (pathStyle.equalsIgnoreCase("true") || pathStyle.equalsIgnoreCase("false")) {
            s3PathStyle = Boolean.parseBoolean(pathStyle.toLowerCase(Locale.ROOT));
        } else {
            throw new ConfigurationException(S3_PATH_STYLE + " must be true or false, not \"" + pathStyle + "\".");
        }
        String function = optional(env, FUNCTION_NAME);
        return new IngesterConfig(
                required(env, DYNAMODB_TABLE, "the name of the records table"),
                optional(env, LATEST_TABLE),
                topic,
                url(env, DLQ_URL),
                storage,
                positive(env, MAX_BUCKET_SPAN, TimeBuckets.DEFAULT_MAX_SPAN),
                retention(env),
                required(env, REGION, "the AWS region, e.g. us-east-1"),
                s3PathStyle,
                function == null ? DEFAULT_FUNCTION_NAME : function);
    }

    private static String optional(Map<String, String> env, String name) {
        String value = env.get(name);
        return value == null || value.isBlank() ? null : value.strip();
    }

    private static String required(Map<String, String> env, String name, String what) {
        String value = optional(env, name);
        if (value == null) {
            throw new ConfigurationException(name + " is not set; set it to " + what + ".");
        }
        return value;
    }

    private static String url(Map<String, String> env, String name) {
        String value = required(env, name, "the URL of the ingest dead-letter queue");
        try {
            URI uri = new URI(value);
            if (("https".equals(uri.getScheme()) || "http".equals(uri.getScheme())) && uri.getHost() != null) {
                return value;
            }
        } catch (URISyntaxException e) {
            // falls through to the one sentence below
        }
        throw new ConfigurationException(name + " must be an SQS queue URL (https://sqs.<region>.amazonaws.com/<account>/<queue>), not \""
                + value + "\".");
    }

    /** 0 means "keep forever", as template.yaml's RetentionDays parameter says. */
    private static Integer retention(Map<String, String> env) {
        if ("0".equals(optional(env, RETENTION_DAYS))) {
            return null;
        }
        return optionalPositive(env, RETENTION_DAYS);
    }

    private static int positive(Map<String, String> env, String name, int fallback) {
        Integer value = optionalPositive(env, name);
        return value == null ? fallback : value;
    }

    private static Integer optionalPositive(Map<String, String> env, String name) {
        String value = optional(env, name);
        if (value == null) {
            return null;
        }
        try {
            int parsed = Integer.parseInt(value);
            if (parsed >= 1) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // falls through to the one sentence below
        }
        throw new ConfigurationException(name + " must be a whole number of at least 1, not \"" + value + "\".");
    }
}
