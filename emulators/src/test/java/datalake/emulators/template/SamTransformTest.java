package datalake.emulators.template;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The SAM transform runs with the stack's parameters, account, region and name, as CloudFormation runs it. */
class SamTransformTest {
    /** A function whose alias comes from a parameter: the translator resolves it, so its output depends on it. */
    private static final String SAM = """
            Transform: AWS::Serverless-2016-10-31
            Parameters:
              Alias: {Type: String, Default: live}
            Resources:
              Fn:
                Type: AWS::Serverless::Function
                Properties:
                  Runtime: java21
                  Handler: example.Handler
                  CodeUri: s3://bucket/fn.zip
                  AutoPublishAlias: !Ref Alias
            """;

    @TempDir
    Path folder;

    @Test
    void theTranslatorSeesTheParametersAndRegionOfTheStackBeingResolved() throws IOException {
        // Given a SAM template whose transform depends on a parameter and on the region's partition
        Path sam = Files.writeString(folder.resolve("template.yaml"), SAM);
        // When a stack is resolved with another alias, in a China region
        ResolvedTemplate stack = SamTransform.transform(sam).resolve()
                .parameter("Alias", "blue").account("111122223333", "cn-north-1").stackName("other").build();
        // Then the template resolved is the translator's output for these, not for the defaults
        assertTrue(stack.template().resources().containsKey("FnAliasblue"), stack.template().resources().keySet().toString());
        assertEquals("blue", stack.properties("FnAliasblue").path("Name").asText());
        assertEquals("arn:aws-cn:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole",
                stack.properties("FnRole").path("ManagedPolicyArns").get(0).asText());
        assertTrue(SamTransform.transform(sam).resources().containsKey("FnAliaslive"));
    }

    @Test
    void theCacheIsKeyedOnTheDeployment() throws IOException {
        Path sam = Files.writeString(folder.resolve("template.yaml"), SAM);
        SamTransform.Deployment blue = new SamTransform.Deployment("s", "111122223333", "us-east-1", Map.of("Alias", "blue"));
        String defaults = SamTransform.transform(sam).id();
        assertNotEquals(defaults, SamTransform.transform(sam, blue).id());
        assertNotEquals(defaults, SamTransform.transform(sam,
                new SamTransform.Deployment("s", "111122223333", "eu-west-1", Map.of())).id());
        assertNotEquals(defaults, SamTransform.transform(sam,
                new SamTransform.Deployment("t", "123456789012", "us-east-1", Map.of())).id());
        assertEquals(SamTransform.transform(sam, blue).id(), SamTransform.transform(sam,
                new SamTransform.Deployment("s", "111122223333", "us-east-1", Map.of("Alias", "blue"))).id());
    }
}
