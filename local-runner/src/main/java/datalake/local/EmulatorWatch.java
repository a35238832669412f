package datalake.local;

import datalake.emulators.Dynalite;
import datalake.emulators.MotoServer;
import java.net.URI;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Whether the runner's emulators are still there: both are child processes, which may exit (killed, out
 * of memory). Without them the pipeline can only retry for ever, so the runner stops, saying which one is
 * gone.
 */
final class EmulatorWatch {
    private final MotoServer moto;
    private final Dynalite dynamoDb;

    EmulatorWatch(MotoServer moto, Dynalite dynamoDb) {
        this.moto = moto;
        this.dynamoDb = dynamoDb;
    }

    /** One check (the runner makes one a second): the sentence saying which emulator is gone, or empty. */
    Optional<String> check() {
        if (!moto.isRunning()) {
            return Optional.of(gone("moto (S3, SQS, SNS)", moto.endpoint(), moto.exitValue(), moto::lastOutput));
        }
        if (!dynamoDb.isRunning()) {
            return Optional.of(gone("dynalite (DynamoDB)", dynamoDb.endpoint(), dynamoDb.exitValue(), dynamoDb::lastOutput));
        }
        return Optional.empty();
    }

    private static String gone(String name, URI endpoint, Optional<Integer> exitValue, Supplier<String> output) {
        String last = output.get().lines().reduce((a, b) -> b).orElse("");
        return name + " at " + endpoint + " has exited" + exitValue.map(code -> " with status " + code).orElse("")
                + (last.isBlank() ? "" : "; its last line: " + last);
    }
}
