package datalake.ingester;

import datalake.dynamodb.ObjectEntry;
import datalake.dynamodb.RecordItems;
import datalake.dynamodb.RecordKey;
import datalake.dynamodb.StoredRecord;
import datalake.records.Keys.WhatWhereKey;
import datalake.records.Keys.TimeIndexKey;
import datalake.records.Record;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** In-memory collaborators of the {@link Ingester}: state a test can set up and inspect afterwards. */
final class Fakes {
    private Fakes() {
    }

    /** Objects by "bucket/key"; a key may be set to throw instead. */
    static final class Objects implements ObjectStore {
        final Map<String, StoredObject> stored = new ConcurrentHashMap<>();
        final Map<String, RuntimeException> errors = new ConcurrentHashMap<>();
        final AtomicInteger heads = new AtomicInteger();
        final AtomicInteger concurrent = new AtomicInteger();
        final AtomicInteger maxConcurrent = new AtomicInteger();
        volatile long headMillis;

        Objects put(String bucket, String key, String metadata, long lastModified, long size) {
            stored.put(bucket + "/" + key, new StoredObject(metadata, lastModified, size));
            return this;
        }

        /** Buckets that do not exist (every other one does). */
        final Set<String> missingBuckets = ConcurrentHashMap.newKeySet();

        @Override
        public boolean bucketExists(String bucket) {
            return !missingBuckets.contains(bucket);
        }

        @Override
        public Optional<StoredObject> head(String bucket, String key) {
            heads.incrementAndGet();
            maxConcurrent.accumulateAndGet(concurrent.incrementAndGet(), Math::max);
            try {
                if (headMillis > 0) {
                    Thread.sleep(headMillis);
                }
                RuntimeException error = errors.get(bucket + "/" + key);
                if (error != null) {
                    throw error;
                }
                return Optional.ofNullable(stored.get(bucket + "/" + key));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            } finally {
                concurrent.decrementAndGet();
            }
        }
    }

    /**
     * A table with its per-object items and a latest table, with DynamoDB's semantics (conditional
     * writes included); writes may be made to fail.
     */
    static final class Records implements RecordsTable, LatestTable, ObjectIndex {
        final Map<String, ObjectEntry> objects = new LinkedHashMap<>();
        final Map<String, Record> table = new LinkedHashMap<>();
        final Map<String, Record> latest = new LinkedHashMap<>();
        /** Items of another writer (the Python datalake's first format: no create_time, no size), by key. */
        final Map<String, Map<String, AttributeValue>> foreign = new LinkedHashMap<>();
        /** Latest-table entries that are no record of ours (a Python-format record), by what:where. */
        final Map<String, StoredRecord> foreignLatest = new LinkedHashMap<>();
        final List<List<Record>> writes = new ArrayList<>();
        /** The latest table's calls: each offer's record, and each read of several entries' keys. */
        final List<Record> offers = new ArrayList<>();
        final List<Set<WhatWhereKey>> latestReads = new ArrayList<>();
        final boolean keepsLatest;
        /** Decides the failure of each record written, or null to store it. */
        volatile Function<Record, Failure> writeFailure = r -> null;
        volatile RuntimeException latestError;
        volatile RuntimeException latestReadError;

        Records(boolean keepsLatest) {
            this.keepsLatest = keepsLatest;
        }

        static String key(Record record) {
            return record.timeIndexKey() + "|" + record.rangeKey();
        }

        static String key(RecordKey key) {
            return key.timeIndexKey() + "|" + key.rangeKey();
        }

        @Override
        public synchronized Commit commit(ObjectEntry entry) {
            ObjectEntry old = objects.get(entry.url());
            if (old != null && old.observedAt() > entry.observedAt()) {
                return Commit.REJECTED;
            }
            objects.put(entry.url(), entry.over(old));
            return new Commit(true, old);
        }

        @Override
        public synchronized Map<String, ObjectEntry> read(Collection<String> urls) {
            Map<String, ObjectEntry> found = new LinkedHashMap<>();
            for (String url : urls) {
                if (objects.containsKey(url)) {
                    found.put(url, objects.get(url));
                }
            }
            return found;
        }

        @Override
        public synchronized int removeRecords(String url, Collection<RecordKey> keys) {
            int removed = 0;
            for (RecordKey key : keys) {
                Record record = table.get(key(key));
                if (record != null && record.url().equals(url)) {
                    table.remove(key(key));
                    removed++;
                }
            }
            return removed;
        }

        @Override
        public synchronized void clearStale(String url, String commitId) {
            ObjectEntry entry = objects.get(url);
            if (entry != null && entry.commitId().equals(commitId)) {
                objects.put(url, new ObjectEntry(entry.url(), entry.observedAt(), UUID.randomUUID().toString(), entry.state(),
                        entry.metadata(), entry.createTime(), entry.size(), entry.etag(), entry.versionId(),
                        entry.sequencer(), entry.recordKeys(), List.of(), null, entry.expiresAt()));
            }
        }

        @Override
        public synchronized Optional<StoredRecord> newest(String where, List<TimeIndexKey> days) {
            List<Map<String, AttributeValue>> items = new ArrayList<>(foreign.values());
            table.values().forEach(r -> items.add(RecordItems.toItem(r)));
            StoredRecord best = null;
            for (Map<String, AttributeValue> item : items) {
                StoredRecord record = StoredRecord.fromItem(item);
                if (days.contains(TimeIndexKey.parse(item.get(RecordItems.TIME_INDEX_KEY).s())) && record.where().equals(where)
                        && (best == null || record.isNewerThan(best) || DynamoRecordsTable.sameFileEarlierBucket(record, best))) {
                    best = record;
                }
            }
            return Optional.ofNullable(best);
        }

        @Override
        public synchronized Optional<StoredRecord> current(WhatWhereKey key) {
            Record ours = latest.get(key.toString());
            return ours != null ? Optional.of(StoredRecord.ofLatest(ours))
                    : Optional.ofNullable(foreignLatest.get(key.toString()));
        }

        @Override
        public synchronized Map<WhatWhereKey, Record> current(Collection<WhatWhereKey> keys) {
            latestReads.add(new LinkedHashSet<>(keys));
            if (latestReadError != null) {
                throw latestReadError;
            }
            Map<WhatWhereKey, Record> entries = new HashMap<>();
            for (WhatWhereKey key : keys) {
                Record entry = latest.get(key.toString());
                if (entry != null) {
                    entries.put(key, entry);
                }
            }
            return entries;
        }

        @Override
        public synchronized boolean replace(StoredRecord expected, Optional<StoredRecord> replacement) {
            String key = expected.whatWhereKey();
            StoredRecord kept = current(WhatWhereKey.parse(key)).orElse(null);
            if (kept == null || !kept.sameFile(expected)) {
                return false;
            }
            latest.remove(key);
            foreignLatest.remove(key);
            replacement.ifPresent(r -> LatestUpkeep.ours(r).ifPresentOrElse(ours -> latest.put(key, ours),
                    () -> foreignLatest.put(key, r)));
            return true;
        }

        /** The records of one file, by url. */
        synchronized List<Record> recordsOf(String url) {
            return table.values().stream().filter(r -> r.url().equals(url)).toList();
        }

        @Override
        public synchronized Map<Record, Failure> write(List<Record> records, Deadline deadline) {
            writes.add(List.copyOf(records));
            Set<String> keys = new HashSet<>();
            for (Record record : records) {
                if (!keys.add(key(record))) {
                    throw new AssertionError("a key twice in one write: " + key(record));
                }
            }
            Map<Record, Failure> failed = new LinkedHashMap<>();
            for (Record record : records) {
                Failure failure = writeFailure.apply(record);
                if (failure == null) {
                    table.put(key(record), record);
                } else {
                    failed.put(record, failure);
                }
            }
            return failed;
        }

        /** This fake as the latest table, or null when it keeps none. */
        LatestTable latestTable() {
            return keepsLatest ? this : null;
        }

        @Override
        public synchronized boolean offer(Record record) {
            offers.add(record);
            if (latestError != null) {
                throw latestError;
            }
            String key = record.whatWhereKey().toString();
            Record kept = latest.get(key);
            StoredRecord other = foreignLatest.get(key);
            if ((kept == null || record.isNewerThan(kept))
                    && (other == null || other.start() < record.metadata().start() || other.start() == record.metadata().start()
                            && (other.createTime() == null || other.createTime() < record.createTime()))) {
                latest.put(key, record);
                foreignLatest.remove(key);
                return true;
            }
            return false;
        }
    }

    static final class Reports implements ReportPublisher {
        final List<Report> published = Collections.synchronizedList(new ArrayList<>());
        volatile boolean failing;

        @Override
        public Map<String, String> publish(List<Report> reports) {
            Map<String, String> failed = new LinkedHashMap<>();
            for (Report report : reports) {
                if (failing) {
                    failed.put(report.messageId(), "SNS answered 500 InternalError.");
                } else {
                    published.add(report);
                }
            }
            return failed;
        }

        Report of(String messageId) {
            return published.stream().filter(r -> r.messageId().equals(messageId)).findFirst().orElse(null);
        }
    }

    static final class DeadLetters implements DeadLetterQueue {
        final List<DeadLetter> sent = Collections.synchronizedList(new ArrayList<>());
        volatile boolean failing;

        @Override
        public Map<String, String> send(List<DeadLetter> letters) {
            Map<String, String> failed = new LinkedHashMap<>();
            for (DeadLetter letter : letters) {
                if (failing) {
                    failed.put(letter.messageId(), "SQS answered 500 InternalError.");
                } else {
                    sent.add(letter);
                }
            }
            return failed;
        }
    }

    /** Telemetry lines, kept. */
    static final class Lines {
        final List<String> lines = Collections.synchronizedList(new ArrayList<>());

        Telemetry telemetry(java.time.Clock clock) {
            return new Telemetry(lines::add, clock);
        }
    }
}
