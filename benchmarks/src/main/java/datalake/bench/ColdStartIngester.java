package datalake.bench;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import datalake.ingester.IngesterConfig;
import datalake.ingester.IngesterHandler;
import datalake.ingester.IngesterPriming;
import datalake.lambda.Environment;
import datalake.lambda.SnapshotPriming;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import software.amazon.awssdk.regions.Region;

/**
 * The child JVM of {@link ColdStartBenchmark} for the ingester: its class path is the deployable jar
 * plus this class. Prints {@code ready} once the handler's no-argument constructor returns (what Lambda
 * runs at init), {@code primed} after the SnapStart priming when asked for it, {@code responded} after
 * the first invocation, then the process's peak RSS.
 * The parent times the lines; this class measures nothing itself, so it loads nothing extra.
 */
public final class ColdStartIngester {
    private ColdStartIngester() {
    }

    /**
     * Builds the handler, invokes it once, and prints the lines the parent times.
     *
     * @param args the file holding one SQS message body, then {@code primed} to run the priming first
     */
    public static void main(String[] args) throws Exception {
        IngesterHandler handler = new IngesterHandler();
        ColdStartOutput.line("ready");
        if (args.length > 1 && args[1].equals("primed")) {
            // What the snapshot hook runs, called directly: a JVM without CRaC never calls the hook.
            IngesterConfig config = IngesterConfig.from(Environment.system());
            int calls = SnapshotPriming.prime(IngesterPriming.of(config), Region.of(config.region()));
            ColdStartOutput.line("primed calls=" + calls);
        }
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
