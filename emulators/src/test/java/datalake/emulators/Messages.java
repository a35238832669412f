package datalake.emulators;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;

/** Reads a queue until a wanted message arrives, as tests of asynchronous delivery must. */
final class Messages {
    private Messages() {}

    static Message awaitMessage(SqsClient sqs, String queueUrl, Predicate<String> wanted, Duration timeout) {
        List<String> seen = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            for (Message message : sqs.receiveMessage(r -> r.queueUrl(queueUrl).waitTimeSeconds(1)
                    .maxNumberOfMessages(10).messageAttributeNames("All")).messages()) {
                sqs.deleteMessage(r -> r.queueUrl(queueUrl).receiptHandle(message.receiptHandle()));
                if (wanted.test(message.body())) {
                    return message;
                }
                seen.add(message.body());
            }
        }
        throw new AssertionError("no wanted message on " + queueUrl + " within " + timeout + "; saw " + seen);
    }
}
