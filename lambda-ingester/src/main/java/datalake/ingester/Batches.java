package datalake.ingester;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;

/** Splits a list into the batches an SQS or SNS batch call accepts: by count and by total size. */
final class Batches {
    /** SQS SendMessageBatch and SNS PublishBatch: at most 10 entries and 256 KiB in all. */
    static final int MAX_ENTRIES = 10;
    static final int MAX_BYTES = 262_144;

    private Batches() {
    }

    /** Consecutive batches; an entry bigger than {@code maxBytes} goes alone (and the call rejects it). */
    static <T> List<List<T>> of(List<T> items, int maxEntries, int maxBytes, ToIntFunction<T> size) {
        List<List<T>> batches = new ArrayList<>();
        List<T> current = new ArrayList<>();
        int bytes = 0;
        for (T item : items) {
            int itemBytes = size.applyAsInt(item);
            if (!current.isEmpty() && (current.size() == maxEntries || bytes + itemBytes > maxBytes)) {
                batches.add(current);
                current = new ArrayList<>();
                bytes = 0;
            }
            current.add(item);
            bytes += itemBytes;
        }
        if (!current.isEmpty()) {
            batches.add(current);
        }
        return batches;
    }

    /** The UTF-8 size of a text, counted without encoding it. */
    static int utf8Length(String text) {
        if (text == null) {
            return 0;
        }
        int bytes = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c)) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }
}
