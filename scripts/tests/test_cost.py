"""scripts/cost.py's model of the tables' billing modes (docs/COSTS.md, "Billing modes") and of a page's reads."""
import importlib.util
import json
import math
import pathlib
import subprocess
import sys

SCRIPT = pathlib.Path(__file__).resolve().parents[1] / "cost.py"
spec = importlib.util.spec_from_file_location("cost", SCRIPT)
cost = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cost)

PRICES = cost.PRICES["us-east-1"]


def assumptions(**changes):
    a = {name: value for name, (value, _) in cost.ASSUMPTIONS.items()}
    a.update(changes)
    return a


def test_on_demand_throughput_is_four_write_units_and_one_read_unit_a_file():
    assert math.isclose(cost.on_demand_per_file(assumptions(), PRICES) * 1e6, 4 * 0.625 + 0.125)


def test_steady_provisioned_capacity_is_the_load_over_the_target_rounded_up():
    a = assumptions(target_utilization=70)
    units, dollars = cost.provisioned_day(a, PRICES, 10e6, [1.0] * 24)
    per_second = 10e6 / 86400
    assert units[("records table", "write")] == [math.ceil(2 * per_second / 0.7)] * 24  # record and per-object item
    assert units[("work-id-index", "write")] == [math.ceil(per_second / 0.7)] * 24
    assert units[("work-id-index", "read")] == [5] * 24  # the minimum: the ingester never reads the GSI
    wcu = sum(units[(t, "write")][0] for t in cost.TABLES)
    rcu = sum(units[(t, "read")][0] for t in cost.TABLES)
    assert math.isclose(dollars, 24 * (wcu * 0.00065 + rcu * 0.00013))


def test_a_busy_day_has_the_peak_factor_and_costs_more_than_a_steady_one():
    profile, k = cost.day_profile(2.5)
    assert k > 0
    assert math.isclose(sum(profile) / 24, 1.0)
    assert math.isclose(max(profile), 2.5, rel_tol=1e-6)
    a = assumptions()
    assert cost.provisioned_day(a, PRICES, 10e6, profile)[1] > cost.provisioned_day(a, PRICES, 10e6, [1.0] * 24)[1]


def test_provisioned_costs_less_just_above_the_break_even_and_more_below_it():
    a = assumptions()
    steady = [1.0] * 24
    rate = cost.break_even(a, PRICES, steady)
    for files_per_day, cheaper in ((rate * 1.01, True), (rate * 0.99, False)):
        provisioned = cost.provisioned_day(a, PRICES, files_per_day, steady)[1]
        assert (provisioned < files_per_day * cost.on_demand_per_file(a, PRICES)) == cheaper, files_per_day
    # below it the minimum capacities are what is paid: 5 units on each table and the GSI, read and write
    floor = 24 * 3 * 5 * (0.00065 + 0.00013)
    assert math.isclose(cost.provisioned_day(a, PRICES, rate * 0.5, steady)[1], floor)


def test_the_json_carries_both_modes_a_million_files(tmp_path):
    out = tmp_path / "cost.json"
    subprocess.run([sys.executable, str(SCRIPT), "--json", str(out)], check=True, capture_output=True)
    figures = json.loads(out.read_text())
    on_demand, provisioned = figures["cost_per_million_files_usd"], figures["cost_per_million_files_provisioned_usd"]
    a = assumptions()
    units, _ = cost.provisioned_day(a, PRICES, a["files_per_day"], [1.0] * 24)
    throughput = sum(u[0] * PRICES["ddb_wcu_hour" if kind == "write" else "ddb_rcu_hour"]
                     for (_, kind), u in units.items()) * 24e6 / a["files_per_day"]
    # the same million files, DynamoDB's request units replaced by capacity-hours
    assert math.isclose(provisioned, on_demand - cost.on_demand_per_file(a, PRICES) * 1e6 + throughput, abs_tol=1e-3)
    assert figures["cost_provisioned_break_even_files_per_day"] < figures["cost_provisioned_files_per_day"]


def test_queue_mode_drops_the_upload_topic_and_nothing_else(tmp_path):
    # UploadNotifications=Queue: S3 sends to the queue itself, so no SNS publish a file; SQS sends stay
    def run(*settings):
        out = tmp_path / ("cost" + "".join(settings) + ".json")
        printed = subprocess.run([sys.executable, str(SCRIPT), "--json", str(out), *settings], check=True,
                                 capture_output=True, text=True).stdout
        return json.loads(out.read_text()), printed

    topic, topic_printed = run()
    queue, queue_printed = run("--set", "upload_topic=0")
    assert "SNS upload notifications" in topic_printed
    assert "SNS upload notifications" not in queue_printed
    sns_publish = 1e6 * PRICES["sns_request"]
    for mode in ("cost_per_million_files_usd", "cost_per_million_files_provisioned_usd"):
        assert math.isclose(queue[mode], topic[mode] - sns_publish, abs_tol=1e-3), mode
    sqs_rows = [line for line in queue_printed.splitlines() if line.strip().startswith("SQS requests")]
    assert sqs_rows and all("1,200,000.00" in line for line in sqs_rows), sqs_rows
    # the upload topic's key requests go with it; the key stays for the report and alarm topics
    assert queue["cost_fixed_per_month_usd"] < topic["cost_fixed_per_month_usd"]


def test_a_page_spread_over_30_days_costs_a_query_a_day_each_rounded_up_to_4_kb():
    # 100 records of 0.5 KB: a 1-day page is one Query of 50 KB; spread over 30 days, 1.7 KB a day
    page_kb, one_day, thirty_days = cost.page_read_units(assumptions(record_item_kb=0.5, record_items_per_page=100))
    assert (page_kb, one_day) == (50, 6.5)
    assert thirty_days == 30 * 0.5
    # records of 4 KB: 13.3 KB a day, 4 blocks of 4 KB each
    _, one_day, thirty_days = cost.page_read_units(assumptions(record_item_kb=4, record_items_per_page=100))
    assert (one_day, thirty_days) == (50, 30 * 4 * 0.5)


def test_a_time_index_reads_the_files_started_before_a_windows_end_and_pays_above_its_break_even():
    # ShardedPageBenchmark's 1-hour window (09:00-10:00) of a 10,000-file day of 307-byte records
    # read 397.5 RRU over its pages: the whole day, as the model says (its 4 KB rounding left out)
    a = assumptions(record_item_kb=0.307, window_day_files=10_000, window_hours=1, window_end_hour=10,
                    duration_bound_hours=1)
    f = cost.time_index(a, PRICES)
    assert math.isclose(f["rru_today"], 397.5, rel_tol=0.05)
    assert math.isclose(f["rru_indexed"], f["rru_today"] * 10 / 24)  # started 00:00-10:00
    assert math.isclose(f["rru_bounded"], f["rru_today"] * 2 / 24)  # started 08:00-10:00
    # a GSI of ALL writes a copy of each record; an existing table rewrites each record: the table,
    # work-id-index's copy, the new index
    assert (f["wru_per_file"], f["migration_wru_per_record"]) == (1, 3)
    assert math.isclose(f["per_million_files"], 0.625)
    # at the break-even, the windows' saved read units pay exactly for a million files' index writes
    saved = f["break_even_windows"] * (f["rru_today"] - f["rru_indexed"]) * PRICES["ddb_rru"]
    assert math.isclose(saved, f["per_million_files"])
    assert f["break_even_windows_bounded"] < f["break_even_windows"]


def test_the_json_carries_the_time_index_figures(tmp_path):
    out = tmp_path / "cost.json"
    subprocess.run([sys.executable, str(SCRIPT), "--json", str(out)], check=True, capture_output=True)
    figures = json.loads(out.read_text())
    assert figures["cost_time_index_per_million_files_usd"] == 0.625
    assert figures["cost_time_index_break_even_windows_per_million_files"] == 13_714
