package datalake.ingester;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Settles the messages of a handled batch (docs/DESIGN.md, "Failure policy"): the permanent failures, and
 * the transient ones on their last receive, go to the DLQ with their reason; every settled message is
 * reported; each message that did not succeed gets its own log line, the batch one line and its metrics;
 * and SQS gets back the messages it must deliver again. A message that cannot be dead-lettered stays in
 * SQS (never lost); a report that cannot be published changes nothing else.
 */
final class Settlement {
    private final ReportPublisher reports;
    private final DeadLetterQueue deadLetters;
    private final Telemetry telemetry;
    private final String functionName;
    private final Integer maxReceiveCount;

    /** @param maxReceiveCount the ingest queue's maxReceiveCount, or null when messages are never given up here */
    Settlement(ReportPublisher reports, DeadLetterQueue deadLetters, Telemetry telemetry, String functionName,
            Integer maxReceiveCount) {
        this.reports = reports;
        this.deadLetters = deadLetters;
        this.telemetry = telemetry;
        this.functionName = functionName;
        this.maxReceiveCount = maxReceiveCount;
    }

    /**
     * Settles a handled batch and returns the messages SQS must deliver again.
     *
     * @param laps the batch's phases so far (parse, objects): settling adds its own, and the summary logged
     */
    SQSBatchResponse settle(List<BatchMessage> handled, String requestId, Laps laps) {
        List<BatchMessage> messages = new ArrayList<>(handled.size());
        for (BatchMessage message : handled) {
            boolean givenUp = message.outcome() != null && !message.outcome().permanent() && lastReceive(message);
            messages.add(givenUp ? message.withOutcome(message.outcome(), true) : message);
        }
        messages = deadLetter(messages);
        laps.lap("dead_letters");
        Published published = report(messages, requestId);
        laps.lap("reports");

        List<SQSBatchResponse.BatchItemFailure> retry = new ArrayList<>();
        for (BatchMessage message : messages) {
            if (message.outcome() == null) {
                continue;
            }
            // A success is only counted in the batch's line: at 10 files a batch, a line per message was
            // most of the ingester's log volume (docs/COSTS.md).
            message.log(telemetry, requestId);
            if (!message.settledAsError()) {
                retry.add(new SQSBatchResponse.BatchItemFailure(message.messageId()));
            }
        }
        telemetry.batch(functionName, BatchSummary.of(requestId, messages, published.reports(), published.failed(), laps));
        return new SQSBatchResponse(retry);
    }

    /** Reports published and reports that could not be. */
    private record Published(int reports, int failed) {
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
     */
    private Published report(List<BatchMessage> messages, String requestId) {
        List<Report> settled = new ArrayList<>();
        for (BatchMessage message : messages) {
            if (message.outcome() == null || message.settledAsError()) {
                settled.add(message.report());
            }
        }
        if (settled.isEmpty()) {
            return new Published(0, 0);
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
        return new Published(settled.size() - unpublished.size(), unpublished.size());
    }
}
