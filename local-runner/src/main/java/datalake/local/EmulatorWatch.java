package datalake.local;

import datalake.emulators.DynamoDbLocal;
import datalake.emulators.MotoServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Optional;

/**
 * Whether the runner's emulators are still there: moto is a child process, which may exit (killed, out of
 * memory); DynamoDB Local runs in this JVM, and is taken for gone when its port refuses connections
 * {@value #REFUSALS} checks in a row. Without them the pipeline can only retry for ever, so the runner
 * stops, saying which one is gone.
 */
final class EmulatorWatch {
    static final int REFUSALS = 3;

    private final MotoServer moto;
    private final DynamoDbLocal dynamoDb;
    private int dynamoDbRefusals;

    EmulatorWatch(MotoServer moto, DynamoDbLocal dynamoDb) {
        this.moto = moto;
        this.dynamoDb = dynamoDb;
    }

    /** One check (the runner makes one a second): the sentence saying which emulator is gone, or empty. */
    Optional<String> check() {
        if (!moto.isRunning()) {
            String last = moto.lastOutput().lines().reduce((a, b) -> b).orElse("");
            return Optional.of("moto (S3, SQS, SNS) at " + moto.endpoint() + " has exited"
                    + moto.exitValue().map(code -> " with status " + code).orElse("")
                    + (last.isBlank() ? "" : "; its last line: " + last));
        }
        dynamoDbRefusals = answers(dynamoDb.port()) ? 0 : dynamoDbRefusals + 1;
        if (dynamoDbRefusals >= REFUSALS) {
            return Optional.of("DynamoDB Local at " + dynamoDb.endpoint() + " refused " + REFUSALS + " connections in a row");
        }
        return Optional.empty();
    }

    private static boolean answers(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1_000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
