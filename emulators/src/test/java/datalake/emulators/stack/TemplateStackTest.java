package datalake.emulators.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import datalake.emulators.AwsEndpoints;
import datalake.emulators.LocalEndpoints;
import datalake.emulators.template.ResolvedTemplate;
import datalake.emulators.template.Template;
import datalake.emulators.template.TemplateException;
import java.io.IOException;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the functions, event sources and routes of a stack read from its template; nothing is created. */
class TemplateStackTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Endpoints no test here calls (nothing answers there): reading settings creates nothing. */
    private static final AwsEndpoints OFFLINE = new LocalEndpoints(URI.create("http://127.0.0.1:1"),
            URI.create("http://127.0.0.1:1"));

    private static TemplateStack stack(String json) throws IOException {
        ResolvedTemplate resolved = Template.of(JSON.readTree(json.replace('\'', '"')), "test").resolve().build();
        return TemplateStack.settingsOf(OFFLINE, resolved);
    }

    private static final String FUNCTION = "'Fn': {'Type': 'AWS::Lambda::Function', 'Properties': {'FunctionName': 'f',"
            + " 'Handler': 'example.Handler', 'Environment': {'Variables': {'SIZE': 5, 'ON': true, 'NAME': 'x'}}}}";

    @Test
    void everyEventSourceMappingOfAFunctionIsRead() throws IOException {
        // Given a function fed by two queues
        TemplateStack stack = stack("{'Resources': {" + FUNCTION + ","
                + " 'A': {'Type': 'AWS::SQS::Queue', 'Properties': {'QueueName': 'a'}},"
                + " 'B': {'Type': 'AWS::SQS::Queue', 'Properties': {'QueueName': 'b'}},"
                + " 'FromA': {'Type': 'AWS::Lambda::EventSourceMapping', 'Properties': {'FunctionName': {'Ref': 'Fn'},"
                + "   'EventSourceArn': {'Fn::GetAtt': ['A', 'Arn']}, 'BatchSize': 4}},"
                + " 'FromB': {'Type': 'AWS::Lambda::EventSourceMapping', 'Properties': {'FunctionName': {'Ref': 'Fn'},"
                + "   'EventSourceArn': {'Fn::GetAtt': ['B', 'Arn']}}}}}");
        // Then both are its sources, each with its own settings
        List<SqsEventSource> sources = stack.eventSources("Fn");
        assertEquals(List.of("A", "B"), sources.stream().map(SqsEventSource::queueLogicalId).toList());
        assertEquals(List.of(4, 10), sources.stream().map(SqsEventSource::batchSize).toList());
    }

    @Test
    void aMappingFromAnythingButAQueueOfTheStackIsRefused() throws IOException {
        TemplateStack stack = stack("{'Resources': {" + FUNCTION + ","
                + " 'FromStream': {'Type': 'AWS::Lambda::EventSourceMapping', 'Properties': {'FunctionName': {'Ref': 'Fn'},"
                + "   'EventSourceArn': 'arn:aws:kinesis:us-east-1:123456789012:stream/s'}}}}");
        TemplateException refused = assertThrows(TemplateException.class, () -> stack.eventSources("Fn"));
        assertTrue(refused.getMessage().contains("FromStream") && refused.getMessage().contains("SQS queues only"),
                refused.getMessage());
    }

    @Test
    void environmentValuesAreTextAsCloudFormationPassesThemAndAListIsRefused() throws IOException {
        // Given numbers and booleans, which CloudFormation passes as their text
        FunctionSettings function = stack("{'Resources': {" + FUNCTION + "}}").function("Fn");
        assertEquals("5", function.environment().get("SIZE"));
        assertEquals("true", function.environment().get("ON"));
        // and a list, which it refuses
        TemplateStack listed = stack("{'Resources': {'Fn': {'Type': 'AWS::Lambda::Function', 'Properties': {"
                + "'FunctionName': 'f', 'Environment': {'Variables': {'NAMES': ['a', 'b']}}}}}}");
        TemplateException refused = assertThrows(TemplateException.class, () -> listed.function("Fn"));
        assertTrue(refused.getMessage().contains("NAMES") && refused.getMessage().contains("only strings"),
                refused.getMessage());
    }

    @Test
    void aRouteWhoseIntegrationNamesNoFunctionIsRefused() throws IOException {
        // Given a route integrated with an HTTP URL, not a function
        TemplateStack stack = stack("{'Resources': {" + FUNCTION + ","
                + " 'Api': {'Type': 'AWS::ApiGatewayV2::Api', 'Properties': {'Name': 'api'}},"
                + " 'Proxy': {'Type': 'AWS::ApiGatewayV2::Integration', 'Properties': {'ApiId': {'Ref': 'Api'},"
                + "   'IntegrationUri': 'https://example.com/'}},"
                + " 'Route': {'Type': 'AWS::ApiGatewayV2::Route', 'Properties': {'ApiId': {'Ref': 'Api'},"
                + "   'RouteKey': 'GET /x', 'Target': {'Fn::Join': ['/', ['integrations', {'Ref': 'Proxy'}]]}}}}}");
        // Then the API's settings name the route and why, instead of a route without a function
        TemplateException refused = assertThrows(TemplateException.class, () -> stack.api("Api"));
        assertTrue(refused.getMessage().contains("GET /x") && refused.getMessage().contains("https://example.com/"),
                refused.getMessage());
    }
}
