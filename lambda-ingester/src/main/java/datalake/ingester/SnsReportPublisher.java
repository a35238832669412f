package datalake.ingester;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sns.model.BatchResultErrorEntry;
import software.amazon.awssdk.services.sns.model.MessageAttributeValue;
import software.amazon.awssdk.services.sns.model.PublishBatchRequestEntry;
import software.amazon.awssdk.services.sns.model.PublishBatchResponse;

/**
 * {@link ReportPublisher} on an SNS topic: PublishBatch, up to 10 reports a call, each a JSON
 * status report ({@link ReportJson}) with the message attributes {@code status} and, when known,
 * {@code action} and {@code what}, so that subscribers can filter.
 */
record SnsReportPublisher(SnsClient sns, String topicArn) implements ReportPublisher {
    private static final int ATTRIBUTE_BYTES = 64;

    @Override
    public Map<String, String> publish(List<Report> reports) {
        Map<String, String> failed = new LinkedHashMap<>();
        List<Entry> entries = new ArrayList<>(reports.size());
        for (Report report : reports) {
            entries.add(new Entry(report, ReportJson.toJson(report)));
        }
        for (List<Entry> batch : Batches.of(entries, Batches.MAX_ENTRIES, Batches.MAX_BYTES, Entry::bytes)) {
            List<PublishBatchRequestEntry> requests = new ArrayList<>(batch.size());
            for (int i = 0; i < batch.size(); i++) {
                requests.add(batch.get(i).request(Integer.toString(i)));
            }
            try {
                PublishBatchResponse response = sns.publishBatch(r -> r.topicArn(topicArn).publishBatchRequestEntries(requests));
                if (response.hasFailed()) {
                    for (BatchResultErrorEntry error : response.failed()) {
                        Report report = batch.get(Integer.parseInt(error.id())).report();
                        failed.put(report.messageId(), "SNS refused the report: " + error.code()
                                + (error.message() == null ? "" : " " + Failures.shorten(error.message())));
                    }
                }
            } catch (RuntimeException e) {
                String reason = Failures.classify(e, null).message();
                for (Entry entry : batch) {
                    failed.put(entry.report().messageId(), reason);
                }
            }
        }
        return failed;
    }

    private record Entry(Report report, String json) {
        int bytes() {
            return Batches.utf8Length(json) + ATTRIBUTE_BYTES + Batches.utf8Length(report.what());
        }

        PublishBatchRequestEntry request(String id) {
            Map<String, MessageAttributeValue> attributes = new LinkedHashMap<>();
            attributes.put("status", string(report.report().status().json()));
            if (report.action() != null) {
                attributes.put("action", string(report.action().json()));
            }
            if (report.what() != null) {
                attributes.put("what", string(report.what()));
            }
            return PublishBatchRequestEntry.builder().id(id).message(json).messageAttributes(attributes).build();
        }

        private static MessageAttributeValue string(String value) {
            return MessageAttributeValue.builder().dataType("String").stringValue(value).build();
        }
    }
}
