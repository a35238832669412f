package datalake.query;

import datalake.records.Record;
import java.util.Optional;

/**
 * The optional latest table ({@code DATALAKE_LATEST_TABLE}): the newest file of each WHAT and WHERE,
 * kept by the ingester. The AWS implementation is {@link DynamoLatestTable}.
 */
public interface LatestTable {
    Optional<Record> latest(String what, String where);
}
