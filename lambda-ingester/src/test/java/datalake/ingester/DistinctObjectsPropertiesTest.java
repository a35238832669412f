package datalake.ingester;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Which event owns an object named more than once in a batch (docs/DESIGN.md, "Messages"): the greatest
 * by one total order, a present {@code sequencer} over a missing one, then the greater sequencer, then
 * the later message. So the owner does not depend on the batch's order, except among events without
 * sequencers (or with equal ones), where message order is the rule.
 */
class DistinctObjectsPropertiesTest {

    /** An event of the batch: which of three keys it names, and its sequencer's value (null: none). */
    record Named(int key, Long value, int padding) {
        /** The sequencer as S3 might write it: hexadecimal, sometimes lower case, right-padded with zeros. */
        String sequencer() {
            if (value == null) {
                return null;
            }
            String hex = String.format("%012X", value) + "0".repeat(padding);
            return padding % 2 == 0 ? hex : hex.toLowerCase(Locale.ROOT);
        }
    }

    @Property(tries = 500)
    void theOwnerIsTheGreatestEventWhateverTheBatchsOrder(@ForAll("batches") List<Named> batch,
            @ForAll("seeds") long seed) {
        List<Named> shuffled = new ArrayList<>(batch);
        Collections.shuffle(shuffled, new Random(seed));

        Map<Integer, Named> owners = owners(batch);
        Map<Integer, Named> shuffledOwners = owners(shuffled);

        assertEquals(expected(batch), owners);
        assertEquals(expected(shuffled), shuffledOwners);
        owners.forEach((key, owner) -> {
            if (owner.value() != null) {
                assertEquals(owner.value(), shuffledOwners.get(key).value(), "the greatest sequencer wins in any order");
            }
        });
    }

    @Example
    void aMissingSequencerBetweenTwoPresentOnesDecidesNothing() {
        // A (05), B (none), C (03) of one key: compared as equal to everything, B let C win
        List<Named> batch = List.of(new Named(0, 5L, 0), new Named(0, null, 0), new Named(0, 3L, 0));

        assertEquals(batch.get(0), owners(batch).get(0));
    }

    /** The owner of each key as DistinctObjects decides it. */
    private static Map<Integer, Named> owners(List<Named> batch) {
        DistinctObjects distinct = new DistinctObjects();
        for (int i = 0; i < batch.size(); i++) {
            Named event = batch.get(i);
            distinct.add(new ObjectEvent("bucket", "key-" + event.key(), "ObjectCreated:Put", event.sequencer()), i);
        }
        Map<Integer, Named> owners = new HashMap<>();
        for (BatchObject object : distinct.objects()) {
            Named owner = batch.get(object.source());
            owners.put(owner.key(), owner);
        }
        return owners;
    }

    /** The rule restated on the values: present over missing, then the greater value, then the later message. */
    private static Map<Integer, Named> expected(List<Named> batch) {
        Comparator<Integer> order = Comparator
                .comparing((Integer i) -> batch.get(i).value() != null)
                .thenComparing(i -> batch.get(i).value() == null ? 0L : batch.get(i).value())
                .thenComparing(i -> i);
        Map<Integer, Integer> best = new HashMap<>();
        for (int i = 0; i < batch.size(); i++) {
            best.merge(batch.get(i).key(), i, (a, b) -> order.compare(a, b) >= 0 ? a : b);
        }
        Map<Integer, Named> owners = new HashMap<>();
        best.forEach((key, i) -> owners.put(key, batch.get(i)));
        return owners;
    }

    @Provide
    Arbitrary<List<Named>> batches() {
        // Values may repeat (S3 never repeats one for a key, but equal values must still fall to message order).
        Arbitrary<Long> value = Arbitraries.longs().between(0, 40).injectNull(0.35);
        return Combinators.combine(Arbitraries.integers().between(0, 2), value, Arbitraries.integers().between(0, 3))
                .as(Named::new).list().ofMaxSize(12);
    }

    @Provide
    Arbitrary<Long> seeds() {
        return Arbitraries.longs();
    }
}
