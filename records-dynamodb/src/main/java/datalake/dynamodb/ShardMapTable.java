package datalake.dynamodb;

import datalake.records.ShardMap;
import datalake.records.ShardMapSource;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;

/**
 * The shard map's item in the records table ({@link ShardMapItem}): read with one consistent GetItem
 * (uncached: the functions wrap it in a {@link CachedShardMap}), written whole with a PutItem on the
 * condition that nobody wrote it since it was read. The checks of a change (scripts/shards.sh) are the
 * caller's; a benchmark or a test may write any valid map here.
 */
public final class ShardMapTable implements ShardMapSource {
    private final DynamoDbClient dynamoDb;
    private final String table;

    public ShardMapTable(DynamoDbClient dynamoDb, String table) {
        this.dynamoDb = dynamoDb;
        this.table = table;
    }

    /** The map and its revision, {@link ShardMapItem.Stored#NONE} when there is no item. */
    public ShardMapItem.Stored read() {
        GetItemResponse response = dynamoDb.getItem(r -> r.tableName(table).key(ShardMapItem.key())
                .consistentRead(true));
        return response.hasItem() && !response.item().isEmpty() ? ShardMapItem.fromItem(response.item())
                : ShardMapItem.Stored.NONE;
    }

    @Override
    public ShardMap current() {
        return read().map();
    }

    /**
     * Writes the map as the revision after {@code readRevision}; {@link IllegalStateException} when someone
     * else wrote it since that revision was read (nothing is written then).
     *
     * @return the revision written
     */
    public long write(ShardMap map, long readRevision, long nowMillis) {
        long revision = readRevision + 1;
        try {
            dynamoDb.putItem(r -> {
                r.tableName(table).item(ShardMapItem.toItem(map, revision, nowMillis));
                if (readRevision == 0) {
                    r.conditionExpression("attribute_not_exists(#k)")
                            .expressionAttributeNames(Map.of("#k", RecordItems.TIME_INDEX_KEY));
                } else {
                    r.conditionExpression("#rev = :rev")
                            .expressionAttributeNames(Map.of("#rev", ShardMapItem.REVISION))
                            .expressionAttributeValues(Map.of(":rev",
                                    AttributeValue.fromN(Long.toString(readRevision))));
                }
            });
        } catch (ConditionalCheckFailedException e) {
            throw new IllegalStateException("the shard map changed while this change was made; read it again and"
                    + " retry.", e);
        }
        return revision;
    }

    public String table() {
        return table;
    }
}
