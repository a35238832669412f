package datalake.emulators;

import datalake.emulators.stack.ApiSettings;
import datalake.emulators.stack.FunctionSettings;
import datalake.emulators.stack.SqsEventSource;
import datalake.emulators.stack.TemplateStack;
import datalake.emulators.template.ResolvedTemplate;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import software.amazon.awssdk.services.sns.model.Subscription;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * template.yaml's stack on emulators ({@link TemplateStack}), with its resources named by what they are
 * to the datalake: the bucket, the ingest queue and its DLQ, the topics, the tables, the three functions,
 * the ingester's event source and the API. The only place that knows the template's logical ids.
 *
 * <p>What a test needs beyond the template is added explicitly, on top of the built stack, never as a
 * second description: a queue where tests read the reports ({@link #subscribeReportQueue()}), an
 * enveloping upload subscription ({@link #envelopeUploads()}), and a bucket made without versioning
 * ({@link Builder#unversionedBucket()}) where moto must notify deletes.
 */
public final class DatalakeStack {
    public static final String INGESTER = "IngesterFunction";
    public static final String BACKFILL = "BackfillFunction";
    public static final String QUERY = "QueryFunction";
    /** The managed policy operators attach to run scripts/backfill.sh and scripts/reconcile.sh. */
    public static final String INDEX_OPERATOR = "IndexOperatorPolicy";
    /** The longest NamePrefix template.yaml allows. */
    static final int MAX_PREFIX_LENGTH = 24;

    private final TemplateStack stack;

    private DatalakeStack(TemplateStack stack) {
        this.stack = stack;
    }

    public static Builder builder(AwsEndpoints aws) {
        return new Builder(aws);
    }

    /** A stack with the template's defaults under a prefix of its own ({@link #uniquePrefix}). */
    public static DatalakeStack unique(AwsEndpoints aws, String hint) {
        return builder(aws).prefix(uniquePrefix(hint)).build();
    }

    /**
     * {@code <hint>-<random>}, lower case, at most 24 characters as NamePrefix allows: distinct for every
     * call, so test classes (and repeated runs against one emulator) never collide.
     */
    public static String uniquePrefix(String hint) {
        String random = UUID.randomUUID().toString().substring(0, 8);
        String clean = hint.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
        int room = MAX_PREFIX_LENGTH - random.length() - 1;
        if (clean.length() > room) {
            clean = clean.substring(0, room).replaceAll("-+$", "");
        }
        return clean.isEmpty() ? "t" + random : clean + "-" + random;
    }

    public TemplateStack stack() {
        return stack;
    }

    public ResolvedTemplate resolved() {
        return stack.resolved();
    }

    /** The emulators, with the test's own credentials. */
    public AwsEndpoints aws() {
        return stack.aws();
    }

    public String prefix() {
        return stack.resolved().parameter("NamePrefix");
    }

    public String region() {
        return stack.resolved().region();
    }

    /** The storage bucket: the stack's own, or the existing one it adopted (the StorageBucketName output). */
    public String bucket() {
        return stack.resolved().outputs().get("StorageBucketName");
    }

    /** {@code s3://<bucket>}, DATALAKE_STORAGE_URL. */
    public String storageUrl() {
        return "s3://" + bucket();
    }

    public String recordsTable() {
        return stack.ref("RecordsTable");
    }

    public String latestTable() {
        return stack.ref("LatestTable");
    }

    public String ingestQueueUrl() {
        return stack.ref("IngestQueue");
    }

    public String ingestQueueArn() {
        return stack.getAtt("IngestQueue", "Arn");
    }

    public String deadLetterQueueUrl() {
        return stack.ref("IngestDeadLetterQueue");
    }

    public String uploadTopicArn() {
        return stack.ref("UploadTopic");
    }

    public String reportTopicArn() {
        return stack.ref("ReportTopic");
    }

    public FunctionSettings ingester() {
        return stack.function(INGESTER);
    }

    public FunctionSettings backfill() {
        return stack.function(BACKFILL);
    }

    public FunctionSettings query() {
        return stack.function(QUERY);
    }

    /** The SQS trigger of the ingester (the template's IngesterFunction Events.Uploads). */
    public SqsEventSource ingestEventSource() {
        return stack.eventSources(INGESTER).stream().filter(source -> source.queueLogicalId().equals("IngestQueue"))
                .findFirst().orElseThrow(() -> new IllegalStateException(
                        "template.yaml has no SQS event source from IngestQueue for " + INGESTER + "."));
    }

    public ApiSettings api() {
        return stack.api("HttpApi");
    }

    /** The emulators as a function (or the index operator) signs: its calls are recorded as its role's. */
    public AwsEndpoints endpointsOf(String principal) {
        return stack.endpointsOf(principal);
    }

    /** The credentials a principal signs with (a presigner of the query function's needs them). */
    public software.amazon.awssdk.auth.credentials.AwsCredentialsProvider credentialsOf(String principal) {
        return stack.credentialsOf(principal);
    }

    /** The emulators as Lambda's SQS poller of the ingester signs (with the ingester's role). */
    public AwsEndpoints pollerEndpoints() {
        return stack.eventSourceEndpoints(INGESTER);
    }

    /**
     * Test-side addition: a queue {@code <prefix>-reports-inspection}, subscribed raw to the report topic
     * (the report JSON is the message body), where tests read the reports. Returns its URL. Nobody drains
     * it outside a test, so the local runner never adds it (moto slows down with a queue's depth).
     */
    public String subscribeReportQueue() {
        AwsEndpoints aws = aws();
        String url = aws.sqs().createQueue(r -> r.queueName(prefix() + "-reports-inspection")).queueUrl();
        String arn = aws.sqs().getQueueAttributes(r -> r.queueUrl(url).attributeNames(QueueAttributeName.QUEUE_ARN))
                .attributes().get(QueueAttributeName.QUEUE_ARN);
        String subscription = aws.sns().subscribe(r -> r.topicArn(reportTopicArn()).protocol("sqs").endpoint(arn)
                .returnSubscriptionArn(true)).subscriptionArn();
        aws.sns().setSubscriptionAttributes(r -> r.subscriptionArn(subscription).attributeName("RawMessageDelivery")
                .attributeValue("true"));
        return url;
    }

    /** Test-side change: SNS wraps each upload notification in its envelope (the template delivers raw). */
    public void envelopeUploads() {
        for (Subscription subscription : uploadSubscriptions()) {
            aws().sns().setSubscriptionAttributes(r -> r.subscriptionArn(subscription.subscriptionArn())
                    .attributeName("RawMessageDelivery").attributeValue("false"));
        }
    }

    private List<Subscription> uploadSubscriptions() {
        return aws().sns().listSubscriptionsByTopicPaginator(r -> r.topicArn(uploadTopicArn())).subscriptions().stream()
                .filter(s -> ingestQueueArn().equals(s.endpoint())).toList();
    }

    /** What to build: the template, its parameters and the test-side changes made at creation. */
    public static final class Builder {
        private final TemplateStack.Builder stack;
        private String prefix;

        private Builder(AwsEndpoints aws) {
            this.stack = TemplateStack.builder(aws);
        }

        /** NamePrefix: the local runner uses the template's default, each test class a unique one. */
        public Builder prefix(String namePrefix) {
            this.prefix = Objects.requireNonNull(namePrefix, "namePrefix");
            return this;
        }

        /** UploadNotifications=Queue: S3 notifies the ingest queue itself, and there is no upload topic. */
        public Builder queueNotifications() {
            return parameter("UploadNotifications", "Queue");
        }

        /**
         * ExistingBucketName: the stack indexes this bucket (made beforehand, with objects and notifications of
         * its own) instead of making one.
         */
        public Builder adopting(String existingBucket) {
            return parameter("ExistingBucketName", existingBucket);
        }

        /** Another parameter's value, as {@code sam deploy --parameter-overrides}. */
        public Builder parameter(String name, String value) {
            return parameters(Map.of(name, value));
        }

        public Builder parameters(Map<String, String> values) {
            stack.parameters(values);
            return this;
        }

        /** A test's edited copy of template.yaml instead of the repository's. */
        public Builder template(Path samTemplate) {
            stack.template(samTemplate);
            return this;
        }

        /**
         * Test-side change: the storage bucket without versioning. moto sends no notification for a delete
         * marker (S3 does), so where deletes must reach the ingester through moto, the bucket is made
         * unversioned; deletes then notify ObjectRemoved:Delete.
         */
        public Builder unversionedBucket() {
            stack.withhold("StorageBucket", "VersioningConfiguration");
            return this;
        }

        /**
         * Test-side change: the storage bucket without its notification configuration, for objects "already
         * there" that nobody ingested (what backfill and reconciliation start from).
         */
        public Builder bucketWithoutNotifications() {
            stack.withhold("StorageBucket", "NotificationConfiguration");
            return this;
        }

        /** Test-side reduction: only the template's tables (a test of the DynamoDB code needs nothing else). */
        public Builder tablesOnly() {
            stack.onlyTypes(java.util.Set.of("AWS::DynamoDB::Table"));
            return this;
        }

        public DatalakeStack build() {
            if (prefix != null) {
                stack.parameters(Map.of("NamePrefix", prefix));
                stack.stackName(prefix);
            }
            return new DatalakeStack(stack.build());
        }
    }
}
