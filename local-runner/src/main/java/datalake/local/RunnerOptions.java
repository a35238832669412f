package datalake.local;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The local runner's settings: flags first, then environment variables, then the defaults of
 * docs/DESIGN.md, "The local stack" (API on 8080, DynamoDB Local on 8000, moto on 5000, the template's
 * names with its NamePrefix default, "datalake"). Port 0 takes a free port. {@code parameters} are
 * template.yaml's, as {@code sam deploy --parameter-overrides} takes them (NamePrefix and IngestBatchSize
 * included, from --prefix and --batch-size).
 */
record RunnerOptions(int apiPort, int dynamoDbPort, int motoPort, Map<String, String> parameters,
                     boolean demo, Auth auth, boolean help) {

    RunnerOptions {
        parameters = Map.copyOf(parameters);
    }

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
              --prefix NAME       template.yaml's NamePrefix: the prefix of every name (DATALAKE_LOCAL_PREFIX,
                                  default datalake: bucket datalake-123456789012-us-east-1)
              --batch-size N      template.yaml's IngestBatchSize: SQS messages per ingester invocation
              --parameter K=V     any other template.yaml parameter, as sam deploy --parameter-overrides
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
        Map<String, String> parameters = new LinkedHashMap<>();
        if (env.containsKey("DATALAKE_LOCAL_PREFIX")) {
            parameters.put("NamePrefix", env.get("DATALAKE_LOCAL_PREFIX"));
        }
        boolean demo = true;
        Auth auth = auth(env.getOrDefault("DATALAKE_LOCAL_AUTH", "none"), "DATALAKE_LOCAL_AUTH");
        boolean help = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--api-port" -> api = port(value(args, ++i, arg), arg);
                case "--dynamodb-port" -> dynamo = port(value(args, ++i, arg), arg);
                case "--moto-port" -> moto = port(value(args, ++i, arg), arg);
                case "--prefix" -> parameters.put("NamePrefix", value(args, ++i, arg));
                case "--batch-size" -> parameters.put("IngestBatchSize", Integer.toString(number(value(args, ++i, arg), arg, 1,
                        10_000)));
                case "--parameter" -> {
                    String assignment = value(args, ++i, arg);
                    int eq = assignment.indexOf('=');
                    if (eq < 1) {
                        throw new IllegalArgumentException("--parameter needs NAME=VALUE, not \"" + assignment + "\".");
                    }
                    parameters.put(assignment.substring(0, eq), assignment.substring(eq + 1));
                }
                case "--no-demo" -> demo = false;
                case "--auth" -> auth = auth(value(args, ++i, arg), arg);
                case "-h", "--help" -> help = true;
                default -> throw new IllegalArgumentException("unknown option " + arg + ".");
            }
        }
        // The template checks the values (NamePrefix's pattern, the batch size's range) when the stack is built.
        return new RunnerOptions(api, dynamo, moto, parameters, demo, auth, help);
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
