package datalake.ingester;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one settled batch came to: the counts, the wall time of its phases and each message that did not
 * succeed. {@link Telemetry#batch} writes it as the batch's one log line and its metrics.
 *
 * @param files          the distinct objects the batch named (each read once)
 * @param records        the records its messages report (a file named twice counts twice)
 * @param recordsWritten the records written, each once, on behalf of the message that owns its object
 * @param reports        the status reports published
 * @param phases         ms per phase: parse, objects, dead_letters, reports
 */
record BatchSummary(String requestId, int messages, int succeeded, int failed, int retried, int files, int records,
        int recordsWritten, int recordsRemoved, int reports, int reportsFailed, Map<String, Long> phases,
        long durationMillis, Map<ErrorKind, Integer> errors, List<Failed> failures) {

    /**
     * A message that did not succeed, named.
     *
     * @param status {@code error} (dead-lettered and reported) or {@code retry} (handed back to SQS)
     */
    record Failed(String messageId, String status, Failure failure) {
    }

    BatchSummary {
        phases = Collections.unmodifiableMap(new LinkedHashMap<>(phases));
        errors = errors.isEmpty() ? Map.of() : Collections.unmodifiableMap(new EnumMap<>(errors));
        failures = List.copyOf(failures);
    }

    /** The summary of settled messages, once their dead letters and reports went out. */
    static BatchSummary of(String requestId, List<BatchMessage> settled, int reports, int reportsFailed, Laps laps) {
        int succeeded = 0;
        int failed = 0;
        int records = 0;
        int written = 0;
        int removed = 0;
        Set<String> objects = new HashSet<>();
        Map<ErrorKind, Integer> errors = new EnumMap<>(ErrorKind.class);
        List<Failed> failures = new ArrayList<>();
        for (BatchMessage message : settled) {
            message.objects().forEach(object -> objects.add(object.key()));
            records += message.recordCount();
            written += message.recordsWritten();
            removed += message.recordsRemoved();
            if (message.outcome() == null) {
                succeeded++;
                continue;
            }
            errors.merge(message.outcome().kind(), 1, Integer::sum);
            failures.add(new Failed(message.messageId(), message.status(), message.outcome()));
            if (message.settledAsError()) {
                failed++;
            }
        }
        return new BatchSummary(requestId, settled.size(), succeeded, failed, settled.size() - succeeded - failed,
                objects.size(), records, written, removed, reports, reportsFailed, laps.phases(), laps.total(), errors,
                failures);
    }
}
