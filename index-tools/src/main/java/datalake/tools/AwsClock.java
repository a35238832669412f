package datalake.tools;

import datalake.dynamodb.ShardMapItem;
import datalake.lambda.ConfigurationException;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;

/**
 * AWS's time, as the {@code Date} header of a DynamoDB answer gives it, rather than the workstation's: the
 * shard map's days ("the day after tomorrow, UTC") and its writes' times are the functions' and every other
 * workstation's too, and a laptop's clock hours off would let a change take effect on a day that has begun;
 * a reconciliation's "tomorrow" (the last day bucket a restored latest entry reads) is the functions' too.
 * The header counts whole seconds and the answer takes its time to arrive: {@link #UNCERTAINTY} bounds how
 * far two readings may be apart beyond the time between them.
 */
final class AwsClock {
    static final Duration UNCERTAINTY = Duration.ofSeconds(2);

    private AwsClock() {
    }

    /**
     * The local clock set to AWS's time: one GetItem of the records table's shard map item, whose answer's
     * {@code Date} it is at the moment the answer arrived; a {@link ConfigurationException} (one sentence, as the
     * commands print their settings' faults) without one.
     */
    static Clock of(DynamoDbClient dynamoDb, String recordsTable, Clock local) {
        GetItemResponse response = dynamoDb.getItem(r -> r.tableName(recordsTable).key(ShardMapItem.key()));
        Instant arrived = local.instant();
        String date = response.sdkHttpResponse().firstMatchingHeader("Date").orElseThrow(() ->
                new ConfigurationException("DynamoDB's answer has no Date header, so AWS's time is unknown and no day"
                        + " can be checked against it; check AWS_ENDPOINT_URL_DYNAMODB."));
        Instant aws;
        try {
            aws = DateTimeFormatter.RFC_1123_DATE_TIME.parse(date, Instant::from);
        } catch (DateTimeException e) {
            throw new ConfigurationException("DynamoDB's answer has the Date header \"" + date + "\", not a time, so"
                    + " AWS's time is unknown and no day can be checked against it.");
        }
        return Clock.offset(local, Duration.between(arrived, aws));
    }
}
