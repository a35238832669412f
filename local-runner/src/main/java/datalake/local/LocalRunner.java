package datalake.local;

import datalake.emulators.AwsEndpoints;
import datalake.emulators.DatalakeStack;
import datalake.emulators.DynamoDbLocal;
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
import datalake.lambda.EnvironmentVariable;
import datalake.query.QueryConfig;
import datalake.query.QueryHandler;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * The whole pipeline on a laptop ({@code scripts/local.sh}): DynamoDB Local and moto, the stack of
 * template.yaml built on them (its bucket and notification, queues, topics and tables), the ingester fed
 * from the queue by its event source mapping's settings with Lambda's SQS semantics, and the query API over
 * HTTP with the template's routes; then a demo dataset pushed through the real S3 → SNS → SQS path. Runs
 * in the foreground until Ctrl-C or SIGTERM, then stops all it started.
 */
public final class LocalRunner implements AutoCloseable {
    /** The line a script or test waits for; it carries the API URL. */
    static final String READY = "datalake local: ready";

    private final RunnerOptions options;
    private final DynamoDbLocal dynamoDb;
    private final MotoServer moto;
    private HttpApiServer api;
    private SqsLambdaPoller poller;

    LocalRunner(RunnerOptions options) {
        this.options = options;
        this.dynamoDb = new DynamoDbLocal(options.dynamoDbPort());
        this.moto = new MotoServer(MotoServer.defaultVirtualEnv(), options.motoPort(), MotoServer.DEFAULT_STARTUP_TIMEOUT);
    }

    public static void main(String[] args) throws Exception {
        RunnerOptions options;
        try {
            options = RunnerOptions.parse(args, System.getenv());
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            System.err.println(RunnerOptions.USAGE);
            System.exit(2);
            return;
        }
        if (options.help()) {
            System.out.println(RunnerOptions.USAGE);
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
        progress("[1/6] starting DynamoDB Local on port " + portText(options.dynamoDbPort()));
        dynamoDb.start();
        progress("[2/6] starting moto (S3, SQS, SNS) on port " + portText(options.motoPort()));
        moto.start();

        URI motoUrl = moto.endpoint();
        AwsEndpoints endpoints = new LocalEndpoints(dynamoDb.endpoint(), motoUrl);

        progress("[3/6] building template.yaml's stack: its bucket, topics, queues and tables");
        // As deployed (S3 -> SNS upload topic -> SQS, raw), but for one local change: moto sends no
        // notification for a delete marker, so the bucket keeps no versions and deletes reach the ingester.
        // Nothing is subscribed to the report topic: a queue nobody drains only grows (moto slows with depth).
        DatalakeStack stack = DatalakeStack.builder(endpoints).parameters(options.parameters()).unversionedBucket().build();

        FunctionSettings ingesterFunction = stack.ingester();
        Map<String, String> env = new HashMap<>(ingesterFunction.environment());
        env.put(EnvironmentVariable.S3_PATH_STYLE.key(), "true");
        AwsEndpoints ingesterAws = stack.endpointsOf(DatalakeStack.INGESTER);
        var source = stack.ingestEventSource();
        progress("[4/6] starting the ingester on " + stack.prefix() + "-ingest (batches of " + source.batchSize()
                + ", " + source.maximumConcurrency() + " at once)");
        IngesterHandler ingester = new IngesterHandler(Ingester.forAws(IngesterConfig.fromEnvironment(env),
                new IngesterClients(ingesterAws.s3(), ingesterAws.dynamoDb(), ingesterAws.sns(), ingesterAws.sqs())).build());
        poller = new SqsLambdaPoller(stack.pollerEndpoints().sqs(), source, ingester, ingesterFunction);
        poller.start();

        progress("[5/6] starting the query API on port " + portText(options.apiPort()));
        AwsEndpoints queryAws = stack.endpointsOf(DatalakeStack.QUERY);
        QueryHandler query = new QueryHandler(QueryConfig.fromEnvironment(stack.query().environment()),
                queryAws.dynamoDb(), queryAws.s3(), Emulators.presignerFor(motoUrl, stack.credentialsOf(DatalakeStack.QUERY)));
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
            progress("[6/6] pushing the demo dataset through S3 -> SNS -> SQS -> ingester");
            Path scratch = Files.createTempDirectory("datalake-demo");
            List<Pusher.Pushed> pushed = DemoData.push(new Pusher(endpoints.s3(), stack.bucket()), now, scratch);
            waitUntilQueryable(examples(apiUrl, now), pushed.size(), signer);
        } else {
            progress("[6/6] no demo dataset (--no-demo)");
        }
        printSummary(apiUrl, motoUrl, stack, now);
    }

    private static final long DAY = 86_400_000L;

    /** The example queries the summary prints; each returns demo data once it is indexed. */
    static List<String> examples(String apiUrl, long now) {
        long today = Math.floorDiv(now, DAY) * DAY;
        return List.of(
                apiUrl + "/v0/archive/files/?what=syslog&where=webserver01&start=" + (today - 3 * DAY)
                        + "&end=" + (today + DAY),
                apiUrl + "/v0/archive/files/?what=job-output&work_id=" + DemoData.WORK_ID,
                apiUrl + "/v0/archive/latest/syslog/webserver02");
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

    private void printSummary(String apiUrl, URI motoUrl, DatalakeStack stack, long now) {
        System.out.println();
        System.out.println("datalake is running locally. Ctrl-C stops everything.");
        System.out.println("  explorer page  " + apiUrl + "/" + (options.auth() == RunnerOptions.Auth.IAM
                ? " (its API calls need signatures: scripts/explore.sh --api " + apiUrl + ")" : ""));
        System.out.println("  query API      " + apiUrl + "/v0/archive/" + (options.auth() == RunnerOptions.Auth.IAM
                ? " (SigV4 only: execute-api, " + stack.region() + ", AWS_ACCESS_KEY_ID=" + Emulators.ACCESS_KEY_ID
                + " AWS_SECRET_ACCESS_KEY=" + Emulators.SECRET_ACCESS_KEY + ")" : ""));
        System.out.println("  S3/SQS/SNS     " + motoUrl + " (moto; bucket " + stack.bucket() + ")");
        System.out.println("  DynamoDB       " + dynamoDb.endpoint() + " (tables " + stack.recordsTable() + ", "
                + stack.latestTable() + ")");
        System.out.println("  ingest queue   " + stack.ingestQueueUrl() + " (DLQ " + stack.deadLetterQueueUrl() + ")");
        System.out.println("  reports        " + stack.reportTopicArn());
        System.out.println();
        System.out.println("Try:");
        String curl = options.auth() == RunnerOptions.Auth.IAM
                ? "curl --aws-sigv4 'aws:amz:" + stack.region() + ":execute-api' --user " + Emulators.ACCESS_KEY_ID + ":"
                        + Emulators.SECRET_ACCESS_KEY + " '"
                : "curl '";
        for (String example : examples(apiUrl, now)) {
            System.out.println("  " + curl + example + "'");
        }
        System.out.println();
        System.out.println("Push your own file (from another terminal):");
        System.out.println("  scripts/push.sh --endpoint " + motoUrl + " --bucket " + stack.bucket()
                + " --what syslog --where myhost /var/log/syslog");
        System.out.println();
        System.out.println(READY + " api=" + apiUrl + " s3=" + motoUrl + " bucket=" + stack.bucket()
                + " auth=" + options.auth().name().toLowerCase(java.util.Locale.ROOT));
        System.out.flush();
    }

    @Override
    public synchronized void close() {
        if (poller != null) {
            poller.close();
        }
        if (api != null) {
            api.close();
        }
        moto.close();
        dynamoDb.close();
    }

    private static String portText(int port) {
        return port == 0 ? "(a free port)" : Integer.toString(port);
    }

    static void progress(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
