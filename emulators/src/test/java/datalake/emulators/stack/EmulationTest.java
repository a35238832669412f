package datalake.emulators.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.emulators.template.Repository;
import datalake.emulators.template.SamTransform;
import datalake.emulators.template.Template;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Nothing in template.yaml differs locally without being listed, and docs/DESIGN.md shows the list. */
class EmulationTest {
    private static final String BEGIN = "<!-- emulation: generated from emulators' Emulation.java by EmulationTest -->\n";
    private static final String END = "<!-- emulation: end -->";

    @Test
    void everyTypeAndPropertyOfTheTemplateIsAppliedOrListed() {
        assertEquals(List.of(), Emulation.uncovered(SamTransform.repositoryTemplate()));
    }

    @Test
    void aPropertyInsideAnotherIsCheckedToo() throws IOException {
        // Given a bucket notifying a queue, and in one branch of an Fn::If a Lambda function and EventBridge too
        Template template = Template.of(new ObjectMapper().readTree("""
                {"Conditions": {"C": {"Fn::Equals": ["a", "a"]}},
                 "Resources": {"Bucket": {"Type": "AWS::S3::Bucket", "Properties": {"NotificationConfiguration": {
                   "QueueConfigurations": [{"Event": "s3:ObjectCreated:*", "Queue": "arn:aws:sqs:us-east-1:1:q"}],
                   "LambdaConfigurations": {"Fn::If": ["C", {"Ref": "AWS::NoValue"},
                     [{"Event": "s3:ObjectCreated:*", "Function": "arn:aws:lambda:us-east-1:1:function:f"}]]},
                   "EventBridgeConfiguration": {"EventBridgeEnabled": true}}}}}}
                """), "test");
        // When the catalogue is held against it
        // Then what the local stack would drop silently is named, and the queue configuration is not
        assertEquals(List.of(
                "Bucket: the property AWS::S3::Bucket.NotificationConfiguration.LambdaConfigurations is neither applied"
                        + " locally nor listed with its difference",
                "Bucket: the property AWS::S3::Bucket.NotificationConfiguration.EventBridgeConfiguration is neither"
                        + " applied locally nor listed with its difference"), Emulation.uncovered(template));
    }

    @Test
    void docsDesignShowsTheCatalogue() throws IOException {
        String design = Files.readString(Repository.root().resolve("docs/DESIGN.md"));
        int begin = design.indexOf(BEGIN);
        int end = design.indexOf(END);
        assertTrue(begin >= 0 && end > begin, "docs/DESIGN.md holds the table between\n" + BEGIN + "and\n" + END);
        assertEquals(Emulation.markdown(), design.substring(begin + BEGIN.length(), end),
                "docs/DESIGN.md's table of what the local stack does not do; replace it with the expected text");
    }
}
