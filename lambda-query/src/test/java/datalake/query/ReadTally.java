package datalake.query;

import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

/**
 * The Queries of the DynamoDB clients it is added to, and the read units they consumed: it asks every Query
 * for its ConsumedCapacity (TOTAL), which DynamoDB and dynalite both answer (dynalite: the items read, their
 * sizes summed, rounded up to 4 KB and halved when eventually consistent). A read that finds nothing is
 * rounded up to one 4 KB unit as well, half a read unit, as the partition model counts it (emulators'
 * ItemSizes), where dynalite says 0: the tally counts the half unit.
 */
final class ReadTally implements ExecutionInterceptor {
    /** The least a Query costs, eventually consistent. */
    static final double LEAST_UNITS = 0.5;
    private final LongAdder queries = new LongAdder();
    private final DoubleAdder units = new DoubleAdder();
    private final LongAdder items = new LongAdder();
    private final LongAdder unreported = new LongAdder();

    @Override
    public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes attributes) {
        return context.request() instanceof QueryRequest query
                ? query.toBuilder().returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).build() : context.request();
    }

    @Override
    public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
        if (context.response() instanceof QueryResponse response) {
            queries.increment();
            items.add(response.scannedCount() == null ? 0 : response.scannedCount());
            if (response.consumedCapacity() == null || response.consumedCapacity().capacityUnits() == null) {
                unreported.increment();
            } else {
                units.add(Math.max(LEAST_UNITS, response.consumedCapacity().capacityUnits()));
            }
        }
    }

    /** Queries so far. */
    long queries() {
        return queries.sum();
    }

    /** Read units so far. */
    double units() {
        return units.sum();
    }

    /** Items the Queries read (their ScannedCount: without a filter, the items they returned). */
    long items() {
        return items.sum();
    }

    /** Queries whose response said nothing of what they consumed (not in {@link #units()}). */
    long unreported() {
        return unreported.sum();
    }
}
