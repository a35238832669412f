package datalake.local;

import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * scripts/invoke.sh's arguments, as {@code sam local invoke} takes them: the function's logical id, the
 * event ({@code -e FILE}, {@code -e -} for standard input, none for {@code {}}) and template parameters
 * ({@code --parameter-overrides}, in either of sam's forms: {@code Name=Value} or
 * {@code ParameterKey=Name,ParameterValue=Value}, several in one argument or repeated). The local stack's
 * endpoints and prefix come from scripts/local.sh's DATALAKE_LOCAL_* variables.
 *
 * @param event empty for standard input
 */
record InvokeOptions(String function, Optional<Path> event, boolean noEvent, Map<String, String> parameters,
                     URI moto, URI dynamoDb) {

    InvokeOptions {
        parameters = Map.copyOf(parameters);
    }

    static InvokeOptions parse(String[] args, Map<String, String> env) {
        Map<String, String> parameters = new LinkedHashMap<>();
        if (env.containsKey("DATALAKE_LOCAL_PREFIX")) {
            parameters.put("NamePrefix", env.get("DATALAKE_LOCAL_PREFIX").strip());
        }
        String function = null;
        String event = null;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "-e", "--event" -> event = value(args, ++i, arg);
                case "--parameter-overrides" -> overrides(value(args, ++i, arg), parameters);
                default -> {
                    if (arg.startsWith("-") || function != null) {
                        throw new IllegalArgumentException("unknown argument " + arg + ".");
                    }
                    function = arg;
                }
            }
        }
        if (function == null) {
            throw new IllegalArgumentException("name the function to invoke, e.g. QueryFunction.");
        }
        return new InvokeOptions(function, event == null || event.equals("-") ? Optional.empty() : Optional.of(Path.of(event)),
                event == null, parameters, local(env, "DATALAKE_LOCAL_MOTO_PORT", "5000"),
                local(env, "DATALAKE_LOCAL_DYNAMODB_PORT", "8000"));
    }

    /** sam's two forms, separated by spaces: {@code A=1 B=2} or {@code ParameterKey=A,ParameterValue=1 ...}. */
    private static void overrides(String text, Map<String, String> parameters) {
        for (String pair : text.trim().split("\\s+")) {
            if (pair.startsWith("ParameterKey=")) {
                int comma = pair.indexOf(",ParameterValue=");
                if (comma < 0) {
                    throw new IllegalArgumentException("--parameter-overrides: " + pair + " has no ParameterValue.");
                }
                parameters.put(pair.substring("ParameterKey=".length(), comma),
                        pair.substring(comma + ",ParameterValue=".length()));
            } else {
                int eq = pair.indexOf('=');
                if (eq < 1) {
                    throw new IllegalArgumentException("--parameter-overrides takes Name=Value pairs, not \"" + pair + "\".");
                }
                parameters.put(pair.substring(0, eq), pair.substring(eq + 1));
            }
        }
    }

    private static URI local(Map<String, String> env, String variable, String defaultPort) {
        String port = env.getOrDefault(variable, defaultPort).strip();
        if (!port.matches("[0-9]{1,5}")) {
            throw new IllegalArgumentException(variable + " must be a port number, not \"" + port + "\".");
        }
        return URI.create("http://127.0.0.1:" + port);
    }

    private static String value(String[] args, int i, String flag) {
        if (i >= args.length) {
            throw new IllegalArgumentException(flag + " needs a value.");
        }
        return args[i];
    }
}
