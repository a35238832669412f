package datalake.dynamodb;

import datalake.records.Keys.TimeIndexKey;
import datalake.records.Metadata;
import datalake.records.Record;
import datalake.records.RecordFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the index knows of one object of the bucket (its per-object item, {@link ObjectItems}): the
 * state its last committed observation found, the keys of the records that state has, and what earlier
 * states may have left: keys still to be deleted, and the file the index last held before this state.
 *
 * @param url         {@code s3://<bucket>/<key>}, the key decoded
 * @param observedAt  when the observation began (microseconds since the epoch): the later observation wins
 * @param commitId    unique to the commit that wrote this entry, so a handler knows its own
 * @param state       what the observation found
 * @param metadata    the file's metadata when {@link State#INDEXED}, else null
 * @param createTime  the object's LastModified (ms) when indexed
 * @param size        the object's size when indexed
 * @param etag        the object's ETag when present, or null
 * @param versionId   the object's version id when present in a versioned bucket, or null
 * @param sequencer   the S3 sequencer of the event that led to the observation, when it had one
 * @param recordKeys  the keys of the records of this state (empty unless indexed)
 * @param staleKeys   keys earlier states wrote that may still be in the table
 * @param replaced    the last file indexed under the key before this state, until the handlers of the
 *                    change are done with it (its records deleted, a latest entry naming it replaced, its
 *                    removal reported): a handler that finds its own earlier commit still knows it; or null
 * @param expiresAt   epoch seconds when DynamoDB TTL may delete the entry, or null
 */
public record ObjectEntry(String url, long observedAt, String commitId, State state, Metadata metadata,
        long createTime, long size, String etag, String versionId, String sequencer, List<RecordKey> recordKeys,
        List<RecordKey> staleKeys, IndexedFile replaced, Long expiresAt) {

    /** What an observation of the key found. */
    public enum State {
        /** An object with valid datalake metadata: its records are in the table. */
        INDEXED("indexed"),
        /** No object under the key (deleted, expired, or a delete marker is current). */
        ABSENT("absent"),
        /** An object without valid datalake metadata: nothing of it belongs in the index. */
        NOT_INDEXED("not_indexed");

        private final String text;

        State(String text) {
            this.text = text;
        }

        public String text() {
            return text;
        }

        public static State of(String text) {
            for (State state : values()) {
                if (state.text.equals(text)) {
                    return state;
                }
            }
            throw new IllegalArgumentException("a per-object state is indexed, absent or not_indexed.");
        }
    }

    /** A file the key held, as reports name it (its URL is the entry's). */
    public record IndexedFile(Metadata metadata, long createTime, long size) {
        public IndexedFile {
            if (metadata == null) {
                throw new IllegalArgumentException("a file has metadata.");
            }
        }
    }

    /** An entry that replaced no file still to be dealt with. */
    public ObjectEntry(String url, long observedAt, String commitId, State state, Metadata metadata, long createTime,
            long size, String etag, String versionId, String sequencer, List<RecordKey> recordKeys,
            List<RecordKey> staleKeys, Long expiresAt) {
        this(url, observedAt, commitId, state, metadata, createTime, size, etag, versionId, sequencer, recordKeys,
                staleKeys, null, expiresAt);
    }

    public ObjectEntry {
        if (url == null || commitId == null || state == null) {
            throw new IllegalArgumentException("a per-object entry needs a url, a commit id and a state.");
        }
        if ((state == State.INDEXED) != (metadata != null)) {
            throw new IllegalArgumentException("a per-object entry has metadata exactly when it is indexed.");
        }
        recordKeys = List.copyOf(recordKeys);
        staleKeys = List.copyOf(staleKeys);
    }

    public boolean indexed() {
        return state == State.INDEXED;
    }

    /** The file of this state when indexed, else the file the index held before it (null: none or done with). */
    public IndexedFile lastFile() {
        return indexed() ? new IndexedFile(metadata, createTime, size) : replaced;
    }

    /** Holds what a handler has yet to finish: stale keys, or a replaced file. */
    public boolean unfinished() {
        return !staleKeys.isEmpty() || replaced != null;
    }

    /**
     * This observation as its commit stores it over {@code previous}, the entry the commit replaces (null:
     * none). The previous state's record keys and stale keys become stale keys, each once and none that
     * this state's records hold (its handler writes those): a commit retried while its writes fail, or
     * states that alternate, add no key twice, so the stale keys never outgrow the layouts the key has
     * had since a handler of it last finished. A state without a file keeps the replaced file, the last one
     * the index held (the previous entry's own, or, when that one held none, the file it had replaced), for
     * the reports and the latest table of its redeliveries; a state with a file needs none (its stale keys
     * name what it replaced), and so costs its handler no write to forget one.
     */
    public ObjectEntry over(ObjectEntry previous) {
        Set<RecordKey> stale = new LinkedHashSet<>(staleKeys);
        if (previous != null) {
            stale.addAll(previous.staleKeys);
            stale.addAll(previous.recordKeys);
        }
        stale.removeAll(new HashSet<>(recordKeys));
        return new ObjectEntry(url, observedAt, commitId, state, metadata, createTime, size, etag, versionId, sequencer,
                recordKeys, List.copyOf(stale), indexed() ? null : previous == null ? replaced : previous.lastFile(),
                expiresAt);
    }

    /**
     * The records of this state, rebuilt, each under the key it was written under (empty unless indexed):
     * its writer's shard map, which a change since may have replaced, chose the keys {@link #recordKeys}
     * hold, and a record rebuilt under today's layout would be one nobody wrote; and whatever the span
     * limit is now ({@link RecordFactory#rebuilt}).
     */
    public List<Record> records(RecordFactory factory) {
        if (!indexed()) {
            return List.of();
        }
        Map<Long, Integer> written = new HashMap<>();
        for (RecordKey key : recordKeys) {
            TimeIndexKey hash = TimeIndexKey.parse(key.timeIndexKey());
            if (hash.what().equals(metadata.what())) {
                written.put(hash.bucket(), hash.shard());
            }
        }
        List<Record> records = new ArrayList<>();
        for (Record record : factory.rebuilt(metadata, url, createTime, size)) {
            int shard = written.getOrDefault(record.bucket(), record.shard());
            records.add(shard == record.shard() ? record : new Record(record.bucket(), shard, record.url(),
                    record.createTime(), record.size(), record.metadata(), record.expiresAt()));
        }
        return records;
    }
}
