package datalake.tools;

import datalake.lambda.ConfigurationException;
import datalake.lambda.Environment;
import datalake.lambda.EnvironmentVariable;
import datalake.lambda.SdkClientFactory;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * {@code scripts/adopt.sh s3://bucket}: the bucket a stack deployed with ExistingBucketName indexes sends
 * its events to EventBridge too, its other notification configurations kept (README, "Adopting an
 * existing bucket"), and it names the bucket's region, the one the stack must be deployed in (S3 sends
 * events to its own region's EventBridge only), which it reads with GetBucketLocation: AWS_REGION may be
 * unset (the calls start in us-east-1) or another region (the client follows S3's redirects). Exit
 * status 0 when delivery is on (now or before), 1 for a usage error or a refusal.
 */
public final class AdoptCommand {
    static final String USAGE = "usage: scripts/adopt.sh s3://bucket";
    /** Where the calls start when AWS_REGION is unset: S3 answers a bucket's location from any region. */
    static final String START_REGION = "us-east-1";

    private AdoptCommand() {
    }

    public static void main(String[] args) {
        System.exit(run(args, Environment.system(), env -> SdkClientFactory.forFunction(env, 1)
                .build(S3Client.builder().forcePathStyle(env.s3PathStyle()).crossRegionAccessEnabled(true)),
                System.out, System.err));
    }

    /**
     * With an S3 client of the bucket owner's, built (and closed) only once the arguments are accepted, for
     * {@code env} with AWS_REGION set ({@value #START_REGION} when it is not), which follows a bucket
     * elsewhere; {@code env} names the endpoints in a message when none answers.
     */
    static int run(String[] args, Environment env, Function<Environment, S3Client> clients, PrintStream out,
            PrintStream err) {
        Target target;
        try {
            Arguments parsed = Arguments.parse(args, Set.of(), Set.of("--help"));
            if (parsed.has("--help") || parsed.positional.size() != 1) {
                err.println(USAGE);
                return parsed.has("--help") ? 0 : 1;
            }
            target = Target.parse(parsed.positional.get(0));
            if (!target.prefix().isEmpty()) {
                throw new IllegalArgumentException("EventBridge delivery is a setting of the whole bucket: give s3://"
                        + target.bucket() + ", without a prefix.");
            }
        } catch (IllegalArgumentException e) {
            err.println("adopt: " + e.getMessage());
            err.println(USAGE);
            return 1;
        }
        String given = env.get(EnvironmentVariable.REGION);
        Map<String, String> values = new HashMap<>(env.values());
        values.put(EnvironmentVariable.REGION.key(), given == null ? START_REGION : given);
        Environment calls = Environment.of(values);
        try (S3Client s3 = clients.apply(calls)) {
            String region = region(s3, target.bucket());
            EventBridgeDelivery.Outcome outcome = EventBridgeDelivery.turnOn(s3, target.bucket());
            out.println("adopt: " + target.bucket() + (outcome.wasOn() ? " sent its events to EventBridge already"
                    : " now sends its events to EventBridge too") + "; its " + outcome.kept()
                    + " other notification configurations are unchanged.");
            out.println("adopt: " + target.bucket() + " is in " + region + ", so S3 sends its events to " + region
                    + "'s EventBridge only: deploy the stack with ExistingBucketName=" + target.bucket() + " in "
                    + region + (given == null || given.equals(region) ? "" : " (not " + given + ", AWS_REGION)") + ".");
            return 0;
        } catch (ConfigurationException e) {
            err.println("adopt: " + e.getMessage());
            return 1;
        } catch (RuntimeException e) {
            err.println(Tools.unanswered("adopt", e, calls).orElseThrow(() -> e));
            return 1;
        }
    }

    /**
     * The bucket's region, as GetBucketLocation gives it: none for us-east-1, and "EU" for eu-west-1 (the
     * name of old).
     */
    static String region(S3Client s3, String bucket) {
        String location = s3.getBucketLocation(r -> r.bucket(bucket)).locationConstraintAsString();
        if (location == null || location.isEmpty()) {
            return "us-east-1";
        }
        return location.equals("EU") ? "eu-west-1" : location;
    }
}
