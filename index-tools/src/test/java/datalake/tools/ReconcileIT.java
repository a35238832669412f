package datalake.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.dynamodb.ObjectEntry;
import datalake.dynamodb.RecordItems;
import datalake.dynamodb.RecordKey;
import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import datalake.ingester.Ingester;
import datalake.ingester.IngesterClients;
import datalake.ingester.StoredIndex;
import datalake.records.DatalakeJson;
import datalake.records.Metadata;
import datalake.records.MetadataParser;
import datalake.records.Record;
import datalake.records.RecordFactory;
import datalake.records.TimeBuckets;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;

/**
 * The reconciliation against moto and dynalite: on a backfilled bucket with drift of each kind
 * planted (an object nobody indexed, an object deleted behind the index's back, an overwrite with other
 * metadata, a record edited in the table, an object that lost its metadata, a record of an object's URL
 * that its per-object item does not know, a record written before per-object items (of an object still
 * there, and of one gone), a latest entry naming a file that never was, a feed's latest entry deleted), it
 * finds exactly the planted drift, and after {@code --fix} it finds none.
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
            // (and its feed has no latest entry: missing latest)
            Record extra = new RecordFactory().records(MetadataParser.parse(                         // differing
                    ToolsHarness.metadata("host-f", "f-extra", START)), h.url("logs/f.log"), 1L, 1L).get(0);
            AWS.dynamoDb().putItem(r -> r.tableName(h.recordsTable).item(RecordItems.toItem(extra)));
            Record old = new RecordFactory().records(MetadataParser.parse(                           // orphaned
                    ToolsHarness.metadata("host-o", "old", START)), h.url("logs/old.log"), 1L, 1L).get(0);
            AWS.dynamoDb().putItem(r -> r.tableName(h.recordsTable).item(RecordItems.toItem(old)));
            Record ghost = new RecordFactory().records(MetadataParser.parse(                         // stale latest
                    ToolsHarness.metadata("host-g", "ghost", START)), h.url("logs/ghost.log"), 1L, 1L).get(0);
            AWS.dynamoDb().putItem(r -> r.tableName(h.latestTable).item(RecordItems.toLatestItem(ghost)));
            h.put("logs/invalid.log", ToolsHarness.metadata("Not A Slug", "invalid", START));         // not drift

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
                    "stale_latest " + h.url("logs/ghost.log"),
                    "missing_latest " + h.url("logs/legacy.log"))), findings(found));
            assertEquals("missing=1 orphaned=2 differing=4 untracked=1 stale_latest=1 missing_latest=1",
                    found.countsLine());
            // and each differing finding names the fields that differ
            Map<String, String> details = new LinkedHashMap<>();
            found.findings().forEach(f -> details.put(f.url().substring(h.url("logs/").length()), f.detail()));
            long dSize = AWS.s3().headObject(r -> r.bucket(h.bucket).key("logs/d.log")).contentLength();
            assertEquals("differs in size (index 999, object " + dSize + ")", details.get("d.log"));
            assertTrue(details.get("c.log").startsWith("differs in id (index c, object c2), start (index " + START
                    + ", object " + (START + 86_400_000L) + "), path"), details.get("c.log"));
            assertTrue(details.get("c.log").endsWith("; records: index 1, object 1 (other day buckets)"), details.get("c.log"));
            assertTrue(details.get("f.log").startsWith("differs in id (index f-extra, object f), path, size (index 1,"),
                    details.get("f.log"));
            assertTrue(details.get("f.log").endsWith("; records: index 2, object 1"), details.get("f.log"));
            // and the object with invalid metadata is named, not counted as drift
            assertEquals(1, found.invalid());
            assertTrue(found.invalidObjects().get(0).startsWith(h.url("logs/invalid.log")
                    + ": invalid datalake metadata (metadata field 'where'"), found.invalidObjects().toString());

            // when it fixes them
            Reconcile.Result fixing = reconcile(h).run(target, true);
            assertEquals(10, fixing.repaired());
            assertEquals(List.of(), fixing.unfixed());
            // then its output ends with the drift left, none, after the drift it found
            assertEquals("missing=1 orphaned=2 differing=4 untracked=1 stale_latest=1 missing_latest=1",
                    fixing.foundLine());
            assertEquals("missing=0 orphaned=0 differing=0 untracked=0 stale_latest=0 missing_latest=0",
                    fixing.countsLine());

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
    void aFeedWithFilesButNoLatestEntryIsFoundAndFixOffersItsNewestFile() throws Exception {
        try (ToolsHarness h = new ToolsHarness(AWS, "reconcile-latest")) {
            // given two feeds backfilled, host-a of two files
            h.putAll(Map.of("logs/a1.log", ToolsHarness.metadata("host-a", "a1", START),
                    "logs/a2.log", ToolsHarness.metadata("host-a", "a2", START + 1000),
                    "logs/b.log", ToolsHarness.metadata("host-b", "b", START)));
            Target target = Target.parse("s3://" + h.bucket + "/logs/");
            new Backfill(h.operator.s3(), h.ingester, Clock.systemUTC()).run(new Backfill.Options(target, null, 1000, 2, 10),
                    () -> false);
            Map<String, AttributeValue> hostA = Map.of(RecordItems.WHAT_WHERE_KEY, AttributeValue.fromS("syslog:host-a"));
            assertEquals(h.url("logs/a2.log"), AWS.dynamoDb().getItem(r -> r.tableName(h.latestTable).key(hostA))
                    .item().get(RecordItems.URL).s());

            // when host-a's latest entry is deleted behind the index's back (/feeds and latest no longer show it)
            AWS.dynamoDb().deleteItem(r -> r.tableName(h.latestTable).key(hostA));

            // then the reconciliation finds that feed, naming its newest file
            Reconcile.Result found = reconcile(h).run(target, false);
            assertEquals(Set.of("missing_latest " + h.url("logs/a2.log")), findings(found));
            assertEquals("no latest entry for syslog:host-a, whose newest file this is", found.findings().get(0).detail());
            assertEquals("missing=0 orphaned=0 differing=0 untracked=0 stale_latest=0 missing_latest=1",
                    found.countsLine());

            // and --fix offers it again, as the ingester offers a file, so that a second run finds nothing
            Reconcile.Result fixing = reconcile(h).run(target, true);
            assertEquals(1, fixing.repaired());
            assertEquals(List.of(), fixing.unfixed());
            assertEquals(h.url("logs/a2.log"), AWS.dynamoDb().getItem(r -> r.tableName(h.latestTable).key(hostA)
                    .consistentRead(true)).item().get(RecordItems.URL).s());
            assertEquals(Set.of(), findings(reconcile(h).run(target, false)));
        }
    }

    @Test
    void aFeedsNewestRecordOfThePythonDatalakesFirstFormatIsTheEntryFixInstalls() throws Exception {
        try (ToolsHarness h = new ToolsHarness(AWS, "reconcile-python")) {
            // given a feed's file of ours, backfilled, and a newer record the Python datalake wrote in its
            // first format (no create_time, no size) of a file elsewhere in the bucket
            h.putAll(Map.of("logs/a1.log", ToolsHarness.metadata("host-a", "a1", START)));
            Target target = Target.parse("s3://" + h.bucket + "/logs/");
            new Backfill(h.operator.s3(), h.ingester, Clock.systemUTC()).run(new Backfill.Options(target, null, 1000, 2, 10),
                    () -> false);
            Map<String, AttributeValue> python = new HashMap<>(RecordItems.toItem(new RecordFactory().records(
                    MetadataParser.parse(ToolsHarness.metadata("host-a", "python", START + 1000)),
                    h.url("before/python.log"), 1L, 1L).get(0)));
            python.remove(RecordItems.CREATE_TIME);
            python.remove(RecordItems.SIZE);
            AWS.dynamoDb().putItem(r -> r.tableName(h.recordsTable).item(python));
            Map<String, AttributeValue> expected = new HashMap<>(python);
            expected.put(RecordItems.WHAT_WHERE_KEY, AttributeValue.fromS("syslog:host-a"));
            Map<String, AttributeValue> hostA = Map.of(RecordItems.WHAT_WHERE_KEY, AttributeValue.fromS("syslog:host-a"));

            // when its latest entry names a newer file that never was (stale latest), and --fix retires it
            Record ghost = new RecordFactory().records(MetadataParser.parse(
                    ToolsHarness.metadata("host-a", "ghost", START + 2000)), h.url("logs/ghost.log"), 1L, 1L).get(0);
            AWS.dynamoDb().putItem(r -> r.tableName(h.latestTable).item(RecordItems.toLatestItem(ghost)));
            assertEquals(Set.of("stale_latest " + h.url("logs/ghost.log")), findings(reconcile(h).run(target, false)));
            assertEquals(List.of(), reconcile(h).run(target, true).unfixed());

            // then the entry is the feed's newest record, the Python datalake's, as stored
            assertEquals(expected, new HashMap<>(AWS.dynamoDb().getItem(r -> r.tableName(h.latestTable).key(hostA)
                    .consistentRead(true)).item()), "the entry after a stale latest");

            // and when the entry is gone (missing latest), --fix restores the same, not the older file of ours
            AWS.dynamoDb().deleteItem(r -> r.tableName(h.latestTable).key(hostA));
            assertEquals(Set.of("missing_latest " + h.url("logs/a1.log")), findings(reconcile(h).run(target, false)));
            assertEquals(List.of(), reconcile(h).run(target, true).unfixed());
            assertEquals(expected, new HashMap<>(AWS.dynamoDb().getItem(r -> r.tableName(h.latestTable).key(hostA)
                    .consistentRead(true)).item()), "the entry after a missing latest");
            assertEquals(Set.of(), findings(reconcile(h).run(target, false)));
        }
    }

    @Test
    void aFeedsEntryRestoredUnderAPrefixIsTheFeedsNewestFileInTheBucket() throws Exception {
        try (ToolsHarness h = new ToolsHarness(AWS, "reconcile-prefix")) {
            // given a feed of two files under two prefixes, the newer under new/, backfilled
            h.putAll(Map.of("logs/old/a1.log", ToolsHarness.metadata("host-a", "a1", START),
                    "logs/new/a2.log", ToolsHarness.metadata("host-a", "a2", START + 1000)));
            new Backfill(h.operator.s3(), h.ingester, Clock.systemUTC()).run(new Backfill.Options(
                    Target.parse("s3://" + h.bucket + "/logs/"), null, 1000, 2, 10), () -> false);
            Map<String, AttributeValue> hostA = Map.of(RecordItems.WHAT_WHERE_KEY, AttributeValue.fromS("syslog:host-a"));
            AWS.dynamoDb().deleteItem(r -> r.tableName(h.latestTable).key(hostA));

            // when the reconciliation of the other prefix alone fixes the missing entry
            Target old = Target.parse("s3://" + h.bucket + "/logs/old/");
            assertEquals(Set.of("missing_latest " + h.url("logs/old/a1.log")), findings(reconcile(h).run(old, false)));
            assertEquals(1, reconcile(h).run(old, true).repaired());

            // then the entry is the feed's newest file, from the prefix the run did not read
            assertEquals(h.url("logs/new/a2.log"), AWS.dynamoDb().getItem(r -> r.tableName(h.latestTable).key(hostA)
                    .consistentRead(true)).item().get(RecordItems.URL).s());
            assertEquals(Set.of(), findings(reconcile(h).run(Target.parse("s3://" + h.bucket + "/logs/"), false)));
        }
    }

    @Test
    void aFeedsEntryRestoredOnAClockDaysBehindIsTheFeedsNewestFileAllTheSame() throws Exception {
        try (ToolsHarness h = new ToolsHarness(AWS, "reconcile-clock")) {
            // given a feed of a file of yesterday under old/ and a newer one of today under new/ (AWS's days:
            // dynalite's clock is this machine's), backfilled, and its latest entry deleted
            long now = System.currentTimeMillis();
            h.putAll(Map.of("logs/old/a1.log", ToolsHarness.metadata("host-a", "a1", now - TimeBuckets.DAY_MS),
                    "logs/new/a2.log", ToolsHarness.metadata("host-a", "a2", now - 60_000)));
            new Backfill(h.operator.s3(), h.ingester, Clock.systemUTC()).run(new Backfill.Options(
                    Target.parse("s3://" + h.bucket + "/logs/"), null, 1000, 2, 10), () -> false);
            Map<String, AttributeValue> hostA = Map.of(RecordItems.WHAT_WHERE_KEY, AttributeValue.fromS("syslog:host-a"));
            AWS.dynamoDb().deleteItem(r -> r.tableName(h.latestTable).key(hostA));

            // when old/ alone is reconciled with --fix on a workstation whose clock is three days behind
            IngesterClients clients = new IngesterClients(h.operator.s3(), h.operator.dynamoDb(), null, null);
            Reconcile behind = new Reconcile(h.operator.s3(), h.operator.dynamoDb(), h.config,
                    StoredIndex.forAws(h.config, clients), h.ingester,
                    Ingester.recordFactory(h.config, h.operator.dynamoDb()),
                    Clock.offset(Clock.systemUTC(), Duration.ofDays(-3)), 8);
            assertEquals(1, behind.run(Target.parse("s3://" + h.bucket + "/logs/old/"), true).repaired());

            // then the day buckets up to AWS's tomorrow decided: the entry is the feed's newest file
            assertEquals(h.url("logs/new/a2.log"), AWS.dynamoDb().getItem(r -> r.tableName(h.latestTable).key(hostA)
                    .consistentRead(true)).item().get(RecordItems.URL).s());
        }
    }

    @Test
    void aCopyHoldingAFilesRecordsIsNoDriftUntilItIsGone() throws Exception {
        try (ToolsHarness h = new ToolsHarness(AWS, "reconcile-copies")) {
            // given a file and a copy of it, both backfilled: S3 copies the metadata, so the copy has the same
            // id and the same record keys, and one of the two holds the records
            h.put("logs/a.log", ToolsHarness.metadata("host-a", "a", START));
            AWS.s3().copyObject(r -> r.sourceBucket(h.bucket).sourceKey("logs/a.log").destinationBucket(h.bucket)
                    .destinationKey("logs/copy-of-a.log"));
            Target target = Target.parse("s3://" + h.bucket + "/logs/");
            new Backfill(h.operator.s3(), h.ingester, Clock.systemUTC()).run(new Backfill.Options(target, null, 1000, 2, 10),
                    () -> false);
            String holder = h.records().get(0).url();
            String other = holder.equals(h.url("logs/a.log")) ? h.url("logs/copy-of-a.log") : h.url("logs/a.log");

            // then neither is drift, and --fix moves nothing from one to the other
            assertEquals(Set.of(), findings(reconcile(h).run(target, false)));
            assertEquals(0, reconcile(h).run(target, true).repaired());
            assertEquals(List.of(holder), h.records().stream().map(Record::url).toList());

            // when the holder is deleted behind the index's back
            AWS.s3().deleteObject(r -> r.bucket(h.bucket).key(holder.substring(h.url("").length())));

            // then its records are orphaned, the latest entry naming it stale, and the other file missing; and
            // --fix gives the records to the other
            assertEquals(new TreeSet<>(Set.of("orphaned " + holder, "stale_latest " + holder, "missing " + other)),
                    findings(reconcile(h).run(target, false)));
            reconcile(h).run(target, true);
            assertEquals(Set.of(), findings(reconcile(h).run(target, false)));
            assertEquals(List.of(other), h.records().stream().map(Record::url).toList());
        }
    }

    @Test
    void aFileIndexedAgainWhileItsRepairRunsKeepsItsRecord() throws Exception {
        try (ToolsHarness h = new ToolsHarness(AWS, "reconcile-race")) {
            // given a file backfilled, whose metadata is then lost (drift: differing, not a datalake file)
            String metadata = ToolsHarness.metadata("host-r", "r", START);
            h.put("logs/r.log", metadata);
            Target target = Target.parse("s3://" + h.bucket + "/logs/");
            Backfill.Options options = new Backfill.Options(target, null, 1000, 2, 10);
            new Backfill(h.operator.s3(), h.ingester, Clock.systemUTC()).run(options, () -> false);
            h.put("logs/r.log", null);

            // when --fix repairs it, and the file is uploaded again with its metadata and indexed by the pipeline
            // after the repair followed it but before the repair's own delete of its record lands
            AtomicBoolean raced = new AtomicBoolean();
            DynamoDbClient dynamoDb = h.operator.dynamoDb();
            DynamoDbClient racing = (DynamoDbClient) Proxy.newProxyInstance(DynamoDbClient.class.getClassLoader(),
                    new Class<?>[] {DynamoDbClient.class}, (proxy, method, args) -> {
                        if (method.getName().equals("deleteItem") && raced.compareAndSet(false, true)) {
                            h.put("logs/r.log", metadata);
                            new Backfill(h.operator.s3(), h.ingester, Clock.systemUTC()).run(options, () -> false);
                        }
                        try {
                            return method.invoke(dynamoDb, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
            Tools tools = new Tools(h.config, new IngesterClients(h.operator.s3(), racing, null, null), h.ingester);
            Reconcile.Result fixing = ReconcileCommand.of(tools, 8).run(target, true);

            // then the repair's delete did not take the new state's record: the index is the bucket's again
            assertTrue(raced.get(), "the repair deleted a record");
            assertEquals(List.of(), fixing.unfixed());
            assertEquals(Set.of(), findings(reconcile(h).run(target, false)));
            assertEquals(List.of(h.url("logs/r.log")), h.records().stream().map(Record::url).toList());
        }
    }

    @Test
    void extraFieldsAreNoDriftAndARecordThatLostThemIsRepaired() throws Exception {
        try (ToolsHarness h = new ToolsHarness(AWS, "reconcile-extras")) {
            // given files with fields beyond the nine (numbers DynamoDB gives back otherwise: 1.5, 100), backfilled
            Map<String, String> nine = Map.of("x", ToolsHarness.metadata("host-x", "x", START),
                    "y", ToolsHarness.metadata("host-y", "y", START));
            nine.forEach((name, metadata) -> h.put("logs/" + name + ".log", metadata.substring(0, metadata.length() - 1)
                    + ",\"data-version\":\"3\",\"score\":1.50,\"tags\":[1E2,{\"ok\":true,\"note\":null}]}"));
            Target target = Target.parse("s3://" + h.bucket + "/logs/");
            new Backfill(h.operator.s3(), h.ingester, Clock.systemUTC()).run(new Backfill.Options(target, null, 1000, 2, 10),
                    () -> false);

            // then the index holds them as the objects do: no drift
            assertEquals(Set.of(), findings(reconcile(h).run(target, false)), "a backfilled bucket has no drift");

            // when y's record loses them, as this ingester wrote records before it kept them
            HeadObjectResponse y = AWS.s3().headObject(r -> r.bucket(h.bucket).key("logs/y.log"));
            Record lost = new RecordFactory().records(MetadataParser.parse(nine.get("y")), h.url("logs/y.log"),
                    y.lastModified().toEpochMilli(), y.contentLength()).get(0);
            AWS.dynamoDb().putItem(r -> r.tableName(h.recordsTable).item(RecordItems.toItem(lost)));

            // then it differs in its extra fields, named without their values (and the latest entry, which has
            // them, names a file not in the index), and --fix gives them back
            Reconcile.Result found = reconcile(h).run(target, false);
            assertEquals(new TreeSet<>(Set.of("differing " + h.url("logs/y.log"), "stale_latest " + h.url("logs/y.log"))),
                    findings(found));
            assertEquals("differs in extra fields", found.findings().get(0).detail());
            assertEquals(2, reconcile(h).run(target, true).repaired());
            assertEquals(Set.of(), findings(reconcile(h).run(target, false)));
            assertEquals(2, h.records().size());
            for (Record record : h.records()) {
                assertTrue(DatalakeJson.toJson(record.metadata()).contains(",\"data-version\":\"3\","), record.url());
            }
        }
    }

    @Test
    void theOutputEndsWithTheCounts() {
        Reconcile.Result result = new Reconcile.Result(List.of(
                new Reconcile.Finding(Reconcile.Drift.MISSING, "s3://bkt/x", "not in the index (1 record(s) expected)")),
                10, 1, List.of("s3://bkt/y: invalid datalake metadata (metadata field 'what' is required and must not"
                        + " be null.)"), false, List.of(), java.time.Duration.ofMillis(1500));

        List<String> lines = printed(result, false);

        assertEquals("missing      s3://bkt/x  not in the index (1 record(s) expected)", lines.get(0));
        assertEquals("invalid:     s3://bkt/y: invalid datalake metadata (metadata field 'what' is required and must"
                + " not be null.)", lines.get(1));
        // true whether or not the bucket notifies (with no notifications, no DLQ has them)
        assertTrue(lines.get(2).contains(", 1 with invalid datalake metadata (never indexed, so not drift),"), lines.get(2));
        assertEquals("missing=1 orphaned=0 differing=0 untracked=0 stale_latest=0 missing_latest=0",
                lines.get(lines.size() - 1));
    }

    @Test
    void afterAFixTheLastLineIsTheDriftLeft() {
        Reconcile.Finding missing = new Reconcile.Finding(Reconcile.Drift.MISSING, "s3://bkt/x", "not in the index");
        Reconcile.Finding orphaned = new Reconcile.Finding(Reconcile.Drift.ORPHANED, "s3://bkt/z", "1 record(s)");
        Reconcile.Result result = new Reconcile.Result(List.of(missing, orphaned), 10, 0, List.of(), true,
                List.of(new Reconcile.Unfixed(orphaned, "throttled")), java.time.Duration.ofMillis(1500));

        List<String> lines = printed(result, true);

        assertTrue(lines.contains("not fixed: s3://bkt/z: throttled"), lines.toString());
        assertTrue(lines.get(2).contains("2 drift found, 1 fixed"), lines.get(2));
        assertEquals("found: missing=1 orphaned=1 differing=0 untracked=0 stale_latest=0 missing_latest=0",
                lines.get(lines.size() - 3));
        assertEquals("missing=0 orphaned=1 differing=0 untracked=0 stale_latest=0 missing_latest=0",
                lines.get(lines.size() - 1));
    }

    @Test
    void aDifferingRecordNamesEachFieldThatDiffers() {
        Metadata object = MetadataParser.parse(ToolsHarness.metadata("host-a", "a", START));
        Record want = new RecordFactory().records(object, "s3://bkt/a", 2_000L, 30L).get(0);
        Record have = new RecordFactory().records(object.withTimes(START, START + 1000L), "s3://bkt/a", 2_000L, 31L)
                .get(0);

        String detail = RecordDifference.of(Map.of(RecordKey.of(want), want),
                new IndexSnapshot.Stored(List.of(have), List.of()));

        assertEquals("differs in end (index " + (START + 1000L) + ", object null), size (index 31, object 30)", detail);
        assertEquals(null, RecordDifference.of(Map.of(RecordKey.of(want), want),
                new IndexSnapshot.Stored(List.of(want), List.of())));
    }

    private static List<String> printed(Reconcile.Result result, boolean fix) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ReconcileCommand.print(result, Target.parse("s3://bkt/"), fix, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8).lines().toList();
    }
}
