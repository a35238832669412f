package datalake.tools;

import datalake.dynamodb.ObjectEntry;
import datalake.dynamodb.ObjectItems;
import datalake.dynamodb.RecordItems;
import datalake.dynamodb.ShardMapItem;
import datalake.emulators.AwsEndpoints;
import datalake.emulators.DatalakeStack;
import datalake.emulators.Emulators;
import datalake.ingester.Ingester;
import datalake.ingester.IngesterClients;
import datalake.ingester.IngesterConfig;
import datalake.ingester.Telemetry;
import datalake.lambda.Environment;
import datalake.records.Record;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A test's stack of template.yaml whose bucket holds objects "already there" (made without its notification
 * configuration, a test-side change: nobody ingested them), and the ingester the tools build on it, as an
 * operator holding the template's IndexOperatorPolicy runs them (its calls are recorded for the IAM proof).
 */
final class ToolsHarness implements AutoCloseable {
    static final String HASH = "a3e75ee4f45f676422e038f2c116d000";
    static final long START = 1_426_809_920_345L;
    final Emulators aws;
    final DatalakeStack stack;
    /** The emulators as an operator holding IndexOperatorPolicy signs. */
    final AwsEndpoints operator;
    final String bucket;
    final String recordsTable;
    final String latestTable;
    final IngesterConfig config;
    final Ingester ingester;

    ToolsHarness(Emulators aws, String hint) {
        this.aws = aws;
        this.stack = DatalakeStack.builder(aws).prefix(DatalakeStack.uniquePrefix(hint)).bucketWithoutNotifications().build();
        this.operator = stack.endpointsOf(DatalakeStack.INDEX_OPERATOR);
        this.bucket = stack.bucket();
        this.recordsTable = stack.recordsTable();
        this.latestTable = stack.latestTable();
        // The tools read the backfill function's variables (docs/DESIGN.md, "Configuration") with the
        // operator's credentials.
        Map<String, String> env = new HashMap<>(stack.backfill().environment());
        env.putAll(operator.endpointEnvironment());
        this.config = IngesterConfig.forBackfill(Environment.of(env));
        this.ingester = Ingester.forAws(config, new IngesterClients(operator.s3(), operator.dynamoDb(), null, null))
                .concurrency(16).telemetry(Telemetry.discarding()).build();
    }

    Tools tools() {
        return new Tools(config, new IngesterClients(operator.s3(), operator.dynamoDb(), null, null), ingester);
    }

    /** The tools as a new run of a command builds them: an ingester of its own, whose shard map is read afresh. */
    Tools newRun() {
        IngesterClients clients = new IngesterClients(operator.s3(), operator.dynamoDb(), null, null);
        return new Tools(config, clients, Ingester.forAws(config, clients).concurrency(4)
                .telemetry(Telemetry.discarding()).build());
    }

    static String metadata(String where, String id, long start) {
        return "{\"version\":0,\"start\":" + start + ",\"end\":null,\"path\":\"/var/log/" + id + ".log\",\"work_id\":null,"
                + "\"where\":\"" + where + "\",\"what\":\"syslog\",\"id\":\"" + id + "\",\"hash\":\"" + HASH + "\"}";
    }

    void put(String key, String metadata) {
        aws.s3().putObject(r -> r.bucket(bucket).key(key).metadata(metadata == null ? Map.of() : Map.of("datalake", metadata)),
                RequestBody.fromString("content of " + key));
    }

    /** Uploads many objects, eight at a time. */
    void putAll(Map<String, String> objects) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> pending = new ArrayList<>();
            objects.forEach((key, metadata) -> pending.add(pool.submit(() -> put(key, metadata))));
            for (Future<?> future : pending) {
                future.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    List<Map<String, AttributeValue>> items() {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        aws.dynamoDb().scanPaginator(r -> r.tableName(recordsTable).consistentRead(true)).items().forEach(items::add);
        return items;
    }

    List<Record> records() {
        List<Record> records = new ArrayList<>();
        for (Map<String, AttributeValue> item : items()) {
            if (!ObjectItems.isObjectItem(item) && !ShardMapItem.isShardMapItem(item)) {
                records.add(RecordItems.fromItem(item));
            }
        }
        return records;
    }

    List<ObjectEntry> entries() {
        List<ObjectEntry> entries = new ArrayList<>();
        for (Map<String, AttributeValue> item : items()) {
            if (ObjectItems.isObjectItem(item)) {
                entries.add(ObjectItems.fromItem(item));
            }
        }
        return entries;
    }

    String url(String key) {
        return "s3://" + bucket + "/" + key;
    }

    @Override
    public void close() {
        ingester.close();
    }
}
