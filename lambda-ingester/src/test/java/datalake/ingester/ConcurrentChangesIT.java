package datalake.ingester;

import static datalake.ingester.TestFiles.DAY;
import static datalake.ingester.TestFiles.START;
import static datalake.ingester.TestFiles.metadata;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import datalake.dynamodb.ObjectEntry;
import datalake.dynamodb.StoredRecord;
import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import datalake.records.Keys.WhatWhereKey;
import datalake.records.MetadataParser;
import datalake.records.Keys.TimeIndexKey;
import datalake.records.Record;
import datalake.records.RecordFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Two handlers (two Lambda sandboxes: two ingesters) work at once on events of one key, a change of
 * the object racing a delete of it, or two overwrites, against moto and dynalite; every step of
 * each handler is delayed at random so that the interleavings vary (a HEAD before or after the other
 * change, a commit before or after the other's, a write landing after the other's deletes). Many
 * rounds; each ends with the index equal to the bucket: the object's records, its per-object entry
 * and the latest entry of its what:where are exactly what the object now in the bucket makes them.
 * {@code -Ddatalake.race.rounds=N} runs more rounds (default 40), {@code -Ddatalake.race.seed=S} replays one.
 */
@ExtendWith(EmulatorsExtension.class)
class ConcurrentChangesIT {
    private static final Emulators AWS = Emulators.shared();
    private static final int ROUNDS = Integer.getInteger("datalake.race.rounds", 40);
    private final List<IngesterHarness> stacks = new ArrayList<>();
    private final ExecutorService threads = Executors.newFixedThreadPool(2);

    @AfterEach
    void close() {
        stacks.forEach(IngesterHarness::close);
        threads.shutdownNow();
    }

    @Test
    void aChangeAndADeleteOfOneKeyInTwoHandlersAtOnceAlwaysEndEqualToTheBucket() throws Exception {
        IngesterHarness s = IngesterHarness.create(AWS, "race");
        stacks.add(s);
        long seed = Long.getLong("datalake.race.seed", System.nanoTime());
        Random random = new Random(seed);
        int removed = 0;
        int kept = 0;
        for (int round = 0; round < ROUNDS; round++) {
            String key = "race/" + round + ".log";
            String where = "host-" + round;
            // given the key indexed with a first object
            s.put(key, metadata("syslog", where, "r" + round + "a", START, START + DAY, null));
            Random delays = new Random(random.nextLong());
            Ingester first = ingester(s, delays);
            Ingester second = ingester(s, delays);
            handle(first, put(s, key));

            // when, at once, one side overwrites it (another id, other days) and handles its event, and
            // the other deletes it (or, one round in three, overwrites it too) and handles its event
            boolean twoWrites = round % 3 == 2;
            CountDownLatch go = new CountDownLatch(1);
            String overwrite = metadata("syslog", where, "r" + round + "b", START + 3 * DAY, null, null);
            String other = metadata("syslog", where, "r" + round + "c", START - 5 * DAY, START - 4 * DAY, null);
            Future<?> a = threads.submit(() -> {
                await(go);
                pause(delays, 10);
                upload(s, key, overwrite);
                handle(first, put(s, key));
                return null;
            });
            Future<?> b = threads.submit(() -> {
                await(go);
                pause(delays, 10);
                if (twoWrites) {
                    upload(s, key, other);
                    handle(second, put(s, key));
                } else {
                    s.backend.s3().deleteObject(r -> r.bucket(s.bucket()).key(key));
                    handle(second, TestFiles.s3Event("ObjectRemoved:Delete", s.bucket(), key, null));
                }
                return null;
            });
            go.countDown();
            a.get(60, TimeUnit.SECONDS);
            b.get(60, TimeUnit.SECONDS);
            first.close();
            second.close();

            // then the index is the bucket's
            String why = "round " + round + " of seed " + seed + " (-Ddatalake.race.seed=" + seed + ")";
            HeadObjectResponse head = headOrNull(s, key);
            List<Record> expected = head == null ? List.of() : new RecordFactory().records(
                    MetadataParser.parse(head.metadata().get("datalake")), s.url(key), head.lastModified().toEpochMilli(),
                    head.contentLength());
            assertEquals(sorted(expected), sorted(s.recordsOf(key)), why);
            ObjectEntry entry = s.objectEntry(key);
            assertEquals(head == null ? ObjectEntry.State.ABSENT : ObjectEntry.State.INDEXED, entry.state(), why);
            Record latest = s.latest("syslog", where);
            if (head == null) {
                assertNull(latest, why);
                removed++;
            } else {
                assertEquals(expected.get(0), latest, why);
                kept++;
            }
        }
        // both outcomes came up, so both orders of the changes were raced
        System.out.println("race: " + ROUNDS + " rounds, " + removed + " ended removed, " + kept + " ended indexed, seed "
                + seed);
    }

    /** A PutObject alone (the harness's put also HEADs, which the other side's delete may race). */
    private static void upload(IngesterHarness s, String key, String metadata) {
        s.backend.s3().putObject(r -> r.bucket(s.bucket()).key(key).metadata(Map.of("datalake", metadata)),
                RequestBody.fromString("content of " + key));
    }

    private static List<Record> sorted(Collection<Record> records) {
        return records.stream().sorted(Comparator.comparingLong(Record::bucket)).toList();
    }

    private static HeadObjectResponse headOrNull(IngesterHarness s, String key) {
        try {
            return s.backend.s3().headObject(r -> r.bucket(s.bucket()).key(key));
        } catch (NoSuchKeyException e) {
            return null;
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                return null;
            }
            throw e;
        }
    }

    private static String put(IngesterHarness s, String key) {
        return TestFiles.s3Event("ObjectCreated:Put", s.bucket(), key, null);
    }

    private static void handle(Ingester ingester, String body) {
        SQSEvent.SQSMessage message = TestFiles.message("m-" + System.nanoTime(), body);
        var response = ingester.handle(List.of(message), Deadline.after(Clock.systemUTC(), Duration.ofSeconds(30)), null);
        assertEquals(List.of(), response.getBatchItemFailures(), "the handler settles its message");
    }

    /** An ingester as Lambda builds it, every collaborator's calls delayed at random (0-15 ms, at times 90). */
    private static Ingester ingester(IngesterHarness s, Random random) {
        IngesterConfig config = s.config();
        IngesterClients clients = new IngesterClients(s.ingesterAws.s3(), s.ingesterAws.dynamoDb(), s.ingesterAws.sns(),
                s.ingesterAws.sqs());
        S3ObjectStore store = new S3ObjectStore(clients.s3());
        DynamoRecordsTable records = new DynamoRecordsTable(clients.dynamoDb(), config.recordsTable(), Backoff.standard());
        DynamoObjectIndex index = new DynamoObjectIndex(clients.dynamoDb(), config.recordsTable(), Backoff.standard());
        DynamoLatestTable latest = new DynamoLatestTable(clients.dynamoDb(), config.latestTable());
        return Ingester.forAws(config, clients)
                .objects(new ObjectStore() {
                    @Override
                    public Optional<StoredObject> head(String bucket, String key) {
                        pause(random, 15);
                        Optional<StoredObject> head = store.head(bucket, key);
                        pause(random, 15);
                        return head;
                    }

                    @Override
                    public boolean bucketExists(String bucket) {
                        return store.bucketExists(bucket);
                    }
                })
                .records(new RecordsTable() {
                    @Override
                    public Map<Record, Failure> write(List<Record> list, Deadline deadline) {
                        pause(random, 15);
                        return records.write(list, deadline);
                    }

                    @Override
                    public Optional<StoredRecord> newest(String where, List<TimeIndexKey> days) {
                        return records.newest(where, days);
                    }
                })
                .index(new ObjectIndex() {
                    @Override
                    public Commit commit(ObjectEntry entry) {
                        pause(random, 15);
                        return index.commit(entry);
                    }

                    @Override
                    public Map<String, ObjectEntry> read(Collection<String> urls) {
                        pause(random, 15);
                        return index.read(urls);
                    }

                    @Override
                    public int removeRecords(String url, Collection<datalake.dynamodb.RecordKey> keys) {
                        pause(random, 15);
                        return index.removeRecords(url, keys);
                    }

                    @Override
                    public void clearStale(String url, String commitId) {
                        index.clearStale(url, commitId);
                    }
                })
                .latest(new LatestTable() {
                    @Override
                    public boolean offer(Record record) {
                        pause(random, 15);
                        return latest.offer(record);
                    }

                    @Override
                    public Optional<StoredRecord> current(WhatWhereKey key) {
                        return latest.current(key);
                    }

                    @Override
                    public Map<WhatWhereKey, Record> current(Collection<WhatWhereKey> keys) {
                        pause(random, 15);
                        return latest.current(keys);
                    }

                    @Override
                    public boolean replace(StoredRecord expected, Optional<StoredRecord> replacement) {
                        pause(random, 15);
                        return latest.replace(expected, replacement);
                    }
                })
                .telemetry(Telemetry.discarding())
                .build();
    }

    /** Up to {@code maxMillis}, and one time in four up to six times as long: a write that lags far behind. */
    private static void pause(Random random, int maxMillis) {
        int millis;
        synchronized (random) {
            millis = random.nextInt(maxMillis + 1) * (random.nextInt(4) == 0 ? 6 : 1);
        }
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
