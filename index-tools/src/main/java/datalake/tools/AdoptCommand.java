package datalake.tools;

import datalake.lambda.ConfigurationException;
import datalake.lambda.Environment;
import datalake.lambda.SdkClientFactory;
import java.io.PrintStream;
import java.util.Set;
import java.util.function.Function;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * {@code scripts/adopt.sh s3://bucket}: the bucket a stack deployed with ExistingBucketName indexes sends
 * its events to EventBridge too, its other notification configurations kept (README, "Adopting an
 * existing bucket"). Exit status 0 when delivery is on (now or before), 1 for a usage error or a refusal.
 */
public final class AdoptCommand {
    static final String USAGE = "usage: scripts/adopt.sh s3://bucket";

    private AdoptCommand() {
    }

    public static void main(String[] args) {
        System.exit(run(args, Environment.system(), env -> SdkClientFactory.forFunction(env, 1)
                .build(S3Client.builder().forcePathStyle(env.s3PathStyle())), System.out, System.err));
    }

    /**
     * With an S3 client of the bucket owner's, built (and closed) only once the arguments are accepted;
     * {@code env} names the endpoints in a message when none answers.
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
        try (S3Client s3 = clients.apply(env)) {
            EventBridgeDelivery.Outcome outcome = EventBridgeDelivery.turnOn(s3, target.bucket());
            out.println("adopt: " + target.bucket() + (outcome.wasOn() ? " sent its events to EventBridge already"
                    : " now sends its events to EventBridge too") + "; its " + outcome.kept()
                    + " other notification configurations are unchanged.");
            return 0;
        } catch (ConfigurationException e) {
            err.println("adopt: " + e.getMessage());
            return 1;
        } catch (RuntimeException e) {
            err.println(Tools.unanswered("adopt", e, env).orElseThrow(() -> e));
            return 1;
        }
    }
}
