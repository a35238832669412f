package datalake.ingester;

import datalake.dynamodb.ObjectEntry;
import datalake.dynamodb.RecordKey;
import datalake.records.Metadata;
import datalake.records.StatusReport;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * One distinct object of a batch and what following it has done ({@link ObjectSync}). Immutable: each
 * step hands back a new value, and the last one is the object's outcome.
 *
 * @param object      the object and the event that owns it in the batch
 * @param observation what HEAD found and the entry that records it, or null when HEAD gave no answer
 * @param commit      the commit of that entry, or null when none was made (or it failed)
 * @param failure     why the object is not indexed as it is, or null
 * @param touched     record keys this handler wrote or deleted for it: the keys to align should a later
 *                    commit supersede this one
 * @param written     records written on its behalf
 * @param removed     records of an earlier state deleted
 * @param latestTaken whether its file became the latest of its what:where; null when it was not offered
 * @param superseded  the later entry that replaced this commit before its writes were checked, or null
 * @param finishedAt  when its last step ended (ms since the epoch), 0 before
 */
record ObjectOutcome(BatchObject object, Observation observation, ObjectIndex.Commit commit, Failure failure,
        Set<RecordKey> touched, int written, int removed, Boolean latestTaken, ObjectEntry superseded,
        long finishedAt) {

    /** Earlier objects first: LastModified, then their places in the batch. For objects with records only. */
    static final Comparator<ObjectOutcome> LATER_LAST = Comparator
            .comparingLong((ObjectOutcome o) -> o.observation.file().createTime())
            .thenComparingInt(o -> o.object.position());

    ObjectOutcome {
        touched = Set.copyOf(touched);
    }

    /** An object before its first step. */
    static ObjectOutcome of(BatchObject object) {
        return new ObjectOutcome(object, null, null, null, Set.of(), 0, 0, null, null, 0);
    }

    /** {@code changed} put in the place of their namesakes in {@code all}. */
    static List<ObjectOutcome> replace(List<ObjectOutcome> all, Collection<ObjectOutcome> changed) {
        if (changed.isEmpty()) {
            return all;
        }
        Map<String, ObjectOutcome> byKey = changed.stream()
                .collect(Collectors.toMap(ObjectOutcome::key, Function.identity()));
        List<ObjectOutcome> merged = new ArrayList<>(all.size());
        for (ObjectOutcome o : all) {
            merged.add(byKey.getOrDefault(o.key(), o));
        }
        return merged;
    }

    String key() {
        return object.key();
    }

    /** The event as followed (see {@link Observation#event()}). */
    ObjectEvent event() {
        return observation == null ? object.event() : observation.event();
    }

    String url() {
        return event().url();
    }

    /** What HEAD found, or null when it gave no answer or the object could not be judged. */
    ObjectEntry.State state() {
        return observation == null ? null : observation.state();
    }

    /** The entry of this observation (once committed, the per-object item as this handler wrote it). */
    ObjectEntry entry() {
        return observation.entry();
    }

    // ---------------------------------------------------------------- its states, each defined once

    /** This observation's entry is the index's: it was accepted (and may have been superseded since). */
    boolean committed() {
        return commit != null && commit.accepted();
    }

    /** Indexed as HEAD found it: a datalake file, its records built, and nothing failed. */
    boolean found() {
        return observation != null && observation.indexed() && failure == null;
    }

    /** Found, and committed: its records belong in the table, written by this handler. */
    boolean stored() {
        return found() && committed();
    }

    /** Failed in a way that may pass: the object must come again. */
    boolean transientlyFailed() {
        return failure != null && !failure.permanent();
    }

    /** Gone from the bucket: as HEAD found it or, when HEAD never answered, as its event says. */
    boolean gone() {
        ObjectEntry.State state = state();
        return state == null ? event().removal() : state == ObjectEntry.State.ABSENT;
    }

    /** The entry this observation's commit replaced, or null. */
    ObjectEntry previous() {
        return commit == null ? null : commit.previous();
    }

    /** The metadata of its file, or of the file it removed from the index; null when neither is known. */
    Metadata metadata() {
        if (observation != null && observation.metadata() != null) {
            return observation.metadata();
        }
        ObjectEntry.IndexedFile removed = fileRemoved();
        return removed == null ? null : removed.metadata();
    }

    /**
     * The file as its report lists it: the one found, or the one this observation removed from the index
     * (an object overwritten without datalake metadata removes its file and fails for good); or null.
     */
    StatusReport.FileRecord reportedFile() {
        if (found()) {
            return StatusReport.FileRecord.of(observation.file());
        }
        return failure == null || failure.permanent() ? removedFile() : null;
    }

    /** The records of the file found, or 0. */
    int recordCount() {
        return found() ? observation.records().size() : 0;
    }

    /** The file this observation removed from the index, as a report lists it, or null. */
    private StatusReport.FileRecord removedFile() {
        ObjectEntry.IndexedFile removed = fileRemoved();
        return removed == null ? null
                : new StatusReport.FileRecord(previous().url(), removed.size(), removed.createTime(), removed.metadata());
    }

    /**
     * The file this observation removed from the index: the previous entry's when it was indexed, else
     * the file that entry had replaced and its handler not finished with (this message's earlier
     * delivery committed the same removal, then failed); null when it found a file, or none was indexed.
     */
    private ObjectEntry.IndexedFile fileRemoved() {
        ObjectEntry previous = previous();
        return state() == ObjectEntry.State.INDEXED || previous == null ? null : previous.lastFile();
    }

    /** What a success report says of it besides its records (a removal, an object already gone, a file back), or null. */
    String note() {
        ObjectEntry.State state = state();
        if (state == null || failure != null) {
            return null;
        }
        String url = url();
        boolean removal = event().removal();
        if (state == ObjectEntry.State.INDEXED) {
            return removal ? url + " exists again: it is indexed as it is now." : null;
        }
        if (state != ObjectEntry.State.ABSENT) {
            return null;
        }
        if (!committed()) {
            return url + " does not exist; a later observation of it is already in the index.";
        }
        ObjectEntry previous = previous();
        boolean wasIndexed = fileRemoved() != null;
        if (!removal) {
            return url + " no longer exists (removed after this event): nothing to index"
                    + (wasIndexed ? "; its earlier file left the index." : ".");
        }
        if (previous == null) {
            return url + " was removed, and the index had no per-object item for it (it was never a datalake file,"
                    + " or was indexed before per-object items): any records of it are left to scripts/reconcile.sh.";
        }
        return url + " was removed;" + (wasIndexed ? " its file left the index." : " it was not in the index.");
    }

    /** What following it did, as {@link Ingester#follow} answers it. */
    Followed followed() {
        return new Followed(event(), state(), failure, recordCount(), removed, unchanged());
    }

    /** Found as the index already had it: the entry it replaced named the same object, metadata and records. */
    boolean unchanged() {
        ObjectEntry previous = previous();
        if (!stored() || previous == null || !previous.indexed() || superseded != null || removed > 0
                || previous.unfinished()) {
            return false;
        }
        ObjectEntry now = entry();
        return previous.metadata().equals(now.metadata()) && previous.createTime() == now.createTime()
                && previous.size() == now.size() && Objects.equals(previous.etag(), now.etag())
                && Set.copyOf(previous.recordKeys()).equals(Set.copyOf(now.recordKeys()));
    }

    // ---------------------------------------------------------------- the steps' results

    /**
     * With a failure: the first one is kept (the cause; later ones are consequences), except that a
     * transient one replaces a permanent one, since the object must then come again.
     */
    ObjectOutcome failed(Failure f) {
        if (failure != null && !(failure.permanent() && !f.permanent())) {
            return this;
        }
        return new ObjectOutcome(object, observation, commit, f, touched, written, removed, latestTaken, superseded,
                finishedAt);
    }

    ObjectOutcome observed(Observation seen) {
        return new ObjectOutcome(object, seen, commit, failure, touched, written, removed, latestTaken, superseded,
                finishedAt);
    }

    ObjectOutcome committed(ObjectIndex.Commit made, long at) {
        return new ObjectOutcome(object, observation, made, failure, touched, written, removed, latestTaken, superseded,
                at);
    }

    ObjectOutcome touching(Collection<RecordKey> keys) {
        Set<RecordKey> all = new LinkedHashSet<>(touched);
        all.addAll(keys);
        return new ObjectOutcome(object, observation, commit, failure, all, written, removed, latestTaken, superseded,
                finishedAt);
    }

    ObjectOutcome wrote(int records) {
        return new ObjectOutcome(object, observation, commit, failure, touched, records, removed, latestTaken,
                superseded, finishedAt);
    }

    ObjectOutcome removedRecords(int records) {
        return new ObjectOutcome(object, observation, commit, failure, touched, written, records, latestTaken,
                superseded, finishedAt);
    }

    ObjectOutcome offered(boolean taken) {
        return new ObjectOutcome(object, observation, commit, failure, touched, written, removed, taken, superseded,
                finishedAt);
    }

    ObjectOutcome supersededBy(ObjectEntry later) {
        return new ObjectOutcome(object, observation, commit, failure, touched, written, removed, latestTaken, later,
                finishedAt);
    }

    ObjectOutcome finished(long at) {
        return new ObjectOutcome(object, observation, commit, failure, touched, written, removed, latestTaken,
                superseded, at);
    }
}
