package datalake.ingester;

import java.util.List;
import java.util.Map;

/** Publishes status reports (DATALAKE_REPORT_TOPIC_ARN). */
interface ReportPublisher {
    /** For a deployment without a report topic: publishes nothing, fails nothing. */
    ReportPublisher NONE = reports -> Map.of();

    /**
     * Publishes the reports. Never throws: returns why each report that could not be published
     * failed, by message id (empty when all were published).
     */
    Map<String, String> publish(List<Report> reports);
}
