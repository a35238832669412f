package datalake.ingester;

import datalake.records.StatusReport;

/**
 * The status report of one queue message, with what its SNS message attributes need.
 *
 * @param messageId the SQS message it reports on (for logs)
 * @param what      the files' {@code what}, for the attribute of the same name, or null when unknown
 * @param action    what the message did to the index, for the body and the attribute {@code action}, or
 *                  null when it named no object
 */
record Report(String messageId, StatusReport report, String what, Action action) {
    public Report(String messageId, StatusReport report, String what) {
        this(messageId, report, what, null);
    }

    /** What a message did: indexed its objects as they are, or removed them from the index. */
    public enum Action {
        INDEX("index"), REMOVE("remove");

        private final String json;

        Action(String json) {
            this.json = json;
        }

        public String json() {
            return json;
        }
    }
}
