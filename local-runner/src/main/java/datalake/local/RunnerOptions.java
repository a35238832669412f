package datalake.local;

import datalake.emulators.ResourceNames;
import java.util.Map;

/**
 * The local runner's settings: flags first, then environment variables, then the defaults of
 * docs/DESIGN.md, "Running it locally" (API on 8080, DynamoDB Local on 8000, moto on 5000, names with the prefix "datalake"
 * as template.yaml's NamePrefix default, bucket datalake-local). Port 0 takes a free port.
 */
record RunnerOptions(int apiPort, int dynamoDbPort, int motoPort, String prefix, String bucket, int batchSize,
                     boolean demo, Auth auth, boolean help) {

    /** How the local API authorises requests, as template.yaml's ApiAuthMode does in AWS. */
    enum Auth {
        /** Every request is answered (the page works in a browser as it is). */
        NONE,
        /** As ApiAuthMode=AWS_IAM: SigV4 with the local credentials, else 403 {"message":"Forbidden"}. */
        IAM
    }

    static final String USAGE = """
            usage: scripts/local.sh [options]
              --api-port N        query API port (DATALAKE_LOCAL_API_PORT, default 8080)
              --dynamodb-port N   DynamoDB Local port (DATALAKE_LOCAL_DYNAMODB_PORT, default 8000)
              --moto-port N       moto (S3, SQS, SNS) port (DATALAKE_LOCAL_MOTO_PORT, default 5000)
              --prefix NAME       prefix of queue, topic and table names (DATALAKE_LOCAL_PREFIX, default datalake)
              --bucket NAME       the storage bucket (DATALAKE_LOCAL_BUCKET, default datalake-local)
              --batch-size N      SQS messages per ingester invocation, 1-10 (default 10)
              --no-demo           do not push the demo dataset
              --auth none|iam     none (default): the API answers every request; iam: as ApiAuthMode=AWS_IAM,
                                  requests must be SigV4-signed (service execute-api, us-east-1) with the local
                                  credentials, else 403 (DATALAKE_LOCAL_AUTH)
            Port 0 picks a free port. The explorer page is at the API's / (with --auth iam, through
            scripts/explore.sh --api <API URL>, which signs its calls).""";

    static RunnerOptions parse(String[] args, Map<String, String> env) {
        int api = port(env.getOrDefault("DATALAKE_LOCAL_API_PORT", "8080"), "DATALAKE_LOCAL_API_PORT");
        int dynamo = port(env.getOrDefault("DATALAKE_LOCAL_DYNAMODB_PORT", "8000"), "DATALAKE_LOCAL_DYNAMODB_PORT");
        int moto = port(env.getOrDefault("DATALAKE_LOCAL_MOTO_PORT", "5000"), "DATALAKE_LOCAL_MOTO_PORT");
        String prefix = env.getOrDefault("DATALAKE_LOCAL_PREFIX", "datalake");
        String bucket = env.getOrDefault("DATALAKE_LOCAL_BUCKET", "datalake-local");
        int batch = 10;
        boolean demo = true;
        Auth auth = auth(env.getOrDefault("DATALAKE_LOCAL_AUTH", "none"), "DATALAKE_LOCAL_AUTH");
        boolean help = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--api-port" -> api = port(value(args, ++i, arg), arg);
                case "--dynamodb-port" -> dynamo = port(value(args, ++i, arg), arg);
                case "--moto-port" -> moto = port(value(args, ++i, arg), arg);
                case "--prefix" -> prefix = value(args, ++i, arg);
                case "--bucket" -> bucket = value(args, ++i, arg);
                case "--batch-size" -> batch = number(value(args, ++i, arg), arg, 1, 10);
                case "--no-demo" -> demo = false;
                case "--auth" -> auth = auth(value(args, ++i, arg), arg);
                case "-h", "--help" -> help = true;
                default -> throw new IllegalArgumentException("unknown option " + arg + ".");
            }
        }
        if (!prefix.matches("[a-z0-9-]{3,30}")) {
            throw new IllegalArgumentException("--prefix must be 3 to 30 lowercase letters, digits or '-'.");
        }
        if (!bucket.matches("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")) {
            throw new IllegalArgumentException("--bucket must be a valid S3 bucket name (lowercase, 3-63 characters).");
        }
        return new RunnerOptions(api, dynamo, moto, prefix, bucket, batch, demo, auth, help);
    }

    /** The resource names: template.yaml's, for this prefix. */
    ResourceNames names() {
        return new ResourceNames("us-east-1", bucket, prefix + "-ingest", prefix + "-ingest-dlq", prefix + "-uploads",
                prefix + "-reports", prefix + "-reports-inspection", prefix + "-records", prefix + "-latest");
    }

    private static String value(String[] args, int i, String flag) {
        if (i >= args.length) {
            throw new IllegalArgumentException(flag + " needs a value.");
        }
        return args[i];
    }

    private static Auth auth(String text, String name) {
        return switch (text.strip()) {
            case "none" -> Auth.NONE;
            case "iam" -> Auth.IAM;
            default -> throw new IllegalArgumentException(name + " must be none or iam.");
        };
    }

    private static int port(String text, String name) {
        return number(text, name, 0, 65535);
    }

    private static int number(String text, String name, int min, int max) {
        try {
            int n = Integer.parseInt(text.strip());
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // the sentence below says what is wrong
        }
        throw new IllegalArgumentException(name + " must be a whole number from " + min + " to " + max + ".");
    }
}
