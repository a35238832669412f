package datalake.bench;

import datalake.dynamodb.RecordItems;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * When each file's record was acknowledged by DynamoDB, from the ingester's own BatchWriteItem calls (an
 * interceptor on its client: it notes times only): from then on a query finds the file. A file is named
 * by its record's range key ({@code <where>:<id>}).
 */
final class WriteAcks implements ExecutionInterceptor {
    private final String recordsTable;
    private final Map<String, Long> acknowledged = new ConcurrentHashMap<>();

    WriteAcks(String recordsTable) {
        this.recordsTable = recordsTable;
    }

    @Override
    public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
        if (!(context.request() instanceof BatchWriteItemRequest request)
                || !(context.response() instanceof BatchWriteItemResponse response)) {
            return;
        }
        long now = System.nanoTime();
        List<WriteRequest> sent = request.requestItems().getOrDefault(recordsTable, List.of());
        Set<String> unprocessed = response.unprocessedItems().getOrDefault(recordsTable, List.of()).stream()
                .map(WriteAcks::id).collect(Collectors.toSet());
        for (WriteRequest write : sent) {
            String id = id(write);
            if (!unprocessed.contains(id)) {
                acknowledged.putIfAbsent(id, now);
            }
        }
    }

    /** When the file's record was first acknowledged (System.nanoTime), or null. */
    Long acknowledged(String id) {
        return acknowledged.get(id);
    }

    int count() {
        return acknowledged.size();
    }

    private static String id(WriteRequest write) {
        Map<String, AttributeValue> item = write.putRequest() != null ? write.putRequest().item() : write.deleteRequest().key();
        String rangeKey = item.get(RecordItems.RANGE_KEY).s();
        return rangeKey.substring(rangeKey.indexOf(':') + 1);
    }
}
