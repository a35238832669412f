package datalake.emulators;

import datalake.emulators.calls.CallRecorder;
import java.util.Set;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The shared {@link Emulators} in JUnit 5 tests ({@code @ExtendWith(EmulatorsExtension.class)}): injects
 * {@link Emulators}, {@link DynamoDbClient}, {@link S3Client}, {@link SqsClient} and {@link SnsClient}
 * parameters, restarts dynalite if a class before stopped it, and stops the emulators when the
 * whole test run ends. Other modules get it from this module's test-jar.
 */
public final class EmulatorsExtension implements BeforeAllCallback, ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(EmulatorsExtension.class);
    private static final Set<Class<?>> INJECTED =
            Set.of(Emulators.class, DynamoDbClient.class, S3Client.class, SqsClient.class, SnsClient.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        Emulators emulators = Emulators.shared();
        // The root store is closed once, after the last test class: then the emulators stop.
        context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(Stopper.class, k -> new Stopper(emulators),
                Stopper.class);
        emulators.restartDynamoDbIfStopped();
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return INJECTED.contains(parameter.getParameter().getType());
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Emulators emulators = Emulators.shared();
        Class<?> type = parameter.getParameter().getType();
        if (type == DynamoDbClient.class) {
            return emulators.dynamoDb();
        } else if (type == S3Client.class) {
            return emulators.s3();
        } else if (type == SqsClient.class) {
            return emulators.sqs();
        } else if (type == SnsClient.class) {
            return emulators.sns();
        }
        return emulators;
    }

    /** Closed by JUnit with the root store, at the end of the run. */
    private record Stopper(Emulators emulators) implements AutoCloseable {
        @Override
        public void close() {
            CallRecorder.flush();
            emulators.close();
        }
    }
}
