package datalake.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Why the ingester handed messages back to SQS: the {@code error_kind} of each failure its batch lines
 * name with status {@code retry} (the ingester's log, read as Lambda would ship it).
 */
final class RetryReasons implements Consumer<String> {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Map<String, Long> kinds = new ConcurrentHashMap<>();

    @Override
    public void accept(String line) {
        if (!line.contains("\"retry\"")) {
            return;
        }
        try {
            for (JsonNode failure : JSON.readTree(line).path("failures")) {
                if (failure.path("status").asText().equals("retry")) {
                    kinds.merge(failure.path("error_kind").asText("unnamed"), 1L, Long::sum);
                }
            }
        } catch (JsonProcessingException notJson) {
            kinds.merge("unreadable log line", 1L, Long::sum);
        }
    }

    /** Retried messages by error kind. */
    Map<String, Long> kinds() {
        return new TreeMap<>(kinds);
    }
}
