package datalake.lambda;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * The catalogue of the environment variables the functions read (the ingester, the query API, and the
 * backfill function S3 Batch Operations invokes): one name per setting, which functions read it, and
 * what it holds. template.yaml sets them (deploy-checks' TemplateTest holds the
 * template to this list), the local runner and the tests set the same names, and {@link Environment}
 * reads them. The AWS SDK's own settings ({@code AWS_ENDPOINT_URL*}, credentials) are not here: the
 * SDK reads those itself.
 */
public enum EnvironmentVariable {
    DYNAMODB_TABLE("DATALAKE_DYNAMODB_TABLE", Readers.ALL, true, "the name of the records table"),
    LATEST_TABLE("DATALAKE_LATEST_TABLE", Readers.ALL, false, "the name of the latest table"),
    REPORT_TOPIC_ARN("DATALAKE_REPORT_TOPIC_ARN", Readers.INGESTER, false,
            "the ARN of the SNS topic that receives status reports"),
    DLQ_URL("DATALAKE_DLQ_URL", Readers.INGESTER, true, "the URL of the ingest dead-letter queue"),
    STORAGE_URL("DATALAKE_STORAGE_URL", Readers.ALL, false, "s3://<bucket>, where the files are"),
    MAX_BUCKET_SPAN("DATALAKE_MAX_BUCKET_SPAN", Readers.INDEXING, false,
            "the most day buckets one file may span (30)"),
    RETENTION_DAYS("DATALAKE_RETENTION_DAYS", Readers.INDEXING, false,
            "days a record is kept after its file's end, for DynamoDB TTL (0: forever)"),
    MAX_RECEIVE_COUNT("DATALAKE_MAX_RECEIVE_COUNT", Readers.INGESTER, false,
            "the ingest queue's maxReceiveCount: a message failing on that receive is dead-lettered with its reason"),
    INGEST_BATCH_SIZE("DATALAKE_INGEST_BATCH_SIZE", Readers.INGESTER, false,
            "the ingest trigger's batch size: the objects of a batch followed at once (8 to 64)"),
    HTTP_URL("DATALAKE_HTTP_URL", Readers.QUERY, false,
            "the API's public base URL for next and http_url links"),
    S3_PATH_STYLE("DATALAKE_S3_PATH_STYLE", Readers.ALL, false,
            "true for path-style S3 URLs (emulators); default: true exactly when an S3 endpoint is overridden"),
    REGION("AWS_REGION", Readers.ALL, true, "the AWS region, e.g. us-east-1 (Lambda sets it)"),
    FUNCTION_NAME("AWS_LAMBDA_FUNCTION_NAME", Readers.ALL, false,
            "the function's name, the Function dimension of its metrics (Lambda sets it)");

    /** The functions that read variables. */
    public enum Reader {
        /** The SQS-triggered ingester. */
        INGESTER,
        /** The query API. */
        QUERY,
        /** The backfill function S3 Batch Operations invokes (the ingester's code path, without a queue). */
        BACKFILL
    }

    /** Who reads a variable (a nested class: an enum's constants cannot use its own static fields). */
    private static final class Readers {
        static final Set<Reader> ALL = Collections.unmodifiableSet(EnumSet.allOf(Reader.class));
        static final Set<Reader> INDEXING = Collections.unmodifiableSet(EnumSet.of(Reader.INGESTER, Reader.BACKFILL));
        static final Set<Reader> INGESTER = Collections.unmodifiableSet(EnumSet.of(Reader.INGESTER));
        static final Set<Reader> QUERY = Collections.unmodifiableSet(EnumSet.of(Reader.QUERY));
    }

    private final String key;
    @SuppressWarnings("ImmutableEnumChecker") // private, one of the unmodifiable sets above, never written
    private final Set<Reader> readers;
    private final boolean required;
    private final String meaning;

    EnvironmentVariable(String key, Set<Reader> readers, boolean required, String meaning) {
        this.key = key;
        this.readers = readers;
        this.required = required;
        this.meaning = meaning;
    }

    /** The variable's name, e.g. {@code DATALAKE_DYNAMODB_TABLE}. */
    public String key() {
        return key;
    }

    /** Required by every function that reads it. */
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

    /** The variables {@code function} reads. */
    public static Set<EnvironmentVariable> readBy(Reader function) {
        Set<EnvironmentVariable> read = EnumSet.noneOf(EnvironmentVariable.class);
        for (EnvironmentVariable variable : values()) {
            if (variable.readers.contains(function)) {
                read.add(variable);
            }
        }
        return read;
    }
}
