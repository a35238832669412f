package datalake.local;

import datalake.emulators.Deployment;
import datalake.emulators.DynamoDbLocal;
import datalake.emulators.Emulators;
import datalake.emulators.HttpApiServer;
import datalake.emulators.MotoServer;
import datalake.emulators.ResourceNames;
import datalake.emulators.SigV4Verifier;
import datalake.emulators.SqsLambdaPoller;
import datalake.ingester.Ingester;
import datalake.ingester.IngesterClients;
import datalake.ingester.IngesterConfig;
import datalake.ingester.IngesterHandler;
import datalake.lambda.EnvironmentVariable;
import datalake.lambda.SdkClientFactory;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The whole pipeline on a laptop ({@code scripts/local.sh}): DynamoDB Local and moto, the
 * template's bucket, notification, queues, topics and tables, the ingester fed from the queue with
 * Lambda's SQS semantics, and the query API over HTTP; then a demo dataset pushed through the real
 * S3 → SNS → SQS path. Runs in the foreground until Ctrl-C or SIGTERM, then stops all it started.
 */
public final class LocalRunner implements AutoCloseable {
    /** The line a script or test waits for; it carries the API URL. */
    static final String READY = "datalake local: ready";

    private final RunnerOptions options;
    private final DynamoDbLocal dynamoDb;
    private final MotoServer moto;
    private HttpApiServer api;
    private SqsLambdaPoller poller;
    private Thread pollerThread;

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
        SdkClientFactory motoClients = Emulators.clientsFor(motoUrl);
        DynamoDbClient dynamo = Emulators.clientsFor(dynamoDb.endpoint()).build(DynamoDbClient.builder());
        S3Client s3 = motoClients.build(S3Client.builder().forcePathStyle(true));
        SqsClient sqs = motoClients.build(SqsClient.builder());
        SnsClient sns = motoClients.build(SnsClient.builder());

        progress("[3/6] creating the template's bucket, topics, queues and tables");
        ResourceNames names = options.names();
        // As deployed: S3 -> SNS upload topic -> SQS with raw delivery (template.yaml UploadSubscription).
        Deployment deployment = Deployment.create(dynamo, s3, sqs, sns, names,
                Deployment.Options.defaults().withRawDelivery(true));

        Map<String, String> env = new HashMap<>(deployment.environment());
        env.putAll(Emulators.endpointEnvironment(dynamoDb.endpoint(), motoUrl));
        env.put(EnvironmentVariable.S3_PATH_STYLE.key(), "true");
        env.put(EnvironmentVariable.FUNCTION_NAME.key(), "datalake-ingester");

        progress("[4/6] starting the ingester on " + names.ingestQueue() + " (batches of " + options.batchSize() + ")");
        IngesterHandler ingester = new IngesterHandler(Ingester.forAws(IngesterConfig.fromEnvironment(env),
                new IngesterClients(s3, dynamo, sns, sqs)).build());
        poller = new SqsLambdaPoller(sqs, deployment.ingestQueueUrl(), deployment.ingestQueueArn(), names.region(), ingester,
                options.batchSize(), Duration.ofSeconds(60));
        pollerThread = new Thread(poller, "datalake-local-ingester");
        pollerThread.setDaemon(true);
        pollerThread.start();

        progress("[5/6] starting the query API on port " + portText(options.apiPort()));
        QueryHandler query = new QueryHandler(QueryConfig.fromEnvironment(env), dynamo, s3,
                Emulators.presignerFor(motoUrl));
        HttpApiServer.Builder server = HttpApiServer.builder(query).port(options.apiPort())
                .staticFiles(ExplorerPage.files());
        if (options.auth() == RunnerOptions.Auth.IAM) {
            server.sigV4(SigV4Verifier.forLocalApi());
        }
        api = server.start();
        String apiUrl = api.url().toString();
        LocalSigner signer = new LocalSigner(options.auth());

        long now = System.currentTimeMillis();
        if (options.demo()) {
            progress("[6/6] pushing the demo dataset through S3 -> SNS -> SQS -> ingester");
            Path scratch = Files.createTempDirectory("datalake-demo");
            List<Pusher.Pushed> pushed = DemoData.push(new Pusher(s3, names.bucket()), now, scratch);
            waitUntilQueryable(examples(apiUrl, now), pushed.size(), signer);
        } else {
            progress("[6/6] no demo dataset (--no-demo)");
        }
        printSummary(apiUrl, motoUrl, deployment, now);
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

    private void printSummary(String apiUrl, URI motoUrl, Deployment deployment, long now) {
        ResourceNames names = deployment.names();
        System.out.println();
        System.out.println("datalake is running locally. Ctrl-C stops everything.");
        System.out.println("  explorer page  " + apiUrl + "/" + (options.auth() == RunnerOptions.Auth.IAM
                ? " (its API calls need signatures: scripts/explore.sh --api " + apiUrl + ")" : ""));
        System.out.println("  query API      " + apiUrl + "/v0/archive/" + (options.auth() == RunnerOptions.Auth.IAM
                ? " (SigV4 only: execute-api, " + names.region() + ", AWS_ACCESS_KEY_ID=" + Emulators.ACCESS_KEY_ID
                + " AWS_SECRET_ACCESS_KEY=" + Emulators.SECRET_ACCESS_KEY + ")" : ""));
        System.out.println("  S3/SQS/SNS     " + motoUrl + " (moto; bucket " + names.bucket() + ")");
        System.out.println("  DynamoDB       " + dynamoDb.endpoint() + " (tables " + names.recordsTable() + ", "
                + names.latestTable() + ")");
        System.out.println("  ingest queue   " + deployment.ingestQueueUrl() + " (DLQ " + names.deadLetterQueue() + ")");
        System.out.println("  reports        " + deployment.reportTopicArn());
        System.out.println();
        System.out.println("Try:");
        String curl = options.auth() == RunnerOptions.Auth.IAM
                ? "curl --aws-sigv4 'aws:amz:" + names.region() + ":execute-api' --user " + Emulators.ACCESS_KEY_ID + ":"
                        + Emulators.SECRET_ACCESS_KEY + " '"
                : "curl '";
        for (String example : examples(apiUrl, now)) {
            System.out.println("  " + curl + example + "'");
        }
        System.out.println();
        System.out.println("Push your own file (from another terminal):");
        System.out.println("  scripts/push.sh --endpoint " + motoUrl + " --bucket " + names.bucket()
                + " --what syslog --where myhost /var/log/syslog");
        System.out.println();
        System.out.println(READY + " api=" + apiUrl + " s3=" + motoUrl + " bucket=" + names.bucket()
                + " auth=" + options.auth().name().toLowerCase(java.util.Locale.ROOT));
        System.out.flush();
    }

    @Override
    public synchronized void close() {
        if (poller != null) {
            poller.stop();
        }
        if (pollerThread != null) {
            try {
                pollerThread.join(3000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
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
