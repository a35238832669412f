package datalake.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import datalake.records.Keys.RangeKey;
import datalake.records.Keys.TimeIndexKey;
import datalake.records.Keys.WhatWhereKey;
import datalake.records.Keys.WorkIdIndexKey;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class KeysTest {

    @Test
    void keysParseBackToTheirParts() {
        assertEquals(new TimeIndexKey(16514, "syslog"), TimeIndexKey.parse("16514:syslog"));
        assertEquals(new TimeIndexKey(-3, "syslog"), TimeIndexKey.parse("-3:syslog"));
        assertEquals(new RangeKey("webserver02", "abc"), RangeKey.parse("webserver02:abc"));
        assertEquals(new WorkIdIndexKey("job-1", "syslog"), WorkIdIndexKey.parse("job-1:syslog"));
        assertEquals(new WorkIdIndexKey("nullabc", "syslog"), WorkIdIndexKey.parse("nullabc:syslog"));
        assertEquals(new WhatWhereKey("syslog", "webserver02"), WhatWhereKey.parse("syslog:webserver02"));
    }

    @Test
    void aShardedTimeKeyCarriesItsShardAfterTheWhat() {
        assertEquals("16514:syslog#3", new TimeIndexKey(16514, "syslog", 3).toString());
        assertEquals(new TimeIndexKey(16514, "syslog", 3), TimeIndexKey.parse("16514:syslog#3"));
        assertEquals(new TimeIndexKey(16514, "syslog", 0), TimeIndexKey.parse("16514:syslog#0"));
        assertEquals(false, TimeIndexKey.parse("16514:syslog").sharded());
    }

    @ParameterizedTest
    @ValueSource(strings = {"1:syslog#", "1:#2", "1:syslog#-1", "1:syslog#01", "1:syslog#x", "1:syslog#1#2"})
    void malformedShardsAreRejected(String key) {
        assertThrows(IllegalArgumentException.class, () -> TimeIndexKey.parse(key));
    }

    @Test
    void aNullWorkIdBecomesNullAndTheFileId() {
        assertEquals("nullabc:syslog", WorkIdIndexKey.of(null, "syslog", "abc").toString());
        assertEquals("job:syslog", WorkIdIndexKey.of("job", "syslog", "abc").toString());
    }

    @Test
    void theRangeKeyPrefixSelectsOneWhere() {
        assertEquals("web:", RangeKey.prefix("web"));
        // "web:" is not a prefix of another where's keys such as "web2:..."
        assertEquals(false, new RangeKey("web2", "x").toString().startsWith(RangeKey.prefix("web")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ":", "a:", ":b", "ab", "a:b:c"})
    void malformedKeysAreRejected(String key) {
        assertThrows(IllegalArgumentException.class, () -> RangeKey.parse(key));
        assertThrows(IllegalArgumentException.class, () -> WhatWhereKey.parse(key));
        assertThrows(IllegalArgumentException.class, () -> TimeIndexKey.parse(key));
    }

    @Test
    void aTimeKeyNeedsANumericBucket() {
        assertThrows(IllegalArgumentException.class, () -> TimeIndexKey.parse("x:syslog"));
    }
}
