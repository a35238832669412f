package datalake.ingester;

import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import datalake.dynamodb.ObjectEntry;
import datalake.records.Metadata;
import datalake.records.StatusReport;
import java.util.ArrayList;
import java.util.List;

/** One queue message of the batch and what became of it. */
final class BatchMessage {
    final SQSMessage sqsMessage;
    /** When its handling began (ms): its report's start. */
    final long started;
    Notification notification;
    final List<BatchObject> objects = new ArrayList<>(1);
    /** Null while (and when) the message succeeds. */
    Failure outcome;
    /** A transient failure on the last receive SQS allows: dead-lettered here, with its reason, rather than by redrive. */
    boolean givenUp;

    BatchMessage(SQSMessage sqsMessage, long started) {
        this.sqsMessage = sqsMessage;
        this.started = started;
    }

    String messageId() {
        return sqsMessage.getMessageId();
    }

    /** Settles the outcome from the objects': any transient failure wins, then any permanent one. */
    void decide() {
        if (outcome != null) {
            return;
        }
        for (BatchObject object : objects) {
            if (object.failure != null && !object.failure.permanent()) {
                outcome = object.failure;
                return;
            }
        }
        for (BatchObject object : objects) {
            if (object.failure != null) {
                outcome = object.failure;
                return;
            }
        }
    }

    /** Reported as an error and acknowledged: dead-lettered. */
    boolean settledAsError() {
        return outcome != null && (outcome.permanent() || givenUp);
    }

    String status() {
        return outcome == null ? "success" : settledAsError() ? "error" : "retry";
    }

    /** When its last step ended (ms): its report's start plus duration. */
    long finished() {
        long finished = started;
        for (BatchObject object : objects) {
            finished = Math.max(finished, object.finishedAt);
        }
        return finished;
    }

    /**
     * {@code remove} when every object it names is gone from the bucket (as HEAD found it, or, when
     * HEAD never answered, as its event says), {@code index} otherwise; null without objects.
     */
    Report.Action action() {
        if (objects.isEmpty()) {
            return null;
        }
        for (BatchObject object : objects) {
            boolean gone = object.state == null ? object.event.removal() : object.state == ObjectEntry.State.ABSENT;
            if (!gone) {
                return Report.Action.INDEX;
            }
        }
        return Report.Action.REMOVE;
    }

    /** The files this message ingested, or removed from the index, once each (on error: those that did get in). */
    List<StatusReport.FileRecord> fileRecords() {
        List<StatusReport.FileRecord> files = new ArrayList<>(objects.size());
        for (BatchObject object : objects) {
            if (object.state == ObjectEntry.State.INDEXED && object.records != null && object.failure == null) {
                files.add(StatusReport.FileRecord.of(object.records.get(0)));
            } else if (object.failure == null && object.removedFile() != null) {
                files.add(object.removedFile());
            }
        }
        return files;
    }

    /** What a success report says besides its records: a removal, an object already gone, a file re-indexed. */
    String notes() {
        StringBuilder notes = new StringBuilder();
        for (BatchObject object : objects) {
            String note = note(object);
            if (note != null) {
                notes.append(notes.isEmpty() ? "" : " ").append(note);
            }
        }
        return notes.isEmpty() ? null : notes.toString();
    }

    private static String note(BatchObject object) {
        if (object.state == null || object.failure != null) {
            return null;
        }
        String url = object.event.url();
        boolean removal = object.event.removal();
        if (object.state == ObjectEntry.State.INDEXED) {
            return removal ? url + " exists again: it is indexed as it is now." : null;
        }
        if (object.state != ObjectEntry.State.ABSENT) {
            return null;
        }
        if (!object.committed()) {
            return url + " does not exist; a later observation of it is already in the index.";
        }
        ObjectEntry previous = object.previous();
        boolean wasIndexed = previous != null && previous.indexed();
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

    /** The records of the files this message ingested (one per file and day bucket). */
    int recordCount() {
        int count = 0;
        for (BatchObject object : objects) {
            if (object.state == ObjectEntry.State.INDEXED && object.records != null && object.failure == null) {
                count += object.records.size();
            }
        }
        return count;
    }

    /** The records written on this message's behalf (a duplicate's go to the owning message). */
    int recordsWritten() {
        int written = 0;
        for (BatchObject object : objects) {
            if (object.owner == this) {
                written += object.written;
            }
        }
        return written;
    }

    /** The records deleted on this message's behalf. */
    int recordsRemoved() {
        int removed = 0;
        for (BatchObject object : objects) {
            if (object.owner == this) {
                removed += object.removed;
            }
        }
        return removed;
    }

    Metadata firstMetadata() {
        for (BatchObject object : objects) {
            if (object.metadata != null) {
                return object.metadata;
            }
            ObjectEntry previous = object.previous();
            if (previous != null && previous.indexed()) {
                return previous.metadata();
            }
        }
        return null;
    }
}
