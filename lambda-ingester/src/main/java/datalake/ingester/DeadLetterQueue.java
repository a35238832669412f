package datalake.ingester;

import java.util.List;
import java.util.Map;

/** Keeps messages that can never be ingested (DATALAKE_DLQ_URL), for a person to look at. */
interface DeadLetterQueue {
    /** For the backfill function, which follows objects and never dead-letters: refuses every letter. */
    DeadLetterQueue NONE = letters -> {
        java.util.Map<String, String> unsent = new java.util.LinkedHashMap<>();
        letters.forEach(l -> unsent.put(l.messageId(), "this function has no dead-letter queue."));
        return unsent;
    };

    /**
     * Sends the letters. Never throws: returns why each letter that could not be sent failed, by
     * message id (empty when all were sent). The caller must not acknowledge those messages.
     */
    Map<String, String> send(List<DeadLetter> letters);
}
