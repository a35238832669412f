package datalake.ingester;

import datalake.records.Record;

/**
 * The optional latest table ({@code DATALAKE_LATEST_TABLE}): the newest file of each WHAT and WHERE.
 * The AWS implementation is {@link DynamoLatestTable}.
 */
public interface LatestTable {
    /**
     * Offers the record of a file as the latest of its what:where. An older file never replaces a
     * newer one (greater start, then greater create_time), whatever the order of the calls.
     *
     * @return whether the record is now the latest; false when a newer (or the same) one is kept
     */
    boolean offer(Record record);
}
