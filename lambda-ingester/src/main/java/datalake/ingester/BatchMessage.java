package datalake.ingester;

import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import datalake.records.Metadata;
import datalake.records.StatusReport;
import java.util.ArrayList;
import java.util.List;

/** One queue message of the batch and what became of it. */
final class BatchMessage {
    final SQSMessage sqsMessage;
    Notification notification;
    final List<BatchObject> objects = new ArrayList<>(1);
    /** Null while (and when) the message succeeds. */
    Failure outcome;

    BatchMessage(SQSMessage sqsMessage) {
        this.sqsMessage = sqsMessage;
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

    String status() {
        return outcome == null ? "success" : outcome.permanent() ? "error" : "retry";
    }

    /** The files this message ingested, once each (on error: those that did get in). */
    List<StatusReport.FileRecord> fileRecords() {
        List<StatusReport.FileRecord> files = new ArrayList<>(objects.size());
        for (BatchObject object : objects) {
            if (object.records != null && object.failure == null) {
                files.add(StatusReport.FileRecord.of(object.records.get(0)));
            }
        }
        return files;
    }

    /** The records of the files this message ingested (one per file and day bucket). */
    int recordCount() {
        int count = 0;
        for (BatchObject object : objects) {
            if (object.records != null && object.failure == null) {
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

    Metadata firstMetadata() {
        for (BatchObject object : objects) {
            if (object.metadata != null) {
                return object.metadata;
            }
        }
        return null;
    }
}
