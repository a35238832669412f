package datalake.records;

/**
 * Where the shard map in force comes from: in the functions and the tools, a read of the records table
 * cached for at most a minute; in tests, a map of their own.
 */
@FunctionalInterface
public interface ShardMapSource {
    /** No WHAT is sharded. */
    ShardMapSource NONE = () -> ShardMap.EMPTY;

    /** The map in force; may throw when it cannot be read (the caller fails rather than guess). */
    ShardMap current();
}
