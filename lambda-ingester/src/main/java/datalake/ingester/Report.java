package datalake.ingester;

import datalake.records.StatusReport;

/**
 * The status report of one queue message, with what its SNS message attributes need.
 *
 * @param messageId the SQS message it reports on (for logs)
 * @param what      the files' {@code what}, for the attribute of the same name, or null when unknown
 */
public record Report(String messageId, StatusReport report, String what) {
}
