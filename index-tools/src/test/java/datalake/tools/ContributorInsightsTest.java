package datalake.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudwatch.CloudWatchClient;
import software.amazon.awssdk.services.cloudwatch.model.GetInsightRuleReportRequest;
import software.amazon.awssdk.services.cloudwatch.model.GetInsightRuleReportResponse;
import software.amazon.awssdk.services.cloudwatch.model.InsightRuleContributor;
import software.amazon.awssdk.services.cloudwatch.model.InsightRuleContributorDatapoint;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ContributorInsightsStatus;
import software.amazon.awssdk.services.dynamodb.model.DescribeContributorInsightsResponse;
import software.amazon.awssdk.thirdparty.jackson.core.JsonParser;
import software.amazon.awssdk.thirdparty.jackson.core.JsonToken;
import software.amazon.awssdk.thirdparty.jackson.dataformat.cbor.CBORFactory;
import software.amazon.awssdk.thirdparty.jackson.dataformat.cbor.CBORGenerator;

/**
 * The records table's writes a minute from its Contributor Insights report: the rule found, the hours
 * asked for, the contributors' minutes read (moto has no GetInsightRuleReport: a fake of our {@link
 * ContributorInsights.Reports}, and once the SDK's own clients against canned answers on the wire: DynamoDB's
 * JSON, CloudWatch's CBOR).
 */
class ContributorInsightsTest {
    private static final String TABLE = "datalake-records";
    private static final String RULE = "DynamoDBContributorInsights-PKC-datalake-records-1767225600000";
    private static final Instant NOW = Instant.parse("2026-01-01T03:00:30Z");
    private static final long MINUTE0 = Instant.parse("2026-01-01T00:00:00Z").getEpochSecond() / 60;

    /** Answers as DynamoDB and CloudWatch would, and keeps the report requests. */
    private static final class FakeReports implements ContributorInsights.Reports {
        final List<GetInsightRuleReportRequest> asked = new ArrayList<>();
        final Map<Instant, List<InsightRuleContributor>> byStart = new TreeMap<>();
        ContributorInsightsStatus status = ContributorInsightsStatus.ENABLED;

        @Override
        public DescribeContributorInsightsResponse describe(String table) {
            return DescribeContributorInsightsResponse.builder().tableName(table).contributorInsightsStatus(status)
                    .contributorInsightsRuleList("DynamoDBContributorInsights-PKT-datalake-records-1767225600000",
                            RULE, "DynamoDBContributorInsights-SKC-datalake-records-1767225600000").build();
        }

        @Override
        public GetInsightRuleReportResponse report(GetInsightRuleReportRequest request) {
            asked.add(request);
            return GetInsightRuleReportResponse.builder()
                    .contributors(byStart.getOrDefault(request.startTime(), List.of())).build();
        }
    }

    private static InsightRuleContributor contributor(String key, long minute, double count) {
        return InsightRuleContributor.builder().keys(key).approximateAggregateValue(count)
                .datapoints(InsightRuleContributorDatapoint.builder().timestamp(Instant.ofEpochSecond(minute * 60))
                        .approximateValue(count).build()).build();
    }

    @Test
    void theAccessedKeysRuleIsReadHourByHourAMinuteAPoint() {
        // given three hours of reports: a WHAT's two shards in one minute, a per-object key, and a minute
        // that two reports give at their common edge
        FakeReports reports = new FakeReports();
        Instant h0 = Instant.parse("2026-01-01T00:00:00Z");
        Instant h1 = Instant.parse("2026-01-01T01:00:00Z");
        reports.byStart.put(h0, List.of(contributor("20454:syslog#0", MINUTE0 + 10, 36_000),
                contributor("20454:syslog#1", MINUTE0 + 10, 30_000), contributor("s3://b/k", MINUTE0 + 10, 90_000),
                contributor("20454:syslog#0", MINUTE0 + 60, 1_000)));
        reports.byStart.put(h1, List.of(contributor("20454:syslog#0", MINUTE0 + 60, 1_000)));

        // when the last three hours are read
        WriteCounts counts = ContributorInsights.read(reports, TABLE, NOW, 3);

        // then the PKC rule was asked for each hour, a minute a point, its 100 busiest keys
        assertEquals(List.of(h0, h1, Instant.parse("2026-01-01T02:00:00Z")),
                reports.asked.stream().map(GetInsightRuleReportRequest::startTime).toList());
        for (GetInsightRuleReportRequest r : reports.asked) {
            assertEquals(RULE, r.ruleName());
            assertEquals(60, r.period());
            assertEquals(100, r.maxContributorCount());
            assertEquals(r.startTime().plusSeconds(3600), r.endTime());
        }
        // and the day's shards count together, the edge minute once, the object's key not at all
        assertEquals(60, counts.periodSeconds());
        assertEquals(Map.of(new WriteCounts.DayWhat(20454, "syslog"), Map.of(MINUTE0 + 10, 66_000L, MINUTE0 + 60, 1_000L)),
                counts.byDayWhat());
        // so the busiest minute, 1,100 writes a second, makes a busiest second of ~1,760: 4 shards
        ShardSuggestion.Shard shard = ShardSuggestion.of(counts).shard().get(0);
        assertEquals(1100, shard.peak().periodAverage());
        assertEquals(4, shard.shards());
    }

    @Test
    void withoutContributorInsightsTheOperatorIsToldWhatToDeploy() {
        FakeReports reports = new FakeReports();
        reports.status = ContributorInsightsStatus.DISABLED;

        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> ContributorInsights.read(reports, TABLE, NOW, 24));

        assertEquals("Contributor Insights is DISABLED on datalake-records: deploy with TableContributorInsights=Enabled,"
                + " let it count the busy hours, or give --from-counts.", e.getMessage());
        assertEquals(List.of(), reports.asked);
    }

    /** A CBOR request's top-level text and number fields, as "Name=value," each. */
    private static String fields(byte[] cbor) throws IOException {
        StringBuilder out = new StringBuilder();
        try (JsonParser p = new CBORFactory().createParser(cbor)) {
            String name = null;
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                if (t == JsonToken.FIELD_NAME) {
                    name = p.currentName();
                } else if (t.isScalarValue() && name != null) {
                    out.append(name).append('=').append(p.getText()).append(',');
                }
            }
        }
        return out.toString();
    }

    /** A GetInsightRuleReport answer in CBOR (rpc-v2-cbor): one contributor with one minute. */
    private static byte[] report(String key, long minute, double count) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (CBORGenerator g = new CBORFactory().createGenerator(bytes)) {
            g.writeStartObject();
            g.writeArrayFieldStart("KeyLabels");
            g.writeString("PartitionKey");
            g.writeEndArray();
            g.writeStringField("AggregationStatistic", "Sum");
            g.writeArrayFieldStart("Contributors");
            g.writeStartObject();
            g.writeArrayFieldStart("Keys");
            g.writeString(key);
            g.writeEndArray();
            g.writeNumberField("ApproximateAggregateValue", count);
            g.writeArrayFieldStart("Datapoints");
            g.writeStartObject();
            g.writeFieldName("Timestamp");
            g.writeTag(1);
            g.writeNumber((double) (minute * 60));
            g.writeNumberField("ApproximateValue", count);
            g.writeEndObject();
            g.writeEndArray();
            g.writeEndObject();
            g.writeEndArray();
            g.writeEndObject();
        }
        return bytes.toByteArray();
    }

    @Test
    void theSdksClientsAskAndReadAsOnTheWire() throws IOException {
        // given DynamoDB and CloudWatch answering as AWS does (JSON 1.0), one report with one contributor
        List<String> targets = new ArrayList<>();
        List<String> bodies = new ArrayList<>();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            boolean dynamoDb = exchange.getRequestHeaders().containsKey("X-Amz-Target");
            targets.add(dynamoDb ? exchange.getRequestHeaders().getFirst("X-Amz-Target") : exchange.getRequestURI().getPath());
            byte[] request = exchange.getRequestBody().readAllBytes();
            byte[] bytes;
            if (dynamoDb) {
                bodies.add(new String(request, StandardCharsets.UTF_8));
                bytes = ("{\"TableName\":\"" + TABLE + "\",\"ContributorInsightsStatus\":\"ENABLED\","
                        + "\"ContributorInsightsRuleList\":[\"" + RULE + "\"]}").getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/x-amz-json-1.0");
            } else {
                bodies.add(fields(request));
                bytes = report("20454:what01", MINUTE0 + 5, 64_020);
                exchange.getResponseHeaders().add("Content-Type", "application/cbor");
                exchange.getResponseHeaders().add("smithy-protocol", "rpc-v2-cbor");
            }
            exchange.sendResponseHeaders(200, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        URI endpoint = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
        var credentials = StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDEXAMPLE", "secret"));
        try (DynamoDbClient dynamoDb = DynamoDbClient.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
                .credentialsProvider(credentials).build();
                CloudWatchClient cloudWatch = CloudWatchClient.builder().endpointOverride(endpoint)
                        .region(Region.US_EAST_1).credentialsProvider(credentials).build()) {

            // when an hour is read through them
            WriteCounts counts = ContributorInsights.read(ContributorInsights.of(dynamoDb, cloudWatch), TABLE, NOW, 1);

            // then the rule was found and asked for, and the contributor's minute read: 1,067 a second
            assertEquals(List.of("DynamoDB_20120810.DescribeContributorInsights",
                    "/service/GraniteServiceVersion20100801/operation/GetInsightRuleReport"), targets);
            assertTrue(bodies.get(1).contains("RuleName=" + RULE + ",") && bodies.get(1).contains("Period=60,")
                    && bodies.get(1).contains("MaxContributorCount=100,"), bodies.get(1));
            assertEquals(Map.of(new WriteCounts.DayWhat(20454, "what01"), Map.of(MINUTE0 + 5, 64_020L)),
                    counts.byDayWhat());
        } finally {
            server.stop(0);
        }
    }
}
