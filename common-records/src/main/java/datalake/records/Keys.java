package datalake.records;

/**
 * The index keys of the records table, joined with {@code ':'} (slugs and ids cannot contain it,
 * so every key splits back into its parts unambiguously).
 */
public final class Keys {
    public static final char SEPARATOR = ':';
    /** Between a WHAT and its shard in a sharded {@code time_index_key} (never in a WHAT: slugs are a-z0-9_-). */
    public static final char SHARD_SEPARATOR = '#';
    /** Prefix of the work-id key of a file without a work_id (spreads such files over many hash keys). */
    public static final String NULL_WORK_ID_PREFIX = "null";

    private Keys() {
    }

    /**
     * {@code <bucket>:<what>}, the table's hash key; {@code <bucket>:<what>#<shard>} on a day its WHAT is
     * written sharded ({@link ShardMap}). {@code shard} is {@link #UNSHARDED} for the plain key.
     */
    public record TimeIndexKey(long bucket, String what, int shard) {
        /** The shard of a plain {@code <bucket>:<what>} key. */
        public static final int UNSHARDED = -1;

        public TimeIndexKey {
            if (shard < UNSHARDED) {
                throw new IllegalArgumentException("a shard number is 0 or more.");
            }
        }

        /** The plain key {@code <bucket>:<what>}. */
        public TimeIndexKey(long bucket, String what) {
            this(bucket, what, UNSHARDED);
        }

        public boolean sharded() {
            return shard != UNSHARDED;
        }

        @Override
        public String toString() {
            return sharded() ? bucket + ":" + what + SHARD_SEPARATOR + shard : bucket + ":" + what;
        }

        public static TimeIndexKey parse(String key) {
            int sep = separator(key, "time_index_key");
            long bucket;
            try {
                bucket = Long.parseLong(key.substring(0, sep));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("time_index_key must start with a day bucket number.");
            }
            String what = key.substring(sep + 1);
            int hash = what.indexOf(SHARD_SEPARATOR);
            if (hash < 0) {
                return new TimeIndexKey(bucket, what);
            }
            String shard = what.substring(hash + 1);
            if (hash == 0 || !shard.matches("(0|[1-9][0-9]{0,8})")) {
                throw new IllegalArgumentException("a sharded time_index_key ends in #<shard number>.");
            }
            return new TimeIndexKey(bucket, what.substring(0, hash), Integer.parseInt(shard));
        }
    }

    /** {@code <where>:<id>}, the table's range key (and the GSI's). */
    public record RangeKey(String where, String id) {
        @Override
        public String toString() {
            return where + ":" + id;
        }

        /** The range-key prefix that selects one WHERE: {@code <where>:}. */
        public static String prefix(String where) {
            return where + SEPARATOR;
        }

        public static RangeKey parse(String key) {
            int sep = separator(key, "range_key");
            return new RangeKey(key.substring(0, sep), key.substring(sep + 1));
        }
    }

    /**
     * {@code <work_id>:<what>}, or {@code null<id>:<what>} when the file has no work_id: the hash key
     * of the GSI {@code work-id-index}. {@code value} is the part before the separator.
     */
    public record WorkIdIndexKey(String value, String what) {
        public static WorkIdIndexKey of(String workId, String what, String id) {
            return new WorkIdIndexKey(workId != null ? workId : NULL_WORK_ID_PREFIX + id, what);
        }

        @Override
        public String toString() {
            return value + ":" + what;
        }

        public static WorkIdIndexKey parse(String key) {
            int sep = key.lastIndexOf(SEPARATOR);
            if (sep <= 0 || sep == key.length() - 1) {
                throw new IllegalArgumentException("work_id_index_key must be <work_id>:<what>.");
            }
            return new WorkIdIndexKey(key.substring(0, sep), key.substring(sep + 1));
        }
    }

    /** {@code <what>:<where>}, the hash key of the latest table. */
    public record WhatWhereKey(String what, String where) {
        @Override
        public String toString() {
            return what + ":" + where;
        }

        public static WhatWhereKey parse(String key) {
            int sep = separator(key, "what_where_key");
            return new WhatWhereKey(key.substring(0, sep), key.substring(sep + 1));
        }
    }

    private static int separator(String key, String name) {
        int sep = key == null ? -1 : key.indexOf(SEPARATOR);
        if (sep <= 0 || sep == key.length() - 1 || key.indexOf(SEPARATOR, sep + 1) >= 0) {
            throw new IllegalArgumentException(name + " must be two non-empty parts joined by ':'.");
        }
        return sep;
    }
}
