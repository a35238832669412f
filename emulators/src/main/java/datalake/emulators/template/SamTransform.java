package datalake.emulators.template;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import datalake.emulators.EmulatorNotInstalledException;
import datalake.emulators.MotoServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The SAM transform of a template, as CloudFormation runs it on {@code sam deploy}: aws-sam-translator
 * (the library {@code sam} and CloudFormation use, installed in the test virtualenv by
 * scripts/lib/venv.sh) through {@code scripts/lib/sam_transform.py}. The translator is given what
 * CloudFormation gives it: the stack's parameters, account, region and name ({@link Deployment}); its
 * output depends on them (an {@code AutoPublishAlias} from a parameter, managed-policy ARNs in the
 * region's partition). A transform takes a Python start (about 1.5 s), so results are kept in
 * {@code target/sam-transform/} of the repository and in memory: every test class of a build reads the
 * same file. The key is the SHA-256 of the template, the script, the pinned requirements and the
 * deployment, so an edit of any of them transforms again.
 */
public final class SamTransform {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, Template> TRANSFORMED = new ConcurrentHashMap<>();
    private static final long TIMEOUT_SECONDS = 120;

    private SamTransform() {
    }

    /**
     * What CloudFormation passes the transform besides the template.
     *
     * @param stackName  AWS::StackName
     * @param accountId  AWS::AccountId
     * @param region     AWS::Region (the partition and URL suffix follow from it)
     * @param parameters the parameter overrides, as {@code --parameter-overrides}; the rest take their defaults
     */
    public record Deployment(String stackName, String accountId, String region, Map<String, String> parameters) {
        /** The one stack name of the local stack when none is given (the template's NamePrefix default). */
        public static final String DEFAULT_STACK_NAME = "datalake";

        public Deployment {
            Objects.requireNonNull(stackName, "stackName");
            Objects.requireNonNull(accountId, "accountId");
            Objects.requireNonNull(region, "region");
            parameters = Collections.unmodifiableMap(new TreeMap<>(parameters));
        }

        /** moto's account and region, the default stack name, no overrides. */
        public static Deployment defaults() {
            return new Deployment(DEFAULT_STACK_NAME, "123456789012", "us-east-1", Map.of());
        }

        private List<String> arguments() {
            List<String> out = new ArrayList<>(List.of("AWS::AccountId=" + accountId, "AWS::Region=" + region,
                    "AWS::StackName=" + stackName));
            parameters.forEach((name, value) -> out.add(name + "=" + value));
            return out;
        }
    }

    /** The repository's template.yaml, transformed for {@link Deployment#defaults()}. */
    public static Template repositoryTemplate() {
        return transform(Repository.template());
    }

    /** A SAM template (the repository's, or a test's edited copy of it), transformed for {@link Deployment#defaults()}. */
    public static Template transform(Path samTemplate) {
        return transform(samTemplate, Deployment.defaults());
    }

    /** A SAM template transformed to plain CloudFormation for one deployment. */
    public static Template transform(Path samTemplate, Deployment deployment) {
        Path root = Repository.root();
        Path script = root.resolve("scripts/lib/sam_transform.py");
        String id;
        try {
            id = sha256(Files.readAllBytes(samTemplate), Files.readAllBytes(script),
                    Files.readAllBytes(root.resolve("scripts/requirements-dev.txt")),
                    String.join("\n", deployment.arguments()).getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + samTemplate + " or the transform script: " + e, e);
        }
        return TRANSFORMED.computeIfAbsent(id, key -> load(samTemplate, script, deployment, key))
                .transformedFrom(samTemplate, deployment);
    }

    /** A transform made before in this repository (a recording names the template of its stack by this id). */
    public static Template cached(String id) {
        Template known = TRANSFORMED.get(id);
        if (known != null) {
            return known;
        }
        Path file = cacheFile(id);
        if (!Files.isRegularFile(file)) {
            throw new TemplateException("no transformed template " + id + " in " + file.getParent()
                    + "; it is written when a stack is built from that template (rebuild the modules that record calls).");
        }
        return read(file, id);
    }

    /** Where the transform of the template with this id is kept. */
    public static Path cacheFile(String id) {
        return Repository.root().resolve("target/sam-transform").resolve(id + ".json");
    }

    private static Template load(Path samTemplate, Path script, Deployment deployment, String id) {
        Path file = cacheFile(id);
        if (Files.isRegularFile(file)) {
            return read(file, id);
        }
        run(samTemplate, script, deployment, file);
        return read(file, id);
    }

    private static Template read(Path file, String id) {
        try {
            return Template.of(JSON.readTree(file.toFile()), id);
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the transformed template " + file + ": " + e, e);
        }
    }

    private static void run(Path samTemplate, Path script, Deployment deployment, Path file) {
        Path venv = MotoServer.defaultVirtualEnv();
        Path python = venv.resolve("bin").resolve("python");
        if (!Files.isExecutable(python)) {
            throw new EmulatorNotInstalledException("python not found in " + venv
                    + "; run scripts/lib/venv.sh (scripts/test.sh and scripts/local.sh do it) to install aws-sam-translator.");
        }
        try {
            Files.createDirectories(file.getParent());
            // Written beside the cache file and moved into place: JVMs of a parallel build may race.
            Path out = Files.createTempFile(file.getParent(), "transform-", ".json");
            Path err = Files.createTempFile(file.getParent(), "transform-", ".err");
            try {
                List<String> command = new ArrayList<>(List.of(python.toString(), script.toString(), samTemplate.toString()));
                command.addAll(deployment.arguments());
                Process process = new ProcessBuilder(command)
                        .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
                if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    throw new TemplateException("the SAM transform of " + samTemplate + " did not finish within "
                            + TIMEOUT_SECONDS + " s.");
                }
                if (process.exitValue() != 0) {
                    String message = Files.readString(err, StandardCharsets.UTF_8).strip();
                    throw new TemplateException(message.isEmpty()
                            ? "the SAM transform of " + samTemplate + " failed with exit code " + process.exitValue() + "."
                            : message.lines().reduce((first, last) -> last).orElse(message)
                                    + (message.contains("ModuleNotFoundError")
                                    ? " (run scripts/lib/venv.sh to install aws-sam-translator)" : ""));
                }
                Files.move(out, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } finally {
                Files.deleteIfExists(out);
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not run the SAM transform of " + samTemplate + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TemplateException("interrupted while transforming " + samTemplate + ".", e);
        }
    }

    static String sha256(byte[]... parts) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (byte[] part : parts) {
                digest.update(Integer.toString(part.length).getBytes(StandardCharsets.US_ASCII));
                digest.update((byte) 0);
                digest.update(part);
            }
            return HexFormat.of().formatHex(digest.digest()).substring(0, 32);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
