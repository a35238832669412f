package datalake.tools;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** A command line: positional arguments and {@code --name value} or {@code --flag} options, checked. */
final class Arguments {
    final List<String> positional = new ArrayList<>();
    private final Map<String, String> options = new HashMap<>();

    private Arguments() {
    }

    /**
     * @param valued the options that take a value
     * @param flags  the options that take none
     */
    static Arguments parse(String[] args, Set<String> valued, Set<String> flags) {
        Arguments parsed = new Arguments();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (valued.contains(arg)) {
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(arg + " needs a value.");
                }
                parsed.options.put(arg, args[++i]);
            } else if (flags.contains(arg)) {
                parsed.options.put(arg, "true");
            } else if (arg.startsWith("--")) {
                throw new IllegalArgumentException("unknown option " + arg + ".");
            } else {
                parsed.positional.add(arg);
            }
        }
        return parsed;
    }

    String get(String name) {
        return options.get(name);
    }

    boolean has(String name) {
        return options.containsKey(name);
    }

    int number(String name, int fallback, int min, int max) {
        String value = options.get(name);
        if (value == null) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(value);
            if (n < min || n > max) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a whole number from " + min + " to " + max + ".");
        }
    }
}
