package datalake.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.SdkHttpResponse;

/**
 * The AWS the ingester calls, answered in this JVM after a fixed round trip: the SDK clients run their
 * whole pipeline (marshalling, signing, the HTTP client interface, unmarshalling, retries) and only the
 * wire and the service are replaced. HeadObject answers metadata of its own for every key "&lt;name&gt;/data"
 * (by default a file per key, ten feeds, times in order; a benchmark may give its own), BatchWriteItem and PutItem succeed, PublishBatch reports every entry
 * published. The per-object commits (UpdateItem) are kept until the ingester reads them back
 * (BatchGetItem), which answers them and forgets them: every file here is new and committed once, so
 * the simulation's memory stays flat over any number of batches. A key never committed is absent
 * (BatchGetItem, GetItem). So the CPU measured is the handler's and the SDK's, none of an emulator's.
 */
final class SimulatedAws implements SdkHttpClient {
    private static final Pattern KEY = Pattern.compile("/([^/]+)/data$");
    private static final Pattern ENTRY_ID = Pattern.compile("PublishBatchRequestEntries\\.member\\.\\d+\\.Id=([^&]+)");
    /** A plain assignment of an UpdateItem's SET clause ({@code #a0 = :v0}); list_append and the like are skipped. */
    private static final Pattern ASSIGNMENT = Pattern.compile("(#\\w+) = (:\\w+)(?=,|$| REMOVE)");
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Duration roundTrip;
    private final Function<String, String> metadataOfName;
    private final AtomicLong calls = new AtomicLong();
    /** Committed per-object items by key (JSON objects compare by content), until read back. */
    private final Map<JsonNode, ObjectNode> committed = new ConcurrentHashMap<>();

    SimulatedAws(Duration roundTrip) {
        this(roundTrip, name -> metadata(Long.parseLong(name)));
    }

    /** HeadObject of the key "&lt;name&gt;/data" answers {@code metadataOfName.apply(name)}. */
    SimulatedAws(Duration roundTrip, Function<String, String> metadataOfName) {
        this.roundTrip = roundTrip;
        this.metadataOfName = metadataOfName;
    }

    long calls() {
        return calls.get();
    }

    /** Per-object commits not yet read back. */
    int pendingCommits() {
        return committed.size();
    }

    /** The user metadata of the file under a key "&lt;n&gt;/data": ten feeds, one second apart. */
    static String metadata(long n) {
        return "{\"version\":0,\"start\":" + (1_704_067_200_000L + n * 1000) + ",\"end\":null,\"where\":\"host-" + (n % 10)
                + "\",\"what\":\"jvm\",\"id\":\"f" + n + "\",\"hash\":\"0123456789abcdef0123456789abcdef\","
                + "\"work_id\":\"job-" + (n % 100) + "\",\"path\":\"/jvm/" + n + "\"}";
    }

    @Override
    public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
        return new ExecutableHttpRequest() {
            @Override
            public HttpExecuteResponse call() throws IOException {
                try {
                    Thread.sleep(roundTrip);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted", e);
                }
                calls.incrementAndGet();
                return respond(request);
            }

            @Override
            public void abort() {
            }
        };
    }

    private HttpExecuteResponse respond(HttpExecuteRequest request) {
        SdkHttpRequest http = request.httpRequest();
        SdkHttpResponse.Builder response = SdkHttpResponse.builder().statusCode(200).putHeader("x-amz-request-id", "bench");
        String body;
        if (http.method() == SdkHttpMethod.HEAD) {
            Matcher key = KEY.matcher(http.encodedPath());
            if (!key.find()) {
                throw new IllegalStateException("an unexpected HEAD " + http.encodedPath());
            }
            response.putHeader("Content-Length", "1024").putHeader("Last-Modified", "Mon, 01 Jan 2024 00:00:00 GMT")
                    .putHeader("ETag", "\"d41d8cd98f00b204e9800998ecf8427e\"")
                    .putHeader("x-amz-meta-datalake", metadataOfName.apply(key.group(1)));
            return HttpExecuteResponse.builder().response(response.build())
                    .responseBody(AbortableInputStream.create(new ByteArrayInputStream(new byte[0]))).build();
        }
        String target = http.firstMatchingHeader("X-Amz-Target").orElse("");
        if (target.endsWith(".BatchWriteItem")) {
            body = "{\"UnprocessedItems\":{}}";
        } else if (target.endsWith(".PutItem") || target.endsWith(".GetItem") || target.endsWith(".DeleteItem")) {
            body = "{}";
        } else if (target.endsWith(".UpdateItem")) {
            body = commit(json(request));
        } else if (target.endsWith(".BatchGetItem")) {
            body = readBack(json(request));
        } else if (target.endsWith(".SendMessageBatch")) {
            body = "{\"Successful\":[],\"Failed\":[]}";
        } else {
            String form = form(request);
            if (!form.contains("Action=PublishBatch")) {
                throw new IllegalStateException("no simulated answer for " + target + " " + http.encodedPath());
            }
            StringBuilder xml = new StringBuilder("<PublishBatchResponse xmlns=\"http://sns.amazonaws.com/doc/2010-03-31/\">"
                    + "<PublishBatchResult><Successful>");
            Matcher id = ENTRY_ID.matcher(form);
            while (id.find()) {
                String entry = URLDecoder.decode(id.group(1), StandardCharsets.UTF_8);
                xml.append("<member><Id>").append(entry).append("</Id><MessageId>m-").append(entry).append("</MessageId></member>");
            }
            body = xml.append("</Successful><Failed/></PublishBatchResult><ResponseMetadata><RequestId>bench</RequestId>"
                    + "</ResponseMetadata></PublishBatchResponse>").toString();
        }
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        response.putHeader("Content-Length", Integer.toString(bytes.length));
        return HttpExecuteResponse.builder().response(response.build())
                .responseBody(AbortableInputStream.create(new ByteArrayInputStream(bytes))).build();
    }

    /** Keeps the item an UpdateItem's SET clause makes; answers the item it replaced, if any. */
    private String commit(JsonNode update) {
        ObjectNode item = update.get("Key").deepCopy();
        JsonNode names = update.path("ExpressionAttributeNames");
        JsonNode values = update.path("ExpressionAttributeValues");
        Matcher assignment = ASSIGNMENT.matcher(update.path("UpdateExpression").asText());
        while (assignment.find()) {
            item.set(names.path(assignment.group(1)).asText(), values.path(assignment.group(2)));
        }
        ObjectNode replaced = committed.put(update.get("Key"), item);
        return replaced == null ? "{}" : JSON.createObjectNode().set("Attributes", replaced).toString();
    }

    /** Answers (and forgets) the committed items among a BatchGetItem's keys; nothing is left unprocessed. */
    private String readBack(JsonNode batchGet) {
        ObjectNode responses = JSON.createObjectNode();
        batchGet.path("RequestItems").properties().forEach(table -> {
            ArrayNode found = responses.putArray(table.getKey());
            for (JsonNode key : table.getValue().path("Keys")) {
                ObjectNode item = committed.remove(key);
                if (item != null) {
                    found.add(item);
                }
            }
        });
        ObjectNode answer = JSON.createObjectNode();
        answer.set("Responses", responses);
        answer.putObject("UnprocessedKeys");
        return answer.toString();
    }

    private static JsonNode json(HttpExecuteRequest request) {
        try {
            return JSON.readTree(form(request));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String form(HttpExecuteRequest request) {
        if (request.contentStreamProvider().isEmpty()) {
            return "";
        }
        try (InputStream body = request.contentStreamProvider().get().newStream()) {
            return new String(body.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String clientName() {
        return "datalake-bench-simulated-aws";
    }

    @Override
    public void close() {
    }
}
