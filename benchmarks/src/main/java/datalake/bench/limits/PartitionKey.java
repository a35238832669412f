package datalake.bench.limits;

import java.util.Optional;

/**
 * One partition key value of a table, or of one of its global secondary indexes: what a partition's
 * limit applies to in the model.
 *
 * @param table the table's name
 * @param index the GSI's name, or empty for the table itself
 * @param value the key's value as sent (a string, a number's digits, or base64 for a binary key)
 */
public record PartitionKey(String table, Optional<String> index, String value) {
    public static PartitionKey ofTable(String table, String value) {
        return new PartitionKey(table, Optional.empty(), value);
    }

    public static PartitionKey ofIndex(String table, String index, String value) {
        return new PartitionKey(table, Optional.of(index), value);
    }

    public boolean isIndex() {
        return index.isPresent();
    }

    @Override
    public String toString() {
        return table + index.map(i -> "/index/" + i).orElse("") + " " + value;
    }
}
