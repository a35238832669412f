package datalake.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import datalake.dynamodb.ObjectItems;
import datalake.emulators.Emulators;
import datalake.emulators.EmulatorsExtension;
import datalake.ingester.IngesterClients;
import datalake.lambda.Environment;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The tools' commits carry AWS's time, whatever the workstation's clock says: a commit's {@code observed_at}
 * orders it against the functions' commits of the same key, so a tool run on a laptop an hour ahead would
 * otherwise make the uploads of the next hour lose to what it indexed (moto and dynalite, which sends the
 * {@code Date} header {@link AwsClock} reads).
 */
@ExtendWith(EmulatorsExtension.class)
class ToolsClockIT {
    private static final Emulators AWS = Emulators.shared();

    @Test
    void aBackfillOnAClockAnHourAheadCommitsAtAwsTime() {
        try (ToolsHarness h = new ToolsHarness(AWS, "toolclock")) {
            h.put("logs/a.log", ToolsHarness.metadata("host-a", "a", ToolsHarness.START));
            // clients of the run's own (Tools closes them), signed as an operator holding IndexOperatorPolicy
            IngesterClients clients = new IngesterClients(
                    h.operator.s3Clients().build(S3Client.builder().forcePathStyle(true)),
                    h.operator.dynamoDbClients().build(DynamoDbClient.builder()), null, null);
            Clock anHourAhead = Clock.offset(Clock.systemUTC(), Duration.ofHours(1));

            long before = System.currentTimeMillis();
            try (Tools tools = Tools.on(h.config, clients, Environment.of(h.operator.endpointEnvironment()), 4,
                    anHourAhead)) {
                Backfill.Result result = new Backfill(tools.clients().s3(), tools.ingester(), Clock.systemUTC())
                        .run(new Backfill.Options(Target.parse("s3://" + h.bucket + "/logs/"), null, 100, 1, 10),
                                () -> false);
                assertEquals(1, result.indexed());
            }
            long after = System.currentTimeMillis();

            String url = "s3://" + h.bucket + "/logs/a.log"; // observed_at is in microseconds
            long observedAt = Long.parseLong(AWS.dynamoDb().getItem(r -> r.tableName(h.recordsTable)
                    .key(ObjectItems.key(url)).consistentRead(true)).item().get(ObjectItems.OBSERVED_AT).n()) / 1000;
            // dynalite's Date is this machine's time to the second, read when the answer arrived
            assertTrue(observedAt >= before - 2_000 && observedAt <= after + 2_000,
                    "observed_at " + observedAt + " is not AWS's time of the run (" + before + ".." + after
                            + "): the workstation's clock ran " + (observedAt - after) / 1000 + " s ahead of it");
        }
    }
}
