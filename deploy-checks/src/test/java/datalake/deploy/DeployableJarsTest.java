package datalake.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The Lambda jars hold only what runs in Lambda: no class of the local runner, the emulators or the
 * benchmarks, no test library, no test class of ours. The jars are the shaded ones the lambda modules'
 * package phase builds (the paths come from this module's pom.xml).
 */
class DeployableJarsTest {
    /** Class-file prefixes that must never be deployed, with what they are. */
    private static final List<String[]> FORBIDDEN = List.of(
            new String[] {"datalake/local/", "the local runner"},
            new String[] {"datalake/emulators/", "the emulators"},
            new String[] {"datalake/bench/", "the benchmarks"},
            new String[] {"org/junit/", "JUnit"},
            new String[] {"junit/", "JUnit 4"},
            new String[] {"net/jqwik/", "jqwik"},
            new String[] {"org/testcontainers/", "Testcontainers"},
            new String[] {"org/openjdk/jmh/", "JMH"},
            new String[] {"com/code_intelligence/jazzer/", "Jazzer"},
            new String[] {"com/amazonaws/services/lambda/runtime/tests/", "aws-lambda-java-tests"},
            new String[] {"com/amazonaws/services/dynamodbv2/local/", "DynamoDB Local"},
            new String[] {"software/amazon/dynamodb/services/local/", "DynamoDB Local"},
            new String[] {"com/almworks/sqlite4java/", "sqlite4java (DynamoDB Local)"},
            new String[] {"org/eclipse/jetty/", "Jetty (DynamoDB Local)"},
            new String[] {"com/sun/net/httpserver/", "the JDK HTTP server"});
    /** Our own test classes and fixtures, wherever they are. */
    private static final Pattern OUR_TEST_CLASS = Pattern.compile(
            "datalake/.*/(\\w*Test|\\w*IT|\\w*Harness|Fakes|FakeClock|TestFiles|Events|\\w+Benchmark)(\\$.*)?\\.class");

    @ParameterizedTest
    @CsvSource({
        "datalake.ingester.jar, datalake/ingester/IngesterHandler.class",
        // The backfill function is the ingester's jar with its second handler, and the S3 Batch
        // Operations event it receives (the shade filter keeps only the event classes used).
        "datalake.ingester.jar, datalake/ingester/BackfillHandler.class",
        "datalake.ingester.jar, com/amazonaws/services/lambda/runtime/events/S3BatchEventV2$Task.class",
        "datalake.ingester.jar, com/amazonaws/services/lambda/runtime/events/S3BatchResponse$ResultCode.class",
        "datalake.query.jar, datalake/query/QueryHandler.class",
    })
    void theLambdaJarHoldsTheHandlerAndNothingLocalOrOfTheTests(String property, String handler) throws IOException {
        Path jar = Path.of(System.getProperty(property, "(" + property + " not set)"));
        assertTrue(Files.isRegularFile(jar), jar + " does not exist: build the deployable jars first"
                + " (mvn package -pl lambda-ingester,lambda-query -am), or run this module with them in one build");

        List<String> found = new ArrayList<>();
        boolean hasHandler = false;
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            for (ZipEntry entry : zip.stream().toList()) {
                String name = entry.getName();
                hasHandler |= name.equals(handler);
                for (String[] forbidden : FORBIDDEN) {
                    if (name.startsWith(forbidden[0]) && name.endsWith(".class")) {
                        found.add(name + " (" + forbidden[1] + ")");
                    }
                }
                if (OUR_TEST_CLASS.matcher(name).matches()) {
                    found.add(name + " (a test class of ours)");
                }
            }
        }

        assertTrue(hasHandler, jar + " holds " + handler);
        assertEquals(List.of(), found.stream().limit(20).toList(), jar + " holds classes that do not run in Lambda");
    }
}
