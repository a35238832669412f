package datalake.ingester;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Settles the messages of a handled batch (docs/DESIGN.md, "Failure policy"): the permanent failures, and
 * the transient ones on their last receive, go to the DLQ with their reason; every settled message is
 * reported; each message gets its log line; the batch its metrics; and SQS gets back the messages it must
 * deliver again. A message that cannot be dead-lettered stays in SQS (never lost); a report that cannot
 * be published changes nothing else.
 */
final class Settlement {
    private final ReportPublisher reports;
    private final DeadLetterQueue deadLetters;
    private final Telemetry telemetry;
    private final Clock clock;
    private final String functionName;
    private final Integer maxReceiveCount;

    /** @param maxReceiveCount the ingest queue's maxReceiveCount, or null when messages are never given up here */
    Settlement(ReportPublisher reports, DeadLetterQueue deadLetters, Telemetry telemetry, Clock clock,
            String functionName, Integer maxReceiveCount) {
        this.reports = reports;
        this.deadLetters = deadLetters;
        this.telemetry = telemetry;
        this.clock = clock;
        this.functionName = functionName;
        this.maxReceiveCount = maxReceiveCount;
    }

    /**
     * @param started when the invocation began (ms): the metrics' latency
     * @return the messages SQS must deliver again
     */
    SQSBatchResponse settle(List<BatchMessage> handled, String requestId, long started) {
        List<BatchMessage> messages = new ArrayList<>(handled.size());
        for (BatchMessage message : handled) {
            boolean givenUp = message.outcome() != null && !message.outcome().permanent() && lastReceive(message);
            messages.add(givenUp ? message.withOutcome(message.outcome(), true) : message);
        }
        messages = deadLetter(messages);
        int reportsFailed = report(messages, requestId);

        Map<ErrorKind, Integer> errors = new EnumMap<>(ErrorKind.class);
        List<SQSBatchResponse.BatchItemFailure> retry = new ArrayList<>();
        int succeeded = 0;
        int failed = 0;
        int written = 0;
        for (BatchMessage message : messages) {
            message.log(telemetry, requestId);
            written += message.recordsWritten();
            if (message.outcome() == null) {
                succeeded++;
            } else {
                errors.merge(message.outcome().kind(), 1, Integer::sum);
                if (message.settledAsError()) {
                    failed++;
                } else {
                    retry.add(new SQSBatchResponse.BatchItemFailure(message.messageId()));
                }
            }
        }
        telemetry.metrics(new Telemetry.BatchMetrics(functionName, messages.size(), succeeded, failed, retry.size(),
                written, reportsFailed, clock.millis() - started, errors));
        return new SQSBatchResponse(retry);
    }

    /** Whether SQS will not deliver this message again: its receive count has reached the queue's maxReceiveCount. */
    private boolean lastReceive(BatchMessage message) {
        Map<String, String> attributes = message.sqsMessage().getAttributes();
        if (maxReceiveCount == null || attributes == null) {
            return false;
        }
        String count = attributes.get("ApproximateReceiveCount");
        try {
            return count != null && Integer.parseInt(count) >= maxReceiveCount;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** The messages after their letters went out: one that could not be sent stays in SQS, as DlqUnavailable. */
    private List<BatchMessage> deadLetter(List<BatchMessage> messages) {
        List<BatchMessage> lettered = new ArrayList<>(messages.size());
        List<DeadLetter> letters = new ArrayList<>();
        for (BatchMessage message : messages) {
            if (message.settledAsError() && message.givenUp()) {
                Failure reason = message.outcome();
                message = message.withOutcome(new Failure(reason.kind(), reason.message() + " SQS delivered the message "
                        + maxReceiveCount + " times, the queue's maxReceiveCount: it is dead-lettered, not retried."), true);
            }
            if (message.settledAsError()) {
                letters.add(new DeadLetter(message.messageId(), message.sqsMessage().getBody(), message.outcome()));
            }
            lettered.add(message);
        }
        if (letters.isEmpty()) {
            return lettered;
        }
        Map<String, String> unsent = deadLetters.send(letters);
        List<BatchMessage> settled = new ArrayList<>(lettered.size());
        for (BatchMessage message : lettered) {
            String why = message.settledAsError() ? unsent.get(message.messageId()) : null;
            settled.add(why == null ? message : message.withOutcome(new Failure(ErrorKind.DLQ_UNAVAILABLE,
                    "the message could not be ingested (" + message.outcome().kind().label() + ") nor dead-lettered: "
                            + why), false));
        }
        return settled;
    }

    /**
     * One report per settled message (transient ones are reported when they settle), with the message's
     * own start and duration.
     *
     * @return how many could not be published
     */
    private int report(List<BatchMessage> messages, String requestId) {
        List<Report> settled = new ArrayList<>();
        for (BatchMessage message : messages) {
            if (message.outcome() == null || message.settledAsError()) {
                settled.add(message.report());
            }
        }
        if (settled.isEmpty()) {
            return 0;
        }
        Map<String, String> unpublished;
        try {
            unpublished = reports.publish(settled);
        } catch (RuntimeException e) {
            unpublished = new LinkedHashMap<>();
            for (Report report : settled) {
                unpublished.put(report.messageId(), Failures.classify(e, null).message());
            }
        }
        for (Map.Entry<String, String> entry : unpublished.entrySet()) {
            telemetry.warning(requestId, "report not published", entry.getKey(), entry.getValue());
        }
        return unpublished.size();
    }
}
