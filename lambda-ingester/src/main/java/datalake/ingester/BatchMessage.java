package datalake.ingester;

import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import datalake.lambda.JsonLog;
import datalake.records.Metadata;
import datalake.records.StatusReport;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * One queue message of a batch and what became of it: the outcomes of the objects it names, and its
 * own. Immutable: settling it ({@link Settlement}) hands back new values.
 *
 * @param sqsMessage the message as SQS delivered it
 * @param index      its place in the batch (the {@link BatchObject#source()} of the objects it owns)
 * @param started    when its handling began (ms): its report's start
 * @param objects    the objects it names, once each, in order
 * @param outcome    why it did not succeed, or null
 * @param givenUp    a transient failure on the last receive SQS allows: dead-lettered here, with its
 *                   reason, rather than by redrive
 */
record BatchMessage(SQSMessage sqsMessage, int index, long started, List<ObjectOutcome> objects, Failure outcome,
        boolean givenUp) {

    BatchMessage {
        objects = List.copyOf(objects);
    }

    /**
     * The message with its outcome settled from its objects' (unless it has one already, its notification
     * being unreadable): any transient failure wins, then any permanent one.
     */
    static BatchMessage of(SQSMessage sqsMessage, int index, long started, Failure unreadable,
            List<ObjectOutcome> objects) {
        Failure outcome = unreadable;
        for (ObjectOutcome object : objects) {
            if (outcome == null && object.transientlyFailed()) {
                outcome = object.failure();
            }
        }
        for (ObjectOutcome object : objects) {
            if (outcome == null && object.failure() != null) {
                outcome = object.failure();
            }
        }
        return new BatchMessage(sqsMessage, index, started, objects, outcome, false);
    }

    BatchMessage withOutcome(Failure failure, boolean lastReceive) {
        return new BatchMessage(sqsMessage, index, started, objects, failure, lastReceive);
    }

    String messageId() {
        return sqsMessage.getMessageId();
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
        for (ObjectOutcome object : objects) {
            finished = Math.max(finished, object.finishedAt());
        }
        return finished;
    }

    /** {@code remove} when every object it names is gone from the bucket, {@code index} otherwise; null without objects. */
    Report.Action action() {
        if (objects.isEmpty()) {
            return null;
        }
        for (ObjectOutcome object : objects) {
            if (!object.gone()) {
                return Report.Action.INDEX;
            }
        }
        return Report.Action.REMOVE;
    }

    /** Its status report: the files it ingested, or removed from the index, once each (on error: those that did get in or out). */
    Report report() {
        double duration = (finished() - started) / 1000.0;
        List<StatusReport.FileRecord> files = new ArrayList<>(objects.size());
        StringBuilder notes = new StringBuilder();
        for (ObjectOutcome object : objects) {
            StatusReport.FileRecord file = object.reportedFile();
            if (file != null) {
                files.add(file);
            }
            String note = object.note();
            if (note != null) {
                notes.append(notes.isEmpty() ? "" : " ").append(note);
            }
        }
        StatusReport report = outcome == null
                ? new StatusReport(StatusReport.Status.SUCCESS, started, duration, files,
                        notes.isEmpty() ? null : notes.toString())
                : StatusReport.error(started, duration, files, outcome.message());
        Metadata first = firstMetadata();
        return new Report(messageId(), report, first == null ? null : first.what(), action());
    }

    /**
     * Its own line in the function's log, written for a message that did not succeed (a batch of successes
     * logs one line, {@link Telemetry#batch}): identifiers only (what, where and id), never other metadata.
     */
    void log(Telemetry telemetry, String requestId) {
        Metadata first = firstMetadata();
        Report.Action action = action();
        telemetry.message(outcome, g -> {
            JsonLog.field(g, "requestId", requestId);
            JsonLog.field(g, "messageId", messageId());
            g.writeStringField("status", status());
            JsonLog.field(g, "action", action == null ? null : action.json());
            JsonLog.field(g, "what", first == null ? null : first.what());
            JsonLog.field(g, "where", first == null ? null : first.where());
            JsonLog.field(g, "id", first == null ? null : first.id());
            g.writeNumberField("files", objects.size());
            g.writeNumberField("records", recordCount());
            g.writeNumberField("records_written", recordsWritten());
            g.writeNumberField("records_removed", recordsRemoved());
            if (outcome != null) {
                g.writeStringField("error_kind", outcome.kind().label());
                g.writeStringField("error_message", outcome.message());
            }
            g.writeNumberField("duration_ms", finished() - started);
        });
    }

    /** The records of the files it reports. */
    int recordCount() {
        int records = 0;
        for (ObjectOutcome object : objects) {
            records += object.recordCount();
        }
        return records;
    }

    /** The records removed on its behalf (as {@link #recordsWritten}, by the message that owns the object). */
    int recordsRemoved() {
        return ofOwnedObjects(ObjectOutcome::removed);
    }

    /** The records written on its behalf (a duplicate's go to the message of the event that owns the object). */
    int recordsWritten() {
        return ofOwnedObjects(ObjectOutcome::written);
    }

    /** The sum of a count over the objects whose winning event is this message's. */
    private int ofOwnedObjects(ToIntFunction<ObjectOutcome> count) {
        int sum = 0;
        for (ObjectOutcome object : objects) {
            if (object.object().source() == index) {
                sum += count.applyAsInt(object);
            }
        }
        return sum;
    }

    private Metadata firstMetadata() {
        for (ObjectOutcome object : objects) {
            Metadata metadata = object.metadata();
            if (metadata != null) {
                return metadata;
            }
        }
        return null;
    }
}
