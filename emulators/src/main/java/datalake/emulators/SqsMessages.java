package datalake.emulators;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;

/** Messages received from SQS as Lambda's SQS event source hands them to a function. */
public final class SqsMessages {
    private SqsMessages() {
    }

    /**
     * The record Lambda would build for a message received with all system and message attributes
     * ({@code ApproximateReceiveCount} and friends included).
     */
    public static SQSEvent.SQSMessage toLambda(Message message, String queueArn, String region) {
        SQSEvent.SQSMessage out = new SQSEvent.SQSMessage();
        out.setMessageId(message.messageId());
        out.setReceiptHandle(message.receiptHandle());
        out.setBody(message.body());
        out.setMd5OfBody(message.md5OfBody());
        out.setMd5OfMessageAttributes(message.md5OfMessageAttributes());
        out.setEventSource("aws:sqs");
        out.setEventSourceArn(queueArn);
        out.setAwsRegion(region);
        Map<String, String> attributes = new HashMap<>();
        message.attributes().forEach((k, v) -> attributes.put(k.toString(), v));
        out.setAttributes(attributes);
        Map<String, SQSEvent.MessageAttribute> messageAttributes = new HashMap<>();
        for (Map.Entry<String, MessageAttributeValue> e : message.messageAttributes().entrySet()) {
            SQSEvent.MessageAttribute a = new SQSEvent.MessageAttribute();
            a.setDataType(e.getValue().dataType());
            a.setStringValue(e.getValue().stringValue());
            messageAttributes.put(e.getKey(), a);
        }
        out.setMessageAttributes(messageAttributes);
        return out;
    }

    /**
     * The ids of a batch that Lambda leaves on the queue once the handler has answered: with
     * ReportBatchItemFailures its {@code batchItemFailures}, the whole batch when one of them is empty or
     * not in the batch; without, none.
     */
    public static Set<String> toLeaveOnQueue(SQSBatchResponse response, Set<String> batch, boolean reportBatchItemFailures) {
        Set<String> failed = new HashSet<>();
        if (!reportBatchItemFailures || response == null || response.getBatchItemFailures() == null) {
            return failed;
        }
        for (SQSBatchResponse.BatchItemFailure f : response.getBatchItemFailures()) {
            String id = f.getItemIdentifier();
            if (id == null || !batch.contains(id)) {
                return batch;
            }
            failed.add(id);
        }
        return failed;
    }
}
