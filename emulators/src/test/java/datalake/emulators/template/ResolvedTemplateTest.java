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
    void fnContainsIsARuleFunctionRefusedOutsideTheRules() throws IOException {
        // Given the same Fn::Contains in a rule's assertion, and in a condition
        String contains = "{'Fn::Contains': [['1', '2'], {'Ref': 'Size'}]}";
        Template inRule = template("""
                {'Parameters': {'Size': {'Type': 'String', 'Default': '1'}},
                 'Rules': {'Small': {'Assertions': [{'Assert': %s, 'AssertDescription': 'one or two'}]}},
                 'Resources': {}}
                """.formatted(contains));
        Template inCondition = template("""
                {'Parameters': {'Size': {'Type': 'String', 'Default': '1'}},
                 'Conditions': {'Small': %s},
                 'Resources': {'Topic': {'Type': 'AWS::SNS::Topic', 'Condition': 'Small', 'Properties': {'TopicName': 't'}}}}
                """.formatted(contains));
        // When each is resolved
        // Then the rule runs it (and refuses a 3), and the condition is refused as CloudFormation refuses it
        inRule.resolve().build();
        TemplateException refused = assertThrows(TemplateException.class, () -> inRule.resolve().parameter("Size", "3").build());
        assertTrue(refused.getMessage().contains("one or two"), refused.getMessage());
        TemplateException misplaced = assertThrows(TemplateException.class, () -> inCondition.resolve().build().exists("Topic"));
        assertTrue(misplaced.getMessage().startsWith("Fn::Contains is a rule function"), misplaced.getMessage());
    }

    @Test
    void resourcesThatDependOnEachOtherInACircleAreRefusedBeforeAnythingIsResolved() throws IOException {
        // Given two queues naming each other (Fn::Sub, Fn::GetAtt), a topic and a queue tied by DependsOn and a Ref,
        // and two queues that would name each other only through a branch of Fn::If that is not taken
        Template named = template("""
                {'Resources': {'A': {'Type': 'AWS::SQS::Queue', 'Properties': {'QueueName': {'Fn::Sub': '${B.QueueName}-a'}}},
                   'B': {'Type': 'AWS::SQS::Queue', 'Properties': {'QueueName': {'Fn::GetAtt': ['A', 'QueueName']}}}}}
                """);
        Template dependsOn = template("""
                {'Resources': {'T': {'Type': 'AWS::SNS::Topic', 'DependsOn': ['Q'], 'Properties': {'TopicName': 't'}},
                   'Q': {'Type': 'AWS::SQS::Queue', 'Properties': {'QueueName': 'q', 'Tags': [{'Key': 'k', 'Value': {'Ref': 'T'}}]}}}}
                """);
        Template untaken = template("""
                {'Conditions': {'Never': {'Fn::Equals': ['a', 'b']}},
                 'Resources': {'X': {'Type': 'AWS::SQS::Queue', 'Properties': {'QueueName': {'Fn::If': ['Never', {'Ref': 'Y'}, 'x']}}},
                   'Y': {'Type': 'AWS::SQS::Queue', 'Properties': {'QueueName': {'Fn::Sub': ['${N}-y', {'N': {'Fn::GetAtt': 'X.QueueName'}}]}}}}}
                """);
        // When each is built
        TemplateException byName = assertThrows(TemplateException.class, () -> named.resolve().build());
        TemplateException byDependsOn = assertThrows(TemplateException.class, () -> dependsOn.resolve().build());
        // Then the circles are named, before a Ref could recurse without end, and the template without one resolves
        assertTrue(byName.getMessage().contains("A -> B -> A"), byName.getMessage());
        assertTrue(byDependsOn.getMessage().contains("T -> Q -> T"), byDependsOn.getMessage());
        assertEquals("https://sqs.us-east-1.amazonaws.com/123456789012/x-y", untaken.resolve().build().ref("Y"));
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

    @Test
    void findInMapBase64AndTheConditionFunctionsResolveAsCloudFormationDoes() throws IOException {
        // Given a template with a mapping, Fn::Base64 and conditions built from And, Or, Not, Equals and Condition
        Template template = template("""
                {'Parameters': {'Env': {'Type': 'String', 'Default': 'dev'},
                                'Zones': {'Type': 'CommaDelimitedList', 'Default': 'a,b'}},
                 'Mappings': {'Sizes': {'dev': {'Memory': 512}, 'prod': {'Memory': 2048}}},
                 'Conditions': {'IsDev': {'Fn::Equals': [{'Ref': 'Env'}, 'dev']},
                   'HasB': {'Fn::Equals': [{'Fn::Select': [1, {'Ref': 'Zones'}]}, 'b']},
                   'HasC': {'Fn::Equals': [{'Fn::Select': [1, {'Ref': 'Zones'}]}, 'c']},
                   'DevWithB': {'Fn::And': [{'Condition': 'IsDev'}, {'Condition': 'HasB'}]},
                   'DevWithC': {'Fn::And': [{'Condition': 'IsDev'}, {'Condition': 'HasC'}]},
                   'BOrC': {'Fn::Or': [{'Condition': 'HasC'}, {'Condition': 'HasB'}]},
                   'Neither': {'Fn::Or': [{'Condition': 'HasC'}, {'Fn::Not': [{'Condition': 'IsDev'}]}]}},
                 'Resources': {'Topic': {'Type': 'AWS::SNS::Topic', 'Properties': {'TopicName': 't',
                   'Memory': {'Fn::FindInMap': ['Sizes', {'Ref': 'Env'}, 'Memory']},
                   'Encoded': {'Fn::Base64': {'Fn::Sub': '${Env}!'}}}}}}
                """);
        // When it is resolved with the defaults, and for prod
        ResolvedTemplate dev = template.resolve().build();
        ResolvedTemplate prod = template.resolve().parameter("Env", "prod").build();
        // Then each function gives what CloudFormation documents
        assertEquals(512, dev.properties("Topic").path("Memory").asInt());
        assertEquals(2048, prod.properties("Topic").path("Memory").asInt());
        assertEquals("ZGV2IQ==", dev.properties("Topic").path("Encoded").asText());
        assertTrue(dev.condition("DevWithB"));
        assertFalse(dev.condition("DevWithC"));
        assertTrue(dev.condition("BOrC"));
        assertFalse(dev.condition("Neither"));
        assertTrue(prod.condition("Neither"));
        assertFalse(prod.condition("DevWithB"));
        TemplateException missing = assertThrows(TemplateException.class,
                () -> template.resolve().parameter("Env", "test").build().properties("Topic"));
        assertTrue(missing.getMessage().contains("Fn::FindInMap"), missing.getMessage());
    }

    @Test
    void getAttInEitherFormAndOutputsWithTheirConditions() throws IOException {
        // Given outputs using both forms of Fn::GetAtt (one with a Ref for its attribute), and one with a false condition
        Template template = template("""
                {'Parameters': {'Attribute': {'Type': 'String', 'Default': 'Arn'}, 'Email': {'Type': 'String', 'Default': ''}},
                 'Conditions': {'HasEmail': {'Fn::Not': [{'Fn::Equals': [{'Ref': 'Email'}, '']}]}},
                 'Resources': {'Queue': {'Type': 'AWS::SQS::Queue', 'Properties': {'QueueName': 'q'}}},
                 'Outputs': {'Dotted': {'Value': {'Fn::GetAtt': 'Queue.QueueName'}},
                   'Listed': {'Value': {'Fn::GetAtt': ['Queue', {'Ref': 'Attribute'}]}},
                   'Mail': {'Condition': 'HasEmail', 'Value': {'Ref': 'Email'}}}}
                """);
        // When the outputs are resolved
        // Then both forms give the attribute, and the output whose condition is false is left out
        assertEquals(java.util.Map.of("Dotted", "q", "Listed", "arn:aws:sqs:us-east-1:123456789012:q"),
                template.resolve().build().outputs());
        assertEquals("ops@example.com", template.resolve().parameter("Email", "ops@example.com").build().outputs().get("Mail"));
    }

    @Test
    void aOneKeyObjectNamedConditionOutsideTheConditionsIsData() throws IOException {
        // Given a property whose value is an object with the single key Condition (as an IAM statement may hold)
        Template template = template("""
                {'Resources': {'Topic': {'Type': 'AWS::SNS::Topic', 'Properties': {'TopicName': 't',
                   'Document': {'Condition': {'Bool': {'aws:SecureTransport': 'false'}}}}}}}
                """);
        // When it is resolved
        JsonNode document = template.resolve().build().properties("Topic").path("Document");
        // Then it is kept as written: CloudFormation reads Condition as a function only inside Conditions
        assertEquals("false", document.path("Condition").path("Bool").path("aws:SecureTransport").asText());
    }

    @Test
    void quotedMinAndMaxValuesBoundANumberParameter() throws IOException {
        // Given bounds written as strings, which CloudFormation accepts as numbers
        Template template = template("""
                {'Parameters': {'Days': {'Type': 'Number', 'Default': 7, 'MinValue': '5', 'MaxValue': '30'}},
                 'Resources': {}}
                """);
        assertEquals("7", template.resolve().build().parameter("Days"));
        TemplateException low = assertThrows(TemplateException.class, () -> template.resolve().parameter("Days", "3").build());
        assertTrue(low.getMessage().contains("Days") && low.getMessage().contains("5 to 30"), low.getMessage());
        assertThrows(TemplateException.class, () -> template.resolve().parameter("Days", "31").build());
    }

    @Test
    void aListParameterIsCheckedElementByElement() throws IOException {
        // Given a list parameter whose elements are constrained
        Template template = template("""
                {'Parameters': {'Zones': {'Type': 'CommaDelimitedList', 'Default': 'a,b', 'AllowedValues': ['a', 'b', 'c']},
                                'Ids': {'Type': 'CommaDelimitedList', 'Default': 'x1', 'AllowedPattern': 'x[0-9]'}},
                 'Resources': {}}
                """);
        // Then each element must be allowed, not the comma-separated text as a whole
        assertEquals("a,b", template.resolve().build().parameters().get("Zones"));
        template.resolve().parameter("Zones", "c, a").parameter("Ids", "x1,x2").build();
        TemplateException value = assertThrows(TemplateException.class,
                () -> template.resolve().parameter("Zones", "a,d").build());
        assertTrue(value.getMessage().contains("Zones") && value.getMessage().contains("\"d\""), value.getMessage());
        TemplateException pattern = assertThrows(TemplateException.class,
                () -> template.resolve().parameter("Ids", "x1,y2").build());
        assertTrue(pattern.getMessage().contains("\"y2\""), pattern.getMessage());
    }

    @Test
    void theStackNameDefaultsToTheOneTheTransformRunsWith() throws IOException {
        Template template = template("{'Resources': {'Queue': {'Type': 'AWS::SQS::Queue'}}}");
        ResolvedTemplate stack = template.resolve().build();
        assertEquals(SamTransform.Deployment.DEFAULT_STACK_NAME, stack.pseudoParameter("AWS::StackName"));
        assertEquals(SamTransform.Deployment.DEFAULT_STACK_NAME + "-Queue", stack.getAtt("Queue", "QueueName"));
    }

    @Test
    void versionsAndScalingPoliciesHaveTheValuesCloudFormationDocuments() throws IOException {
        // Given two versions of one function and a scaling policy on a scalable target
        Template template = template("""
                {'Resources': {'Fn': {'Type': 'AWS::Lambda::Function', 'Properties': {'FunctionName': 'f'}},
                   'First': {'Type': 'AWS::Lambda::Version', 'Properties': {'FunctionName': {'Ref': 'Fn'}}},
                   'Second': {'Type': 'AWS::Lambda::Version', 'Properties': {'FunctionName': {'Ref': 'Fn'}}},
                   'Target': {'Type': 'AWS::ApplicationAutoScaling::ScalableTarget', 'Properties': {
                     'ResourceId': 'table/t', 'ScalableDimension': 'dynamodb:table:WriteCapacityUnits',
                     'ServiceNamespace': 'dynamodb'}},
                   'Policy': {'Type': 'AWS::ApplicationAutoScaling::ScalingPolicy', 'Properties': {
                     'PolicyName': 'write', 'ScalingTargetId': {'Ref': 'Target'}}}}}
                """);
        ResolvedTemplate stack = template.resolve().build();
        // Then a version's Ref is the function's ARN with its number, numbered as Lambda publishes them
        assertEquals("arn:aws:lambda:us-east-1:123456789012:function:f:1", stack.ref("First"));
        assertEquals("arn:aws:lambda:us-east-1:123456789012:function:f:2", stack.ref("Second"));
        assertEquals("2", stack.getAtt("Second", "Version"));
        // and a scaling policy's Ref (and Arn) is Application Auto Scaling's policy ARN
        String arn = stack.ref("Policy");
        assertTrue(arn.matches("arn:aws:autoscaling:us-east-1:123456789012:scalingPolicy:[0-9a-f-]{36}"
                + ":resource/dynamodb/table/t:policyName/write"), arn);
        assertEquals(arn, stack.getAtt("Policy", "Arn"));
    }
}
