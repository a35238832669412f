package datalake.local;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The local runner's settings (scripts/local.sh's header lists them): flags first, then environment
 * variables, then the defaults of docs/DESIGN.md, "The local stack" (API on 8080, dynalite on 8000,
 * moto on 5000, the template's names with its NamePrefix default, "datalake"; the functions' log lines in
 * target/local/PREFIX.log). Port 0 takes a free port. {@code parameters} are
 * template.yaml's, as {@code sam deploy --parameter-overrides} takes them (NamePrefix and IngestBatchSize
 * included, from --prefix and --batch-size).
 */
record RunnerOptions(int apiPort, int dynamoDbPort, int motoPort, Map<String, String> parameters,
                     boolean demo, Auth auth, Path log) {

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
        Path log = null;
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
                case "--log" -> log = Path.of(value(args, ++i, arg));
                default -> throw new IllegalArgumentException("unknown option " + arg + ".");
            }
        }
        // The template checks the values (NamePrefix's pattern, the batch size's range) when the stack is built.
        if (log == null) {
            log = Path.of("target", "local", parameters.getOrDefault("NamePrefix", "datalake") + ".log");
        }
        return new RunnerOptions(api, dynamo, moto, parameters, demo, auth, log);
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
