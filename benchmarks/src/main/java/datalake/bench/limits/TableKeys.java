package datalake.bench.limits;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * A table's keys and its global secondary indexes' (from DescribeTable): which partition keys an item
 * falls under, and how big its entry in each index is.
 *
 * @param table   the table's name
 * @param arn     its ARN (DynamoDB names it in a throttling reason)
 * @param hashKey  its partition key attribute
 * @param rangeKey its sort key attribute, if it has one
 * @param indexes  its GSIs
 */
record TableKeys(String table, String arn, String hashKey, Optional<String> rangeKey, List<Index> indexes) {

    static TableKeys of(TableDescription description) {
        List<Index> indexes = new ArrayList<>();
        for (GlobalSecondaryIndexDescription gsi : description.globalSecondaryIndexes()) {
            Set<String> projected = new HashSet<>(gsi.projection().nonKeyAttributes());
            indexes.add(new Index(gsi.indexName(), gsi.indexArn(), hash(gsi.keySchema()), range(gsi.keySchema()),
                    gsi.projection().projectionType() == ProjectionType.ALL, projected));
        }
        return new TableKeys(description.tableName(), description.tableArn(), hash(description.keySchema()),
                range(description.keySchema()), List.copyOf(indexes));
    }

    /** The table key of an item or a key ({@code {"attr": {"S": "..."}}}), or empty if it lacks the attribute. */
    Optional<PartitionKey> keyOf(JsonNode item) {
        return valueOf(item.get(hashKey)).map(v -> PartitionKey.ofTable(table, v));
    }

    /** The index of that name. */
    Optional<Index> index(String name) {
        return indexes.stream().filter(i -> i.name().equals(name)).findFirst();
    }

    /** The ARN of the table or the index a key is in. */
    String arnOf(PartitionKey key) {
        return key.index().flatMap(this::index).map(Index::arn).orElse(arn);
    }

    /** A key value as text: a string or a number's digits, a binary's base64. */
    static Optional<String> valueOf(JsonNode attributeValue) {
        if (attributeValue == null || !attributeValue.isObject() || attributeValue.size() != 1) {
            return Optional.empty();
        }
        return Optional.of(attributeValue.elements().next().asText());
    }

    private static String hash(List<KeySchemaElement> schema) {
        return schema.stream().filter(k -> k.keyType() == KeyType.HASH).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("a key schema without a HASH key")).attributeName();
    }

    private static Optional<String> range(List<KeySchemaElement> schema) {
        return schema.stream().filter(k -> k.keyType() == KeyType.RANGE).findFirst().map(KeySchemaElement::attributeName);
    }

    /**
     * A global secondary index: an item is in it when it has the index's key attributes (a sparse index
     * leaves the others out), and its entry holds the projected attributes.
     *
     * @param all       ProjectionType ALL: the entry is the whole item
     * @param projected the non-key attributes of an INCLUDE projection
     */
    record Index(String name, String arn, String hashKey, Optional<String> rangeKey, boolean all, Set<String> projected) {

        /** The index key of an item, when the item is in the index. */
        Optional<PartitionKey> keyOf(String table, JsonNode item) {
            if (rangeKey.isPresent() && !item.has(rangeKey.get())) {
                return Optional.empty();
            }
            return valueOf(item.get(hashKey)).map(v -> PartitionKey.ofIndex(table, name, v));
        }

        /** The bytes of an item's entry in this index: the projected attributes, and the table's and the index's keys. */
        long entryBytes(TableKeys table, JsonNode item) {
            if (all) {
                return ItemSizes.item(item);
            }
            long bytes = 0;
            for (Map.Entry<String, JsonNode> attribute : item.properties()) {
                String name = attribute.getKey();
                if (projected.contains(name) || name.equals(hashKey) || rangeKey.map(name::equals).orElse(false)
                        || name.equals(table.hashKey()) || table.rangeKey().map(name::equals).orElse(false)) {
                    bytes += name.getBytes(java.nio.charset.StandardCharsets.UTF_8).length
                            + ItemSizes.value(attribute.getValue());
                }
            }
            return bytes;
        }
    }
}
