package datalake.bench;

import java.util.HashMap;
import java.util.Map;

/** {@code --name value} pairs; a flag without a value ({@code --quick}) maps to "true". */
final class Options {
    private Options() {
    }

    public static Map<String, String> parse(String[] args) {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument " + args[i]);
            }
            String name = args[i].substring(2);
            boolean hasValue = i + 1 < args.length && !args[i + 1].startsWith("--");
            options.put(name, hasValue ? args[++i] : "true");
        }
        return options;
    }
}
