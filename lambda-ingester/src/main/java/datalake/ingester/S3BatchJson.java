package datalake.ingester;

import com.amazonaws.services.lambda.runtime.events.S3BatchEventV2;
import com.amazonaws.services.lambda.runtime.events.S3BatchResponse;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON of S3 Batch Operations' Lambda invocations, mapped field by field: AWS documents that a Java
 * function must read and write it itself (a {@code RequestStreamHandler}); the runtime's own serialization
 * of the response fails the job with "Invalid JSON returned in Lambda payload". Schema 2.0 names the
 * bucket ({@code s3Bucket}); 1.0's {@code s3BucketArn} is read too.
 */
final class S3BatchJson {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonFactory FACTORY = MAPPER.getFactory();

    private S3BatchJson() {
    }

    static S3BatchEventV2 readEvent(InputStream in) throws IOException {
        JsonNode root = MAPPER.readTree(in);
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("the S3 Batch Operations event is not a JSON object.");
        }
        JsonNode job = root.path("job");
        Map<String, String> arguments = new LinkedHashMap<>();
        job.path("userArguments").properties().forEach(e -> arguments.put(e.getKey(), e.getValue().asText()));
        List<S3BatchEventV2.Task> tasks = new ArrayList<>();
        for (JsonNode task : root.path("tasks")) {
            String bucket = text(task, "s3Bucket");
            if (bucket == null && text(task, "s3BucketArn") != null) {
                String arn = text(task, "s3BucketArn");
                bucket = arn.substring(arn.lastIndexOf(':') + 1);
            }
            tasks.add(new S3BatchEventV2.Task(text(task, "taskId"), text(task, "s3Key"), text(task, "s3VersionId"),
                    bucket));
        }
        return new S3BatchEventV2(text(root, "invocationSchemaVersion"), text(root, "invocationId"),
                new S3BatchEventV2.Job(text(job, "id"), arguments), tasks);
    }

    static void writeResponse(S3BatchResponse response, OutputStream out) throws IOException {
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("invocationSchemaVersion", response.getInvocationSchemaVersion());
            g.writeStringField("treatMissingKeysAs", response.getTreatMissingKeysAs().name());
            g.writeStringField("invocationId", response.getInvocationId());
            g.writeArrayFieldStart("results");
            for (S3BatchResponse.Result result : response.getResults()) {
                g.writeStartObject();
                g.writeStringField("taskId", result.getTaskId());
                g.writeStringField("resultCode", result.getResultCode().name());
                g.writeStringField("resultString", result.getResultString());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }
}
