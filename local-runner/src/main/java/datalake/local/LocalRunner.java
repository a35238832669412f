package datalake.local;

import datalake.emulators.AwsEndpoints;
import datalake.emulators.DatalakeStack;
import datalake.emulators.Dynalite;
import datalake.emulators.Emulators;
import datalake.emulators.HttpApiServer;
import datalake.emulators.LocalEndpoints;
import datalake.emulators.MotoServer;
import datalake.emulators.SigV4Verifier;
import datalake.emulators.SqsLambdaPoller;
import datalake.emulators.stack.ApiRouter;
import datalake.emulators.stack.ApiSettings;
import datalake.emulators.stack.FunctionSettings;
import datalake.ingester.Ingester;
import datalake.ingester.IngesterClients;
import datalake.ingester.IngesterConfig;
import datalake.ingester.IngesterHandler;
import datalake.ingester.Telemetry;
import datalake.lambda.EnvironmentVariable;
import datalake.query.QueryApi;
import datalake.query.QueryClients;
import datalake.query.QueryConfig;
import datalake.query.QueryHandler;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The whole pipeline on a laptop ({@code scripts/local.sh}): dynalite and moto, the stack of
 * template.yaml built on them (its bucket and notification, queues, topics and tables), the ingester fed
 * from the queue by its event source mapping's settings with Lambda's SQS semantics, and the query API over
 * HTTP with the template's routes; then a demo dataset pushed through the real S3 → SNS → SQS path. Runs
 * in the foreground until Ctrl-C or SIGTERM, then stops all it started.
 */
public final class LocalRunner implements AutoCloseable {
    /** The line a script or test waits for; it carries the API URL. */
    static final String READY = "datalake local: ready";
    /** The exit status when an emulator is gone. */
    static final int EMULATOR_GONE = 3;
    static final int SUMMARY_SECONDS = 10;
    /** How long a stopping runner waits for the batches in hand. */
    private static final Duration POLLER_STOP = Duration.ofSeconds(30);

    private final RunnerOptions options;
    private final Dynalite dynamoDb;
    private final MotoServer moto;
    private FunctionLog log;
    private HttpApiServer api;
    private SqsLambdaPoller poller;
    private ScheduledExecutorService watcher;
    private final List<ScheduledFuture<?>> watches = new ArrayList<>();

    LocalRunner(RunnerOptions options) {
        this.options = options;
        this.dynamoDb = new Dynalite(options.dynamoDbPort());
        this.moto = new MotoServer(MotoServer.defaultVirtualEnv(), options.motoPort(), MotoServer.DEFAULT_STARTUP_TIMEOUT);
    }

    public static void main(String[] args) throws Exception {
        RunnerOptions options;
        try {
            options = RunnerOptions.parse(args, System.getenv());
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage() + " (scripts/local.sh --help lists the options)");
            System.exit(2);
            return;
        }
        LocalRunner runner = new LocalRunner(options);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            progress("stopping");
            runner.close();
            stopped.countDown();
        }, "datalake-local-shutdown"));
        try {
            runner.start();
        } catch (RuntimeException | IOException e) {
            System.err.println("error: the local pipeline did not start: " + e.getMessage());
            System.exit(1);
        }
        stopped.await();
    }

    void start() throws IOException, InterruptedException {
        log = new FunctionLog(options.log(), FunctionLog.MAX_BYTES, System.out);
        progress("[1/6] starting dynalite on port " + portText(options.dynamoDbPort()));
        dynamoDb.start();
        progress("[2/6] starting moto (S3, SQS, SNS) on port " + portText(options.motoPort()));
        moto.start();

        URI motoUrl = moto.endpoint();
        AwsEndpoints endpoints = new LocalEndpoints(dynamoDb.endpoint(), motoUrl);

        progress("[3/6] building template.yaml's stack: its bucket, topics, queues and tables");
        DatalakeStack stack = stack(endpoints, options.parameters());

        FunctionSettings ingesterFunction = stack.ingester();
        Map<String, String> env = new HashMap<>(ingesterFunction.environment());
        env.put(EnvironmentVariable.S3_PATH_STYLE.key(), "true");
        AwsEndpoints ingesterAws = stack.endpointsOf(DatalakeStack.INGESTER);
        var source = stack.ingestEventSource();
        progress("[4/6] starting the ingester on " + stack.prefix() + "-ingest (batches of " + source.batchSize()
                + ", " + source.maximumConcurrency() + " at once)");
        IngesterHandler ingester = new IngesterHandler(Ingester.forAws(IngesterConfig.fromEnvironment(env),
                new IngesterClients(ingesterAws.s3(), ingesterAws.dynamoDb(), ingesterAws.sns(), ingesterAws.sqs()))
                .telemetry(new Telemetry(log.writer("datalake.ingester"))).build());
        poller = new SqsLambdaPoller(stack.pollerEndpoints().sqs(), source, ingester, ingesterFunction);
        poller.start();

        progress("[5/6] starting the query API on port " + portText(options.apiPort()));
        AwsEndpoints queryAws = stack.endpointsOf(DatalakeStack.QUERY);
        QueryHandler query = new QueryHandler(QueryApi.forAws(QueryConfig.fromEnvironment(stack.query().environment()),
                new QueryClients(queryAws.dynamoDb(), queryAws.s3(),
                        Emulators.presignerFor(motoUrl, stack.credentialsOf(DatalakeStack.QUERY))))
                .log(log.writer("datalake.query")).build());
        ApiSettings routes = stack.api();
        HttpApiServer.Builder server = HttpApiServer.builder(new ApiRouter(routes, Map.of(DatalakeStack.QUERY, query)))
                .port(options.apiPort()).staticFiles(ExplorerPage.files());
        if (options.auth() == RunnerOptions.Auth.IAM) {
            // --auth iam serves the API as the template's ApiAuthMode AWS_IAM does.
            if (routes.routes().stream().anyMatch(r -> !r.authorization().equals("AWS_IAM"))) {
                throw new IllegalStateException("--auth iam emulates ApiAuthMode AWS_IAM, but the template's routes are "
                        + routes.routes().stream().map(ApiSettings.Route::authorization).distinct().toList()
                        + "; JWT is not verified locally.");
            }
            server.sigV4(SigV4Verifier.forLocalApi());
        }
        api = server.start();
        String apiUrl = api.url().toString();
        LocalSigner signer = new LocalSigner(options.auth());

        long now = System.currentTimeMillis();
        if (options.demo()) {
            progress("[6/6] pushing the demo dataset through S3 -> "
                    + (stack.resolved().exists("UploadTopic") ? "SNS -> " : "") + "SQS -> ingester");
            Path scratch = Files.createTempDirectory("datalake-demo");
            List<Pusher.Pushed> pushed = DemoData.push(new Pusher(endpoints.s3(), stack.bucket()), now, scratch);
            try (var files = Files.list(scratch)) {
                for (Path file : files.toList()) {
                    Files.delete(file);
                }
            }
            Files.delete(scratch);
            waitUntilQueryable(StartupMessage.examples(apiUrl, now), pushed.size(), signer);
        } else {
            progress("[6/6] no demo dataset (--no-demo)");
        }
        new StartupMessage(options, apiUrl, motoUrl, dynamoDb.endpoint(), stack, log.file(), now).print(System.out);
        watch(stack);
    }

    /**
     * The local stack for these parameters, built or (when it is there) brought to them: the runner and
     * scripts/invoke.sh resolve it by this one call. As deployed (S3 -> SNS upload topic -> SQS, raw), but
     * for one local change: moto sends no notification for a delete marker, so the bucket keeps no versions
     * and deletes reach the ingester. Nothing is subscribed to the report topic: a queue nobody drains only
     * grows (moto slows with depth).
     */
    static DatalakeStack stack(AwsEndpoints endpoints, Map<String, String> parameters) {
        return DatalakeStack.builder(endpoints).parameters(parameters).unversionedBucket().build();
    }

    /**
     * Once a second, whether both emulators are there (else the runner stops, saying which is gone); every
     * {@value #SUMMARY_SECONDS} s, a line of what happened.
     */
    private void watch(DatalakeStack stack) {
        EmulatorWatch emulators = new EmulatorWatch(moto, dynamoDb);
        SqsClient sqs = stack.pollerEndpoints().sqs();
        ActivitySummary summary = new ActivitySummary(api::counts, poller::messages, poller::failedItems,
                () -> ingestQueueDepth(sqs, stack.ingestQueueUrl()), log.file());
        watcher = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "datalake-local-watch");
            thread.setDaemon(true);
            return thread;
        });
        watches.add(watcher.scheduleWithFixedDelay(continuing(() -> emulators.check().ifPresent(gone -> {
            System.err.println("error: " + gone + "; the local pipeline cannot go on without it, so it stops.");
            System.exit(EMULATOR_GONE);
        })), 1, 1, TimeUnit.SECONDS));
        watches.add(watcher.scheduleAtFixedRate(continuing(() -> summary.next(SUMMARY_SECONDS)
                .ifPresent(LocalRunner::progress)), SUMMARY_SECONDS, SUMMARY_SECONDS, TimeUnit.SECONDS));
    }

    /** A periodic task that a fault does not end (a scheduled task that throws never runs again). */
    private static Runnable continuing(Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                System.err.println("local: the watch failed once: " + e);
            }
        };
    }

    private static long ingestQueueDepth(SqsClient sqs, String queueUrl) {
        try {
            return IngestBacklog.depth(sqs, queueUrl);
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /** Polls the example queries until they return the demo files, so what is printed works. */
    private static void waitUntilQueryable(List<String> queries, int files, LocalSigner signer)
            throws IOException, InterruptedException {
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.currentTimeMillis() + 60_000;
        int answered = 0;
        while (answered < queries.size() && System.currentTimeMillis() < deadline) {
            HttpRequest request = signer.get(queries.get(answered));
            if (http.send(request, HttpResponse.BodyHandlers.ofString()).body().contains("\"url\"")) {
                answered++;
            } else {
                Thread.sleep(250);
            }
        }
        progress(answered == queries.size()
                ? "      " + files + " demo files pushed, indexed and queryable"
                : "      warning: the demo files are not all queryable after 60 s; see the ingester's log lines");
    }

    @Override
    public synchronized void close() {
        if (watcher != null) {
            // Not awaited: the watcher itself may be what is exiting the JVM.
            watches.forEach(watch -> watch.cancel(false));
            watcher.shutdownNow();
        }
        if (poller != null) {
            poller.close(POLLER_STOP);
        }
        if (api != null) {
            api.close();
        }
        moto.close();
        dynamoDb.close();
        if (log != null) {
            log.close();
        }
    }

    private static String portText(int port) {
        return port == 0 ? "(a free port)" : Integer.toString(port);
    }

    static void progress(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
