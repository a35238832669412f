package datalake.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.dynamodb.ObjectEntry;
import datalake.dynamodb.RecordItems;
import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import datalake.records.MetadataParser;
import datalake.records.Record;
import datalake.records.RecordFactory;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;

/**
 * The reconciliation against moto and DynamoDB Local: on a backfilled bucket with drift of each kind
 * planted (an object nobody indexed, an object deleted behind the index's back, an overwrite with other
 * metadata, a record edited in the table, an object that lost its metadata, a record of an object's URL
 * that its per-object item does not know, a record written before per-object items (of an object still
 * there, and of one gone), a latest entry naming a file that never was), it finds exactly the planted drift,
 * and after {@code --fix} it finds none.
 */
@ExtendWith(EmulatorsExtension.class)
class ReconcileIT {
    private static final Emulators AWS = Emulators.shared();
    private static final long START = ToolsHarness.START;

    private static Reconcile reconcile(ToolsHarness h) {
        return ReconcileCommand.of(h.tools(), 8);
    }

    private static Set<String> findings(Reconcile.Result result) {
        Set<String> found = new TreeSet<>();
        result.findings().forEach(f -> found.add(f.drift().label + " " + f.url()));
        return found;
    }

    @Test
    void plantedDriftOfEachKindIsFoundExactlyAndFixLeavesNone() throws Exception {
        try (ToolsHarness h = new ToolsHarness(AWS, "reconcile")) {
            // given a bucket backfilled into a clean index
            Map<String, String> objects = new LinkedHashMap<>();
            for (String name : List.of("a", "c", "d", "e", "f")) {
                objects.put("logs/" + name + ".log", ToolsHarness.metadata("host-" + name, name, START));
            }
            objects.put("logs/b.log", ToolsHarness.metadata("shared", "b", START));
            objects.put("logs/k.log", ToolsHarness.metadata("shared", "k", START + 1000));
            objects.put("logs/readme.txt", null);
            h.putAll(objects);
            Target target = Target.parse("s3://" + h.bucket + "/logs/");
            new Backfill(h.operator.s3(), h.ingester, Clock.systemUTC()).run(new Backfill.Options(target, null, 1000, 2, 10),
                    () -> false);
            assertEquals(Set.of(), findings(reconcile(h).run(target, false)), "a backfilled bucket has no drift");

            // when drift of each kind is planted
            h.put("logs/missing.log", ToolsHarness.metadata("host-m", "missing", START));            // missing
            AWS.s3().deleteObject(r -> r.bucket(h.bucket).key("logs/b.log"));                       // orphaned
            h.put("logs/c.log", ToolsHarness.metadata("host-c", "c2", START + 86_400_000L));         // differing
            AWS.dynamoDb().updateItem(r -> r.tableName(h.recordsTable)                                // differing
                    .key(Map.of(RecordItems.TIME_INDEX_KEY, AttributeValue.fromS("16514:syslog"),
                            RecordItems.RANGE_KEY, AttributeValue.fromS("host-d:d")))
                    .updateExpression("SET #size = :size")
                    .expressionAttributeNames(Map.of("#size", RecordItems.SIZE))
                    .expressionAttributeValues(Map.of(":size", AttributeValue.fromN("999"))));
            h.put("logs/e.log", null);                                                              // differing
            h.put("logs/legacy.log", ToolsHarness.metadata("host-l", "legacy", START));              // untracked
            HeadObjectResponse legacy = AWS.s3().headObject(r -> r.bucket(h.bucket).key("logs/legacy.log"));
            Record legacyRecord = new RecordFactory().records(MetadataParser.parse(
                    ToolsHarness.metadata("host-l", "legacy", START)), h.url("logs/legacy.log"),
                    legacy.lastModified().toEpochMilli(), legacy.contentLength()).get(0);
            AWS.dynamoDb().putItem(r -> r.tableName(h.recordsTable).item(RecordItems.toItem(legacyRecord)));
            Record extra = new RecordFactory().records(MetadataParser.parse(                         // differing
                    ToolsHarness.metadata("host-f", "f-extra", START)), h.url("logs/f.log"), 1L, 1L).get(0);
            AWS.dynamoDb().putItem(r -> r.tableName(h.recordsTable).item(RecordItems.toItem(extra)));
            Record old = new RecordFactory().records(MetadataParser.parse(                           // orphaned
                    ToolsHarness.metadata("host-o", "old", START)), h.url("logs/old.log"), 1L, 1L).get(0);
            AWS.dynamoDb().putItem(r -> r.tableName(h.recordsTable).item(RecordItems.toItem(old)));
            Record ghost = new RecordFactory().records(MetadataParser.parse(                         // stale latest
                    ToolsHarness.metadata("host-g", "ghost", START)), h.url("logs/ghost.log"), 1L, 1L).get(0);
            AWS.dynamoDb().putItem(r -> r.tableName(h.latestTable).item(RecordItems.toLatestItem(ghost)));

            // then the reconciliation finds exactly that
            Reconcile.Result found = reconcile(h).run(target, false);
            assertEquals(new TreeSet<>(Set.of(
                    "missing " + h.url("logs/missing.log"),
                    "orphaned " + h.url("logs/b.log"),
                    "orphaned " + h.url("logs/old.log"),
                    "differing " + h.url("logs/c.log"),
                    "differing " + h.url("logs/d.log"),
                    "differing " + h.url("logs/e.log"),
                    "differing " + h.url("logs/f.log"),
                    "untracked " + h.url("logs/legacy.log"),
                    "stale_latest " + h.url("logs/ghost.log"))), findings(found));
            assertEquals("missing=1 orphaned=2 differing=4 untracked=1 stale_latest=1", found.countsLine());

            // when it fixes them
            Reconcile.Result fixing = reconcile(h).run(target, true);
            assertEquals(9, fixing.fixed());
            assertEquals(List.of(), fixing.unfixed());

            // then none is left, and the index is the bucket's
            assertEquals(Set.of(), findings(reconcile(h).run(target, false)));
            Map<String, String> ids = new LinkedHashMap<>();
            h.records().forEach(r -> ids.put(r.url().substring(h.url("logs/").length()), r.metadata().id()));
            assertEquals(Map.of("a.log", "a", "c.log", "c2", "d.log", "d", "f.log", "f", "k.log", "k",
                    "missing.log", "missing", "legacy.log", "legacy"), ids);
            assertTrue(h.entries().stream().anyMatch(e -> e.url().equals(h.url("logs/legacy.log"))
                    && e.state() == ObjectEntry.State.INDEXED));
            assertEquals(0, AWS.dynamoDb().scan(r -> r.tableName(h.latestTable)).items().stream()
                    .filter(i -> i.get(RecordItems.URL).s().endsWith("ghost.log")).count());
        }
    }

    @Test
    void theOutputEndsWithTheCounts() {
        Reconcile.Result result = new Reconcile.Result(List.of(
                new Reconcile.Finding(Reconcile.Drift.MISSING, "s3://bkt/x", "not in the index (1 record(s) expected)")),
                10, 0, 0, List.of(), java.time.Duration.ofMillis(1500));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        ReconcileCommand.print(result, Target.parse("s3://bkt/"), false, new PrintStream(bytes, true, StandardCharsets.UTF_8));

        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals("missing      s3://bkt/x  not in the index (1 record(s) expected)", lines.get(0));
        assertEquals("missing=1 orphaned=0 differing=0 untracked=0 stale_latest=0", lines.get(lines.size() - 1));
    }
}
