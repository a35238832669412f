package datalake.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.serialization.PojoSerializer;
import com.amazonaws.services.lambda.runtime.serialization.events.LambdaEventSerializers;
import com.amazonaws.services.lambda.runtime.serialization.factories.JacksonFactory;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each deployable jar's handler decodes every sample event of its function and encodes its answer as the
 * Lambda Java runtime does: the runtime's own event serializers ({@code aws-lambda-java-serialization},
 * which the runtime interface client carries) with the jar alone as the function's class path. Those
 * serializers load Joda-Time's {@code DateTime} from the function for every event type they know, SQS and
 * HTTP API included, so a jar without it fails every invocation before the handler runs; the module tests
 * cannot see that, since Joda-Time is on their class path.
 */
class RuntimeDecodingTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path EVENTS = Path.of("..", "events");

    @ParameterizedTest
    @CsvSource({
        // jar property, handler, sample folders (';'), where a sample holds a value its decoding must keep,
        // an answer as Lambda's caller reads it (SQS's partial batch response; API Gateway's payload 2.0)
        "datalake.ingester.jar, datalake.ingester.IngesterHandler, ingester/invoke;ingester/sqs, /Records/0/messageId,"
                + " '{\"batchItemFailures\":[{\"itemIdentifier\":\"m1\"}]}'",
        // (the backfill handler is a RequestStreamHandler: the runtime hands it the bytes)
        "datalake.query.jar, datalake.query.QueryHandler, query, /rawPath,"
                + " '{\"statusCode\":404,\"headers\":{\"content-type\":\"application/json\"},\"body\":\"{}\",\"isBase64Encoded\":false}'",
    })
    void theHandlerDecodesEverySampleAndEncodesItsAnswerWithTheJarAlone(
            String property, String handler, String folders, String kept, String answer) throws Exception {
        Path jar = Path.of(System.getProperty(property, "(" + property + " not set)"));
        assertTrue(Files.isRegularFile(jar), jar + " does not exist: build the deployable jars first");
        // the function's class loader as Lambda's: the jar, over the JDK's own classes only
        try (URLClassLoader function = new URLClassLoader(new URL[] {jar.toUri().toURL()},
                ClassLoader.getPlatformClassLoader())) {
            Class<?> handlerClass = Class.forName(handler, false, function);
            Type[] types = requestHandlerTypes(handlerClass);
            Class<?> input = (Class<?>) types[0];
            Class<?> output = (Class<?>) types[1];
            PojoSerializer<Object> decoder = serializerFor(input, function);

            List<Path> samples = samples(folders);
            assertTrue(samples.size() >= 1, "no sample events in " + folders);
            for (Path sample : samples) {
                // when the runtime decodes the sample for the handler, and encodes it again
                Object event;
                try (InputStream in = Files.newInputStream(sample)) {
                    event = decoder.fromJson(in);
                }
                ByteArrayOutputStream again = new ByteArrayOutputStream();
                decoder.toJson(event, again);

                // then the event is the sample's: its identifying value survives the round
                String value = JSON.readTree(sample.toFile()).at(kept).asText();
                assertTrue(!value.isEmpty(), sample + " has no " + kept);
                assertEquals(input, event.getClass(), sample.toString());
                assertTrue(again.toString(StandardCharsets.UTF_8).contains(value),
                        sample + " decoded without " + kept + ": " + again);
            }

            // and the handler's answer encodes as its caller reads it, every field under its own name
            PojoSerializer<Object> encoder = serializerFor(output, function);
            Object decoded = encoder.fromJson(answer);
            assertEquals(output, decoded.getClass());
            ByteArrayOutputStream encoded = new ByteArrayOutputStream();
            encoder.toJson(decoded, encoded);
            assertEquals(JSON.readTree(answer), JSON.readTree(encoded.toByteArray()), output.getName());
        }
    }

    /** The input and output types of the handler's {@code RequestHandler<I, O>}, as the runtime reads them. */
    private static Type[] requestHandlerTypes(Class<?> handler) {
        for (Type type : handler.getGenericInterfaces()) {
            if (type instanceof ParameterizedType p && p.getRawType().getTypeName()
                    .equals("com.amazonaws.services.lambda.runtime.RequestHandler")) {
                return p.getActualTypeArguments();
            }
        }
        throw new AssertionError(handler.getName() + " does not implement RequestHandler<I, O>");
    }

    /** The runtime's choice: its mix-ins for the event types it knows, loaded from the function; plain Jackson otherwise. */
    @SuppressWarnings("unchecked")
    private static PojoSerializer<Object> serializerFor(Class<?> type, ClassLoader function) {
        return LambdaEventSerializers.isLambdaSupportedEvent(type.getName())
                ? LambdaEventSerializers.serializerFor((Class<Object>) type, function)
                : (PojoSerializer<Object>) JacksonFactory.getInstance().getSerializer(type);
    }

    private static List<Path> samples(String folders) throws Exception {
        List<Path> samples = new ArrayList<>();
        for (String folder : folders.split(";")) {
            try (Stream<Path> files = Files.list(EVENTS.resolve(folder))) {
                files.filter(p -> p.toString().endsWith(".json")).sorted().forEach(samples::add);
            }
        }
        return samples;
    }
}
