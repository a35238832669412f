package datalake.query;

/**
 * Where the next page of a files query starts: in day bucket {@code bucket} (time queries; null for
 * work-id queries), after the range key {@code after} ({@code <where>:<id>}; null for the bucket's
 * beginning). Pages are ordered by bucket, then by range key, so a position is all a cursor needs.
 */
record Cursor(Long bucket, String after) {
}
