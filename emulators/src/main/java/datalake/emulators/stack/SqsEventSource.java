package datalake.emulators.stack;

import java.time.Duration;

/**
 * A Lambda SQS event source mapping of the template: which queue feeds which function, and how.
 *
 * @param function                the function's logical id
 * @param queueLogicalId          the queue's logical id
 * @param queueUrl                the queue's URL on the emulator
 * @param queueArn                the queue's ARN
 * @param batchSize               BatchSize: the most messages of one invocation (10 by default)
 * @param batchingWindow          MaximumBatchingWindowInSeconds: how long a batch is gathered (0 by default)
 * @param maximumConcurrency      ScalingConfig.MaximumConcurrency: the most invocations at once (Lambda's
 *                                default, without it, is 1,000; locally 5 pollers then)
 * @param reportBatchItemFailures FunctionResponseTypes holds ReportBatchItemFailures: the handler's
 *                                batchItemFailures stay on the queue; without it a batch is all or nothing
 */
public record SqsEventSource(String function, String queueLogicalId, String queueUrl, String queueArn, int batchSize,
        Duration batchingWindow, int maximumConcurrency, boolean reportBatchItemFailures) {

    /** The same mapping with another batch size (a benchmark's or a test's choice; the template's is the default). */
    public SqsEventSource withBatchSize(int size) {
        return new SqsEventSource(function, queueLogicalId, queueUrl, queueArn, size, batchingWindow, maximumConcurrency,
                reportBatchItemFailures);
    }

    /** The same mapping with another concurrency. */
    public SqsEventSource withMaximumConcurrency(int concurrency) {
        return new SqsEventSource(function, queueLogicalId, queueUrl, queueArn, batchSize, batchingWindow, concurrency,
                reportBatchItemFailures);
    }

    /** The same mapping with another batching window. */
    public SqsEventSource withBatchingWindow(Duration window) {
        return new SqsEventSource(function, queueLogicalId, queueUrl, queueArn, batchSize, window, maximumConcurrency,
                reportBatchItemFailures);
    }
}
