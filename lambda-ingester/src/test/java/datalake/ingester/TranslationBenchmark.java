package datalake.ingester;

import datalake.records.Record;
import datalake.records.RecordFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The ingester's pure translation path, no I/O: an SQS message body (an S3 notification in an SNS
 * envelope, one record) and the object's HEAD facts to the BatchWriteItem requests of its records,
 * through the very code the handler runs (parser, key decoding, metadata validation, record
 * factory, item mapping). Target: at least 100,000 messages a second on one core. It sits beside the
 * ingester's tests, in its package (its test-jar carries it to the benchmarks module, which runs it).
 * Run with {@code scripts/bench-translation.sh} or, with every shape in the summary table,
 * {@code scripts/bench.sh}.
 *
 * <p>Message shapes and the records each yields (scripts/bench.sh multiplies messages/s by these):
 * {@code snsWrappedSingleRecord} 1, {@code directS3Event} 1, {@code eventBridgeEvent} 1,
 * {@code directS3TwoRecords} 2 (two files in one event), {@code snsWrappedThreeDayFile} 3 (one file
 * touching three day buckets). {@link #setUp} checks these counts.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class TranslationBenchmark {
    private String snsBody;
    private String directBody;
    private String eventBridgeBody;
    private String twoRecordsBody;
    private StoredObject object;
    private StoredObject threeDayObject;
    private RecordFactory factory;
    private ObjectEvent event;

    @Setup
    public void setUp() {
        snsBody = TestFiles.event("sns/envelope-put.json");
        directBody = TestFiles.event("s3/put.json");
        eventBridgeBody = TestFiles.event("eventbridge/object-created.json");
        twoRecordsBody = TestFiles.event("s3/two-records.json");
        object = new StoredObject(TestFiles.metadata("syslog", "webserver02", "6309e115c2914d0f8622973422626954",
                TestFiles.START, TestFiles.START + 3_600_000L, "job-42"), 1_715_679_064_000L, 1024);
        // Starts on day d at 02:05 and ends on day d+2: three day buckets, three records.
        threeDayObject = new StoredObject(TestFiles.metadata("syslog", "webserver02", "6309e115c2914d0f8622973422626954",
                TestFiles.START, TestFiles.START + 2 * 86_400_000L, "job-42"), 1_715_679_064_000L, 1024);
        factory = new RecordFactory();
        event = NotificationParser.parse(snsBody).events().get(0);
        expect(1, translate(snsBody, object));
        expect(1, translate(directBody, object));
        expect(1, translate(eventBridgeBody, object));
        expect(2, translate(twoRecordsBody, object));
        expect(3, translate(snsBody, threeDayObject));
    }

    private static void expect(int records, List<WriteRequest> requests) {
        if (requests.size() != records) {
            throw new IllegalStateException("a shape yields " + requests.size() + " records, not " + records
                    + ": update the counts in this class and in scripts/bench.sh");
        }
    }

    @Benchmark
    public List<WriteRequest> snsWrappedSingleRecord() {
        return translate(snsBody);
    }

    @Benchmark
    public List<WriteRequest> directS3Event() {
        return translate(directBody);
    }

    @Benchmark
    public List<WriteRequest> eventBridgeEvent() {
        return translate(eventBridgeBody);
    }

    @Benchmark
    public List<WriteRequest> directS3TwoRecords() {
        return translate(twoRecordsBody);
    }

    @Benchmark
    public List<WriteRequest> snsWrappedThreeDayFile() {
        return translate(snsBody, threeDayObject);
    }

    /** The breakdown: parsing the notification alone. */
    @Benchmark
    public Notification parseSnsWrapped() {
        return NotificationParser.parse(snsBody);
    }

    /** The breakdown: metadata validation, records and write requests, from a parsed event. */
    @Benchmark
    public List<WriteRequest> recordsOfParsedEvent() {
        List<WriteRequest> requests = new ArrayList<>(1);
        for (Record record : recordsOf(event, object)) {
            requests.add(DynamoRecordsTable.writeRequest(record));
        }
        return requests;
    }

    /** The records of one object, as the ingester's observe step makes them: validated metadata, a record per day bucket. */
    private List<Record> recordsOf(ObjectEvent event, StoredObject stored) {
        return factory.records(ObjectSync.metadataOf(event.url(), stored), event.url(), stored.lastModified(),
                stored.size());
    }

    private List<WriteRequest> translate(String body) {
        return translate(body, object);
    }

    private List<WriteRequest> translate(String body, StoredObject stored) {
        List<WriteRequest> requests = new ArrayList<>(1);
        for (ObjectEvent event : NotificationParser.parse(body).events()) {
            for (Record record : recordsOf(event, stored)) {
                requests.add(DynamoRecordsTable.writeRequest(record));
            }
        }
        return requests;
    }
}
