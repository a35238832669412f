"""Merges the parts' figures (target/bench/*.json) into target/bench.json and prints the table.

scripts/bench.sh runs it; the figures are medians (JMH: the median of the measured iterations), ms and
MB as plain numbers. A part that did not run leaves its figures out (null in the JSON).
"""
import json
import os
import statistics
import sys

# Records each TranslationBenchmark shape yields per message (the benchmark's setUp checks them).
RECORDS_PER_MESSAGE = {
    "snsWrappedSingleRecord": 1,
    "directS3Event": 1,
    "eventBridgeEvent": 1,
    "directS3TwoRecords": 2,
    "snsWrappedThreeDayFile": 3,
}
HEADLINE_SHAPE = "snsWrappedSingleRecord"
RECORDS_SHAPE = "snsWrappedThreeDayFile"


def load(path):
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def jmh_figures(results, suffix=""):
    figures = {}
    for result in results or []:
        shape = result["benchmark"].rsplit(".", 1)[1]
        raw = [x for fork in result["primaryMetric"]["rawData"] for x in fork]
        per_message = RECORDS_PER_MESSAGE.get(shape, 1)
        figures[f"translation_{shape}{suffix}_msgs_per_s"] = round(statistics.median(raw))
        figures[f"translation_{shape}{suffix}_msgs_per_s_min"] = round(min(raw))
        figures[f"translation_{shape}{suffix}_msgs_per_s_max"] = round(max(raw))
        figures[f"translation_{shape}{suffix}_records_per_s"] = round(statistics.median(raw) * per_message)
    return figures


def main():
    out, target, quick, tool_options = sys.argv[1], sys.argv[2], sys.argv[3] == "true", sys.argv[4]
    ingester_options = sys.argv[5] if len(sys.argv) > 5 else tool_options
    figures = {}
    figures.update(jmh_figures(load(os.path.join(out, "jmh.json"))))
    figures.update(jmh_figures(load(os.path.join(out, "jmh-template-flags.json")), "_template_flags"))
    for part in ("ingest", "query", "query-sharded", "coldstart", "freshness", "jvm", "scale", "cost"):
        figures.update(load(os.path.join(out, part + ".json")) or {})
    queue_mode = load(os.path.join(out, "cost-queue.json")) or {}
    figures["cost_per_million_files_provisioned_queue_usd"] = queue_mode.get("cost_per_million_files_provisioned_usd")

    g = figures.get
    headline = {
        "translation_msgs_per_s": g(f"translation_{HEADLINE_SHAPE}_msgs_per_s"),
        "translation_records_per_s": g(f"translation_{RECORDS_SHAPE}_records_per_s"),
        "ingest_files_per_s": g("ingest_files_per_s"),
        "query_1d_ms": g("query_1d_ms_raw"),
        "query_30d_ms": g("query_30d_ms_raw"),
        "query_work_id_ms": g("query_work_id_ms_raw"),
        "init_ms_ingester": g("init_ms_ingester"),
        "init_ms_query": g("init_ms_query"),
        "first_response_ms_ingester": g("first_response_ms_ingester"),
        "first_response_ms_query": g("first_response_ms_query"),
        "first_invocation_primed_ms_ingester": g("first_invocation_primed_ms_ingester"),
        "first_invocation_primed_ms_query": g("first_invocation_primed_ms_query"),
        "jar_mb_ingester": g("jar_mb_ingester"),
        "jar_mb_query": g("jar_mb_query"),
        "peak_rss_mb_ingester": g("peak_rss_mb_ingester"),
        "ingest_cpu_ms_per_file_ours": g("ingest_cpu_ms_per_file_ours"),
        "freshness_p50_ms": g("freshness_steady_p50_ms"),
        "freshness_p99_ms": g("freshness_steady_p99_ms"),
        "freshness_ours_p99_ms": g("freshness_steady_ours_p99_ms"),
        "cost_per_million_files_usd": g("cost_per_million_files_usd"),
        "cost_per_million_files_provisioned_usd": g("cost_per_million_files_provisioned_usd"),
        "cost_per_million_files_provisioned_queue_usd": g("cost_per_million_files_provisioned_queue_usd"),
        "scale_unthrottled_freshness_p99_ms": g("scale_unthrottled_freshness_p99_ms"),
        "scale_unsharded_freshness_p99_ms": g("scale_unsharded_freshness_p99_ms"),
        "scale_sharded_freshness_p99_ms": g("scale_sharded_freshness_p99_ms"),
        "scale_throttled_writes_unsharded": g("scale_unsharded_throttled_writes"),
        "scale_throttled_writes_sharded": g("scale_sharded_throttled_writes"),
    }
    document = dict(headline)
    document["quick"] = quick
    document["java_tool_options"] = tool_options
    document["java_tool_options_ingester"] = ingester_options
    document["cores"] = os.cpu_count()
    document["details"] = figures
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target, "w") as f:
        json.dump(document, f, indent=2, sort_keys=False)
        f.write("\n")

    def fmt(value, unit=""):
        if value is None:
            return "-"
        if isinstance(value, float) and not value.is_integer():
            text = f"{value:,.2f}" if value < 100 else f"{value:,.0f}"
        else:
            text = f"{int(value):,}"
        return text + (" " + unit if unit else "")

    def spread(key, unit=""):
        low, high = g(key + "_min"), g(key + "_max")
        return "" if low is None else f"{fmt(low)}..{fmt(high)} {unit}".rstrip()

    rows = []
    for shape, n in RECORDS_PER_MESSAGE.items():
        key = f"translation_{shape}_msgs_per_s"
        if g(key) is not None:
            rows.append((f"translation {shape} ({n} rec/msg)", fmt(g(key), "msg/s"),
                         fmt(g(f"translation_{shape}_records_per_s"), "rec/s"), spread(key),
                         ">= 100,000 msg/s" if shape == HEADLINE_SHAPE else ""))
    key = f"translation_{HEADLINE_SHAPE}_template_flags_msgs_per_s"
    if g(key) is not None:
        rows.append((f"translation {HEADLINE_SHAPE}, the ingester's flags", fmt(g(key), "msg/s"), "", spread(key), "(reference)"))
    if g("ingest_files_per_s") is not None:
        rows.append((f"ingest {g('ingest_files')} files, {g('ingest_pollers')} pollers"
                     + (f", rounds of {g('ingest_backlog')}" if g("ingest_backlog") is not None else ""), fmt(g("ingest_files_per_s"), "files/s"),
                     fmt(g("ingest_seconds"), "s"), f"push {fmt(g('ingest_push_files_per_s'))} files/s", ""))
        rows.append(("ingest CPU s: JVM / handler / pollers", f"{fmt(g('ingest_cpu_s_jvm'))} / {fmt(g('ingest_cpu_s_handler'))}"
                     f" / {fmt(g('ingest_cpu_s_pollers'))}", f"moto {fmt(g('ingest_cpu_s_moto'))}",
                     f"dynalite {fmt(g('ingest_cpu_s_dynalite'))}", ""))
        rows.append(("ingest: our CPU share", fmt(g("ingest_cpu_share_ours_pct"), "%"),
                     fmt(g("ingest_cpu_ms_per_file_ours"), "ms CPU/file"), "", "< 30%"))
        rows.append(("ingest: our CPU per file, the ingester's JVM flags", fmt(g("ingest_cpu_ms_per_file_ours"), "ms"),
                     f"handler threads {fmt(g('ingest_cpu_ms_per_file_handler'))} ms",
                     f"JIT {fmt(g('ingest_cpu_s_jit'))} s, GC {fmt(g('ingest_cpu_s_gc'))} s",
                     "<= 1.0 ms at 10,000, 1.5 at 3,000"))
    for mode, label in (("raw", "raw"), ("latency5ms", "+5 ms/call")):
        for name, key in (("1-day", "1d"), ("30-day", "30d"), ("work_id", "work_id")):
            if g(f"query_{key}_ms_{mode}") is not None:
                rows.append((f"query {name} ({label})", fmt(g(f"query_{key}_ms_{mode}"), "ms"),
                             "p95 " + fmt(g(f"query_{key}_p95_ms_{mode}"), "ms"), "",
                             "<= 2x 1-day" if key == "30d" else ""))
        if g(f"query_30d_over_1d_{mode}") is not None:
            rows.append((f"query 30-day / 1-day ({label})", fmt(g(f"query_30d_over_1d_{mode}")), "", "", "<= 2"))
        if g(f"query_30d_cpu_emulator_ms_{mode}") is not None:
            rows.append((f"query 30-day CPU: dynalite / ours ({label})",
                         f"{fmt(g(f'query_30d_cpu_emulator_ms_{mode}'))} / {fmt(g(f'query_30d_cpu_ours_ms_{mode}'))} ms",
                         f"floor {fmt(g(f'query_30d_over_1d_floor_emulator_{mode}'))}x emulator alone",
                         f"{fmt(g(f'query_30d_over_1d_floor_{mode}'))}x with ours", ""))
        for by in ("time", "work_id"):
            k = f"query_pagination_{by}_{mode}"
            if g(k + "_total_ms") is not None:
                rows.append((f"full pagination by {by} ({label})", fmt(g(k + "_total_ms"), "ms"),
                             "p95 " + fmt(g(k + "_total_p95_ms"), "ms"),
                             f"page {fmt(g(k + '_page_ms'))} ms, p95 {fmt(g(k + '_page_p95_ms'))} ms", ""))
    for scenario, label in (("day", f"every page of a {fmt(g('query_sharded_day_files'))}-file day"),
                            ("30d", "a page of a 30-day query"),
                            ("hour", f"a 1-hour window of a {fmt(g('query_sharded_hour_day_files'))}-file day"),
                            ("busy", f"every page of a {fmt(g('query_sharded_busy_day_files'))}-file day")):
        for shards in (1, 4, 16):
            k = f"query_sharded_{scenario}_s{shards}_"
            if g(k + "ms_raw") is not None:
                rows.append((f"query sharded S={shards}: {label}", fmt(g(k + "ms_raw"), "ms"),
                             f"+5 ms/call {fmt(g(k + 'ms_latency5ms'), 'ms')}",
                             f"Queries max {fmt(g(k + 'queries_max'))} (mean {fmt(g(k + 'queries_mean'))}),"
                             f" RRU {fmt(g(k + 'rru_mean'))} = {fmt(g(k + 'rru_over_s1'))}x S=1"
                             f" (items read {fmt(g(k + 'items_over_s1'))}x),"
                             f" ms {fmt(g(k + 'ms_over_s1_raw'))}x S=1"
                             f" (through the local API {fmt(g(k + 'ms_local'))} ms, {fmt(g(k + 'ms_over_s1_local'))}x)",
                             "" if shards == 1 else f"<= {fmt(g(k + 'queries_goal'))} Queries, 1.5x RRU, 3x ms"))
    for phase, label in (("steady", f"{fmt(g('freshness_rate_per_s'))} files/s for {fmt(g('freshness_seconds'))} s"),
                         ("burst", f"burst of {fmt(g('freshness_burst_files'))}")):
        if g(f"freshness_{phase}_p50_ms") is not None:
            rows.append((f"freshness, {label}: upload to queryable", fmt(g(f"freshness_{phase}_p50_ms"), "ms"),
                         f"p95 {fmt(g(f'freshness_{phase}_p95_ms'))} p99 {fmt(g(f'freshness_{phase}_p99_ms'))}"
                         f" max {fmt(g(f'freshness_{phase}_max_ms'))} ms",
                         f"queue p99 {fmt(g(f'freshness_{phase}_queue_p99_ms'))} ms,"
                         f" notification p99 {fmt(g(f'freshness_{phase}_notification_p99_ms'))} ms", ""))
            rows.append((f"freshness, {label}: ours (handler to write)", fmt(g(f"freshness_{phase}_ours_p50_ms"), "ms"),
                         f"p99 {fmt(g(f'freshness_{phase}_ours_p99_ms'))} ms",
                         f"our code p99 {fmt(g(f'freshness_{phase}_ours_code_p99_ms'))} ms, HEAD p99"
                         f" {fmt(g(f'freshness_{phase}_head_p99_ms'))}, write p99 {fmt(g(f'freshness_{phase}_write_p99_ms'))}",
                         "p99 < 100 ms" if phase == "steady" else ""))
    for jvm in ("c1", "tiered"):
        if g(f"jvm_{jvm}_cpu_ms_per_file") is not None:
            rows.append((f"ingester JVM {jvm}: CPU per file, warm", fmt(g(f"jvm_{jvm}_cpu_ms_per_file"), "ms"),
                         f"handler {fmt(g(f'jvm_{jvm}_handler_cpu_ms_per_file'))} ms",
                         f"batch {fmt(g(f'jvm_{jvm}_wall_ms_per_batch'))} ms wall, warm-up"
                         f" {fmt(g(f'jvm_{jvm}_warmup_cpu_ms'))} ms CPU", ""))
    if g("cost_per_million_files_usd") is not None:
        rows.append((f"cost per million files ({g('cost_region')})", fmt(g("cost_per_million_files_usd"), "USD"),
                     f"{fmt(g('cost_wru_per_file'))} WRU/file", f"Lambda {fmt(g('cost_lambda_ms_per_batch'))} ms/batch", ""))
        if g("cost_per_million_files_provisioned_usd") is not None:
            rows.append((f"cost per million files, tables PROVISIONED ({fmt(g('cost_provisioned_files_per_day'))} files/day)",
                         fmt(g("cost_per_million_files_provisioned_usd"), "USD"),
                         f"target {fmt(g('cost_provisioned_target_utilization'))}%",
                         f"cheaper above {fmt(g('cost_provisioned_break_even_files_per_day'))} files/day", ""))
        if g("cost_per_million_files_provisioned_queue_usd") is not None:
            rows.append(("  the same with UploadNotifications=Queue (no upload topic)",
                         fmt(g("cost_per_million_files_provisioned_queue_usd"), "USD"), "", "", "<= 2.50 USD"))
        rows.append(("cost per million queries: 1-day / 30-day / work_id / latest",
                     f"{fmt(g('cost_per_million_queries_1day_page_usd'))} / {fmt(g('cost_per_million_queries_30day_page_usd'))}"
                     f" / {fmt(g('cost_per_million_queries_work_id_page_usd'))} / {fmt(g('cost_per_million_queries_latest_usd'))} USD",
                     "", f"storage {fmt(g('cost_storage_per_million_records_month_usd'))} USD per million records-month", ""))
    for run in ("unthrottled", "unsharded", "sharded"):
        k = f"scale_{run}_"
        if g(k + "freshness_p50_ms") is not None:
            rows.append((f"scale / {fmt(g('scale_factor'))}, {run}: enqueue to written", fmt(g(k + "freshness_p50_ms"), "ms"),
                         f"p99 {fmt(g(k + 'freshness_p99_ms'))} ms",
                         f"{fmt(g(k + 'throttled_writes'))} throttled writes, {fmt(g(k + 'handed_back'))} handed back",
                         "p99 <= 2x unthrottled" if run == "sharded" else ""))
    for name in ("ingester", "query"):
        if g(f"init_ms_{name}") is not None:
            rows.append((f"cold start {name}: handler ready", fmt(g(f"init_ms_{name}"), "ms"), "",
                         spread(f"init_ms_{name}", "ms"), "<= 1,000 ms"))
            rows.append((f"cold start {name}: first response", fmt(g(f"first_response_ms_{name}"), "ms"), "",
                         spread(f"first_response_ms_{name}", "ms"), "<= 1,500 ms"))
            if g(f"first_invocation_primed_ms_{name}") is not None:
                rows.append((f"cold start {name}: first invocation, primed", fmt(g(f"first_invocation_primed_ms_{name}"), "ms"),
                             "", f"unprimed {fmt(g(f'first_invocation_ms_{name}'))} ms; priming {fmt(g(f'priming_ms_{name}'))} ms",
                             ""))
            rows.append((f"jar {name}", fmt(g(f"jar_mb_{name}"), "MB"), "", "", "<= 20 MB"))
            rows.append((f"peak RSS {name} (first response)", fmt(g(f"peak_rss_mb_{name}"), "MB"), "", "", ""))

    widths = [max(len(r[i]) for r in rows + [("figure", "median", "", "spread / detail", "target")]) for i in range(5)]
    header = ("figure", "median", "", "spread / detail", "target")
    print()
    print(f"datalake benchmarks{' (--quick)' if quick else ''}: {os.cpu_count()} cores, JAVA_TOOL_OPTIONS: {tool_options}"
          f"{'' if ingester_options == tool_options else ', the ingester: ' + ingester_options}")
    for r in [header] + rows:
        print("  ".join(r[i].ljust(widths[i]) if i != 1 else r[i].rjust(widths[i]) for i in range(5)).rstrip())
    print(f"figures: {target}")


if __name__ == "__main__":
    main()
