package datalake.bench.limits;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * The partition limits of {@link PartitionLimits} applied to every partition key value of every table
 * and GSI: a bucket of write units and one of read units per key, and what each key admitted and
 * refused. A write that feeds GSIs is admitted only if its table key and each of its GSI keys have
 * the capacity (a throttled GSI throttles the table writes that feed it, as in DynamoDB), and then
 * charges all of them. Thread-safe; time comes from an injected clock (nanoseconds).
 */
public final class PartitionModel {
    private final PartitionLimits limits;
    private final LongSupplier clock;
    private final long origin;
    private final Map<PartitionKey, KeyState> keys = new HashMap<>();
    private long throttledWrites;
    private long throttledReads;

    public PartitionModel(PartitionLimits limits, LongSupplier nanoClock) {
        this.limits = limits;
        this.clock = nanoClock;
        this.origin = nanoClock.getAsLong();
    }

    public PartitionLimits limits() {
        return limits;
    }

    /** The second of the model's clock now, counted from its start (as {@link KeyTally#writesBySecond()}). */
    public long second() {
        return Math.floorDiv(clock.getAsLong() - origin, 1_000_000_000L);
    }

    /** Write requests refused so far (items: a BatchWriteItem's unprocessed entries count one each). */
    public synchronized long throttledWrites() {
        return throttledWrites;
    }

    /** Read requests refused so far (a BatchGetItem's unprocessed keys count one each). */
    public synchronized long throttledReads() {
        return throttledReads;
    }

    /** A copy of every key's counts. */
    public synchronized Map<PartitionKey, KeyTally> tallies() {
        Map<PartitionKey, KeyTally> copy = new HashMap<>(keys.size() * 2);
        keys.forEach((key, state) -> copy.put(key, state.tally(key)));
        return copy;
    }

    /**
     * Every table key's writes admitted in each second of the model, as {@code scripts/shards.sh suggest
     * --from-counts} reads them: the line {@code key,second,writes}, then one a key and second with writes.
     * GSI keys are left out: they are not sharded.
     */
    public void writeCounts(Path file) throws IOException {
        StringBuilder out = new StringBuilder("key,second,writes\n");
        tallies().values().stream().filter(t -> !t.key().isIndex())
                .sorted(Comparator.comparing(t -> t.key().value()))
                .forEach(t -> t.writesBySecond().forEach((second, writes) ->
                        out.append(t.key().value()).append(',').append(second).append(',').append(writes).append('\n')));
        Files.writeString(file, out);
    }

    /**
     * One write of {@code charges} (its table key, and the GSI keys it writes): admitted and charged to
     * every key, or refused as a whole. Answers the key that refused it, or empty when admitted.
     */
    synchronized Optional<PartitionKey> write(List<WriteCharge> charges) {
        long now = clock.getAsLong();
        for (WriteCharge charge : charges) {
            KeyState state = state(charge.key(), now);
            if (state.writeBucket.isPresent() && !state.writeBucket.get().admits(charge.units(), now)) {
                state.throttledWrites++;
                throttledWrites++;
                return Optional.of(charge.key());
            }
        }
        long second = Math.floorDiv(now - origin, 1_000_000_000L);
        for (WriteCharge charge : charges) {
            KeyState state = state(charge.key(), now);
            state.writeBucket.ifPresent(b -> b.take(charge.units()));
            state.writes++;
            state.writeUnits += charge.units();
            state.writesBySecond.merge(second, 1L, Long::sum);
        }
        return Optional.empty();
    }

    /**
     * Whether a read of {@code key} may start: its bucket holds the least the read can cost, which it
     * takes now. What the read costs beyond that is known only from its answer ({@link #chargeRead}).
     * Refused reads are counted here.
     */
    synchronized boolean startRead(PartitionKey key, double leastUnits) {
        long now = clock.getAsLong();
        KeyState state = state(key, now);
        if (state.readBucket.isPresent() && !state.readBucket.get().admits(leastUnits, now)) {
            state.throttledReads++;
            throttledReads++;
            return false;
        }
        state.readBucket.ifPresent(b -> b.take(leastUnits));
        state.reads++;
        state.readUnits += leastUnits;
        return true;
    }

    /** Charges a started read the units its answer shows it cost beyond its least (the bucket may go into debt). */
    synchronized void chargeRead(PartitionKey key, double moreUnits) {
        if (moreUnits <= 0) {
            return;
        }
        KeyState state = state(key, clock.getAsLong());
        state.readBucket.ifPresent(b -> b.take(moreUnits));
        state.readUnits += moreUnits;
    }

    private KeyState state(PartitionKey key, long now) {
        return keys.computeIfAbsent(key, k -> new KeyState(limits, now));
    }

    /** A write's units for one key. */
    record WriteCharge(PartitionKey key, double units) {
    }

    private static final class KeyState {
        final Optional<TokenBucket> writeBucket;
        final Optional<TokenBucket> readBucket;
        final TreeMap<Long, Long> writesBySecond = new TreeMap<>();
        long writes;
        double writeUnits;
        long throttledWrites;
        long reads;
        double readUnits;
        long throttledReads;

        KeyState(PartitionLimits limits, long now) {
            double burstSeconds = limits.burst().toNanos() / 1e9;
            writeBucket = Double.isFinite(limits.writeUnitsPerSecond()) ? Optional.of(new TokenBucket(
                    limits.writeUnitsPerSecond(), limits.writeUnitsPerSecond() * burstSeconds, now)) : Optional.empty();
            readBucket = Double.isFinite(limits.readUnitsPerSecond()) ? Optional.of(new TokenBucket(
                    limits.readUnitsPerSecond(), limits.readUnitsPerSecond() * burstSeconds, now)) : Optional.empty();
        }

        KeyTally tally(PartitionKey key) {
            return new KeyTally(key, writes, writeUnits, throttledWrites, reads, readUnits, throttledReads,
                    new TreeMap<>(writesBySecond));
        }
    }
}
