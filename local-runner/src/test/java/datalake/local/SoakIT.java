package datalake.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.fasterxml.jackson.databind.JsonNode;
import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import datalake.emulators.SqsLambdaPoller;
import datalake.ingester.IngesterHandler;
import datalake.query.QueryHandler;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.sqs.model.Message;

/**
 * The soak of issue 7: N notifications through the whole local pipeline (S3 → SNS → SQS → pollers with
 * Lambda's semantics → ingester → DynamoDB, reports on SNS, poison to the DLQ), 1% of them odd (a
 * third each: invalid metadata and a body that is not JSON, both poison; an object deleted before
 * ingestion, whose creation and removal notifications both succeed with nothing indexed). At the
 * end the counts must reconcile exactly. N is {@code -Ddatalake.soak.n} (1,000 in CI; scripts/soak.sh
 * takes it as its argument). The reconciliation is printed and written to target/soak-report.txt.
 */
@ExtendWith(EmulatorsExtension.class)
class SoakIT {
        static final Emulators AWS = Emulators.shared();
    private static final long T0 = 1_426_809_600_000L;
    private static final long DAY = 86_400_000L;
    private static final int POLLERS = 4;
    private static final String WHAT = "soak";
    /** Notifications pushed, then drained, before the next round (-Ddatalake.soak.round). */
    private static final int DEFAULT_ROUND = 500;

    @Test
    void everyNotificationIsIndexedOnceOrDeadLetteredWithAReport() throws Exception {
        int n = Integer.getInteger("datalake.soak.n", 1000);
        int round = Integer.getInteger("datalake.soak.round", DEFAULT_ROUND);
        if (n < 4 || round < 1) {
            throw new IllegalArgumentException("the soak needs at least 4 notifications and rounds of at least 1,"
                    + " not " + n + " and " + round);
        }
        int odd = Math.max(3, n / 100);
        int invalid = odd / 3;
        int missing = odd / 3;
        int badJson = odd - invalid - missing;
        int poison = invalid + badJson;
        int good = n - odd;
        List<Notification> plan = plan(n, good, invalid, missing, badJson);
        try (PipelineHarness p = new PipelineHarness(AWS, "soak", Map.of(), 10)) {
            Map<String, Integer> expectedItems = new TreeMap<>();
            Set<String> goodUrls = new HashSet<>();
            Collected collected = new Collected();
            // SQS is at-least-once: the same message settled twice is a redelivery, harmless if nothing doubles.
            // Settled: not handed back to SQS (a success, or a dead letter), as Lambda's poller sees it.
            Map<String, Integer> settledPerMessage = new ConcurrentHashMap<>();
            IngesterHandler ingester = p.handler(p.ingesterAws.s3(), p.ingesterAws.dynamoDb());
            RequestHandler<SQSEvent, SQSBatchResponse> handler = (event, context) -> {
                SQSBatchResponse response = ingester.handleRequest(event, context);
                Set<String> retried = new HashSet<>();
                response.getBatchItemFailures().forEach(f -> retried.add(f.getItemIdentifier()));
                event.getRecords().stream().map(SQSEvent.SQSMessage::getMessageId).filter(id -> !retried.contains(id))
                        .forEach(id -> settledPerMessage.merge(id, 1, Integer::sum));
                return response;
            };
            double uploadSeconds = 0;
            double ingestSeconds = 0;
            int goodSoFar = 0;
            int poisonSoFar = 0;
            int goneSoFar = 0;
            ExecutorService uploads = Executors.newFixedThreadPool(8);
            try {
                // In rounds: moto's SQS costs O(queue depth) for every message sent and received, so one
                // backlog of all N would make a large soak quadratic in moto (docs/PERFORMANCE.md, ingest).
                for (int from = 0; from < n; from += round) {
                    List<Notification> batch = plan.subList(from, Math.min(n, from + round));
                    // given this round's uploads (good files, every tenth spanning two day buckets) and poison
                    long uploadStarted = System.nanoTime();
                    send(p, uploads, batch, expectedItems, goodUrls);
                    int goneInBatch = (int) batch.stream().filter(b -> b.kind() == Kind.MISSING).count();
                    // an object deleted before ingestion: its creation and its removal are notified
                    p.awaitVisible(p.stack.ingestQueueUrl(), batch.size() + goneInBatch, Duration.ofSeconds(120));
                    uploadSeconds += (System.nanoTime() - uploadStarted) / 1e9;
                    int goodInBatch = (int) batch.stream().filter(b -> b.kind() == Kind.GOOD).count();
                    goodSoFar += goodInBatch;
                    goneSoFar += goneInBatch;
                    poisonSoFar += batch.size() - goodInBatch - goneInBatch;

                    // when four pollers (Lambda's concurrency) ingest them
                    long ingestStarted = System.nanoTime();
                    Pollers pollers = Pollers.start(p, handler);
                    long deadline = System.nanoTime() + Duration.ofSeconds(60 + batch.size() / 10).toNanos();
                    while ((collected.reportedUrls.size() < goodSoFar || collected.errors() < poisonSoFar
                            || collected.gone() < 2 * goneSoFar || collected.dead.size() < poisonSoFar)
                            && System.nanoTime() < deadline) {
                        collected.reportsFrom(p.drain(p.reportQueueUrl, 1));
                        if (collected.dead.size() < poisonSoFar) {
                            collected.dead.addAll(p.drain(p.stack.deadLetterQueueUrl(), 0));
                        }
                    }
                    pollers.stop();
                    ingestSeconds += (System.nanoTime() - ingestStarted) / 1e9;
                }
            } finally {
                uploads.shutdown();
            }
            // A message SQS handed out twice may survive the first copy's delete (that receipt handle is
            // stale): it comes back after the visibility timeout and is ingested again. Run until the
            // queue is empty, in flight included, as Lambda would.
            Pollers pollers = Pollers.start(p, handler);
            long drainDeadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (inQueue(p) > 0 && System.nanoTime() < drainDeadline) {
                collected.reportsFrom(p.drain(p.reportQueueUrl, 1));
            }
            Thread.sleep(2000);
            pollers.stop();
            for (List<Message> more = p.drain(p.reportQueueUrl, 1); !more.isEmpty();
                    more = p.drain(p.reportQueueUrl, 1)) {
                collected.reportsFrom(more);
            }
            collected.dead.addAll(p.drain(p.stack.deadLetterQueueUrl(), 1));
            Map<String, Integer> reportsByStatus = collected.reportsByStatus;
            Map<String, Integer> reportedUrls = collected.reportedUrls;
            List<Message> dead = collected.dead;

            // then: the table holds every good file once per bucket, and nothing else
            Map<String, Integer> items = new TreeMap<>();
            for (Map<String, AttributeValue> item : p.records()) {
                items.merge(item.get("metadata").m().get("id").s(), 1, Integer::sum);
            }
            int expectedItemCount = expectedItems.values().stream().mapToInt(Integer::intValue).sum();
            int itemCount = items.values().stream().mapToInt(Integer::intValue).sum();
            // and the query API finds every good file exactly once across its pages
            List<String> queried = queryAll(p);
            Set<String> queriedSet = new HashSet<>(queried);
            // and every poison message is in the DLQ, with its reason, and reported as an error
            Map<String, Integer> deadKinds = new TreeMap<>();
            for (Message letter : dead) {
                deadKinds.merge(letter.messageAttributes().get("error_kind").stringValue(), 1, Integer::sum);
            }
            // S3 sends one s3:TestEvent when the notification is configured: a success without records
            int testEvents = reportsByStatus.getOrDefault("test-event", 0);
            int settled = reportsByStatus.getOrDefault("success", 0) + reportsByStatus.getOrDefault("error", 0)
                    + reportsByStatus.getOrDefault("gone", 0);
            int redelivered = (int) settledPerMessage.values().stream().filter(c -> c > 1).count();
            int extraDeliveries = settledPerMessage.values().stream().mapToInt(c -> c - 1).sum();
            int lost = (good - reportedUrls.size()) + (poison - dead.size());
            int duplicated = (itemCount - expectedItemCount) + (queried.size() - queriedSet.size())
                    + (dead.size() - poison);
            String reconciliation = String.join("\n",
                    "soak: sent " + n + " notifications: " + good + " good files, " + missing + " objects deleted before"
                            + " ingestion (creation and removal both succeed, nothing indexed), " + poison + " poison ("
                            + invalid + " invalid metadata, " + badJson + " not JSON)",
                    "soak: records table " + itemCount + " items for " + items.size() + " files (expected "
                            + expectedItemCount + " for " + good + ")",
                    "soak: query API /v0/archive/files/ returned " + queried.size() + " records, "
                            + queriedSet.size() + " distinct, " + (queriedSet.containsAll(goodUrls) ? "all" : "NOT all")
                            + " good files",
                    "soak: reports " + reportsByStatus + "; DLQ " + dead.size() + " " + deadKinds
                            + "; ingest queue left " + p.visibleMessages(p.stack.ingestQueueUrl()),
                    "soak: lost " + lost + ", duplicated " + duplicated + " (files in the table, query pages, DLQ);"
                            + " reports " + settled + " for " + (n + missing) + " messages (+" + testEvents + " s3:TestEvent): "
                            + redelivered + " messages delivered twice by SQS (at least once), rewritten idempotently",
                    String.format("soak: upload %d in %.1f s (%.0f/s); ingest %d in %.1f s (%.0f messages/s, %d pollers,"
                            + " batches of 10), in rounds of %d", n, uploadSeconds, n / uploadSeconds, n, ingestSeconds,
                            n / ingestSeconds, POLLERS, round));
            System.out.println(reconciliation);
            write(reconciliation);

            assertEquals(expectedItems, items, "records per good file");
            assertEquals(goodUrls, queriedSet);
            assertEquals(good, queried.size(), "no file twice across pages");
            assertEquals(good, reportedUrls.size(), "every good file reported as a success");
            assertEquals(poison, reportsByStatus.getOrDefault("error", 0), "every poison message reported as an error");
            assertEquals(2 * missing, reportsByStatus.getOrDefault("gone", 0),
                    "both notifications of an object deleted before ingestion succeed, with nothing indexed");
            assertEquals(n + missing + extraDeliveries, settled, "one report per delivery that settled");
            assertEquals(Map.of("InvalidMetadata", invalid, "BadJson", badJson), deadKinds);
            assertEquals(0, lost);
            assertEquals(0, duplicated);
            assertEquals(0, p.visibleMessages(p.stack.ingestQueueUrl()));
            assertTrue(p.logLines.stream().allMatch(SoakIT::isJson), "every log line is one JSON document");
        }
    }

    private enum Kind { GOOD, INVALID, MISSING, BAD_JSON }

    /** The {@code index}-th notification of its kind. */
    private record Notification(Kind kind, int index) {
    }

    /** The N notifications in the order they are sent: the poison spread evenly among the good files. */
    private static List<Notification> plan(int n, int good, int invalid, int missing, int badJson) {
        List<Notification> poison = new ArrayList<>();
        for (int i = 0; i < Math.max(invalid, Math.max(missing, badJson)); i++) {
            if (i < invalid) {
                poison.add(new Notification(Kind.INVALID, i));
            }
            if (i < missing) {
                poison.add(new Notification(Kind.MISSING, i));
            }
            if (i < badJson) {
                poison.add(new Notification(Kind.BAD_JSON, i));
            }
        }
        List<Notification> plan = new ArrayList<>(n);
        int nextGood = 0;
        int nextPoison = 0;
        for (int k = 0; k < n; k++) {
            // poison j goes at position (j + 1) * n / (poison + 1), good files everywhere else
            boolean poisonHere = nextPoison < poison.size()
                    && (k == (long) (nextPoison + 1) * n / (poison.size() + 1) || n - k == poison.size() - nextPoison);
            plan.add(poisonHere || nextGood == good ? poison.get(nextPoison++) : new Notification(Kind.GOOD, nextGood++));
        }
        return plan;
    }

    /** Uploads a round's objects (8 at a time), deletes its "missing" ones, sends its bodies that are not JSON. */
    private static void send(PipelineHarness p, ExecutorService uploads, List<Notification> batch,
            Map<String, Integer> expectedItems, Set<String> goodUrls) throws Exception {
        List<Future<?>> pending = new ArrayList<>();
        for (Notification notification : batch) {
            int f = notification.index();
            switch (notification.kind()) {
                case GOOD -> {
                    String id = "f" + f;
                    long start = T0 + f * 997L;
                    Long end = f % 10 == 0 ? start + DAY : null;
                    expectedItems.put(id, end == null ? 1 : 2);
                    String key = "soak/" + (f % 100) + "/" + id + ".bin";
                    goodUrls.add("s3://" + p.bucket() + "/" + key);
                    pending.add(uploads.submit(() -> p.put(AWS.s3(), key,
                            PipelineHarness.metadata(WHAT, "node-" + (f % 7), id, start, end))));
                }
                case INVALID -> pending.add(uploads.submit(() -> p.put(AWS.s3(), "poison/invalid-" + f + ".bin",
                        PipelineHarness.metadata(WHAT, "Not A Slug", "bad" + f, T0, null))));
                case MISSING -> pending.add(uploads.submit(() -> p.put(AWS.s3(), "poison/missing-" + f + ".bin",
                        PipelineHarness.metadata(WHAT, "node-0", "gone" + f, T0, null))));
                case BAD_JSON -> { }
            }
        }
        for (Future<?> upload : pending) {
            upload.get();
        }
        for (Notification notification : batch) {
            int f = notification.index();
            if (notification.kind() == Kind.MISSING) {
                AWS.s3().deleteObject(r -> r.bucket(p.bucket()).key("poison/missing-" + f + ".bin"));
            } else if (notification.kind() == Kind.BAD_JSON) {
                AWS.sqs().sendMessage(r -> r.queueUrl(p.stack.ingestQueueUrl()).messageBody(
                        f % 2 == 0 ? "not json " + f : "{\"Records\":[{\"eventVersion\":\"2.1\"," + f));
            }
        }
    }

    /** What the soak has read back: reports by status, good files reported, dead letters. */
    private static final class Collected {
        final Map<String, Integer> reportsByStatus = new TreeMap<>();
        final Map<String, Integer> reportedUrls = new HashMap<>();
        final List<Message> dead = new ArrayList<>();

        void reportsFrom(List<Message> messages) {
            for (Message m : messages) {
                JsonNode report = PipelineHarness.parse(m.body());
                reportsByStatus.merge(kind(report), 1, Integer::sum);
                if (report.path("status").asText().equals("success")) {
                    report.path("records").forEach(r -> reportedUrls.merge(r.path("url").asText(), 1, Integer::sum));
                }
            }
        }

        int errors() {
            return reportsByStatus.getOrDefault("error", 0);
        }

        int gone() {
            return reportsByStatus.getOrDefault("gone", 0);
        }
    }

    /** Four pollers on the ingest queue, each on its own thread, as Lambda's event source mapping runs. */
    private record Pollers(List<SqsLambdaPoller> pollers, List<Thread> threads) {
        static Pollers start(PipelineHarness p, RequestHandler<SQSEvent, SQSBatchResponse> handler) {
            List<SqsLambdaPoller> pollers = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < POLLERS; i++) {
                SqsLambdaPoller poller = p.poller(handler);
                pollers.add(poller);
                Thread thread = new Thread(poller, "soak-poller-" + i);
                thread.setDaemon(true);
                thread.start();
                threads.add(thread);
            }
            return new Pollers(pollers, threads);
        }

        /** Each poller finishes the batch it holds, then stops. */
        void stop() throws InterruptedException {
            pollers.forEach(SqsLambdaPoller::stop);
            for (Thread thread : threads) {
                thread.join(5000);
            }
        }
    }

    /** Every page of one time query over all soak files, through the query Lambda's handler. */
    private static List<String> queryAll(PipelineHarness p) {
        QueryHandler query = p.queryHandler();
        List<String> urls = new ArrayList<>();
        String rawQuery = "what=" + WHAT + "&start=" + (T0 - DAY) + "&end=" + (T0 + 3 * DAY);
        for (int page = 0; rawQuery != null; page++) {
            APIGatewayV2HTTPResponse response = query.handleRequest(PipelineHarness.filesQuery(rawQuery), null);
            assertEquals(200, response.getStatusCode(), response.getBody());
            JsonNode body = PipelineHarness.parse(response.getBody());
            body.path("records").forEach(r -> urls.add(r.path("url").asText()));
            rawQuery = body.path("next").isTextual() ? URI.create(body.path("next").asText()).getRawQuery() : null;
        }
        return urls;
    }

    /** Messages on the ingest queue, visible or in flight. */
    private static int inQueue(PipelineHarness p) {
        Map<software.amazon.awssdk.services.sqs.model.QueueAttributeName, String> attributes = AWS.sqs()
                .getQueueAttributes(r -> r.queueUrl(p.stack.ingestQueueUrl()).attributeNames(
                        software.amazon.awssdk.services.sqs.model.QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                        software.amazon.awssdk.services.sqs.model.QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE))
                .attributes();
        return attributes.values().stream().mapToInt(Integer::parseInt).sum();
    }

    /** success, error, test-event (no object named), or gone (an object no longer there: nothing indexed). */
    private static String kind(JsonNode report) {
        String status = report.path("status").asText();
        if (status.equals("success") && report.path("records").isEmpty()) {
            return report.has("action") ? "gone" : "test-event";
        }
        return status;
    }

    private static boolean isJson(String line) {
        try {
            return PipelineHarness.JSON.readTree(line).isObject();
        } catch (IOException e) {
            return false;
        }
    }

    private static void write(String reconciliation) throws IOException {
        Files.writeString(Path.of("target", "soak-report.txt"), reconciliation + "\n");
    }
}
