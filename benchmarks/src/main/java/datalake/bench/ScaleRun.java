package datalake.bench;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import datalake.dynamodb.ShardMapTable;
import datalake.emulators.DatalakeStack;
import datalake.emulators.Emulators;
import datalake.emulators.LocalEndpoints;
import datalake.bench.limits.KeyTally;
import datalake.bench.limits.PartitionKey;
import datalake.bench.limits.PartitionLimits;
import datalake.bench.limits.PartitionModel;
import datalake.bench.limits.ThrottlingProxy;
import datalake.emulators.stack.SqsEventSource;
import datalake.ingester.Ingester;
import datalake.ingester.IngesterClients;
import datalake.ingester.IngesterConfig;
import datalake.ingester.IngesterHandler;
import datalake.ingester.Telemetry;
import datalake.lambda.SdkClientFactory;
import datalake.query.QueryApi;
import datalake.query.QueryClients;
import datalake.query.QueryConfig;
import datalake.records.ShardMap;
import datalake.records.TimeBuckets;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * One run of the scale benchmark: template.yaml's tables on dynalite behind a {@link ThrottlingProxy}
 * with the run's limits, the real ingester (MaximumConcurrency sandboxes, each its own {@link Ingester})
 * fed the workload's notifications at their arrival times through a {@link LambdaQueue}, HeadObject and
 * the reports answered by {@link SimulatedAws} after a fixed round trip; then the figures, and what a
 * 30-day query of the top WHAT reads through the query function's own code.
 *
 * @param name   the run's name in the figures ({@code unthrottled}, {@code unsharded}, {@code sharded})
 * @param limits the partition limits of the run
 * @param shards the shards of the top WHAT (1: unsharded)
 */
record ScaleRun(String name, PartitionLimits limits, int shards) {
    /** Where no emulator is: the run builds only the tables, so nothing calls it. */
    private static final URI NO_MOTO = URI.create("http://127.0.0.1:9");

    /**
     * Runs the workload; waits at most {@code drainLimit} after its last arrival for every file. With
     * {@code counts}, writes there every table key's writes a second ({@link PartitionModel#writeCounts}).
     */
    ScaleFigures run(ScaleWorkload workload, URI dynamoDb, int concurrency, Duration roundTrip, Duration drainLimit,
            Optional<Path> counts) throws InterruptedException {
        try (ThrottlingProxy proxy = ThrottlingProxy.start(dynamoDb, limits)) {
            DatalakeStack stack = DatalakeStack.builder(new LocalEndpoints(proxy.endpoint(), NO_MOTO))
                    .prefix(DatalakeStack.uniquePrefix("scale-" + name)).tablesOnly().build();
            // The files start on the day after tomorrow (UTC), the first a live shard map may change.
            long day = TimeBuckets.bucketOf(System.currentTimeMillis()) + 2;
            long dayStart = TimeBuckets.startOf(day);
            if (shards > 1) {
                // The top WHAT sharded for the 30 days the query reads (a WHAT sharded for a month at least), by the
                // shard map's own writer, before any function reads the map (scripts/shards.sh, which guards live
                // functions' caches, would only take days from the day after tomorrow on).
                try (DynamoDbClient operator = Emulators.clientsFor(proxy.endpoint()).build(DynamoDbClient.builder())) {
                    new ShardMapTable(operator, stack.recordsTable()).write(ShardMap.EMPTY.with(ScaleWorkload.TOP_WHAT,
                            new ShardMap.Entry(day - 29, shards)), 0, System.currentTimeMillis());
                }
            }

            WriteAcks acks = new WriteAcks(stack.recordsTable());
            SimulatedAws aws = new SimulatedAws(roundTrip, n -> workload.named(n).metadata(dayStart));
            SdkClientFactory simulated = SdkClientFactory.of(aws,
                    StaticCredentialsProvider.create(AwsBasicCredentials.create("bench", "bench")), Region.US_EAST_1);
            DynamoDbClient dynamo = Emulators.clientsFor(proxy.endpoint()).build(DynamoDbClient.builder(),
                    o -> o.addExecutionInterceptor(acks));
            IngesterClients clients = new IngesterClients(simulated.build(S3Client.builder()), dynamo,
                    simulated.build(SnsClient.builder()), simulated.build(SqsClient.builder()));
            IngesterConfig config = IngesterConfig.fromEnvironment(stack.ingester().environment());
            SqsEventSource template = stack.ingestEventSource();
            SqsEventSource source = concurrency > 0 ? template.withMaximumConcurrency(concurrency) : template;
            Duration visibility = Duration.ofSeconds(stack.resolved().properties(source.queueLogicalId())
                    .path("VisibilityTimeout").asLong(30));
            int maxReceiveCount = Integer.parseInt(stack.ingester().environment().getOrDefault("DATALAKE_MAX_RECEIVE_COUNT", "5"));

            RetryReasons reasons = new RetryReasons();
            List<Ingester> ingesters = new ArrayList<>();
            List<RequestHandler<SQSEvent, SQSBatchResponse>> handlers = new ArrayList<>();
            for (int i = 0; i < source.maximumConcurrency(); i++) {
                Ingester ingester = Ingester.forAws(config, clients).telemetry(new Telemetry(reasons, Clock.systemUTC())).build();
                ingesters.add(ingester);
                handlers.add(new IngesterHandler(ingester));
            }
            PartitionModel model = proxy.model();
            try (LambdaQueue queue = new LambdaQueue(source, stack.ingester(), visibility, maxReceiveCount)) {
                queue.start(handlers);
                long firstSecond = model.second();
                long[] sent = feed(workload, queue, stack.bucket());
                long lastArrival = System.nanoTime();
                long lastSecond = model.second();
                long deadline = lastArrival + drainLimit.toNanos();
                while (acks.count() + queue.leftOnLastReceive() < workload.files().size() && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                try (DynamoDbClient reader = Emulators.clientsFor(proxy.endpoint()).build(DynamoDbClient.builder())) {
                    QueryApi api = QueryApi.forAws(QueryConfig.of(stack.recordsTable(), stack.bucket()),
                            new QueryClients(reader, clients.s3(), Emulators.presignerFor(NO_MOTO))).build();
                    String days = "what=" + ScaleWorkload.TOP_WHAT + "&start=" + TimeBuckets.startOf(day - 29) + "&end="
                            + (TimeBuckets.startOf(day + 1) - 1);
                    ReadCost firstPage = ReadCost.of(api, model, days, false);
                    ReadCost oneWhere = ReadCost.of(api, model, days + "&where=host00", true);
                    if (counts.isPresent()) {
                        try {
                            model.writeCounts(counts.get());
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    }
                    return figures(workload, model, queue, acks, reasons, sent, lastArrival, firstSecond, lastSecond, firstPage,
                            oneWhere);
                }
            } finally {
                ingesters.forEach(Ingester::close);
                clients.close();
            }
        }
    }

    /** Sends each file's notification at its arrival time; answers when each was sent (System.nanoTime). */
    private static long[] feed(ScaleWorkload workload, LambdaQueue queue, String bucket) throws InterruptedException {
        long[] sent = new long[workload.files().size()];
        long start = System.nanoTime();
        for (ScaleWorkload.File file : workload.files()) {
            long wait = start + TimeUnit.MILLISECONDS.toNanos(file.offsetMillis()) - System.nanoTime();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
            sent[file.n()] = System.nanoTime();
            queue.send("m" + file.n(), file.notification(bucket));
        }
        return sent;
    }

    /** The run's figures; the hottest key's seconds are those the files arrived in. */
    private ScaleFigures figures(ScaleWorkload workload, PartitionModel model, LambdaQueue queue, WriteAcks acks,
            RetryReasons reasons, long[] sent, long lastArrival, long firstSecond, long lastSecond, ReadCost firstPage,
            ReadCost oneWhere) {
        List<Double> freshness = new ArrayList<>();
        List<Double> queued = new ArrayList<>();
        long lastAck = lastArrival;
        for (ScaleWorkload.File file : workload.files()) {
            Long ack = acks.acknowledged(file.name());
            if (ack != null) {
                freshness.add((ack - sent[file.n()]) / 1e6);
                lastAck = Math.max(lastAck, ack);
                Long invoked = queue.invoked("m" + file.n());
                if (invoked != null) {
                    queued.add((invoked - sent[file.n()]) / 1e6);
                }
            }
        }
        Map<PartitionKey, KeyTally> tallies = model.tallies();
        KeyTally hottest = tallies.values().stream().filter(t -> !t.key().isIndex())
                .max(Comparator.comparingLong(KeyTally::writes)).orElseThrow();
        long throttledOnIndexes = tallies.values().stream().filter(t -> t.key().isIndex()).mapToLong(KeyTally::throttledWrites).sum();
        return new ScaleFigures(name, limits.toString(), shards, workload.files().size(), workload.seconds(),
                Percentiles.of(ScaleWorkload.sorted(workload.topWhatPerSecond())), hottest.key().value(),
                Percentiles.of(ScaleWorkload.sorted(hottest.writesPerSecond(firstSecond, lastSecond))),
                model.throttledWrites(), throttledOnIndexes, model.throttledReads(), queue.handedBack(), reasons.kinds(),
                queue.leftOnLastReceive(), workload.files().size() - acks.count(),
                Percentiles.of(freshness), Percentiles.of(queued), (lastAck - lastArrival) / 1e9, firstPage, oneWhere);
    }
}
