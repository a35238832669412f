package datalake.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * DynamoDB Local (AWS's own licence, not open source) and the sqlite4java it brings stay out of the
 * repository: no class, script, pom property or copy step names them. The parent POM's enforcer rule
 * {@code no-dynamodb-local} keeps them out of every module's dependencies by pattern (their groups, and
 * AWS's DynamoDB* artifacts of them), so that not even the ban names them; this keeps them out of the
 * sources. Prose may say "DynamoDB Local" (the docs say why it went); code names it by artifact or class.
 */
class OpenSourceOnlyTest {
    private static final Pattern NAMES = Pattern.compile(
            "DynamoDBLocal|DynamoDbLocal|sqlite4java|dynamodbv2[./]local|dynamodb[./]services[./]local",
            Pattern.CASE_INSENSITIVE);
    /**
     * LocalStack's DynamoDB service, as Testcontainers names it ({@code Service.DYNAMODB},
     * {@code EnabledService.named("dynamodb")}) or as LocalStack's SERVICES variable lists it (in an env
     * file, YAML, or a {@code withEnv("SERVICES", ...)}); SERVICES in capitals, so prose is not matched.
     */
    static final Pattern LOCALSTACK_DYNAMODB = Pattern.compile(
            "Service\\.DYNAMODB\\b|EnabledService\\.named\\(\\s*\"(?i:dynamodb)\""
                    + "|\\bSERVICES[\"']?\\s*[=:,]\\s*[\"']?[\\w\\s,-]*(?i:dynamodb)");
    /** Where a name may stand: the rules that forbid it. */
    private static final Set<String> ALLOWED = Set.of(
            "architecture-tests/src/test/java/datalake/architecture/OpenSourceOnlyTest.java",
            "deploy-checks/src/test/java/datalake/deploy/DeployableJarsTest.java");
    private static final Set<String> SKIPPED_DIRECTORIES = Set.of(
            ".git", "target", ".venv", ".venv-tools", ".dynalite", "node_modules", ".aws-sam", ".idea", "__pycache__");
    private static final Set<String> TEXT = Set.of(
            "java", "xml", "sh", "py", "js", "json", "toml", "yaml", "yml", "md", "txt", "properties", "cfg");

    @Test
    void noFileNamesDynamoDbLocalOrSqlite4java() throws IOException {
        assertEquals(List.of(), linesMatching(NAMES, ALLOWED),
                "DynamoDB Local or sqlite4java named outside the rules that forbid them");
    }

    @Test
    void noTestAsksLocalStackForDynamoDb() throws IOException {
        // LocalStack's DynamoDB is DynamoDB Local, fetched and run inside its container: the LocalStack
        // tests take S3, SQS and SNS from it and DynamoDB from dynalite.
        assertEquals(List.of(), linesMatching(LOCALSTACK_DYNAMODB, ALLOWED),
                "LocalStack asked for DynamoDB, which it serves with DynamoDB Local");
    }

    @Test
    void theLocalStackPatternFindsEachWayOfAskingAndNoProse() {
        for (String asking : List.of(".withServices(Service.S3, Service.DYNAMODB)", "EnabledService.named(\"dynamodb\")",
                ".withEnv(\"SERVICES\", \"s3,dynamodb\")", "SERVICES=s3,sqs,dynamodb", "  - SERVICES=dynamodb",
                "SERVICES: \"s3, dynamodb\"")) {
            assertTrue(LOCALSTACK_DYNAMODB.matcher(asking).find(), asking);
        }
        for (String prose : List.of("services: S3, SQS and DynamoDB", "the emulated services: dynamodb on dynalite",
                ".withServices(Service.S3, Service.SQS, Service.SNS)", "SERVICES=s3,sqs,sns")) {
            assertFalse(LOCALSTACK_DYNAMODB.matcher(prose).find(), prose);
        }
    }

    /** Every line of the repository's text files that the pattern finds, as {@code path:line: text}. */
    private static List<String> linesMatching(Pattern pattern, Set<String> allowed) throws IOException {
        Path root = repositoryRoot();
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : (Iterable<Path>) files.filter(f -> Files.isRegularFile(f) && isText(f)
                    && !skipped(root.relativize(f)))::iterator) {
                String relative = root.relativize(file).toString().replace('\\', '/');
                if (allowed.contains(relative)) {
                    continue;
                }
                List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
                for (int i = 0; i < lines.size(); i++) {
                    if (pattern.matcher(lines.get(i)).find()) {
                        found.add(relative + ":" + (i + 1) + ": " + lines.get(i).strip());
                    }
                }
            }
        }
        return found;
    }

    @Test
    void theParentPomBansTheArtifactsInEveryModule() throws IOException {
        String pom = Files.readString(repositoryRoot().resolve("pom.xml"));

        assertTrue(pom.contains("<id>no-dynamodb-local</id>") && pom.contains("<bannedDependencies>")
                && pom.contains("<exclude>software.amazon.dynamodb:DynamoDB*</exclude>")
                && pom.contains("<exclude>com.amazonaws:DynamoDB*</exclude>")
                && pom.contains("<exclude>com.almworks.*</exclude>"), "the enforcer rule no-dynamodb-local");
    }

    private static boolean isText(Path file) {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return name.equals("Makefile") || dot > 0 && TEXT.contains(name.substring(dot + 1).toLowerCase(Locale.ROOT));
    }

    private static boolean skipped(Path relative) {
        for (Path part : relative) {
            if (SKIPPED_DIRECTORIES.contains(part.toString())) {
                return true;
            }
        }
        return false;
    }

    /** The first directory, from this module up, that holds {@code .ci}. */
    private static Path repositoryRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve(".ci"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no .ci directory above " + Path.of("").toAbsolutePath());
    }
}
