package datalake.ingester;

import static datalake.ingester.TestFiles.BUCKET;
import static datalake.ingester.TestFiles.DAY;
import static datalake.ingester.TestFiles.START;
import static datalake.ingester.TestFiles.message;
import static datalake.ingester.TestFiles.metadata;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import datalake.dynamodb.ObjectEntry;
import datalake.dynamodb.RecordKey;
import datalake.records.RecordFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The handler of a key's last change commits what it saw, even when the index already holds it so: a
 * removal event that found the object and committed nothing would leave no observation, and a concurrent
 * handler's earlier observation of the key as absent would commit after it and win (ba5e74f, reverted).
 */
class RemovalOrderTest {
    private static final long MODIFIED = 1_715_679_064_000L;
    private static final String KEY = "2024/05/14/sensor-1.csv";
    private static final String URL = "s3://" + BUCKET + "/" + KEY;

    private final FakeClock clock = new FakeClock();
    private final Fakes.Objects objects = new Fakes.Objects();
    private final Fakes.Records records = new Fakes.Records(true);
    private final Fakes.Reports reports = new Fakes.Reports();
    private final List<Ingester> started = new ArrayList<>();

    @AfterEach
    void stop() {
        started.forEach(Ingester::close);
    }

    private Ingester ingester(ObjectIndex index) {
        Ingester ingester = Ingester.builder().recordFactory(new RecordFactory()).objects(objects).records(records)
                .index(index).latest(records).reports(reports).deadLetters(new Fakes.DeadLetters())
                .telemetry(new Fakes.Lines().telemetry(clock)).clock(clock).concurrency(2).build();
        started.add(ingester);
        return ingester;
    }

    private SQSBatchResponse handle(Ingester ingester, String id, String body) {
        clock.advance(Duration.ofMillis(5));
        return ingester.handle(List.of(message(id, body)), Deadline.after(clock, Duration.ofSeconds(30)), null);
    }

    @Test
    void aDeleteMarkerRemovedWhileTheMarkersHandlerIsInFlightLeavesTheObjectIndexed() {
        // given (versioned bucket) v1 indexed by its put's handler
        String v1 = metadata("f1", START, START + DAY);
        objects.put(BUCKET, KEY, v1, MODIFIED, 10);
        assertEquals(List.of(), ids(handle(ingester(records), "put",
                TestFiles.s3Event("ObjectCreated:Put", BUCKET, KEY, "01"))));
        assertEquals(2, records.recordsOf(URL).size());

        // when the user deletes the key (a delete marker: event 02), and its handler HEADs (404) and, before
        // its commit, the user deletes the marker (v1 current again: event 03), whose handler runs in full
        objects.stored.clear();
        Ingester undeleter = ingester(records);
        AtomicBoolean raced = new AtomicBoolean();
        ObjectIndex slowCommit = new ObjectIndex() {
            @Override
            public Commit commit(ObjectEntry entry) {
                if (raced.compareAndSet(false, true)) {
                    objects.put(BUCKET, KEY, v1, MODIFIED, 10);
                    assertEquals(List.of(), ids(handle(undeleter, "undelete",
                            TestFiles.s3Event("ObjectRemoved:Delete", BUCKET, KEY, "03"))));
                }
                return records.commit(entry);
            }

            @Override
            public Map<String, ObjectEntry> read(Collection<String> urls) {
                return records.read(urls);
            }

            @Override
            public int removeRecords(String url, Collection<RecordKey> keys) {
                return records.removeRecords(url, keys);
            }

            @Override
            public void clearStale(String url, String commitId) {
                records.clearStale(url, commitId);
            }
        };
        SQSBatchResponse marker = handle(ingester(slowCommit), "marker",
                TestFiles.s3Event("ObjectRemoved:DeleteMarkerCreated", BUCKET, KEY, "02"));

        // then the index is the bucket's: v1 and its records (both messages succeeded, nothing comes again)
        assertTrue(raced.get());
        assertEquals(List.of(), ids(marker));
        assertEquals(ObjectEntry.State.INDEXED, records.objects.get(URL).state(), "the index lost v1");
        assertEquals(2, records.recordsOf(URL).size());
    }

    private static List<String> ids(SQSBatchResponse response) {
        return response.getBatchItemFailures().stream().map(SQSBatchResponse.BatchItemFailure::getItemIdentifier).toList();
    }
}
