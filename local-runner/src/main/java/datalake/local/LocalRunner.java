package datalake.local;

import datalake.ingester.IngesterConfig;
import datalake.ingester.IngesterHandler;
import datalake.localstack.AwsClients;
import datalake.localstack.DynamoDbLocal;
import datalake.localstack.MotoServer;
import datalake.localstack.Stack;
import datalake.localstack.StackNames;
import datalake.localstack.StackOptions;
import datalake.localstack.StackResources;
import datalake.query.QueryConfig;
import datalake.query.QueryHandler;
import datalake.query.local.HttpApiServer;
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
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;
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
        DynamoDbClient dynamo = AwsClients.dynamoDb(dynamoDb.endpoint());
        S3Client s3 = AwsClients.s3(motoUrl);
        SqsClient sqs = AwsClients.sqs(motoUrl);
        SnsClient sns = AwsClients.sns(motoUrl);

        progress("[3/6] creating the template's bucket, topics, queues and tables");
        StackNames names = options.names();
        // As deployed: S3 -> SNS upload topic -> SQS with raw delivery (template.yaml UploadSubscription).
        Stack stack = new StackResources(dynamo, s3, sqs, sns)
                .create(names, StackOptions.defaults().withRawDelivery(true));

        Map<String, String> env = new HashMap<>(stack.environment());
        env.put("AWS_ENDPOINT_URL_DYNAMODB", dynamoDb.endpoint().toString());
        env.put("AWS_ENDPOINT_URL_S3", motoUrl.toString());
        env.put("AWS_ENDPOINT_URL_SQS", motoUrl.toString());
        env.put("AWS_ENDPOINT_URL_SNS", motoUrl.toString());
        env.put("DATALAKE_S3_PATH_STYLE", "true");
        env.put("AWS_LAMBDA_FUNCTION_NAME", "datalake-ingester");

        progress("[4/6] starting the ingester on " + names.ingestQueue() + " (batches of " + options.batchSize() + ")");
        IngesterHandler ingester = new IngesterHandler(
                IngesterHandler.aws(IngesterConfig.fromEnvironment(env), s3, dynamo, sns, sqs));
        poller = new SqsLambdaPoller(sqs, stack.ingestQueueUrl(), stack.ingestQueueArn(), names.region(), ingester,
                options.batchSize(), Duration.ofSeconds(60));
        pollerThread = new Thread(poller, "datalake-local-ingester");
        pollerThread.setDaemon(true);
        pollerThread.start();

        progress("[5/6] starting the query API on port " + portText(options.apiPort()));
        S3Presigner presigner = S3Presigner.builder()
                .endpointOverride(motoUrl)
                .region(AwsClients.REGION)
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(AwsClients.ACCESS_KEY_ID, AwsClients.SECRET_ACCESS_KEY)))
                .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build())
                .build();
        QueryHandler query = new QueryHandler(QueryConfig.fromEnvironment(env), dynamo, s3, presigner);
        api = HttpApiServer.start(query, options.apiPort());
        String apiUrl = api.url().toString();

        long now = System.currentTimeMillis();
        if (options.demo()) {
            progress("[6/6] pushing the demo dataset through S3 -> SNS -> SQS -> ingester");
            Path scratch = Files.createTempDirectory("datalake-demo");
            List<Pusher.Pushed> pushed = DemoData.push(new Pusher(s3, names.bucket()), now, scratch);
            waitUntilQueryable(examples(apiUrl, now), pushed.size());
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
    private static void waitUntilQueryable(List<String> queries, int files) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.currentTimeMillis() + 60_000;
        int answered = 0;
        while (answered < queries.size() && System.currentTimeMillis() < deadline) {
            HttpRequest request = HttpRequest.newBuilder(URI.create(queries.get(answered))).build();
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

    private void printSummary(String apiUrl, URI motoUrl, Stack stack, long now) {
        StackNames names = stack.names();
        System.out.println();
        System.out.println("datalake is running locally. Ctrl-C stops everything.");
        System.out.println("  query API      " + apiUrl + "/v0/archive/");
        System.out.println("  S3/SQS/SNS     " + motoUrl + " (moto; bucket " + names.bucket() + ")");
        System.out.println("  DynamoDB       " + dynamoDb.endpoint() + " (tables " + names.recordsTable() + ", "
                + names.latestTable() + ")");
        System.out.println("  ingest queue   " + stack.ingestQueueUrl() + " (DLQ " + names.deadLetterQueue() + ")");
        System.out.println("  reports        " + stack.reportTopicArn());
        System.out.println();
        System.out.println("Try:");
        for (String example : examples(apiUrl, now)) {
            System.out.println("  curl '" + example + "'");
        }
        System.out.println();
        System.out.println("Push your own file (from another terminal):");
        System.out.println("  scripts/push.sh --endpoint " + motoUrl + " --bucket " + names.bucket()
                + " --what syslog --where myhost /var/log/syslog");
        System.out.println();
        System.out.println(READY + " api=" + apiUrl + " s3=" + motoUrl + " bucket=" + names.bucket());
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
