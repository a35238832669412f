package datalake.query;

/**
 * Where the next page of a files query starts: in day bucket {@code bucket} (time queries; null for
 * work-id queries), after the range key {@code after} ({@code <where>:<id>}; null for the bucket's
 * beginning). Pages are ordered by bucket, then by range key, so a position is all a cursor needs.
 *
 * @param nextWhere the WHERE of the record the next page starts with, when the page that wrote the
 *                  cursor read it (time queries without a WHERE): not a position, only advice, which
 *                  tells a sharded day's reader the key the page goes on in ({@link DayReader})
 */
record Cursor(Long bucket, String after, String nextWhere) {
    Cursor(Long bucket, String after) {
        this(bucket, after, null);
    }
}
