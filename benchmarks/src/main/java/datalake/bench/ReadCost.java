package datalake.bench;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import datalake.bench.limits.KeyTally;
import datalake.bench.limits.PartitionModel;
import datalake.query.QueryApi;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What a time query of the top WHAT costs in DynamoDB reads, from the partition model's counters: the
 * Queries it makes of the WHAT's day keys (each a read of one key: {@code <day>:<what>}, or a shard's
 * {@code <day>:<what>#<s>}) and their read units, over its first page or over all its pages.
 *
 * @param pages   the pages asked for
 * @param records the records they held
 * @param queries the DynamoDB Queries (reads admitted by the model)
 * @param rru     their read units
 */
record ReadCost(int pages, int records, long queries, double rru) {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern DAY_KEY = Pattern.compile("\\d+:" + ScaleWorkload.TOP_WHAT + "(#\\d+)?");

    /** Asks {@code api} for {@code query} (a raw query string), its first page only or every page. */
    static ReadCost of(QueryApi api, PartitionModel model, String query, boolean allPages) {
        long queriesBefore = reads(model);
        double unitsBefore = units(model);
        int pages = 0;
        int records = 0;
        Optional<String> next = Optional.of(query);
        while (next.isPresent()) {
            APIGatewayV2HTTPResponse response = api.handle(FilesQuery.event(next.get()));
            if (response.getStatusCode() != 200) {
                throw new IllegalStateException("the query " + next.get() + " answered " + response.getStatusCode() + ": "
                        + response.getBody());
            }
            JsonNode page = json(response.getBody());
            pages++;
            records += page.path("records").size();
            JsonNode link = page.path("next");
            next = allPages && link.isTextual() ? Optional.of(URI.create(link.asText()).getRawQuery()) : Optional.empty();
        }
        return new ReadCost(pages, records, reads(model) - queriesBefore, units(model) - unitsBefore);
    }

    private static long reads(PartitionModel model) {
        return dayKeys(model).mapToLong(KeyTally::reads).sum();
    }

    private static double units(PartitionModel model) {
        return dayKeys(model).mapToDouble(KeyTally::readUnits).sum();
    }

    private static Stream<KeyTally> dayKeys(PartitionModel model) {
        return model.tallies().values().stream()
                .filter(t -> !t.key().isIndex() && DAY_KEY.matcher(t.key().value()).matches());
    }

    private static JsonNode json(String body) {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
