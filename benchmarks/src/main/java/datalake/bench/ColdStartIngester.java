package datalake.bench;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import datalake.ingester.IngesterHandler;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The child JVM of {@link ColdStartBenchmark} for the ingester: its class path is the deployable jar
 * plus this class. Prints {@code ready} once the handler's no-argument constructor returns (what Lambda
 * runs at init), {@code responded} after the first invocation, then the process's peak RSS.
 * The parent times the lines; this class measures nothing itself, so it loads nothing extra.
 */
public final class ColdStartIngester {
    private ColdStartIngester() {
    }

    /**
     * Builds the handler, invokes it once, and prints the lines the parent times.
     *
     * @param args the file holding one SQS message body
     */
    public static void main(String[] args) throws Exception {
        IngesterHandler handler = new IngesterHandler();
        ColdStartOutput.line("ready");
        SQSEvent.SQSMessage message = new SQSEvent.SQSMessage();
        message.setMessageId("cold-0");
        message.setBody(Files.readString(Path.of(args[0])));
        message.setEventSource("aws:sqs");
        SQSEvent event = new SQSEvent();
        event.setRecords(List.of(message));
        SQSBatchResponse response = handler.handleRequest(event, null);
        ColdStartOutput.line("responded failures=" + response.getBatchItemFailures().size());
        ColdStartOutput.peakRss();
    }
}
