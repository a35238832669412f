package datalake.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.lambda.Environment;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetBucketLocationResponse;
import software.amazon.awssdk.services.s3.model.GetBucketNotificationConfigurationResponse;
import software.amazon.awssdk.services.s3.model.PutBucketNotificationConfigurationResponse;

/**
 * scripts/adopt.sh refuses what is not a whole bucket with one sentence and its usage, before any call; and
 * names the bucket's region, where the stack must be, read from S3 whatever AWS_REGION says.
 */
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

    /**
     * S3 as the owner of a bucket in {@code location} (GetBucketLocation's name for it) sees it: no other
     * notification configuration; the calls made, by name, in {@code calls}.
     */
    private static S3Client bucketIn(String location, List<String> calls) {
        return (S3Client) Proxy.newProxyInstance(S3Client.class.getClassLoader(), new Class<?>[] {S3Client.class},
                (proxy, method, args) -> {
                    calls.add(method.getName());
                    return switch (method.getName()) {
                        case "getBucketLocation" -> GetBucketLocationResponse.builder().locationConstraint(location)
                                .build();
                        case "getBucketNotificationConfiguration" -> GetBucketNotificationConfigurationResponse.builder()
                                .build();
                        case "putBucketNotificationConfiguration" -> PutBucketNotificationConfigurationResponse.builder()
                                .build();
                        case "close" -> null;
                        default -> throw new AssertionError("no call " + method.getName() + " expected");
                    };
                });
    }

    /** The command's output, and in {@code regions} the AWS_REGION each client was built for. */
    private static String adopt(Map<String, String> env, String location, List<String> regions, List<String> calls) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = AdoptCommand.run(new String[] {"s3://team-data"}, Environment.of(env), clientEnv -> {
            regions.add(clientEnv.get("AWS_REGION"));
            return bucketIn(location, calls);
        }, new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
        assertEquals(0, status);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void withoutARegionItReadsTheBucketsAndNamesItForTheStack() {
        List<String> regions = new ArrayList<>();
        List<String> calls = new ArrayList<>();

        String printed = adopt(Map.of(), "eu-west-3", regions, calls);

        assertEquals(List.of("us-east-1"), regions, "without AWS_REGION the calls start in us-east-1");
        assertEquals("getBucketLocation", calls.get(0));
        assertTrue(calls.contains("putBucketNotificationConfiguration"), calls.toString());
        assertEquals("adopt: team-data now sends its events to EventBridge too; its 0 other notification"
                + " configurations are unchanged.\nadopt: team-data is in eu-west-3, so S3 sends its events to"
                + " eu-west-3's EventBridge only: deploy the stack with ExistingBucketName=team-data in eu-west-3.\n",
                printed);
    }

    @Test
    void aRegionOtherThanTheBucketsIsNamedBesideIt() {
        // an AWS_REGION set for something else, and a bucket of before regions had their names ("EU")
        String printed = adopt(Map.of("AWS_REGION", "us-west-2"), "EU", new ArrayList<>(), new ArrayList<>());
        assertTrue(printed.endsWith("deploy the stack with ExistingBucketName=team-data in eu-west-1 (not us-west-2,"
                + " AWS_REGION).\n"), printed);
        // and a bucket in us-east-1, which GetBucketLocation names by no location
        assertTrue(adopt(Map.of("AWS_REGION", "us-east-1"), null, new ArrayList<>(), new ArrayList<>())
                .endsWith(" in us-east-1.\n"));
    }

    @Test
    void whatIsNotABucketIsRefused() {
        assertEquals("adopt: 'Team_Data' is not an S3 bucket name.\n" + AdoptCommand.USAGE + "\n", refusal("s3://Team_Data"));
        assertEquals(AdoptCommand.USAGE + "\n", refusal());
    }
}
