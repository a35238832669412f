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
 * @param hottestPerSecond   that key's writes admitted a second while the files arrived
 * @param throttledWrites    writes the model refused (each refused attempt or unprocessed entry)
 * @param throttledOnIndexes of which refused by a GSI key
 * @param throttledReads     reads the model refused
 * @param handedBack         messages the ingester handed back to SQS (batch item failures)
 * @param handedBackKinds    their error kinds, as the ingester logs them
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
        Map<String, Long> handedBackKinds, long leftOnLastReceive, long notWritten, Percentiles freshness, Percentiles queued, double drainSeconds,
        ReadCost firstPage, ReadCost oneWhere) {

    /** The figures under {@code scale_<run>_...} names, for target/bench.json. */
    Map<String, Object> json() {
        Map<String, Object> json = new LinkedHashMap<>();
        String p = "scale_" + run + "_";
        json.put(p + "shards", shards);
        json.put(p + "files", files);
        percentiles(json, p + "offered_top_what", offered, "per_s");
        json.put(p + "hottest_key", hottestKey);
        percentiles(json, p + "hottest_key_writes", hottestPerSecond, "per_s");
        json.put(p + "throttled_writes", throttledWrites);
        json.put(p + "throttled_writes_on_gsi", throttledOnIndexes);
        json.put(p + "throttled_reads", throttledReads);
        json.put(p + "handed_back", handedBack);
        handedBackKinds.forEach((kind, n) -> json.put(p + "handed_back_" + kind, n));
        json.put(p + "dead_lettered", leftOnLastReceive);
        json.put(p + "not_written", notWritten);
        percentiles(json, p + "freshness", freshness, "ms");
        percentiles(json, p + "queue", queued, "ms");
        json.put(p + "drain_s", drainSeconds);
        readCost(json, p + "query_30d_first_page", firstPage);
        readCost(json, p + "query_30d_one_where", oneWhere);
        return json;
    }

    private static void percentiles(Map<String, Object> json, String name, Percentiles p, String unit) {
        json.put(name + "_p50_" + unit, p.p50());
        json.put(name + "_p99_" + unit, p.p99());
        json.put(name + "_max_" + unit, p.max());
    }

    private static void readCost(Map<String, Object> json, String name, ReadCost cost) {
        json.put(name + "_pages", cost.pages());
        json.put(name + "_records", cost.records());
        json.put(name + "_queries", cost.queries());
        json.put(name + "_rru", cost.rru());
    }
}
