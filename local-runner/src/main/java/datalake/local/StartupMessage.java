package datalake.local;

import datalake.emulators.DatalakeStack;
import datalake.emulators.Emulators;
import datalake.records.Times;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * What the runner prints once it is ready: its endpoints, example queries that answer with the demo
 * data, the commands that reach it from another terminal (with its ports, and with --auth iam the
 * signing proxy's), and the line a script or test waits for ({@link LocalRunner#READY}).
 */
record StartupMessage(RunnerOptions options, String apiUrl, URI motoUrl, URI dynamoDb, DatalakeStack stack, Path log,
                      long now) {
    private static final long DAY = 86_400_000L;

    /** The example queries the summary prints; each returns demo data once it is indexed. */
    static List<String> examples(String apiUrl, long now) {
        long today = Math.floorDiv(now, DAY) * DAY;
        return List.of(
                apiUrl + "/v0/archive/files/?what=syslog&where=webserver01&start=" + Times.toIso(today - DAY)
                        + "&end=" + Times.toIso(today + DAY),
                apiUrl + "/v0/archive/files/?what=job-output&work_id=" + DemoData.WORK_ID,
                apiUrl + "/v0/archive/latest/syslog/webserver02");
    }

    void print(PrintStream out) {
        boolean iam = options.auth() == RunnerOptions.Auth.IAM;
        String credentials = "AWS_ACCESS_KEY_ID=" + Emulators.ACCESS_KEY_ID + " AWS_SECRET_ACCESS_KEY="
                + Emulators.SECRET_ACCESS_KEY;
        out.println();
        out.println("datalake is running locally. Ctrl-C stops everything.");
        out.println("  explorer page  " + apiUrl + "/" + (iam ? " (its API calls must be signed: see below)" : ""));
        out.println("  query API      " + apiUrl + "/v0/archive/" + (iam
                ? " (SigV4 only: execute-api, " + stack.region() + ", " + credentials + ")" : ""));
        out.println("  S3/SQS/SNS     " + motoUrl + " (moto; bucket " + stack.bucket() + ")");
        out.println("  DynamoDB       " + dynamoDb + " (tables " + stack.recordsTable() + ", "
                + stack.latestTable() + ")");
        out.println("  ingest queue   " + stack.ingestQueueUrl() + " (DLQ " + stack.deadLetterQueueUrl() + ")");
        out.println("  reports        " + stack.reportTopicArn() + " (nothing subscribed locally)");
        out.println("  function logs  " + log + " (here: a summary every " + LocalRunner.SUMMARY_SECONDS
                + " s, and the faults)");
        out.println();
        out.println("Try:");
        String curl = iam
                ? "curl --aws-sigv4 'aws:amz:" + stack.region() + ":execute-api' --user " + Emulators.ACCESS_KEY_ID + ":"
                        + Emulators.SECRET_ACCESS_KEY + " '"
                : "curl '";
        for (String example : examples(apiUrl, now)) {
            out.println("  " + curl + example + "'");
        }
        if (iam) {
            out.println();
            out.println("The explorer page, its calls signed (from another terminal; then open http://127.0.0.1:8001/):");
            out.println("  AWS_REGION=" + stack.region() + " " + credentials
                    + " scripts/explore.sh --api " + apiUrl);
        }
        out.println();
        out.println("Push your own files (from another terminal; a directory or several files at once):");
        out.println("  " + pushEnvironment() + "scripts/push.sh --what syslog --where myhost /etc/hosts");
        out.println();
        out.println(LocalRunner.READY + " api=" + apiUrl + " s3=" + motoUrl + " bucket=" + stack.bucket()
                + " auth=" + options.auth().name().toLowerCase(Locale.ROOT));
        out.flush();
    }

    /** The variables scripts/push.sh needs to find this runner, when it does not run with the defaults. */
    private String pushEnvironment() {
        String prefix = options.parameters().getOrDefault("NamePrefix", "datalake");
        return (motoUrl.getPort() == 5000 ? "" : "DATALAKE_LOCAL_MOTO_PORT=" + motoUrl.getPort() + " ")
                + (prefix.equals("datalake") ? "" : "DATALAKE_LOCAL_PREFIX=" + prefix + " ");
    }
}
