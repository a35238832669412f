package datalake.emulators;

import java.util.Locale;
import java.util.Objects;
import java.util.UUID;

/**
 * The names of the datalake resources a {@link Deployment} creates. {@link #defaults()} are the local runner's names
 * (docs/DESIGN.md, "Running it locally"); test classes share one set of emulators, so each takes its own
 * names with {@link #withSuffix(String)} or {@link #unique(String)}.
 *
 * @param region the AWS region the clients and ARNs use
 * @param bucket the data-lake bucket
 * @param ingestQueue the SQS queue the ingester reads
 * @param deadLetterQueue the ingest queue's dead-letter queue
 * @param uploadTopic the SNS topic S3 notifies when notifications go through SNS
 * @param reportTopic the SNS topic the ingester publishes status reports to
 * @param reportInspectionQueue an SQS queue subscribed to the report topic, so tests can read reports
 * @param recordsTable the DynamoDB records table
 * @param latestTable the DynamoDB latest table
 */
public record ResourceNames(
        String region,
        String bucket,
        String ingestQueue,
        String deadLetterQueue,
        String uploadTopic,
        String reportTopic,
        String reportInspectionQueue,
        String recordsTable,
        String latestTable) {

    /** Suffixes are cut to this length so the bucket name stays within S3's 63 characters. */
    static final int MAX_SUFFIX_LENGTH = 40;

    public ResourceNames {
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(ingestQueue, "ingestQueue");
        Objects.requireNonNull(deadLetterQueue, "deadLetterQueue");
        Objects.requireNonNull(uploadTopic, "uploadTopic");
        Objects.requireNonNull(reportTopic, "reportTopic");
        Objects.requireNonNull(reportInspectionQueue, "reportInspectionQueue");
        Objects.requireNonNull(recordsTable, "recordsTable");
        Objects.requireNonNull(latestTable, "latestTable");
    }

    /** The local names of docs/DESIGN.md: bucket datalake-local, queue datalake-ingest, tables datalake-records, … */
    public static ResourceNames defaults() {
        return new ResourceNames(
                "us-east-1",
                "datalake-local",
                "datalake-ingest",
                "datalake-ingest-dlq",
                "datalake-uploads",
                "datalake-reports",
                "datalake-reports-inspection",
                "datalake-records",
                "datalake-latest");
    }

    /**
     * The default names, each followed by {@code -<hint>-<random>}: distinct for every call, so test
     * classes (and repeated runs against one emulator) never collide.
     */
    public static ResourceNames unique(String hint) {
        String random = UUID.randomUUID().toString().substring(0, 8);
        String cleanHint = sanitize(hint);
        int room = MAX_SUFFIX_LENGTH - random.length() - 1;
        if (cleanHint.length() > room) {
            cleanHint = cleanHint.substring(0, room);
        }
        return defaults().withSuffix(cleanHint.isEmpty() ? random : cleanHint + "-" + random);
    }

    /**
     * These names, each followed by {@code -<suffix>}. The suffix is lower-cased, characters that S3,
     * SQS, SNS or DynamoDB would reject become {@code -}, and it is cut to 40 characters.
     */
    public ResourceNames withSuffix(String suffix) {
        String s = sanitize(suffix);
        if (s.length() > MAX_SUFFIX_LENGTH) {
            s = sanitize(s.substring(0, MAX_SUFFIX_LENGTH));
        }
        if (s.isEmpty()) {
            throw new IllegalArgumentException("the suffix \"" + suffix + "\" has no letter or digit; give one that does.");
        }
        String tail = "-" + s;
        return new ResourceNames(
                region,
                bucket + tail,
                ingestQueue + tail,
                deadLetterQueue + tail,
                uploadTopic + tail,
                reportTopic + tail,
                reportInspectionQueue + tail,
                recordsTable + tail,
                latestTable + tail);
    }

    /** {@code s3://<bucket>}, the value of DATALAKE_STORAGE_URL. */
    public String storageUrl() {
        return "s3://" + bucket;
    }

    /** Lower case, [a-z0-9-] only, no leading/trailing/double dashes: valid in every service's names. */
    static String sanitize(String raw) {
        String lower = raw.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
        return lower.replaceAll("^-+|-+$", "");
    }
}
