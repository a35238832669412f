package datalake.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.dynamodb.ShardMapTable;
import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import datalake.records.ShardMap;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code scripts/shards.sh set} on a workstation whose clock is hours off, against dynalite (whose clock,
 * this machine's, stands for AWS's): the day a change may take effect from, and the wait of a change run
 * again after a stop, are AWS's time's, whichever way the local clock is off.
 */
@ExtendWith(EmulatorsExtension.class)
class ShardsSkewedClockIT {
    private static final Emulators AWS = Emulators.shared();
    private final ToolsHarness h = new ToolsHarness(AWS, "shards-clock");
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final List<Duration> waits = new ArrayList<>();

    @AfterEach
    void close() {
        h.close();
    }

    /** The command as scripts/shards.sh runs it, but on a local clock {@code skew} off. */
    private int shards(Duration skew, String... args) {
        out.reset();
        err.reset();
        return ShardsCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                () -> new ShardsCommand.MapTable(h.operator.dynamoDb(), h.recordsTable),
                Clock.offset(Clock.systemUTC(), skew), waits::add);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void theFirstDayAChangeMayTakeEffectOnIsTheDayAfterTomorrowByAwsClock() {
        // AWS's tomorrow, at the latest, and AWS's day after tomorrow, at the earliest (the run takes seconds)
        LocalDate tomorrow = ShardChange.earliestDay(Clock.systemUTC()).minusDays(1);
        LocalDate dayAfterTomorrow = ShardChange.earliestDay(Clock.offset(Clock.systemUTC(), Duration.ofMinutes(5)));

        // a laptop two days behind takes AWS's tomorrow for the day after tomorrow: refused all the same
        assertEquals(1, shards(Duration.ofHours(-48), "set", "syslog", "--from", tomorrow.toString(), "--shards", "4"),
                err());
        assertTrue(err().startsWith("shards: --from must be " + tomorrow.plusDays(1) + " or later"), err());
        assertEquals(List.of(), waits);
        assertEquals(ShardMap.EMPTY, new ShardMapTable(h.operator.dynamoDb(), h.recordsTable).current());

        // a laptop two days ahead takes AWS's day after tomorrow for today: taken all the same
        assertEquals(0, shards(Duration.ofHours(48), "set", "syslog", "--from", dayAfterTomorrow.toString(), "--shards",
                "4"), err());
        assertEquals(List.of(4, 1), new ShardMapTable(h.operator.dynamoDb(), h.recordsTable).current()
                .layouts("syslog", dayAfterTomorrow.toEpochDay()));
    }

    @Test
    void aChangeRunAgainAfterAStopOnAClockAheadWaitsWhatIsLeftOfTheMinute() {
        // an hour ahead, the minute since the map was written seemed long over: no wait at all
        assertRunAgainWaitsWhatIsLeftOfTheMinute(Duration.ofHours(1));
    }

    @Test
    void aChangeRunAgainAfterAStopOnAClockBehindWaitsWhatIsLeftOfTheMinute() {
        // an hour behind, the minute seemed to begin an hour from now: an hour's wait more
        assertRunAgainWaitsWhatIsLeftOfTheMinute(Duration.ofHours(-1));
    }

    private void assertRunAgainWaitsWhatIsLeftOfTheMinute(Duration skew) {
        // given a change stopped between its two writes, the map written 20 s ago by AWS's clock
        LocalDate from = ShardChange.earliestDay(Clock.offset(Clock.systemUTC(), Duration.ofMinutes(5)));
        ShardMapTable table = new ShardMapTable(h.operator.dynamoDb(), h.recordsTable);
        table.write(ShardMap.EMPTY.withEarlier("syslog", new ShardMap.Entry(from.toEpochDay(), 4)), 0,
                System.currentTimeMillis() - 20_000);

        // when it is run again on a laptop whose clock is off
        assertEquals(0, shards(skew, "set", "syslog", "--from", from.toString(), "--shards", "4"), err());

        // then it waits what is left of the readers' minute by AWS's clock (41 s, and the 2 s its readings
        // may be apart, less the seconds the run took to begin), then writes the layout
        assertEquals(1, waits.size(), waits.toString());
        assertTrue(waits.get(0).toSeconds() >= 35 && waits.get(0).toSeconds() <= 44, waits.toString());
        assertEquals(List.of(4, 1), table.current().layouts("syslog", from.toEpochDay()));
    }
}
