package datalake.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The range keys a Query selects, hence reads and is billed for, read from the condition's expression and
 * values as DynamoDB reads them ({@link KeyConditions}): a WHERE read from a position ends at the WHERE's
 * last key. PaginationIT holds the expression to dynalite's reading of it.
 */
class RangeConditionTest {
    /** Range keys of a day in DynamoDB's order, the WHERE {@code db} among WHEREs that sort on either side. */
    private static final List<String> KEYS = List.of("app:1", "db2:1", "db:1", "db:2", "db:3", "dc:1", "web:1");

    private static List<String> selected(String prefix, String after) {
        RangeCondition range = new RangeCondition(prefix, after);
        return KEYS.stream().filter(key -> KeyConditions.selects(range.expression(), range.values(), key)).toList();
    }

    @Test
    void aWhereReadFromAPositionStopsAtItsLastKey() {
        // given the WHERE db, read after its first key
        RangeCondition range = new RangeCondition("db:", "db:1");

        // then the Query asks for the keys after the position up to the WHERE's end, and selects its keys alone
        assertEquals("#r BETWEEN :r AND :end", range.expression());
        assertEquals("db:1\u0000", range.values().get(":r").s());
        assertEquals("db;", range.values().get(":end").s());
        assertEquals(List.of("db:2", "db:3"), selected("db:", "db:1"));
        // where "> position" read on into dc and web
        assertEquals(List.of("db:2", "db:3", "dc:1", "web:1"), selected(null, "db:1"));
    }

    @Test
    void aPositionAtTheWheresLastKeyStillQueriesAndOnePastItDoesNot() {
        // given positions at the WHERE's last key and past its keys
        RangeCondition atLast = new RangeCondition("db:", "db:3");
        RangeCondition past = new RangeCondition("db:", "dc:1");

        // then the first may have more (which key is last only the Query tells), the second cannot
        assertFalse(atLast.empty());
        assertEquals(List.of(), selected("db:", "db:3"));
        assertTrue(past.empty());
    }

    @Test
    void aPositionBeforeTheWheresKeysReadsTheWhereFromItsFirstAndNoPositionReadsItAll() {
        assertEquals(List.of("db:1", "db:2", "db:3"), selected("db:", "app:1"));
        assertEquals("begins_with(#r, :r)", new RangeCondition("db:", "app:1").expression());
        assertEquals(List.of("db:1", "db:2", "db:3"), selected("db:", null));
        assertEquals(KEYS, selected(null, null));
    }
}
