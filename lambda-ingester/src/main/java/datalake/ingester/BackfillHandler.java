package datalake.ingester;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.amazonaws.services.lambda.runtime.events.S3BatchEventV2;
import com.amazonaws.services.lambda.runtime.events.S3BatchResponse;
import com.amazonaws.services.lambda.runtime.events.S3BatchResponse.ResultCode;
import datalake.dynamodb.ObjectEntry;
import datalake.lambda.Environment;
import datalake.lambda.SdkClientFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The backfill function ({@code datalake.ingester.BackfillHandler::handleRequest}): S3 Batch Operations
 * invokes it for the objects of a manifest (an S3 Inventory report or a CSV), invocation schema 2.0,
 * and it follows each object through the ingester's own code path ({@link Ingester#follow}): HEAD
 * decides; records, per-object entry and latest table as for a notification. Each task's result code:
 * <ul>
 *   <li>{@code Succeeded}: indexed as it is, not a datalake file (no metadata: nothing to index), or no
 *       longer in the bucket (removed from the index);</li>
 *   <li>{@code PermanentFailure}: a datalake file that can never be indexed (invalid metadata, a time
 *       range too long, a missing bucket), with the reason in the completion report;</li>
 *   <li>{@code TemporaryFailure}: throttling, a 5xx, the network: S3 Batch Operations tries it again.</li>
 * </ul>
 * It is a second handler of the ingester's jar rather than a jar of its own: it runs the ingester's
 * code and nothing else. It reads and writes the invocation's JSON itself ({@link S3BatchJson}), as AWS
 * requires of Java functions for Batch Operations.
 */
public final class BackfillHandler implements RequestStreamHandler {
    static final String DEFAULT_FUNCTION_NAME = "lambda-backfill";
    private final Ingester ingester;
    private final Clock clock;

    /** For Lambda: the backfill's configuration from the environment, S3 and DynamoDB clients built once. */
    public BackfillHandler() {
        this(IngesterConfig.forBackfill(Environment.system()));
    }

    private BackfillHandler(IngesterConfig config) {
        this(Ingester.forAws(config, IngesterClients.forBackfill(
                SdkClientFactory.forFunction(Environment.system(), Ingester.DEFAULT_CONCURRENCY), config)).build(),
                Clock.systemUTC());
    }

    /** For tests: an ingester built with {@link Ingester#forAws} or {@link Ingester#builder}. */
    BackfillHandler(Ingester ingester, Clock clock) {
        this.ingester = ingester;
        this.clock = clock;
    }

    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        S3BatchJson.writeResponse(handle(S3BatchJson.readEvent(input), context), output);
    }

    /** The tasks of one invocation, followed, and their results. */
    public S3BatchResponse handle(S3BatchEventV2 event, Context context) {
        List<S3BatchEventV2.Task> tasks = event.getTasks() == null ? List.of() : event.getTasks();
        List<ObjectEvent> objects = new ArrayList<>(tasks.size());
        Map<String, String> unreadable = new HashMap<>();
        for (S3BatchEventV2.Task task : tasks) {
            try {
                objects.add(new ObjectEvent(task.getS3Bucket(), key(task.getS3Key()), "Batch Operations", null));
            } catch (IllegalArgumentException e) {
                unreadable.put(task.getTaskId(), "the task's s3Key is not a valid URL-encoded key: " + e.getMessage() + ".");
            }
        }
        Map<String, Followed> outcomes = new HashMap<>();
        for (Followed followed : ingester.follow(objects, IngesterHandler.deadline(clock, context))) {
            outcomes.put(followed.event().bucket() + '/' + followed.event().key(), followed);
        }
        List<S3BatchResponse.Result> results = new ArrayList<>(tasks.size());
        for (S3BatchEventV2.Task task : tasks) {
            String problem = unreadable.get(task.getTaskId());
            S3BatchResponse.Result result = problem != null
                    ? result(task, ResultCode.PermanentFailure, problem)
                    : result(task, outcomes.get(task.getS3Bucket() + '/' + key(task.getS3Key())));
            results.add(result);
        }
        return S3BatchResponse.builder()
                .withInvocationSchemaVersion(event.getInvocationSchemaVersion() == null ? "2.0"
                        : event.getInvocationSchemaVersion())
                .withTreatMissingKeysAs(ResultCode.PermanentFailure)
                .withInvocationId(event.getInvocationId())
                .withResults(results)
                .build();
    }

    /** Keys in manifests (CSV and S3 Inventory) are URL-encoded; the task passes them on as they are. */
    static String key(String encoded) {
        return S3Keys.decode(encoded);
    }

    private static S3BatchResponse.Result result(S3BatchEventV2.Task task, Followed followed) {
        Failure failure = followed.failure();
        String url = followed.event().url();
        if (failure == null) {
            return followed.state() == ObjectEntry.State.ABSENT
                    ? result(task, ResultCode.Succeeded, url + " is not in the bucket: nothing of it is indexed.")
                    : result(task, ResultCode.Succeeded, "indexed " + url + " (" + followed.records() + " records)");
        }
        if (followed.withoutMetadata()) {
            return result(task, ResultCode.Succeeded, url + " has no datalake metadata: not a datalake file, skipped.");
        }
        return result(task, failure.permanent() ? ResultCode.PermanentFailure : ResultCode.TemporaryFailure,
                failure.kind().label() + ": " + failure.message());
    }

    private static S3BatchResponse.Result result(S3BatchEventV2.Task task, ResultCode code, String text) {
        return S3BatchResponse.Result.builder().withTaskId(task.getTaskId()).withResultCode(code)
                .withResultString(text).build();
    }
}
