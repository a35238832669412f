package datalake.query;

import datalake.dynamodb.RecordItems;
import datalake.dynamodb.ShardMapTable;
import datalake.emulators.AwsEndpoints;
import datalake.emulators.DatalakeStack;
import datalake.emulators.Emulators;
import datalake.lambda.EnvironmentVariable;
import datalake.lambda.JsonLog;
import datalake.records.Metadata;
import datalake.records.Record;
import datalake.records.RecordFactory;
import datalake.records.ShardMap;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * A query test's stack of template.yaml on the emulators (its tables, its bucket), files written into the
 * tables the way the ingester writes them (RecordFactory, RecordItems, BatchWriteItem; the latest table
 * keeps the newest by start and create_time), and a {@link QueryHandler} over them, configured by the
 * template's environment of the query function and signing as its role (its calls are recorded for the
 * IAM proof).
 */
final class QueryHarness {
    private static final RecordFactory RECORDS = new RecordFactory();
    private final Emulators aws;
    private final DatalakeStack stack;
    private final AwsEndpoints queryAws;
    private final DynamoDbClient dynamoDb;

    private QueryHarness(Emulators aws, DatalakeStack stack) {
        this.aws = aws;
        this.stack = stack;
        this.queryAws = stack.endpointsOf(DatalakeStack.QUERY);
        this.dynamoDb = aws.dynamoDb();
    }

    /** A stack of its own, empty, under a prefix made from {@code hint}. */
    static QueryHarness create(Emulators aws, String hint) {
        return new QueryHarness(aws, DatalakeStack.unique(aws, hint));
    }

    DatalakeStack stack() {
        return stack;
    }

    /** The emulators as the query function's role signs. */
    AwsEndpoints queryAws() {
        return queryAws;
    }

    /** Configuration as the function reads it from the template's environment, with or without the latest table. */
    QueryConfig config(boolean withLatestTable) {
        Map<String, String> env = new HashMap<>(stack.query().environment());
        if (!withLatestTable) {
            env.remove(EnvironmentVariable.LATEST_TABLE.key());
        }
        return QueryConfig.fromEnvironment(env);
    }

    QueryHandler handler(boolean withLatestTable) {
        return handler(config(withLatestTable));
    }

    QueryHandler handler(QueryConfig config) {
        return new QueryHandler(config, queryAws.dynamoDb(), queryAws.s3(), presigner());
    }

    /**
     * The handler as {@link #handler(boolean)} builds it, but with its log (where it reports items it
     * cannot read, and their metric) and its clock (now, for latest) given.
     */
    QueryHandler handler(boolean withLatestTable, JsonLog log, Clock clock) {
        return new QueryHandler(QueryApi.forAws(config(withLatestTable),
                new QueryClients(queryAws.dynamoDb(), queryAws.s3(), presigner())).log(log).clock(clock).build());
    }

    /** A presigner for moto: path style, its endpoint, the query function's credentials. */
    S3Presigner presigner() {
        return Emulators.presignerFor(aws.motoEndpoint(), stack.credentialsOf(DatalakeStack.QUERY));
    }

    /** Writes the files' records as the ingester does. */
    void write(List<Metadata> files) {
        write(files, RECORDS);
    }

    /** Writes the files' records as the ingester does with this factory (a shard map, say); answers them. */
    List<Record> write(List<Metadata> files, RecordFactory factory) {
        List<Record> records = new ArrayList<>();
        for (Metadata m : files) {
            records.addAll(factory.records(m, RecordFactory.s3Url(stack.bucket(), m.id() + "/data"),
                    1_700_000_000_000L + m.id().hashCode() % 1000, 100L + m.id().length()));
        }
        writeRecords(records);
        return records;
    }

    /** Writes the records table's shard map item, as scripts/shards.sh does (without its checks of the days). */
    void writeShardMap(ShardMap map) {
        ShardMapTable table = new ShardMapTable(dynamoDb, stack.recordsTable());
        table.write(map, table.read().revision(), System.currentTimeMillis());
    }

    void writeRecords(List<Record> records) {
        writeRecords(dynamoDb, stack.recordsTable(), records);
    }

    /** BatchWriteItem, 25 items a call, until nothing is left unprocessed. */
    static void writeRecords(DynamoDbClient dynamoDb, String table, List<Record> records) {
        List<WriteRequest> batch = new ArrayList<>(25);
        for (Record record : records) {
            batch.add(WriteRequest.builder().putRequest(PutRequest.builder().item(RecordItems.toItem(record)).build())
                    .build());
            if (batch.size() == 25) {
                flush(dynamoDb, table, batch);
                batch = new ArrayList<>(25);
            }
        }
        if (!batch.isEmpty()) {
            flush(dynamoDb, table, batch);
        }
    }

    /** Puts a record in the latest table, as the ingester's conditional write leaves it. */
    void writeLatest(Record record) {
        dynamoDb.putItem(r -> r.tableName(stack.latestTable()).item(RecordItems.toLatestItem(record)));
    }

    private static void flush(DynamoDbClient dynamoDb, String table, List<WriteRequest> batch) {
        Map<String, List<WriteRequest>> pending = Map.of(table, batch);
        while (!pending.isEmpty()) {
            Map<String, List<WriteRequest>> request = pending;
            BatchWriteItemResponse response = dynamoDb.batchWriteItem(r -> r.requestItems(request));
            pending = response.hasUnprocessedItems() ? response.unprocessedItems() : Map.of();
        }
    }
}
