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
        int status = AdoptCommand.run(args, Environment.of(Map.of()), env -> {
            throw new AssertionError("a refused argument builds no S3 client");
        }, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(1, status);
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aPrefixIsRefusedBecauseEventBridgeDeliveryIsABucketsSetting() {
        assertEquals("adopt: EventBridge delivery is a setting of the whole bucket: give s3://team-data, without a prefix.\n"
                + AdoptCommand.USAGE + "\n", refusal("s3://team-data/logs/"));
    }

    @Test
    void withoutARegionItSaysSoInOneSentence() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = AdoptCommand.run(new String[] {"s3://team-data"}, Environment.of(Map.of()),
                env -> datalake.lambda.SdkClientFactory.forFunction(env, 1).build(
                        software.amazon.awssdk.services.s3.S3Client.builder()),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(1, status);
        assertEquals("adopt: AWS_REGION is not set; set it to the AWS region, e.g. us-east-1 (Lambda sets it).\n",
                err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void whatIsNotABucketIsRefused() {
        assertEquals("adopt: 'Team_Data' is not an S3 bucket name.\n" + AdoptCommand.USAGE + "\n", refusal("s3://Team_Data"));
        assertEquals(AdoptCommand.USAGE + "\n", refusal());
    }
}
