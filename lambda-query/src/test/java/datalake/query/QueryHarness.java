package datalake.query;

import datalake.dynamodb.RecordItems;
import datalake.emulators.Emulators;
import datalake.emulators.ResourceNames;
import datalake.emulators.TableSchemas;
import datalake.lambda.JsonLog;
import datalake.records.Metadata;
import datalake.records.Record;
import datalake.records.RecordFactory;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * A query test's tables: the records and latest tables on DynamoDB Local under names of their own, files written into them
 * the way the ingester writes them (RecordFactory, RecordItems, BatchWriteItem; the latest table keeps
 * the newest by start and create_time), and a {@link QueryHandler} over them.
 */
final class QueryHarness {
    private static final RecordFactory RECORDS = new RecordFactory();
    private final Emulators aws;
    private final ResourceNames names;
    private final DynamoDbClient dynamoDb;

    private QueryHarness(Emulators aws, ResourceNames names) {
        this.aws = aws;
        this.names = names;
        this.dynamoDb = aws.dynamoDb();
    }

    /** New, empty tables named after {@code hint}. */
    static QueryHarness create(Emulators aws, String hint) {
        QueryHarness harness = new QueryHarness(aws, ResourceNames.unique(hint));
        DynamoDbClient dynamoDb = aws.dynamoDb();
        dynamoDb.createTable(TableSchemas.recordsTable(harness.names.recordsTable()));
        dynamoDb.createTable(TableSchemas.latestTable(harness.names.latestTable()));
        return harness;
    }

    ResourceNames names() {
        return names;
    }

    /** Configuration as the function would read it, with or without the latest table. */
    QueryConfig config(boolean withLatestTable) {
        QueryConfig config = QueryConfig.of(names.recordsTable(), names.bucket());
        return withLatestTable ? config.withLatestTable(names.latestTable()) : config;
    }

    QueryHandler handler(boolean withLatestTable) {
        return handler(config(withLatestTable));
    }

    QueryHandler handler(QueryConfig config) {
        return new QueryHandler(config, dynamoDb, aws.s3(), presigner());
    }

    /**
     * The handler as {@link #handler(boolean)} builds it, but with its log (where it reports items it
     * cannot read, and their metric) and its clock (now, for latest) given.
     */
    QueryHandler handler(boolean withLatestTable, JsonLog log, Clock clock) {
        return new QueryHandler(QueryApi.forAws(config(withLatestTable),
                new QueryClients(dynamoDb, aws.s3(), presigner())).log(log).clock(clock).build());
    }

    /** A presigner for moto: path style, its endpoint, the local credentials. */
    S3Presigner presigner() {
        return aws.presigner();
    }

    /** Writes the files' records (and their latest entries) as the ingester does. */
    void write(List<Metadata> files) {
        List<Record> records = new ArrayList<>();
        for (Metadata m : files) {
            records.addAll(RECORDS.records(m, RecordFactory.s3Url(names.bucket(), m.id() + "/data"),
                    1_700_000_000_000L + m.id().hashCode() % 1000, 100L + m.id().length()));
        }
        writeRecords(records);
    }

    void writeRecords(List<Record> records) {
        writeRecords(dynamoDb, names.recordsTable(), records);
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
        dynamoDb.putItem(r -> r.tableName(names.latestTable()).item(RecordItems.toLatestItem(record)));
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
