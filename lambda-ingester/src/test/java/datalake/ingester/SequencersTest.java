package datalake.ingester;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SequencersTest {

    @ParameterizedTest
    @CsvSource({
        "0055AED6DCD90281E5, 0055AED6DCD90281E6",
        "0055AED6DCD90281E5, 0055AED6DCD90281E500001",
        "0055AED6DCD90281E5, 0055AED6DCD9028200",
        "0055aed6dcd90281e5, 0055AED6DCD90281E6",
        "00FF, 01",
    })
    void theGreaterHexValueIsLater(String earlier, String later) {
        assertTrue(Sequencers.compare(earlier, later) < 0);
        assertTrue(Sequencers.compare(later, earlier) > 0);
    }

    @ParameterizedTest
    @CsvSource({
        "0055AED6DCD90281E5, 0055AED6DCD90281E500",
        "0055aed6dcd90281e5, 0055AED6DCD90281E5",
    })
    void theShorterIsPaddedWithZerosOnTheRight(String a, String b) {
        assertEquals(0, Sequencers.compare(a, b));
    }

    @ParameterizedTest
    @CsvSource({"0055", "00", "0"})
    void aPresentSequencerIsLaterThanAMissingOne(String present) {
        assertTrue(Sequencers.compare(null, present) < 0);
        assertTrue(Sequencers.compare(present, null) > 0);
    }

    @Test
    void twoMissingSequencersLeaveTheOrderToTheMessages() {
        assertEquals(0, Sequencers.compare(null, null));
    }
}
