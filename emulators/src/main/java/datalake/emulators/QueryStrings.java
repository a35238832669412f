package datalake.emulators;

import java.util.function.BiConsumer;
import java.util.function.UnaryOperator;

/**
 * The {@code name=value} pairs of a raw query string, in order. API Gateway and SigV4 decode them by
 * different rules ({@code +} is a space for one and a plus for the other), so the caller decodes.
 */
final class QueryStrings {
    private QueryStrings() {
    }

    /** Calls {@code pair} with each decoded name and value; a name without {@code =} has the value "". */
    static void forEachPair(String rawQuery, UnaryOperator<String> decode, BiConsumer<String, String> pair) {
        if (rawQuery == null || rawQuery.isEmpty()) {
            return;
        }
        for (String part : rawQuery.split("&", -1)) {
            if (part.isEmpty()) {
                continue;
            }
            int eq = part.indexOf('=');
            pair.accept(decode.apply(eq < 0 ? part : part.substring(0, eq)),
                    eq < 0 ? "" : decode.apply(part.substring(eq + 1)));
        }
    }
}
