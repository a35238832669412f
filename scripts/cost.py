#!/usr/bin/env python3
"""What this datalake costs in AWS, from the measured figures and published prices (docs/COSTS.md).

Prints every price and assumption beside the dollars it makes:
  - per million files ingested (Lambda requests and GB-seconds, S3 HEADs, DynamoDB write units, SNS and
    SQS requests, CloudWatch Logs);
  - per million queries of each kind (API Gateway, Lambda, DynamoDB read units);
  - storage per million records per month;
  - what does not grow with traffic (the KMS key and its requests);
  - an index ordered by start within a day, priced for narrow time windows (not built);
  - the tables' two billing modes (template parameter TableBillingMode): on demand, and provisioned with
    auto scaling at a target utilisation, at 1, 10 and 100 million files a day, steady or with a busiest
    hour; where provisioned starts to cost less; and a million files at files_per_day, provisioned.

The Lambda duration of an ingest batch comes from the ingester JVM benchmark (target/bench.json's
jvm_* figures: the handler's wall time per batch of 10 with 5 ms per AWS call, and its CPU per file, on
one CPU), scaled to the CPU share of the template's memory size; a figure missing from the run is
replaced by the default below, and the output says so.

usage: scripts/cost.py [--region us-east-1] [--bench target/bench.json or target/bench/] [--jvm tiered|c1] [--json FILE]
                       [--set name=value ...]    (any assumption or price below, by name)
"""
import argparse
import json
import math
import os
import sys

# Published prices, on-demand, no free tier counted (it is per account, not per workload).
# Sources (each checked for us-east-1; us-west-2 has the same prices for these services):
SOURCES = {
    "lambda": "https://aws.amazon.com/lambda/pricing/ (Arm: $0.0000133334 per GB-s, first 7.5 billion GB-s a month; $0.20 per million requests)",
    "dynamodb": "https://aws.amazon.com/dynamodb/pricing/on-demand/ (after the November 2024 reduction: $0.625 per million WRU, $0.125 per million RRU; storage $0.25 per GB-month; PITR $0.20 per GB-month)",
    "dynamodb_provisioned": "https://aws.amazon.com/dynamodb/pricing/provisioned/ ($0.00065 per WCU-hour, $0.00013 per RCU-hour in us-east-1, unchanged by the November 2024 reduction of on-demand prices; storage as on demand) -- this environment read these two figures from pages quoting that page, not from the page itself: check them there",
    "dynamodb_scaling": "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/AutoScaling.html (target tracking keeps consumed / provisioned near the target, 20 to 90 percent; it scales in after 15 minutes below the target) and https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html (a table's capacity can decrease up to 27 times a day: 4 at any time, then one an hour)",
    "dynamodb_units": "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html (1 WRU per 1 KB written, a failed conditional write still consumes it; 1 RRU per 4 KB strongly consistent, half for eventually consistent; every GSI write costs its own WRU)",
    "s3": "https://aws.amazon.com/s3/pricing/ (S3 Standard: GET, HEAD and other reads $0.0004 per 1,000 requests)",
    "sns": "https://aws.amazon.com/sns/pricing/ ($0.50 per million publishes, each 64 KB chunk one request; deliveries to SQS free); https://docs.aws.amazon.com/sns/latest/dg/sns-batch-api-actions.html (a PublishBatch of up to 10 is one request)",
    "sqs": "https://aws.amazon.com/sqs/pricing/ (standard queue: $0.40 per million requests, each 64 KB chunk one request)",
    "kms": "https://aws.amazon.com/kms/pricing/ ($1 per key-month, $0.03 per 10,000 requests); https://docs.aws.amazon.com/sns/latest/dg/sns-key-management.html (SNS reuses a data key for 5 minutes: R = seconds / 300 x 2 x publishers, per topic)",
    "apigw": "https://aws.amazon.com/api-gateway/pricing/ (HTTP APIs: $1.00 per million requests, first 300 million a month)",
    "logs": "https://aws.amazon.com/cloudwatch/pricing/ (Logs, Standard class: $0.50 per GB ingested)",
    "lambda_cpu": "https://docs.aws.amazon.com/lambda/latest/dg/configuration-memory.html (CPU in proportion to memory; 1,769 MB is one vCPU)",
    "s3_metadata": "https://aws.amazon.com/s3/pricing/ (Management & Insights: S3 Metadata journal updates, inventory backfill; S3 Tables storage) -- these three figures could not be re-read from this environment: check them there",
    "athena": "https://aws.amazon.com/athena/pricing/ (SQL queries: $5 per TB scanned, at least 10 MB a query)",
    "ec2": "https://aws.amazon.com/ec2/pricing/on-demand/ (t4g, Linux, us-east-1); https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/burstable-credits-baseline-concepts.html (baseline per vCPU: nano 5%, micro 10%, small and medium 20%, large 30%, xlarge 40%)",
}

# Amazon S3 Metadata for the same workload (docs/COSTS.md): the journal table takes every upload.
S3_METADATA = {
    "journal_update": 0.30e-6,   # per update (one per upload)
    "tables_gb_month": 0.0265,   # S3 Tables storage
    "journal_row_kb": 0.5,       # a journal row, Parquet-compressed (assumption)
    "athena_tb": 5.0,            # per TB scanned
    "athena_min_mb": 10,         # the least a query is billed for
}

# The Python datalake's ingester: 13.2 ms of CPU per file on the machine of docs/PERFORMANCE.md
# (issue 15), one process, on the smallest t4g instance whose baseline holds the day's average and
# whose vCPUs hold the busiest hour (burst credits cover the difference).
PYTHON_CPU_MS_PER_FILE = 13.2
EC2_T4G = [  # name, vCPUs, baseline per vCPU, USD per hour (us-east-1)
    ("t4g.nano", 2, 0.05, 0.0042), ("t4g.micro", 2, 0.10, 0.0084), ("t4g.small", 2, 0.20, 0.0168),
    ("t4g.medium", 2, 0.20, 0.0336), ("t4g.large", 2, 0.30, 0.0672), ("t4g.xlarge", 4, 0.40, 0.1344),
    ("t4g.2xlarge", 8, 0.40, 0.2688),
]

PRICES = {
    "us-east-1": {
        "lambda_gb_s": 0.0000133334, "lambda_request": 0.20e-6,
        "ddb_wru": 0.625e-6, "ddb_rru": 0.125e-6, "ddb_gb_month": 0.25, "ddb_pitr_gb_month": 0.20,
        "ddb_wcu_hour": 0.00065, "ddb_rcu_hour": 0.00013,
        "s3_head": 0.0004e-3, "sns_request": 0.50e-6, "sqs_request": 0.40e-6,
        "kms_key_month": 1.00, "kms_request": 0.03e-4, "apigw_request": 1.00e-6, "logs_gb": 0.50,
    },
}
PRICES["us-west-2"] = dict(PRICES["us-east-1"])

# Assumptions: the template's settings and what one file and one query do (docs/DESIGN.md, "Ingest").
ASSUMPTIONS = {
    "memory_mb": (1024, "template.yaml Globals MemorySize, both functions"),
    "files_per_batch": (10, "IngestBatchSize (a full batch; the 1 s batching window fills it above 10 files/s)"),
    "call_ms": (5, "an in-region AWS call's round trip, added to every call in the benchmark"),
    "records_per_file": (1.0, "day buckets a file spans on average (1 for files inside one UTC day)"),
    "record_item_kb": (0.5, "a record item: 307 B (the benchmark's files) to 526 B (long names), by DynamoDB's size rules on RecordItems.toItem: under 1 KB, so 1 WRU"),
    "gsi_writes_per_record": (1, "work-id-index projects ALL: each record write is one more GSI write"),
    "latest_offers_per_file": (1.0, "latest-table PutItems per file: one per what:where per batch; 1.0 when every file of a batch is a feed of its own (at most), 0.1 for one feed"),
    "check_reads_per_file": (1, "the read-back of each commit: one consistent BatchGetItem a batch, 1 RRU per per-object item (under 4 KB)"),
    "latest_reads_per_file": (0.0, "consistent reads of latest entries instead of offers a sandbox expects to lose (files out of order): lower latest_offers_per_file by as much"),
    "per_object_items_per_file": (1, "the per-object item of issue 13 (URL, id, record keys), one conditional write per file"),
    "per_object_item_kb": (0.25, "the per-object item's size"),
    "report_bytes": (600, "one status report (JSON) per message, 10 per PublishBatch"),
    "log_bytes_per_file": (0, "a message's own log line (400 B) is written only when it fails"),
    "log_bytes_per_batch": (1900, "the batch's line (400 B), its metrics (EMF) and Lambda's START/END/REPORT lines"),
    "query_log_bytes": (600, "the query's request line and Lambda's START/END/REPORT lines"),
    "upload_topic": (1, "UploadNotifications: 1 Topic (S3 -> SNS -> SQS), 0 Queue (S3 -> SQS, no upload topic)"),
    "upload_topic_publishers": (1, "S3 is the one publisher of the upload topic"),
    "report_topic_publishers": (1, "the ingester's role publishes the reports"),
    # Measured elsewhere, defaults for a run without them (docs/PERFORMANCE.md):
    "batch_wall_ms": (36.1, "the handler's wall time per batch of 10, warm, 5 ms per call, full tiered, per-object commits and read-back included (IngesterJvmBenchmark, part 7's settings, after a3d1339: a batch's objects followed at once)"),
    "batch_cpu_ms": (10.1, "the ingester process's CPU per batch of 10 after 30,000 files, full tiered (IngesterJvmBenchmark)"),
    "query_1d_ms": (6.95, "1-day query, median, 5 ms per DynamoDB call (QueryBenchmark)"),
    "query_30d_ms": (13.78, "30-day query, median, 5 ms per call"),
    "query_work_id_ms": (8.93, "work_id query, median, 5 ms per call"),
    "query_latest_ms": (7.0, "latest: one GetItem on the latest table (about a 1-day query)"),
    "record_items_per_page": (100, "records a full page returns"),
    "peak_factor": (2.5, "the busiest hour's upload rate over the day's average (scripts/scale_sim.py)"),
    # TableBillingMode PROVISIONED (template.yaml's defaults):
    "target_utilization": (70, "TableTargetUtilization: the percentage of provisioned capacity auto scaling keeps consumed"),
    "min_write_capacity": (5, "TableMinWriteCapacity, on each table and the GSI"),
    "min_read_capacity": (5, "TableMinReadCapacity, on each table and the GSI"),
    "files_per_day": (10e6, "the steady rate the provisioned mode's million files are priced at"),
    # A narrow window and an index ordered by start within a day (docs/COSTS.md, "Narrow windows"):
    "window_day_files": (10_000, "files of the day a narrow window reads (ShardedPageBenchmark's hour scenario)"),
    "window_hours": (1, "the window's length"),
    "window_end_hour": (10, "when the window ends, in hours after midnight UTC (the benchmark's 09:00-10:00)"),
    "duration_bound_hours": (1, "the longest file of a WHAT, if the index knew it"),
}


def load_figures(path):
    """The figures of a bench run: target/bench.json's details, or the parts in target/bench/."""
    if os.path.isdir(path):
        figures = {}
        for name in sorted(os.listdir(path)):
            if name.endswith(".json") and name != "cost.json" and not name.startswith("jmh"):
                with open(os.path.join(path, name)) as f:
                    figures.update(json.load(f))
        return figures
    with open(path) as f:
        return json.load(f).get("details", {})

# TableBillingMode PROVISIONED: each table and the GSI has a read and a write scalable target; target
# tracking keeps consumed / provisioned near the target utilisation (docs/COSTS.md, "Billing modes").
TABLES = ("records table", "work-id-index", "latest table")


def write_units(item_kb):
    """The write units of writing one item of {item_kb}: one per KB, rounded up."""
    return math.ceil(item_kb)


def capacity_per_file(a):
    """The capacity units one file consumes on each table and the GSI: {(table, "write"|"read"): units}."""
    wru_record = write_units(a["record_item_kb"])
    return {
        ("records table", "write"): a["records_per_file"] * wru_record
        + a["per_object_items_per_file"] * write_units(a["per_object_item_kb"]),
        ("work-id-index", "write"): a["records_per_file"] * a["gsi_writes_per_record"],
        ("latest table", "write"): a["latest_offers_per_file"] * wru_record,
        ("records table", "read"): a["check_reads_per_file"],
        ("work-id-index", "read"): 0.0,  # queries only: the minimum
        ("latest table", "read"): a["latest_reads_per_file"],
    }


def day_profile(peak_factor):
    """
    The upload rate of each hour of a day over the day's average: 1 every hour when peak_factor is 1 (steady),
    else (1 + cos) ** k peaking at noon, k such that the busiest hour is peak_factor times the average.
    Returns (the 24 rates, k).
    """
    def hourly(k):
        samples = 60
        rates = [sum((1 + math.cos(2 * math.pi * (h + (i + 0.5) / samples) / 24 - math.pi)) ** k
                     for i in range(samples)) / samples for h in range(24)]
        mean = sum(rates) / 24
        return [r / mean for r in rates]

    if peak_factor <= 1:
        return [1.0] * 24, 0.0
    low, high = 0.0, 50.0
    for _ in range(60):
        k = (low + high) / 2
        if max(hourly(k)) < peak_factor:
            low = k
        else:
            high = k
    return hourly(low), low


def provisioned_day(a, prices, files_per_day, profile):
    """
    A day of provisioned capacity under the profile: for each table and the GSI, read and write, the units
    of each hour (what the higher of that hour's load and the hour before's needs at the target: auto
    scaling scales in only after 15 minutes below it, and a table decreases about once an hour), at least
    the minimum. Returns ({(table, kind): [units per hour]}, dollars).
    """
    target = a["target_utilization"] / 100
    units = {}
    dollars = 0.0
    for (table, kind), per_file in capacity_per_file(a).items():
        minimum = a["min_write_capacity"] if kind == "write" else a["min_read_capacity"]
        hours = []
        for h in range(24):
            load = per_file * files_per_day / 86400 * max(profile[h], profile[h - 1])
            hours.append(max(minimum, math.ceil(load / target - 1e-9)))
        units[(table, kind)] = hours
        dollars += sum(hours) * prices["ddb_wcu_hour" if kind == "write" else "ddb_rcu_hour"]
    return units, dollars


def on_demand_per_file(a, prices):
    """DynamoDB throughput of one file on demand, in dollars."""
    per_file = capacity_per_file(a)
    writes = sum(v for (_, kind), v in per_file.items() if kind == "write")
    reads = sum(v for (_, kind), v in per_file.items() if kind == "read")
    return writes * prices["ddb_wru"] + reads * prices["ddb_rru"]


def break_even(a, prices, profile):
    """The least files a day above which provisioned throughput costs less than on demand (bisection on the rate)."""
    def cheaper(files_per_day):
        return provisioned_day(a, prices, files_per_day, profile)[1] < files_per_day * on_demand_per_file(a, prices)

    low, high = 1.0, 1e10
    if cheaper(low):
        return low
    for _ in range(100):
        middle = math.sqrt(low * high)
        if cheaper(middle):
            high = middle
        else:
            low = middle
    return high


def million_items_gb(item_kb, extra_bytes=0):
    """The storage of a million items of {item_kb} (and {extra_bytes} more), in GB: DynamoDB adds 100 bytes an item."""
    return 1e6 * (item_kb * 1024 + extra_bytes + 100) / 1e9


def page_read_units(a):
    """A full page's size in KB, and the read units of a 1-day page and of a page spread over 30 days.

    A page spread over 30 days holds a thirtieth of its records a day: lambda-query's TimeQueryPager
    reads the first day alone, then the others in waves sized by the density seen, so each day costs one
    Query, rounded up to 4 KB on its own (at least 0.5 RRU, eventually consistent). A 30-day page that
    fills from a busy first day costs a 1-day page.
    """
    page_kb = a["record_items_per_page"] * a["record_item_kb"]
    rru_page = math.ceil(page_kb / 4) * 0.5
    day_kb = page_kb / 30
    rru_30d = 30 * max(1, math.ceil(day_kb / 4)) * 0.5
    return page_kb, rru_page, rru_30d


def time_index(a, prices):
    """An index ordered by start within a day, priced for a narrow window's reads; not built.

    Today the pages of a narrow window read the day in range-key order until they have its files: the
    whole day, once (1-hour window of ShardedPageBenchmark's day: 397.5 RRU for 10,000 items of 307 B).
    A GSI on time_index_key (so sharded as the table is) and the start would read only the files that
    started before the window's end: any of them may last into it, since nothing bounds a file's
    length; with a bound, those started within it of the window. The start lies inside `metadata`,
    and a GSI key must be a top-level attribute: every record gets one more, and an existing table
    rewrites each record (a Scan and an UpdateItem: the table, work-id-index's copy, the new index).

    Returns {name: value}: read units of the window's pages today, with the index, with it and a bound;
    write units and dollars per million files; storage per million records a month; migration write
    units and dollars per million records; and the windows per million files that pay for the writes.
    """
    item_kb = a["record_item_kb"]
    wru_record = write_units(item_kb)

    def rru(files):  # eventually consistent, each Query up to 1 MB: the 4 KB rounding is negligible
        return files * item_kb / 4 * 0.5

    day = a["window_day_files"]
    today = rru(day)
    indexed = rru(day * min(24, a["window_end_hour"]) / 24)
    bounded = rru(day * min(24, a["window_hours"] + a["duration_bound_hours"]) / 24)
    index_units = a["records_per_file"] * wru_record  # projection ALL, like work-id-index
    write_dollars = 1e6 * index_units * prices["ddb_wru"]
    attribute_bytes = 20  # "start_key" and a number
    # the index's copy of each record, with the attribute, and the attribute on the table's record
    storage_gb = million_items_gb(item_kb, attribute_bytes) + 1e6 * attribute_bytes / 1e9
    migration_units = 3 * wru_record
    migration_dollars = 1e6 * (migration_units * prices["ddb_wru"] + rru(1) * prices["ddb_rru"])
    return {
        "rru_today": today, "rru_indexed": indexed, "rru_bounded": bounded,
        "wru_per_file": index_units, "per_million_files": write_dollars,
        "storage_per_million_records_month": storage_gb * prices["ddb_gb_month"],
        "migration_wru_per_record": migration_units, "migration_per_million_records": migration_dollars,
        "break_even_windows": write_dollars / ((today - indexed) * prices["ddb_rru"]),
        "break_even_windows_bounded": write_dollars / ((today - bounded) * prices["ddb_rru"]),
    }


def print_time_index(a, figures):
    f = figures
    print(f"\nan index ordered by start within a day, for narrow windows (not built) [dynamodb, dynamodb_units]")
    print(f"  the pages of a {a['window_hours']:g}-hour window ending at {a['window_end_hour']:g}:00 of a"
          f" {a['window_day_files']:,.0f}-file day: today {f['rru_today']:,.1f} RRU (the day in range-key order);"
          f" indexed {f['rru_indexed']:,.1f} (the files started since midnight: any may last into the window);"
          f" {f['rru_bounded']:,.1f} with files known to last at most {a['duration_bound_hours']:g} h")
    print(f"  writes: +{f['wru_per_file']:g} WRU a file (a GSI of ALL) = ${f['per_million_files']:.4f} per million files;"
          f" storage +${f['storage_per_million_records_month']:.4f} a month per million records")
    print(f"  an existing table: Scan and UpdateItem every record ({f['migration_wru_per_record']:g} WRU: the table,"
          f" work-id-index's copy, the new index) = ${f['migration_per_million_records']:.4f} per million records")
    print(f"  its writes pay for themselves above {f['break_even_windows']:,.0f} such windows per million files ingested"
          f" ({f['break_even_windows_bounded']:,.0f} with the bound)")


def billing_modes(a, prices):
    """Prints both modes at 1, 10 and 100 million files a day, steady and with a busiest hour; returns the break-evens."""
    steady = day_profile(1)[0]
    busy, k = day_profile(a["peak_factor"])
    on_demand = on_demand_per_file(a, prices) * 1e6
    print(f"\nDynamoDB throughput per million files by billing mode (TableBillingMode) [dynamodb, dynamodb_provisioned, dynamodb_scaling]")
    per_file = capacity_per_file(a)
    print(f"  PAY_PER_REQUEST: {sum(v for (_, kd), v in per_file.items() if kd == 'write'):g} WRU x ${prices['ddb_wru']:.4g}"
          f" + {sum(v for (_, kd), v in per_file.items() if kd == 'read'):g} RRU x ${prices['ddb_rru']:.4g} = ${on_demand:.4f}"
          " per million files at any rate")
    print(f"  PROVISIONED: WCU-hour ${prices['ddb_wcu_hour']:g}, RCU-hour ${prices['ddb_rcu_hour']:g}; target utilisation"
          f" {a['target_utilization']:g}%, at least {a['min_write_capacity']:g} WCU and {a['min_read_capacity']:g} RCU on each of"
          f" {', '.join(TABLES)}; a day steady, or (1 + cos)^{k:.2f} with its busiest hour {a['peak_factor']:g}x the average,"
          " each hour provisioned for the higher of its load and the hour before's")
    print(f"  {'files/day':>13} {'files/s':>8}  {'steady: WCU (records/GSI/latest)':>33} {'RCU':>11} {'$/day':>8} {'per million':>11}"
          f"  {'busiest hour ' + format(a['peak_factor'], 'g') + 'x: WCU at noon':>30} {'$/day':>8} {'per million':>11}")
    for files_per_day in (1e6, 10e6, 100e6):
        line = f"  {files_per_day:>13,.0f} {files_per_day / 86400:>8,.1f}"
        for profile, noon in ((steady, 0), (busy, 12)):
            units, dollars = provisioned_day(a, prices, files_per_day, profile)
            wcu = "/".join(str(units[(t, "write")][noon]) for t in TABLES)
            rcu = "/".join(str(units[(t, "read")][noon]) for t in TABLES)
            line += (f"  {wcu:>33} {rcu:>11}" if noon == 0 else f"  {wcu:>30}") \
                + f" {dollars:>8.2f} ${dollars / files_per_day * 1e6:>10.4f}"
        print(line + f"  (on demand ${on_demand * files_per_day / 1e6:,.2f}/day)")
    steady_even = break_even(a, prices, steady)
    busy_even = break_even(a, prices, busy)
    print(f"  provisioned costs less above {steady_even:,.0f} files/day steady ({steady_even / 86400:.2f}/s),"
          f" {busy_even:,.0f} with the busiest hour {a['peak_factor']:g}x; below, the minimum capacities cost more than"
          " the requests on demand")
    return steady_even, busy_even


def comparisons(per_million_files, query_totals, a):
    """The same workload on Amazon S3 Metadata and on the Python datalake (docs/COSTS.md)."""
    m = S3_METADATA
    journal = 1e6 * m["journal_update"]
    journal_storage = 1e6 * m["journal_row_kb"] / 1e6 * m["tables_gb_month"]
    athena_query = max(m["athena_min_mb"] / 1e6, 0) * m["athena_tb"]
    print("\nthe same workload on Amazon S3 Metadata [s3_metadata, athena]")
    print(f"  per million files: journal updates 1,000,000 x ${m['journal_update']:.2e} = ${journal:.4f};"
          f" journal storage {1e6 * m['journal_row_kb'] / 1e6:.2f} GB-month x ${m['tables_gb_month']} = ${journal_storage:.4f} a month")
    print(f"  per million SQL queries (Athena, each at least {m['athena_min_mb']} MB): at least ${1e6 * athena_query:,.2f}"
          f" (this datalake: ${query_totals['1-day page']:.2f} for a million 1-day pages)")
    print(f"  this datalake per million files: ${per_million_files:.4f}")
    print("\nthe Python datalake's ingester on the smallest instance that holds the workload [ec2]"
          f" ({PYTHON_CPU_MS_PER_FILE} ms CPU per file, busiest hour {a['peak_factor']:g}x the average)")
    for per_day in (1e6, 10e6, 100e6):
        average = per_day / 86400 * PYTHON_CPU_MS_PER_FILE / 1000  # vCPUs on average
        peak = average * a["peak_factor"]
        fits = [e for e in EC2_T4G if e[1] * e[2] >= average and e[1] >= peak]
        if not fits:
            cores = math.ceil(peak)
            print(f"  {per_day:>13,.0f} files/day: {average:.2f} vCPU on average, {peak:.2f} at the peak:"
                  f" more than one t4g holds; {cores} vCPUs of instances, one ingester process each")
            continue
        name, vcpus, baseline, hourly = fits[0]
        monthly = hourly * 730
        per_million = monthly / (per_day * 30 / 1e6)
        print(f"  {per_day:>13,.0f} files/day: {average:.2f} vCPU on average, {peak:.2f} at the peak -> {name}"
              f" ({vcpus} vCPU, baseline {vcpus * baseline:.2f}) ${hourly}/h = ${monthly:.2f} a month ="
              f" ${per_million:.4f} per million files for the instance alone, the same DynamoDB, SQS and S3"
              f" requests as here on top, and paid when idle")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--region", default="us-east-1", choices=sorted(PRICES))
    parser.add_argument("--bench", default=None, help="target/bench.json of a scripts/bench.sh run")
    parser.add_argument("--jvm", default="tiered",
                        help="which JVM setting's ingester figures to use: tiered (the template's, docs/DESIGN.md) or c1")
    parser.add_argument("--json", default=None, help="write the figures here as JSON")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args()

    prices = dict(PRICES[args.region])
    a = {k: v for k, (v, _) in ASSUMPTIONS.items()}
    notes = {k: why for k, (_, why) in ASSUMPTIONS.items()}
    measured = {}
    if args.bench and os.path.exists(args.bench):
        details = load_figures(args.bench)
        pairs = {
            "batch_wall_ms": f"jvm_{args.jvm}_wall_ms_per_batch",
            "query_1d_ms": "query_1d_ms_latency5ms",
            "query_30d_ms": "query_30d_ms_latency5ms",
            "query_work_id_ms": "query_work_id_ms_latency5ms",
        }
        for name, key in pairs.items():
            if details.get(key) is not None:
                a[name] = details[key]
                measured[name] = key
        if details.get(f"jvm_{args.jvm}_cpu_ms_per_file") is not None:
            a["batch_cpu_ms"] = details[f"jvm_{args.jvm}_cpu_ms_per_file"] * a["files_per_batch"]
            measured["batch_cpu_ms"] = f"jvm_{args.jvm}_cpu_ms_per_file x files_per_batch"
    for item in args.set:
        name, _, value = item.partition("=")
        if name in prices:
            prices[name] = float(value)
        elif name in a:
            a[name] = float(value)
            measured[name] = "--set"
        else:
            sys.exit(f"cost.py: --set {name}: no such price or assumption")

    vcpu = a["memory_mb"] / 1769.0
    gb = a["memory_mb"] / 1024.0
    # The benchmark runs on one whole CPU; Lambda gives this memory size vcpu of one, so the CPU part
    # of a batch stretches by 1/vcpu while the waits for AWS stay as they are.
    batch_ms = a["batch_wall_ms"] + a["batch_cpu_ms"] * (1 / vcpu - 1)
    batches = 1e6 / a["files_per_batch"]
    wru_record = write_units(a["record_item_kb"])
    wru_per_file = sum(units for (_, kind), units in capacity_per_file(a).items() if kind == "write")
    report_requests = batches * math.ceil(a["files_per_batch"] * a["report_bytes"] / 65536)
    ingest = [
        ("Lambda requests", batches, "invocations", prices["lambda_request"], "lambda",
         f"1 per batch of {a['files_per_batch']:g} files"),
        ("Lambda duration", batches * batch_ms / 1000 * gb, "GB-s", prices["lambda_gb_s"], "lambda",
         f"{batch_ms:.1f} ms per batch at {a['memory_mb']:g} MB = {a['batch_wall_ms']:.1f} ms measured wall"
         f" + {a['batch_cpu_ms']:.1f} ms CPU x (1/{vcpu:.3f} - 1) for {vcpu:.2f} vCPU"),
        ("S3 HeadObject", 1e6, "requests", prices["s3_head"], "s3", "1 per file (never GetObject)"),
        ("DynamoDB writes", 1e6 * wru_per_file, "WRU", prices["ddb_wru"], "dynamodb",
         f"{wru_per_file:g} per file = {a['records_per_file']:g} record x ({wru_record} + {a['gsi_writes_per_record']:g} GSI)"
         f" + {a['latest_offers_per_file']:g} latest offer + {a['per_object_items_per_file']:g} per-object item"),
        ("DynamoDB reads", 1e6 * (a["check_reads_per_file"] + a["latest_reads_per_file"]), "RRU", prices["ddb_rru"],
         "dynamodb_units", f"{a['check_reads_per_file']:g} per-object item read back + {a['latest_reads_per_file']:g} latest entry"
         " per file, strongly consistent, under 4 KB"),
    ] + ([("SNS upload notifications", 1e6, "publishes", prices["sns_request"], "sns",
           "S3 publishes 1 per file; delivery to SQS free")] if a["upload_topic"] else []) + [
        ("SNS status reports", report_requests, "PublishBatch", prices["sns_request"], "sns",
         f"1 per batch ({a['files_per_batch']:g} reports of {a['report_bytes']:g} B, under 64 KB)"),
        ("SQS requests", 1e6 + 2 * batches, "requests", prices["sqs_request"], "sqs",
         f"1 send per file (from {'SNS' if a['upload_topic'] else 'S3'}), 1 receive and 1 delete batch per batch (Lambda's poller)"),
        ("CloudWatch Logs", (1e6 * a["log_bytes_per_file"] + batches * a["log_bytes_per_batch"]) / 1e9, "GB",
         prices["logs_gb"], "logs", f"{a['log_bytes_per_file']:g} B per file + {a['log_bytes_per_batch']:g} B per batch"),
    ]

    def query_rows(name, ms, rru, calls_note):
        return [
            (f"{name}: API Gateway", 1e6, "requests", prices["apigw_request"], "apigw", "HTTP API"),
            (f"{name}: Lambda requests", 1e6, "invocations", prices["lambda_request"], "lambda", "1 per query"),
            (f"{name}: Lambda duration", 1e6 * ms / 1000 * gb, "GB-s", prices["lambda_gb_s"], "lambda",
             f"{ms:.2f} ms median at 5 ms per call, {a['memory_mb']:g} MB"),
            (f"{name}: DynamoDB reads", 1e6 * rru, "RRU", prices["ddb_rru"], "dynamodb_units", calls_note),
            (f"{name}: CloudWatch Logs", 1e6 * a["query_log_bytes"] / 1e9, "GB", prices["logs_gb"], "logs",
             f"{a['query_log_bytes']:g} B per query"),
        ]

    page_kb, rru_page, rru_30d = page_read_units(a)
    queries = {
        "1-day page": query_rows("1-day page", a["query_1d_ms"], rru_page,
                                 f"1 Query of a full page, {page_kb:.0f} KB, eventually consistent: {rru_page:g} RRU"),
        "30-day page": query_rows("30-day page", a["query_30d_ms"], rru_30d,
                                  f"30 Queries, a day's few records each: {rru_30d:g} RRU"),
        "work_id page": query_rows("work_id page", a["query_work_id_ms"], rru_page,
                                   f"1 Query of the GSI, a full page: {rru_page:g} RRU"),
        "latest": query_rows("latest", a["query_latest_ms"], 0.5, "1 GetItem on the latest table: 0.5 RRU"),
    }
    # Storage of a million records: the table, the GSI (projection ALL: a full copy), point-in-time
    # recovery on the table; plus, with issue 13, a per-object item per file.
    record_gb = million_items_gb(a["record_item_kb"])
    gsi_gb = record_gb
    object_gb = million_items_gb(a["per_object_item_kb"]) / a["records_per_file"]
    storage = [
        ("records table", record_gb, "GB-month", prices["ddb_gb_month"], "dynamodb", f"{a['record_item_kb']:g} KB + 100 B per item"),
        ("work-id-index (GSI, ALL)", gsi_gb, "GB-month", prices["ddb_gb_month"], "dynamodb", "a copy of every record"),
        ("per-object items", object_gb, "GB-month", prices["ddb_gb_month"], "dynamodb", "issue 13, one per file"),
        ("point-in-time recovery", record_gb + object_gb, "GB-month", prices["ddb_pitr_gb_month"], "dynamodb",
         "template: PITR on the tables (the GSI is not backed up separately)"),
    ]
    month_s = 30 * 86400
    publishers = a["upload_topic"] * a["upload_topic_publishers"] + a["report_topic_publishers"]
    kms_requests = month_s / 300 * 2 * publishers
    fixed = [
        ("KMS key", 1, "key-month", prices["kms_key_month"], "kms", "the template's one customer key (SNS topics)"),
        ("KMS requests", kms_requests, "requests", prices["kms_request"], "kms",
         f"{kms_requests:,.0f} = 2,592,000 s / 300 s x 2 x {publishers:g} publishers, whatever the traffic"),
    ]

    print(f"datalake costs in {args.region}, on-demand prices, no free tier; "
          f"{'measured figures from ' + args.bench if args.bench and measured else 'default figures'}"
          f"{' with --set ' + ' '.join(args.set) if args.set else ''}")
    print("assumptions:")
    for name in ASSUMPTIONS:
        origin = f" [measured: {measured[name]}]" if name in measured else ""
        print(f"  {name:26} {a[name]:>10g}  {notes[name]}{origin}")

    def table(title, rows):
        print(f"\n{title}")
        total = 0.0
        for label, quantity, unit, price, source, why in rows:
            cost = quantity * price
            total += cost
            print(f"  {label:28} {quantity:>14,.2f} {unit:<12} x ${price:<12.10g} = ${cost:>9.4f}  {why} [{source}]")
        print(f"  {'total':28} {'':>14} {'':<12}   {'':<13}  ${total:>9.4f}")
        return total

    per_million_files = table("per million files ingested", ingest)
    # The same million files with TableBillingMode PROVISIONED, steady at files_per_day: capacity-hours
    # instead of request units; everything else as on demand.
    units, _ = provisioned_day(a, prices, a["files_per_day"], day_profile(1)[0])
    hours_per_million = 24e6 / a["files_per_day"]  # each hour of units[...] serves files_per_day / 24 files
    provisioned_rows = [row for row in ingest if not row[0].startswith("DynamoDB")]
    for kind, price in (("write", "ddb_wcu_hour"), ("read", "ddb_rcu_hour")):
        per_table = [units[(t, kind)][0] for t in TABLES]
        provisioned_rows.insert(3 if kind == "write" else 4, (
            f"DynamoDB {kind} capacity", sum(per_table) * hours_per_million, f"{kind[0].upper()}CU-hours", prices[price],
            "dynamodb_provisioned", f"{' + '.join(f'{u} {t}' for u, t in zip(per_table, TABLES))} {kind[0].upper()}CU"
            f" for {hours_per_million:.1f} h (a million files at {a['files_per_day'] / 86400:,.1f}/s), at"
            f" {a['target_utilization']:g}% or the minimum"))
    per_million_files_provisioned = table(f"per million files ingested, PROVISIONED, steady at {a['files_per_day']:,.0f}"
                                          " files/day", provisioned_rows)
    query_totals = {kind: table(f"per million queries: {kind}", rows) for kind, rows in queries.items()}
    storage_total = table("storage of a million records, per month", storage)
    fixed_total = table("fixed, per month (independent of traffic)", fixed)
    narrow = time_index(a, prices)
    print_time_index(a, narrow)
    break_even_steady, break_even_busy = billing_modes(a, prices)
    print(f"  queries, PROVISIONED at a steady query rate (reads at {a['target_utilization']:g}%): " + ", ".join(
        f"{kind} ${total - rows[3][1] * rows[3][3] + rows[3][1] * prices['ddb_rcu_hour'] / 3600 / (a['target_utilization'] / 100):.2f}"
        for (kind, rows), total in zip(queries.items(), query_totals.values())) + " per million")
    comparisons(per_million_files, query_totals, a)
    print("\nsources:")
    for key, text in SOURCES.items():
        print(f"  [{key}] {text}")

    if args.json:
        document = {
            "cost_region": args.region,
            "cost_per_million_files_usd": round(per_million_files, 4),
            "cost_per_million_files_provisioned_usd": round(per_million_files_provisioned, 4),
            "cost_provisioned_files_per_day": a["files_per_day"],
            "cost_provisioned_target_utilization": a["target_utilization"],
            "cost_provisioned_break_even_files_per_day": round(break_even_steady),
            "cost_provisioned_break_even_files_per_day_busiest_hour": round(break_even_busy),
            "cost_lambda_ms_per_batch": round(batch_ms, 2),
            "cost_wru_per_file": wru_per_file,
            "cost_storage_per_million_records_month_usd": round(storage_total, 4),
            "cost_fixed_per_month_usd": round(fixed_total, 4),
            "cost_time_index_per_million_files_usd": round(narrow["per_million_files"], 4),
            "cost_time_index_break_even_windows_per_million_files": round(narrow["break_even_windows"]),
        }
        for kind, total in query_totals.items():
            document["cost_per_million_queries_" + kind.replace("-", "").replace(" ", "_") + "_usd"] = round(total, 4)
        with open(args.json, "w") as f:
            json.dump(document, f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
