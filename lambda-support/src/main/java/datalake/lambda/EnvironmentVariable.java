package datalake.lambda;

import java.util.EnumSet;
import java.util.Set;

/**
 * The catalogue of the environment variables the two functions read: one name per setting, which
 * function reads it, and what it holds. template.yaml sets them (deploy-checks' TemplateTest holds the
 * template to this list), the local runner and the tests set the same names, and {@link Environment}
 * reads them. The AWS SDK's own settings ({@code AWS_ENDPOINT_URL*}, credentials) are not here: the
 * SDK reads those itself.
 */
public enum EnvironmentVariable {
    DYNAMODB_TABLE("DATALAKE_DYNAMODB_TABLE", Reader.BOTH, true, "the name of the records table"),
    LATEST_TABLE("DATALAKE_LATEST_TABLE", Reader.BOTH, false, "the name of the latest table"),
    REPORT_TOPIC_ARN("DATALAKE_REPORT_TOPIC_ARN", Reader.INGESTER, false,
            "the ARN of the SNS topic that receives status reports"),
    DLQ_URL("DATALAKE_DLQ_URL", Reader.INGESTER, true, "the URL of the ingest dead-letter queue"),
    STORAGE_URL("DATALAKE_STORAGE_URL", Reader.BOTH, false, "s3://<bucket>, where the files are"),
    MAX_BUCKET_SPAN("DATALAKE_MAX_BUCKET_SPAN", Reader.INGESTER, false,
            "the most day buckets one file may span (30)"),
    RETENTION_DAYS("DATALAKE_RETENTION_DAYS", Reader.INGESTER, false,
            "days a record is kept after its file's end, for DynamoDB TTL (0: forever)"),
    MAX_RECEIVE_COUNT("DATALAKE_MAX_RECEIVE_COUNT", Reader.INGESTER, false,
            "the ingest queue's maxReceiveCount: a message failing on that receive is dead-lettered with its reason"),
    HTTP_URL("DATALAKE_HTTP_URL", Reader.QUERY, false,
            "the API's public base URL for next and http_url links"),
    S3_PATH_STYLE("DATALAKE_S3_PATH_STYLE", Reader.BOTH, false,
            "true for path-style S3 URLs (emulators); default: true exactly when an S3 endpoint is overridden"),
    REGION("AWS_REGION", Reader.BOTH, true, "the AWS region, e.g. us-east-1 (Lambda sets it)"),
    FUNCTION_NAME("AWS_LAMBDA_FUNCTION_NAME", Reader.BOTH, false,
            "the function's name, the Function dimension of its metrics (Lambda sets it)");

    /** Which function reads a variable. */
    public enum Reader {
        INGESTER, QUERY, BOTH;

        boolean includes(Reader function) {
            return this == BOTH || this == function;
        }
    }

    private final String key;
    private final Reader reader;
    private final boolean required;
    private final String meaning;

    EnvironmentVariable(String key, Reader reader, boolean required, String meaning) {
        this.key = key;
        this.reader = reader;
        this.required = required;
        this.meaning = meaning;
    }

    /** The variable's name, e.g. {@code DATALAKE_DYNAMODB_TABLE}. */
    public String key() {
        return key;
    }

    public boolean required() {
        return required;
    }

    /** What the variable holds, as the sentence of a missing-variable error ends it. */
    public String meaning() {
        return meaning;
    }

    /** Whether Lambda itself sets it (the template must not). */
    public boolean setByLambda() {
        return key.startsWith("AWS_");
    }

    /** The variables {@code function} (INGESTER or QUERY) reads. */
    public static Set<EnvironmentVariable> readBy(Reader function) {
        Set<EnvironmentVariable> read = EnumSet.noneOf(EnvironmentVariable.class);
        for (EnvironmentVariable variable : values()) {
            if (variable.reader.includes(function)) {
                read.add(variable);
            }
        }
        return read;
    }
}
