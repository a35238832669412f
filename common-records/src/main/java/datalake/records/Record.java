package datalake.records;

import datalake.records.Keys.RangeKey;
import datalake.records.Keys.TimeIndexKey;
import datalake.records.Keys.WhatWhereKey;
import datalake.records.Keys.WorkIdIndexKey;

/**
 * One datalake record (format version 0): a file's entry in one day bucket. A file spanning
 * several days has one record per bucket, identical but for the bucket.
 *
 * @param shard      the shard of its {@code time_index_key}, or {@link TimeIndexKey#UNSHARDED} ({@link ShardMap})
 * @param url        {@code s3://<bucket>/<key>}, the key URL-decoded
 * @param createTime the object's LastModified, ms since the epoch
 * @param size       the object's size in bytes
 * @param expiresAt  epoch seconds after which DynamoDB TTL may delete the record, or null
 */
@SuppressWarnings("AvoidCommonTypeNames") // the domain's name; java.lang.Record is never needed by simple name here
public record Record(long bucket, int shard, String url, long createTime, long size, Metadata metadata,
        Long expiresAt) {
    public static final int VERSION = 0;

    public Record {
        if (url == null || metadata == null) {
            throw new IllegalArgumentException("a record needs a url and metadata");
        }
    }

    public int version() {
        return VERSION;
    }

    public TimeIndexKey timeIndexKey() {
        return new TimeIndexKey(bucket, metadata.what(), shard);
    }

    public RangeKey rangeKey() {
        return new RangeKey(metadata.where(), metadata.id());
    }

    public WorkIdIndexKey workIdIndexKey() {
        return WorkIdIndexKey.of(metadata.workId(), metadata.what(), metadata.id());
    }

    public WhatWhereKey whatWhereKey() {
        return new WhatWhereKey(metadata.what(), metadata.where());
    }

    /**
     * Whether this file is newer than another for the "latest" view: greater start, then greater
     * create_time.
     */
    public boolean isNewerThan(Record other) {
        if (metadata.start() != other.metadata.start()) {
            return metadata.start() > other.metadata.start();
        }
        return createTime > other.createTime;
    }
}
