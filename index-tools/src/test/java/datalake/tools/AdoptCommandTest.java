package datalake.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import datalake.lambda.Environment;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** scripts/adopt.sh refuses what is not a whole bucket with one sentence and its usage, before any call. */
class AdoptCommandTest {
    private static String refusal(String... args) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        // No S3 client: a refused argument must never reach one.
        int status = AdoptCommand.run(args, null, Environment.of(Map.of()), new PrintStream(new ByteArrayOutputStream(),
                true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(1, status);
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aPrefixIsRefusedBecauseEventBridgeDeliveryIsABucketsSetting() {
        assertEquals("adopt: EventBridge delivery is a setting of the whole bucket: give s3://team-data, without a prefix.\n"
                + AdoptCommand.USAGE + "\n", refusal("s3://team-data/logs/"));
    }

    @Test
    void whatIsNotABucketIsRefused() {
        assertEquals("adopt: 'Team_Data' is not an S3 bucket name.\n" + AdoptCommand.USAGE + "\n", refusal("s3://Team_Data"));
        assertEquals(AdoptCommand.USAGE + "\n", refusal());
    }
}
