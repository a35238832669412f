package datalake.query;

import datalake.emulators.Emulators;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Files written into a harness's tables the way the Python datalake wrote them: by the PyPI
 * {@code datalake} package's own record code, in the test virtualenv, with boto3's {@code put_item}
 * (resources/python/python_datalake_records.py says what each file may ask for).
 */
final class PythonRecordWriter {
    private final Emulators aws;
    private final QueryHarness tables;

    PythonRecordWriter(Emulators aws, QueryHarness tables) {
        this.aws = aws;
        this.tables = tables;
    }

    /**
     * Writes the files, each a map the script reads (its {@code metadata}, {@code create_time},
     * {@code size}, {@code first_format}, {@code latest}, {@code object}); returns what the script printed.
     */
    String write(List<Map<String, Object>> files) {
        Path script;
        try {
            script = Path.of(PythonRecordWriter.class.getResource("/python/python_datalake_records.py").toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        ProcessBuilder builder = new ProcessBuilder(DatalakeClient.venvExecutable("python").toString(),
                script.toString(),
                "--dynamodb-endpoint", aws.dynamoDbEndpoint().toString(),
                "--s3-endpoint", aws.motoEndpoint().toString(),
                "--region", Emulators.REGION.id(),
                "--records-table", tables.stack().recordsTable(),
                "--latest-table", tables.stack().latestTable(),
                "--bucket", tables.stack().bucket());
        Map<String, String> env = builder.environment();
        env.keySet().removeIf(name -> name.startsWith("AWS_"));
        env.put("AWS_ACCESS_KEY_ID", Emulators.ACCESS_KEY_ID);
        env.put("AWS_SECRET_ACCESS_KEY", Emulators.SECRET_ACCESS_KEY);
        env.put("AWS_CONFIG_FILE", "/nonexistent/datalake-query-it/config");
        env.put("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/datalake-query-it/credentials");
        try {
            Path out = Files.createTempFile("python-records", ".out");
            Path err = Files.createTempFile("python-records", ".err");
            Path in = Files.createTempFile("python-records", ".json");
            try {
                Files.write(in, Events.JSON.writeValueAsBytes(files));
                Process process = builder.redirectInput(in.toFile()).redirectOutput(out.toFile())
                        .redirectError(err.toFile()).start();
                if (!process.waitFor(120, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    throw new IllegalStateException(script.getFileName() + " did not end in 120 s");
                }
                if (process.exitValue() != 0) {
                    throw new IllegalStateException(script.getFileName() + " failed (exit " + process.exitValue()
                            + "): " + Files.readString(err, StandardCharsets.UTF_8));
                }
                return Files.readString(out, StandardCharsets.UTF_8);
            } finally {
                Files.delete(in);
                Files.delete(out);
                Files.delete(err);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
