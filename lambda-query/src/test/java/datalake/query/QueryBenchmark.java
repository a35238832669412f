package datalake.query;

import static datalake.query.TestFiles.DAY;
import static datalake.query.TestFiles.T0;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import datalake.localstack.AwsClients;
import datalake.localstack.LocalAws;
import datalake.localstack.StackNames;
import datalake.localstack.TableSchemas;
import datalake.records.Metadata;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A 30-day time query against a 1-day one with the same number of files in every day bucket, through
 * {@link QueryApi} on DynamoDB Local: the 30-day query reads its buckets concurrently, so it should take
 * at most twice as long. Run with {@code scripts/bench-query.sh}; prints both figures and their ratio.
 *
 * <p>On DynamoDB Local as it is (in-process, no network: every Query costs only CPU, the emulator's
 * and the client's, on this machine's cores, which no fan-out can overlap), and with a simulated round
 * trip before every DynamoDB call ({@code --latency-ms}, 5 and 10 by default; an in-region Query takes
 * a few milliseconds), which is what the fan-out exists to overlap. Each mode also prints the 30-day
 * query reading its buckets one after another, for reference.
 */
public final class QueryBenchmark {
    private static final int FILES_PER_BUCKET = 3;
    private static final int BUCKETS = 30;

    private QueryBenchmark() {
    }

    public static void main(String[] args) {
        int[] latencies = {5, 10};
        int iterations = 200;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--latency-ms") && i + 1 < args.length) {
                latencies = Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt).toArray();
            } else if (args[i].equals("--iterations") && i + 1 < args.length) {
                iterations = Integer.parseInt(args[++i]);
            } else {
                throw new IllegalArgumentException("usage: QueryBenchmark [--latency-ms N[,N...]] [--iterations N]");
            }
        }
        LocalAws aws = LocalAws.shared();
        try {
            StackNames names = StackNames.unique("bench");
            aws.dynamoDb().createTable(TableSchemas.recordsTable(names.recordsTable()));
            writeFiles(aws, names);
            System.out.printf(Locale.ROOT, "%d files in each of %d day buckets; %d runs of each query after warm-up;"
                    + " %d cores%n", FILES_PER_BUCKET, BUCKETS, iterations, Runtime.getRuntime().availableProcessors());
            run("DynamoDB Local, no added latency", aws.dynamoDb(), names, iterations);
            for (int latency : latencies) {
                try (DynamoDbClient slow = AwsClients.dynamoDbBuilder(aws.dynamoDbEndpoint())
                        .overrideConfiguration(c -> c.addExecutionInterceptor(new Latency(latency)))
                        .build()) {
                    run("DynamoDB Local + " + latency + " ms per call (a network round trip)", slow, names, iterations);
                }
            }
        } finally {
            aws.close();
        }
    }

    private static void writeFiles(LocalAws aws, StackNames names) {
        List<Metadata> files = new ArrayList<>();
        for (int bucket = 0; bucket < BUCKETS; bucket++) {
            for (int n = 0; n < FILES_PER_BUCKET; n++) {
                files.add(TestFiles.file(String.format("b%02d-%d", bucket, n), "syslog", "web",
                        T0 + bucket * DAY + (n + 1) * (DAY / (FILES_PER_BUCKET + 1)), null));
            }
        }
        LocalQueryStack.writeRecords(aws.dynamoDb(), names.recordsTable(), TestFiles.records(files));
    }

    private static void run(String title, DynamoDbClient dynamoDb, StackNames names, int iterations) {
        QueryConfig config = QueryConfig.of(names.recordsTable(), names.bucket());
        DynamoRecordsTable table = new DynamoRecordsTable(dynamoDb, names.recordsTable());
        QueryApi api = new QueryApi(config, table, null, new NoFiles(), Clock.systemUTC());
        // For reference only: the same code reading one bucket after another (waves of one bucket).
        QueryApi sequential = new QueryApi(config, table, null, new NoFiles(), Clock.systemUTC(),
                new TimeQueryPager.Limits(100, 1, 256, 101));
        // 1 day: the bucket of day 10. 30 days: the buckets of days 0 to 29.
        String oneDay = "what=syslog&start=" + (T0 + 10 * DAY) + "&end=" + (T0 + 11 * DAY - 1);
        String thirtyDays = "what=syslog&start=" + T0 + "&end=" + (T0 + 30 * DAY - 1);
        check(api, oneDay, FILES_PER_BUCKET);
        check(api, thirtyDays, BUCKETS * FILES_PER_BUCKET);
        check(sequential, thirtyDays, BUCKETS * FILES_PER_BUCKET);
        // DynamoDB Local and the SDK take a few thousand calls to be compiled.
        for (int i = 0; i < 3 * iterations; i++) {
            time(api, oneDay);
            time(api, thirtyDays);
        }
        long[] one = new long[iterations];
        long[] thirty = new long[iterations];
        long[] oneByOne = new long[Math.max(10, iterations / 10)];
        for (int i = 0; i < iterations; i++) {
            one[i] = time(api, oneDay);
            thirty[i] = time(api, thirtyDays);
        }
        for (int i = 0; i < oneByOne.length; i++) {
            oneByOne[i] = time(sequential, thirtyDays);
        }
        double oneMedian = median(one);
        double thirtyMedian = median(thirty);
        System.out.printf(Locale.ROOT, "%s:%n", title);
        System.out.printf(Locale.ROOT, "  1-day query  (1 bucket,   %2d files): median %7.2f ms, p90 %7.2f ms%n",
                FILES_PER_BUCKET, oneMedian, percentile(one, 0.9));
        System.out.printf(Locale.ROOT, "  30-day query (%d buckets, %2d files): median %7.2f ms, p90 %7.2f ms%n",
                BUCKETS, BUCKETS * FILES_PER_BUCKET, thirtyMedian, percentile(thirty, 0.9));
        System.out.printf(Locale.ROOT, "  ratio 30-day / 1-day: %.2f (target <= 2.00)%n", thirtyMedian / oneMedian);
        System.out.printf(Locale.ROOT, "  (reference: the 30-day query reading its buckets one after another: median %.2f ms)%n",
                median(oneByOne));
    }

    private static void check(QueryApi api, String query, int expected) {
        APIGatewayV2HTTPResponse response = api.handle(Events.get("/v0/archive/files/", query));
        int count = Events.body(response).path("records").size();
        if (response.getStatusCode() != 200 || count != expected || !Events.body(response).path("next").isNull()) {
            throw new IllegalStateException("expected one page of " + expected + " records, got " + count
                    + " (status " + response.getStatusCode() + ")");
        }
    }

    private static long time(QueryApi api, String query) {
        long started = System.nanoTime();
        api.handle(Events.get("/v0/archive/files/", query));
        return System.nanoTime() - started;
    }

    private static double median(long[] nanos) {
        return percentile(nanos, 0.5);
    }

    private static double percentile(long[] nanos, double p) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return sorted[(int) Math.min(sorted.length - 1, Math.round(p * (sorted.length - 1)))] / 1e6;
    }

    /** Sleeps before each request is sent, as a network round trip would delay it. */
    private record Latency(int millis) implements ExecutionInterceptor {
        @Override
        public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
            try {
                Thread.sleep(Duration.ofMillis(millis));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static final class NoFiles implements FileStore {
        @Override
        public Optional<Map<String, String>> userMetadata(String bucket, String key) {
            return Optional.empty();
        }

        @Override
        public URI presignedGet(String bucket, String key, Duration validity) {
            throw new UnsupportedOperationException("the benchmark reads no files");
        }
    }
}
