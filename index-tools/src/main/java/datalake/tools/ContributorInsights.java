package datalake.tools;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.cloudwatch.CloudWatchClient;
import software.amazon.awssdk.services.cloudwatch.model.GetInsightRuleReportRequest;
import software.amazon.awssdk.services.cloudwatch.model.GetInsightRuleReportResponse;
import software.amazon.awssdk.services.cloudwatch.model.InsightRuleContributor;
import software.amazon.awssdk.services.cloudwatch.model.InsightRuleContributorDatapoint;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ContributorInsightsStatus;
import software.amazon.awssdk.services.dynamodb.model.DescribeContributorInsightsResponse;

/**
 * The records table's writes per key and minute in AWS, from CloudWatch Contributor Insights for DynamoDB
 * (the template's {@code TableContributorInsights}): the table's "most accessed items (partition key)" rule,
 * {@code DynamoDBContributorInsights-PKC-<table>-<created>}, found with DescribeContributorInsights and read
 * hour by hour with GetInsightRuleReport, its 100 busiest keys a minute each. The rule counts reads as well
 * as writes; on a day key the reads are queries, few beside a hot key's writes.
 */
final class ContributorInsights {
    static final String ACCESSED_KEYS_RULE = "DynamoDBContributorInsights-PKC-";
    static final int PERIOD_SECONDS = 60;
    /** The most contributors a report gives. */
    static final int CONTRIBUTORS = 100;

    /** The two calls, as DynamoDB and CloudWatch answer them ({@link #of} in AWS; a fake in tests). */
    interface Reports {
        DescribeContributorInsightsResponse describe(String table);

        GetInsightRuleReportResponse report(GetInsightRuleReportRequest request);
    }

    private ContributorInsights() {
    }

    static Reports of(DynamoDbClient dynamoDb, CloudWatchClient cloudWatch) {
        return new Reports() {
            @Override
            public DescribeContributorInsightsResponse describe(String table) {
                return dynamoDb.describeContributorInsights(r -> r.tableName(table));
            }

            @Override
            public GetInsightRuleReportResponse report(GetInsightRuleReportRequest request) {
                return cloudWatch.getInsightRuleReport(request);
            }
        };
    }

    /**
     * The table's writes per key and minute over the {@code hours} hours before {@code now};
     * {@link IllegalStateException} when Contributor Insights is not on for the table.
     */
    static WriteCounts read(Reports reports, String table, Instant now, int hours) {
        DescribeContributorInsightsResponse described = reports.describe(table);
        if (described.contributorInsightsStatus() != ContributorInsightsStatus.ENABLED) {
            throw new IllegalStateException("Contributor Insights is " + described.contributorInsightsStatusAsString()
                    + " on " + table + ": deploy with TableContributorInsights=Enabled, let it count the busy hours,"
                    + " or give --from-counts.");
        }
        String rule = described.contributorInsightsRuleList().stream().filter(r -> r.startsWith(ACCESSED_KEYS_RULE))
                .findFirst().orElseThrow(() -> new IllegalStateException("Contributor Insights on " + table
                        + " has no rule of its most accessed keys (" + ACCESSED_KEYS_RULE + "...): is it in"
                        + " THROTTLED_KEYS mode? The template's parameter sets ACCESSED_AND_THROTTLED_KEYS."));
        Map<String, Map<Long, Long>> perKey = new HashMap<>();
        Instant end = now.truncatedTo(ChronoUnit.MINUTES);
        for (int hour = hours; hour > 0; hour--) {
            Instant from = end.minus(Duration.ofHours(hour));
            GetInsightRuleReportResponse report = reports.report(GetInsightRuleReportRequest.builder().ruleName(rule)
                    .startTime(from).endTime(from.plus(Duration.ofHours(1))).period(PERIOD_SECONDS)
                    .maxContributorCount(CONTRIBUTORS).orderBy("Sum").build());
            add(report.contributors(), perKey);
        }
        WriteCounts counts = new WriteCounts(PERIOD_SECONDS);
        perKey.forEach((key, minutes) -> minutes.forEach((minute, n) -> counts.add(key, minute, n)));
        return counts;
    }

    /**
     * Each contributor's minutes, by epoch minute (a contributor's one key is the partition key); a minute two
     * reports give (at their common edge) is counted once.
     */
    static void add(List<InsightRuleContributor> contributors, Map<String, Map<Long, Long>> perKey) {
        for (InsightRuleContributor contributor : contributors) {
            if (contributor.keys().size() != 1) {
                continue;
            }
            Map<Long, Long> minutes = perKey.computeIfAbsent(contributor.keys().get(0), k -> new HashMap<>());
            for (InsightRuleContributorDatapoint point : contributor.datapoints()) {
                long minute = Math.floorDiv(point.timestamp().getEpochSecond(), PERIOD_SECONDS);
                minutes.merge(minute, Math.round(point.approximateValue()), Math::max);
            }
        }
    }
}
