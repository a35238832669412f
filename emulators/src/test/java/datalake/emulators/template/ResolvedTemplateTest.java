package datalake.emulators.template;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** Intrinsic functions, parameters, rules and conditions, on small templates written here. */
class ResolvedTemplateTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static Template template(String json) throws IOException {
        return Template.of(JSON.readTree(json.replace('\'', '"')), "test");
    }

    @Test
    void subJoinSelectSplitAndIfResolveAsCloudFormationDoes() throws IOException {
        // Given a template using each function
        Template template = template("""
                {'Parameters': {'Prefix': {'Type': 'String', 'Default': 'lake'},
                                'Names': {'Type': 'CommaDelimitedList', 'Default': 'a,b,c'}},
                 'Conditions': {'IsLake': {'Fn::Equals': [{'Ref': 'Prefix'}, 'lake']}},
                 'Resources': {'Queue': {'Type': 'AWS::SQS::Queue', 'Properties': {'QueueName': {'Fn::Sub': '${Prefix}-q'}}},
                   'Thing': {'Type': 'AWS::SNS::Topic', 'Properties': {
                     'TopicName': {'Fn::Join': ['-', [{'Ref': 'Prefix'}, {'Fn::Select': [1, {'Ref': 'Names'}]}]]},
                     'DisplayName': {'Fn::Sub': ['${X} ${!Literal} ${AWS::Region} ${Queue.Arn}', {'X': 'x'}]},
                     'Split': {'Fn::Select': [2, {'Fn::Split': [':', 'p:q:r']}]},
                     'Chosen': {'Fn::If': ['IsLake', 'yes', 'no']},
                     'Gone': {'Fn::If': ['IsLake', {'Ref': 'AWS::NoValue'}, 'kept']},
                     'List': ['one', {'Ref': 'AWS::NoValue'}, 'two']}}}}
                """);
        // When it is resolved with the template's defaults
        ResolvedTemplate stack = template.resolve().build();
        JsonNode properties = stack.properties("Thing");
        // Then
        assertEquals("lake-b", properties.path("TopicName").asText());
        assertEquals("x ${Literal} us-east-1 arn:aws:sqs:us-east-1:123456789012:lake-q", properties.path("DisplayName").asText());
        assertEquals("r", properties.path("Split").asText());
        assertEquals("yes", properties.path("Chosen").asText());
        assertFalse(properties.has("Gone"));
        assertEquals(2, properties.path("List").size());
        assertEquals("arn:aws:sns:us-east-1:123456789012:lake-b", stack.ref("Thing"));
        assertEquals("https://sqs.us-east-1.amazonaws.com/123456789012/lake-q", stack.ref("Queue"));
        // and a value learnt from an emulator replaces the convention
        assertEquals("http://127.0.0.1:5000/123456789012/lake-q",
                stack.with("Queue", null, "http://127.0.0.1:5000/123456789012/lake-q").ref("Queue"));
    }

    @Test
    void parametersAreCheckedAgainstTheirDeclarations() throws IOException {
        Template template = template("""
                {'Parameters': {'Prefix': {'Type': 'String', 'Default': 'lake', 'AllowedPattern': '[a-z]{3,5}',
                                           'ConstraintDescription': 'three to five letters'},
                                'Size': {'Type': 'Number', 'Default': 10, 'MinValue': 1, 'MaxValue': 10},
                                'Mode': {'Type': 'String', 'Default': 'A', 'AllowedValues': ['A', 'B']}},
                 'Resources': {}}
                """);
        assertEquals("lake", template.resolve().build().parameter("Prefix"));
        assertEquals("B", template.resolve().parameter("Mode", "B").build().parameter("Mode"));
        TemplateException pattern = assertThrows(TemplateException.class,
                () -> template.resolve().parameter("Prefix", "Lake-1").build());
        assertTrue(pattern.getMessage().contains("Prefix") && pattern.getMessage().contains("three to five letters"),
                pattern.getMessage());
        assertThrows(TemplateException.class, () -> template.resolve().parameter("Size", "11").build());
        assertThrows(TemplateException.class, () -> template.resolve().parameter("Size", "ten").build());
        assertThrows(TemplateException.class, () -> template.resolve().parameter("Mode", "C").build());
        TemplateException unknown = assertThrows(TemplateException.class,
                () -> template.resolve().parameter("Prefx", "lake").build());
        assertTrue(unknown.getMessage().contains("Prefx"), unknown.getMessage());
    }

    @Test
    void aRuleWhoseConditionHoldsRefusesParametersItsAssertionsReject() throws IOException {
        Template template = template("""
                {'Parameters': {'Mode': {'Type': 'String', 'Default': 'A'}, 'Issuer': {'Type': 'String', 'Default': ''}},
                 'Rules': {'BNeedsIssuer': {'RuleCondition': {'Fn::Equals': [{'Ref': 'Mode'}, 'B']},
                   'Assertions': [{'Assert': {'Fn::Not': [{'Fn::Equals': [{'Ref': 'Issuer'}, '']}]},
                                   'AssertDescription': 'B needs an issuer'}]}},
                 'Resources': {}}
                """);
        template.resolve().build();
        template.resolve().parameter("Mode", "B").parameter("Issuer", "https://id.example").build();
        TemplateException refused = assertThrows(TemplateException.class,
                () -> template.resolve().parameter("Mode", "B").build());
        assertTrue(refused.getMessage().contains("B needs an issuer"), refused.getMessage());
    }

    @Test
    void aResourceWhoseConditionIsFalseDoesNotExistAndCannotBeReferenced() throws IOException {
        Template template = template("""
                {'Parameters': {'Email': {'Type': 'String', 'Default': ''}},
                 'Conditions': {'HasEmail': {'Fn::Not': [{'Fn::Equals': [{'Ref': 'Email'}, '']}]}},
                 'Resources': {'Topic': {'Type': 'AWS::SNS::Topic', 'Condition': 'HasEmail', 'Properties': {'TopicName': 't'}}}}
                """);
        assertFalse(template.resolve().build().exists("Topic"));
        assertThrows(TemplateException.class, () -> template.resolve().build().ref("Topic"));
        assertTrue(template.resolve().parameter("Email", "ops@example.com").build().exists("Topic"));
    }

    @Test
    void aTypeWithoutALocalConventionFailsLoudly() throws IOException {
        Template template = template("{'Resources': {'Odd': {'Type': 'AWS::Odd::Thing', 'Properties': {}}}}");
        TemplateException e = assertThrows(TemplateException.class, () -> template.resolve().build().ref("Odd"));
        assertTrue(e.getMessage().contains("AWS::Odd::Thing"), e.getMessage());
    }
}
