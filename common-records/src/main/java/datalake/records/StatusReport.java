package datalake.records;

import java.util.List;

/**
 * The outcome of ingesting one queue message, published to the report topic in the datalake
 * ingester's format: {@code {"status","start","duration","records":[...],"message"}}.
 *
 * @param start    when handling began, ms since the epoch
 * @param duration how long it took, in seconds
 * @param message  why it failed, or null on success
 */
public record StatusReport(Status status, long start, double duration, List<FileRecord> records, String message) {
    public StatusReport {
        records = List.copyOf(records);
    }

    public static StatusReport success(long start, double duration, List<FileRecord> records) {
        return new StatusReport(Status.SUCCESS, start, duration, records, null);
    }

    public static StatusReport error(long start, double duration, List<FileRecord> records, String message) {
        return new StatusReport(Status.ERROR, start, duration, records, message);
    }

    public enum Status {
        SUCCESS("success"), ERROR("error");

        private final String json;

        Status(String json) {
            this.json = json;
        }

        public String json() {
            return json;
        }

        public static Status fromJson(String text) {
            for (Status s : values()) {
                if (s.json.equals(text)) {
                    return s;
                }
            }
            throw new IllegalArgumentException("status must be \"success\" or \"error\".");
        }
    }

    /** One ingested file as the report lists it (once per file, not once per bucket). */
    public record FileRecord(String url, long size, long createTime, Metadata metadata) {
        public static FileRecord of(Record record) {
            return new FileRecord(record.url(), record.size(), record.createTime(), record.metadata());
        }
    }
}
