package datalake.ingester;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs in a child JVM whose class path is the deployable jar alone (plus this class): builds the
 * handler as Lambda does, with the no-argument constructor from the environment, hands it one
 * batch read from files, and prints the ids it answered as failures. Uses nothing from the tests.
 */
public final class ShadedJarMain {
    private ShadedJarMain() {
    }

    /** @param args files, each holding one message body; the message ids are m0, m1, ... */
    public static void main(String[] args) throws Exception {
        IngesterHandler handler = new IngesterHandler();
        List<SQSEvent.SQSMessage> messages = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            SQSEvent.SQSMessage message = new SQSEvent.SQSMessage();
            message.setMessageId("m" + i);
            message.setBody(Files.readString(Path.of(args[i])));
            message.setEventSource("aws:sqs");
            messages.add(message);
        }
        SQSEvent event = new SQSEvent();
        event.setRecords(messages);
        SQSBatchResponse response = handler.handleRequest(event, null);
        StringBuilder failed = new StringBuilder("failed:");
        response.getBatchItemFailures().forEach(f -> failed.append(' ').append(f.getItemIdentifier()));
        System.out.println(failed);
    }
}
