package datalake.ingester;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.BatchResultErrorEntry;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;

/**
 * {@link DeadLetterQueue} on SQS: the original body, unchanged, with the reason as message
 * attributes {@code error_kind}, {@code error_message} and {@code source_message_id};
 * SendMessageBatch, up to 10 messages and 256 KiB a call.
 */
record SqsDeadLetterQueue(SqsClient sqs, String queueUrl) implements DeadLetterQueue {
    /** Attribute names and values of a message count towards SQS's size limit too; keep the reason short. */
    static final int MAX_REASON = 1000;
    private static final int ATTRIBUTE_BYTES = 200;

    @Override
    public Map<String, String> send(List<DeadLetter> letters) {
        Map<String, String> failed = new LinkedHashMap<>();
        for (List<DeadLetter> batch : Batches.of(letters, Batches.MAX_ENTRIES, Batches.MAX_BYTES,
                SqsDeadLetterQueue::bytes)) {
            List<SendMessageBatchRequestEntry> entries = new ArrayList<>(batch.size());
            for (int i = 0; i < batch.size(); i++) {
                entries.add(entry(Integer.toString(i), batch.get(i)));
            }
            try {
                SendMessageBatchResponse response = sqs.sendMessageBatch(r -> r.queueUrl(queueUrl).entries(entries));
                if (response.hasFailed()) {
                    for (BatchResultErrorEntry error : response.failed()) {
                        DeadLetter letter = batch.get(Integer.parseInt(error.id()));
                        failed.put(letter.messageId(), "SQS refused the dead letter: " + error.code()
                                + (error.message() == null ? "" : " " + Failures.shorten(error.message())));
                    }
                }
            } catch (RuntimeException e) {
                String reason = Failures.classify(e, null).message();
                for (DeadLetter letter : batch) {
                    failed.put(letter.messageId(), reason);
                }
            }
        }
        return failed;
    }

    private static int bytes(DeadLetter letter) {
        return Batches.utf8Length(letter.body()) + ATTRIBUTE_BYTES + Math.min(MAX_REASON * 3,
                Batches.utf8Length(letter.failure().message()));
    }

    private static SendMessageBatchRequestEntry entry(String id, DeadLetter letter) {
        String reason = letter.failure().message();
        if (reason.length() > MAX_REASON) {
            reason = reason.substring(0, MAX_REASON);
        }
        Map<String, MessageAttributeValue> attributes = new LinkedHashMap<>();
        attributes.put("error_kind", string(letter.failure().kind().label()));
        attributes.put("error_message", string(reason));
        if (letter.messageId() != null) {
            attributes.put("source_message_id", string(letter.messageId()));
        }
        return SendMessageBatchRequestEntry.builder().id(id).messageBody(letter.body()).messageAttributes(attributes)
                .build();
    }

    private static MessageAttributeValue string(String value) {
        return MessageAttributeValue.builder().dataType("String").stringValue(value).build();
    }
}
