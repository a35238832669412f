package datalake.emulators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;

class MotoServerIT {

    @Test
    void s3KeepsUserMetadataAndStopEndsTheProcess() {
        MotoServer moto = new MotoServer();
        moto.start();
        int port = moto.port();
        try (S3Client s3 = Emulators.clientsFor(moto.endpoint()).build(S3Client.builder().forcePathStyle(true))) {
            s3.createBucket(r -> r.bucket("moto-it"));
            s3.putObject(r -> r.bucket("moto-it").key("2026/01/01/app log.txt")
                    .metadata(Map.of("datalake", "{\"version\":0}")), RequestBody.fromString("hello"));

            HeadObjectResponse head = s3.headObject(r -> r.bucket("moto-it").key("2026/01/01/app log.txt"));

            assertEquals("{\"version\":0}", head.metadata().get("datalake"));
            assertEquals(5L, head.contentLength());
        } finally {
            moto.stop();
        }

        assertFalse(moto.isRunning());
        assertThrows(IOException.class, () -> new Socket("127.0.0.1", port).close());
    }

    @Test
    void resetWipesState() {
        try (MotoServer moto = new MotoServer(); ) {
            moto.start();
            try (S3Client s3 = Emulators.clientsFor(moto.endpoint()).build(S3Client.builder().forcePathStyle(true))) {
                s3.createBucket(r -> r.bucket("to-be-wiped"));

                moto.reset();

                assertEquals(0, s3.listBuckets().buckets().size());
            }
        }
    }

    /**
     * moto 5.2.5 deletes a message by rebuilding the queue's list without its lock, and receives without
     * it: with senders and receivers at work on a backlog, messages were lost and others delivered twice
     * (of 3,000: one lost, 42 twice, in 833 s), which left files of a bulk push unindexed. The launcher
     * (moto_server.py) holds the queue's lock for both, and reads attributes without counting the queue.
     */
    @Test
    void aBacklogDrainedWhileSendersAddToItDeliversEveryMessageOnce() throws Exception {
        int backlog = 1_500;
        int total = 3_000;
        try (MotoServer moto = new MotoServer();
             ExecutorService threads = Executors.newFixedThreadPool(8)) {
            moto.start();
            SqsClient sqs = Emulators.clientsFor(moto.endpoint()).build(SqsClient.builder());
            String queue = sqs.createQueue(r -> r.queueName("backlog-it")
                    .attributes(Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "600"))).queueUrl();
            for (int from = 0; from < backlog; from += 10) {
                List<SendMessageBatchRequestEntry> entries = IntStream.range(from, from + 10).mapToObj(i ->
                        SendMessageBatchRequestEntry.builder().id(Integer.toString(i)).messageBody(Integer.toString(i)).build())
                        .toList();
                sqs.sendMessageBatch(r -> r.queueUrl(queue).entries(entries));
            }
            Map<String, AtomicInteger> received = new ConcurrentHashMap<>();
            AtomicBoolean sent = new AtomicBoolean();
            List<Future<?>> senders = new ArrayList<>();
            for (int k = 0; k < 4; k++) {
                int first = backlog + k;
                senders.add(threads.submit(() -> {
                    for (int i = first; i < total; i += 4) {
                        String body = Integer.toString(i);
                        sqs.sendMessage(r -> r.queueUrl(queue).messageBody(body));
                    }
                }));
            }
            List<Future<?>> receivers = new ArrayList<>();
            for (int k = 0; k < 4; k++) {
                receivers.add(threads.submit(() -> {
                    for (int idle = 0; idle < 3; ) {
                        List<Message> messages = sqs.receiveMessage(r -> r.queueUrl(queue).maxNumberOfMessages(10)
                                .waitTimeSeconds(1)).messages();
                        if (messages.isEmpty()) {
                            idle += sent.get() ? 1 : 0;
                            continue;
                        }
                        messages.forEach(m -> received.computeIfAbsent(m.body(), b -> new AtomicInteger()).incrementAndGet());
                        sqs.deleteMessageBatch(r -> r.queueUrl(queue).entries(messages.stream().map(m ->
                                DeleteMessageBatchRequestEntry.builder().id(m.messageId()).receiptHandle(m.receiptHandle())
                                        .build()).toList()));
                    }
                }));
            }
            for (Future<?> sender : senders) {
                sender.get(10, TimeUnit.MINUTES);
            }
            sent.set(true);
            for (Future<?> receiver : receivers) {
                receiver.get(10, TimeUnit.MINUTES);
            }

            assertEquals(total, received.size(), "every message was received");
            assertEquals(List.of(), received.entrySet().stream().filter(e -> e.getValue().get() > 1)
                    .map(Map.Entry::getKey).toList(), "no message was received twice");
            assertEquals("0", sqs.getQueueAttributes(r -> r.queueUrl(queue)
                    .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE)).attributes()
                    .get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE), "no deleted message came back");
        }
    }

    /** moto keeps every message a topic published, and every receipt handle a queue deleted, for ever. */
    @Test
    void theLaunchersRecordsOfPublishedMessagesAndDeletedHandlesAreBounded() throws Exception {
        String check = String.join("\n",
                "import runpy, sys",
                "launcher = runpy.run_path(sys.argv[1])",
                "launcher['_bound']()",
                "from moto.sns.models import sns_backends",
                "from moto.sqs.models import sqs_backends",
                "sns = sns_backends['123456789012']['us-east-1']",
                "topic = sns.create_topic('bounded')",
                "for i in range(250): topic.publish('message %d' % i)",
                "assert [n[1] for n in topic.sent_notifications] == ['message %d' % i for i in range(150, 250)]",
                "sqs = sqs_backends['123456789012']['us-east-1']",
                "assert type(sqs.create_queue('bounded').deleted_messages).__name__ == '_RecentHandles'",
                "handles = launcher['_RecentHandles'](kept=3)",
                "handles.update(['a', 'b', 'c', 'd'])",
                "assert 'a' not in handles and list(handles) == ['b', 'c', 'd']",
                "print('bounded')");
        Path python = VirtualEnv.motoServer(MotoServer.defaultVirtualEnv()).resolveSibling("python");
        Process process = new ProcessBuilder(python.toString(), "-c", check, MotoServer.launcher().toString())
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        assertEquals("bounded", output.strip());
    }
}
