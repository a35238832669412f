package datalake.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one scale run measured.
 *
 * @param run                the run's name
 * @param limits             its partition limits, in words
 * @param shards             the top WHAT's shards
 * @param files              the files offered
 * @param seconds            the seconds they arrived over
 * @param offered            the top WHAT's uploads a second (its day key's offered writes)
 * @param hottestKey         the table key that took the most writes
 * @param hottestPerSecond   that key's writes admitted a second, over the run
 * @param throttledWrites    writes the model refused (each refused attempt or unprocessed entry)
 * @param throttledOnIndexes of which refused by a GSI key
 * @param throttledReads     reads the model refused
 * @param handedBack         messages the ingester handed back to SQS (batch item failures)
 * @param leftOnLastReceive  of which on their last receive (dead-lettered by the ingester)
 * @param notWritten         files whose record was not written by the end of the run
 * @param freshness          enqueue to the record's write acknowledged (queryable), ms
 * @param queued             enqueue to the start of the invocation that wrote it (the queue and the batching window), ms
 * @param drainSeconds       from the last arrival until the last record was written
 * @param firstPage          the first page of a 30-day query of the top WHAT, every WHERE
 * @param oneWhere           every page of a 30-day query of one WHERE of the top WHAT
 */
record ScaleFigures(String run, String limits, int shards, int files, int seconds, Percentiles offered, String hottestKey,
        Percentiles hottestPerSecond, long throttledWrites, long throttledOnIndexes, long throttledReads, long handedBack,
        long leftOnLastReceive, long notWritten, Percentiles freshness, Percentiles queued, double drainSeconds,
        ReadCost firstPage, ReadCost oneWhere) {

    /** The figures under {@code scale_<run>_...} names, for target/bench.json. */
    Map<String, Object> json() {
        Map<String, Object> json = new LinkedHashMap<>();
        String p = "scale_" + run + "_";
        json.put(p + "shards", shards);
        json.put(p + "files", files);
        json.put(p + "offered_top_what_p50_per_s", offered.p50());
        json.put(p + "offered_top_what_p99_per_s", offered.p99());
        json.put(p + "offered_top_what_max_per_s", offered.max());
        json.put(p + "hottest_key", hottestKey);
        json.put(p + "hottest_key_writes_p50_per_s", hottestPerSecond.p50());
        json.put(p + "hottest_key_writes_p99_per_s", hottestPerSecond.p99());
        json.put(p + "hottest_key_writes_max_per_s", hottestPerSecond.max());
        json.put(p + "throttled_writes", throttledWrites);
        json.put(p + "throttled_writes_on_gsi", throttledOnIndexes);
        json.put(p + "throttled_reads", throttledReads);
        json.put(p + "handed_back", handedBack);
        json.put(p + "dead_lettered", leftOnLastReceive);
        json.put(p + "not_written", notWritten);
        json.put(p + "freshness_p50_ms", freshness.p50());
        json.put(p + "freshness_p99_ms", freshness.p99());
        json.put(p + "freshness_max_ms", freshness.max());
        json.put(p + "queue_p50_ms", queued.p50());
        json.put(p + "queue_p99_ms", queued.p99());
        json.put(p + "drain_s", drainSeconds);
        json.put(p + "query_30d_first_page_queries", firstPage.queries());
        json.put(p + "query_30d_first_page_rru", firstPage.rru());
        json.put(p + "query_30d_one_where_pages", oneWhere.pages());
        json.put(p + "query_30d_one_where_records", oneWhere.records());
        json.put(p + "query_30d_one_where_queries", oneWhere.queries());
        json.put(p + "query_30d_one_where_rru", oneWhere.rru());
        return json;
    }
}
