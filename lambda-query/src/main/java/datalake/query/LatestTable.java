package datalake.query;

import datalake.dynamodb.StoredRecord;
import java.util.Optional;

/**
 * The optional latest table ({@code DATALAKE_LATEST_TABLE}): the newest file of each WHAT and WHERE,
 * kept by the ingester. The AWS implementation is {@link DynamoLatestTable}.
 */
public interface LatestTable {
    /** The entry of a WHAT and WHERE; empty when there is none, or when it cannot be read (logged and counted). */
    Optional<StoredRecord> latest(String what, String where);
}
