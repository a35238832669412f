package datalake.ingester;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The distinct objects that a batch's events name, each owned by one event, by the one rule for an object
 * named more than once (docs/DESIGN.md, "Messages"): the event with the greater {@code sequencer}
 * wins, a present one over a missing one ({@link Sequencers#compare}); with equal or no sequencers, the
 * later event does. The object takes its winning event's place in the batch. Queue messages and followed
 * objects (the backfill, the reconciliation) go through this same rule.
 */
final class DistinctObjects {
    private final Map<String, BatchObject> byKey = new LinkedHashMap<>();
    private int events;

    /**
     * Adds the batch's next event.
     *
     * @param source the index of the message that carries it
     * @return the key of the object it names ({@link BatchObject#key()})
     */
    String add(ObjectEvent event, int source) {
        events++;
        String key = BatchObject.key(event);
        BatchObject owner = byKey.get(key);
        if (owner == null || Sequencers.compare(event.sequencer(), owner.event().sequencer()) >= 0) {
            byKey.put(key, new BatchObject(event, events, source));
        }
        return key;
    }

    /** The objects, in the order they were first named. */
    List<BatchObject> objects() {
        return new ArrayList<>(byKey.values());
    }
}
