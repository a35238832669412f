"""scripts/lib/bench_report.py: the sharded-day figures of part 3 (ShardedPageBenchmark) in the table and in bench.json."""
import json
import pathlib
import subprocess
import sys

SCRIPT = pathlib.Path(__file__).resolve().parents[1] / "lib" / "bench_report.py"


def sharded_figures():
    figures = {"query_sharded_day_files": 4000.0, "query_sharded_hour_day_files": 10000.0,
               "query_sharded_busy_day_files": 40000.0}
    for scenario in ("day", "30d", "hour", "busy"):
        for shards in (1, 4, 16):
            k = f"query_sharded_{scenario}_s{shards}_"
            figures.update({k + "queries_max": float(shards + 1), k + "queries_mean": shards + 0.5,
                            k + "queries_goal": float(shards + 2), k + "rru_mean": 1.25, k + "rru_over_s1": 1.1,
                            k + "items_mean": 130.0, k + "items_over_s1": 1.3,
                            k + "ms_raw": 10.0 * shards, k + "p95_ms_raw": 12.0 * shards, k + "ms_over_s1_raw": 1.5,
                            k + "ms_local": 11.0 * shards, k + "ms_over_s1_local": 2.1,
                            k + "ms_latency5ms": 20.0, k + "p95_ms_latency5ms": 25.0, k + "ms_over_s1_latency5ms": 1.2})
    return figures


def report(tmp_path, parts):
    out = tmp_path / "bench"
    out.mkdir()
    for name, figures in parts.items():
        (out / (name + ".json")).write_text(json.dumps(figures))
    target = tmp_path / "bench.json"
    printed = subprocess.run([sys.executable, str(SCRIPT), str(out), str(target), "true", "-XX:+UseSerialGC"],
                             check=True, capture_output=True, text=True).stdout
    return printed, json.loads(target.read_text())


def test_each_shard_count_of_each_query_has_a_row_with_its_queries_read_units_and_goal(tmp_path):
    printed, document = report(tmp_path, {"query-sharded": sharded_figures()})

    rows = [line for line in printed.splitlines() if line.startswith("query sharded")]
    assert len(rows) == 12
    day_s4 = next(r for r in rows if r.startswith("query sharded S=4: every page of a 4,000-file day"))
    assert "40 ms" in day_s4 and "Queries max 5 (mean 4.50)" in day_s4 and "(items read 1.30x)" in day_s4
    assert "<= 6 Queries, 1.5x RRU, 3x ms" in day_s4
    assert "(through the local API 44 ms, 2.10x)" in day_s4
    assert any(r.startswith("query sharded S=16: every page of a 40,000-file day") for r in rows)
    assert any(r.startswith("query sharded S=16: a 1-hour window of a 10,000-file day") for r in rows)
    assert document["details"]["query_sharded_30d_s16_rru_over_s1"] == 1.1


def test_without_the_sharded_part_there_is_no_sharded_row(tmp_path):
    printed, document = report(tmp_path, {"query": {"query_1d_ms_raw": 3.5}})

    assert "query sharded" not in printed
    assert "query 1-day (raw)" in printed
    assert not any(key.startswith("query_sharded") for key in document["details"])
