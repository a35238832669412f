#!/usr/bin/env python3
"""Peak write rates per DynamoDB partition key at 1M, 10M and 100M files a day (docs/SCALE.md).

Generates the busiest hour of a day's uploads, second by second, with a realistic skew: a few WHATs
hold most files (Zipf over the WHATs), files come in bursts (a job or a host uploading several at
once), and many files carry a work_id shared by the other files of their job. From that workload it
computes, for each scale:
  - the peak writes per second on one time_index_key (`<day>:<what>`: every file of a WHAT that starts
    today lands on today's key) and on one GSI key (`<work_id>:<what>`), against DynamoDB's limit of
    1,000 write units per second per partition;
  - the Lambda concurrency the ingester needs at the peak, against the template's IngestMaxConcurrency;
  - what a 100-day time query reads and costs.
Deterministic (seeded); every assumption is an option and is printed.

With --emit-files F it writes the busiest hour's uploads instead, file by file, for scripts/bench.sh's
scale part: the same model at --files-per-day, with its rates and its burst sizes divided by --factor,
for --seconds, as CSV lines "offset_ms,what,where,work_id" (work_id empty when the file has none).

With --emit-counts F it writes the busiest hour's writes per day key and second at --files-per-day, as
scripts/shards.sh suggest --from-counts reads them ("key,second,writes"): the top WHAT's seconds are
those of the table above, the other WHATs' drawn by the same model.

usage: scripts/scale_sim.py [--seed 1] [--whats 40] [--zipf 1.3] [--peak-factor 2.5] [--burst 20]
                            [--work-id-share 0.6] [--job-files 200] [--job-seconds 60] [--batch-ms 43.4]
       scripts/scale_sim.py --emit-files F [--factor 40] [--seconds 300] [--files-per-day 100000000]
       scripts/scale_sim.py --emit-counts F [--files-per-day 100000000]
"""
import argparse
import math
import random

PARTITION_WCU = 1000  # per partition, table and GSI alike
PARTITION_RCU = 3000
TABLE_WRU_QUOTA = 40000  # default per-table on-demand throughput quota (adjustable)
SCALES = (1_000_000, 10_000_000, 100_000_000)
COUNTS_DAY = 20454  # the day bucket of --emit-counts' keys (2026-01-01): any day serves


def poisson(rng, lam):
    """A Poisson draw (Knuth for small means, a normal approximation for large ones)."""
    if lam <= 0:
        return 0
    if lam > 50:
        return max(0, int(round(rng.gauss(lam, math.sqrt(lam)))))
    limit, k, p = math.exp(-lam), 0, 1.0
    while True:
        p *= rng.random()
        if p <= limit:
            return k
        k += 1


def zipf_shares(n, s):
    weights = [1 / (k ** s) for k in range(1, n + 1)]
    total = sum(weights)
    return [w / total for w in weights]


def simulate(files_per_day, args, rng):
    shares = zipf_shares(args.whats, args.zipf)
    peak_rate = files_per_day / 86400 * args.peak_factor  # files/s in the busiest hour
    seconds = 3600
    # time_index_key: the top WHAT's files in bursts (mean args.burst files within one second).
    top_rate = peak_rate * shares[0]
    top_seconds = key_seconds(rng, top_rate, args.burst, seconds)
    per_second_top = sorted(top_seconds)
    # GSI: jobs of the top WHAT, Pareto-sized (mean about args.job-files), each writing its files over
    # args.job-seconds, or longer when that would exceed what one job uploads a second (args.job-rate);
    # the busiest job's key at its busiest second.
    jobs_per_hour = top_rate * 3600 * args.work_id_share / args.job_files
    n_jobs = poisson(rng, jobs_per_hour)
    alpha = 1.5
    xm = args.job_files * (alpha - 1) / alpha
    sizes = [min(int(xm / (rng.random() ** (1 / alpha))), int(top_rate * 3600)) for _ in range(n_jobs)]
    biggest = max(sizes) if sizes else 0
    gsi_peak = min(biggest / args.job_seconds, args.job_rate) if biggest else 0
    # Lambda: batches of 10, each args.batch_ms long (the cost model's billed time per batch).
    concurrency = peak_rate / 10 * args.batch_ms / 1000
    max_rate = args.max_concurrency * 10 / (args.batch_ms / 1000)
    wru_per_second = peak_rate * 4  # record + GSI + latest offer + per-object item (docs/COSTS.md)
    return {
        "files_per_day": files_per_day,
        "average_rate": files_per_day / 86400,
        "peak_rate": peak_rate,
        "top_what_share": shares[0],
        "top3_share": sum(shares[:3]),
        "time_key_p50": per_second_top[seconds // 2],
        "time_key_p999": per_second_top[int(seconds * 0.999)],
        "time_key_max": per_second_top[-1],
        "jobs": n_jobs,
        "biggest_job": biggest,
        "gsi_peak": gsi_peak,
        "concurrency": concurrency,
        "max_rate_at_template_concurrency": max_rate,
        "table_wru_peak": wru_per_second,
        "top_seconds": top_seconds,
    }


def key_seconds(rng, rate, burst, seconds):
    """One day key's writes in each second: Poisson bursts (rate / burst a second) of burst_size files."""
    out = []
    for _ in range(seconds):
        bursts = poisson(rng, rate / burst)
        out.append(sum(burst_size(rng, burst) for _ in range(bursts)))
    return out


def emit_counts(args, rng):
    """The busiest hour's writes per day key and second at args.files_per_day, as [(key, second, writes)].

    The top WHAT's seconds are the table's (simulate, run through the scales in the table's order on the
    same generator); the other WHATs' come from a generator of their own, so the table stays as printed.
    """
    if args.files_per_day not in SCALES:
        raise SystemExit(f"--emit-counts takes --files-per-day {', '.join(str(n) for n in SCALES)} (the table's scales)")
    for n in SCALES:
        r = simulate(n, args, rng)
        if n == args.files_per_day:
            break
    shares = zipf_shares(args.whats, args.zipf)
    peak_rate = args.files_per_day / 86400 * args.peak_factor
    others = random.Random(f"{args.seed}:{args.files_per_day}")
    rows = []
    for w, share in enumerate(shares):
        seconds = r["top_seconds"] if w == 0 else key_seconds(others, peak_rate * share, args.burst, 3600)
        rows.extend((f"{COUNTS_DAY}:what{w + 1:02d}", s, n) for s, n in enumerate(seconds) if n)
    return rows


def burst_size(rng, burst):
    """Files uploaded together: 1 plus an exponential share of the mean burst (at least 1)."""
    return 1 + int(rng.expovariate(1 / (burst - 1))) if burst > 1 else 1


def emit_files(args, rng):
    """The busiest hour's uploads of every WHAT, scaled down by args.factor; sorted by arrival."""
    shares = zipf_shares(args.whats, args.zipf)
    peak_rate = args.files_per_day / 86400 * args.peak_factor / args.factor
    burst = max(1.0, args.burst / args.factor)
    alpha = 1.5
    xm = args.job_files * (alpha - 1) / alpha
    jobs = {}  # (what, where) -> [job number, files left]: a host's files belong to its current job
    files = []
    for w, share in enumerate(shares):
        for second in range(args.seconds):
            for _ in range(poisson(rng, peak_rate * share / burst)):
                where = rng.randrange(args.wheres)
                work_id = ""
                if rng.random() < args.work_id_share:
                    job = jobs.setdefault((w, where), [0, 0])
                    if job[1] <= 0:
                        job[0] += 1
                        job[1] = int(xm / (rng.random() ** (1 / alpha)))
                    work_id = f"job-{w + 1}-{where}-{job[0]}"
                size = burst_size(rng, burst)
                if work_id:
                    jobs[(w, where)][1] -= size
                files.extend((second * 1000 + rng.randrange(1000), w, where, work_id) for _ in range(size))
    files.sort()
    return files


def report_emitted(args, files):
    per_second = [0] * args.seconds
    for offset, w, _, _ in files:
        if w == 0:
            per_second[offset // 1000] += 1
    per_second.sort()
    print(f"emitted {len(files):,} files over {args.seconds} s ({len(files) / args.seconds:,.1f}/s) to {args.emit_files}:"
          f" {args.files_per_day:,} files/day at its busiest hour, rates and bursts / {args.factor:g}")
    print(f"  top WHAT (what01) per second: p50 {per_second[len(per_second) // 2]}, p99"
          f" {per_second[min(len(per_second) - 1, int(len(per_second) * 0.99))]}, max {per_second[-1]}"
          f" (limit {PARTITION_WCU / args.factor:g} WCU/s per key)")


def query_100_days(files_per_day, args):
    """A 100-day time query of one WHERE of the top WHAT: its first page, and reading it all."""
    shares = zipf_shares(args.whats, args.zipf)
    per_where_day = files_per_day * shares[0] / args.wheres
    item_kb = 0.5  # a record item, 307 to 526 bytes (docs/COSTS.md)
    # First page: the pager reads each bucket's share (at least 10 items, one Query per bucket, each
    # rounded up to 4 KB, eventually consistent = half a unit per 4 KB), 32 buckets at a time.
    first_page_rru = 100 * math.ceil(min(per_where_day, 10) * item_kb / 4) * 0.5 + math.ceil(100 * item_kb / 4) * 0.5
    waves = math.ceil(100 / 32)
    total_files = per_where_day * 100
    all_rru = max(100 * 0.5, total_files * item_kb / 4 * 0.5)
    pages = math.ceil(total_files / 100)
    return {
        "files_per_where_day": per_where_day,
        "first_page_rru": first_page_rru,
        "first_page_usd": first_page_rru * 0.125e-6,
        "waves": waves,
        "total_files": total_files,
        "pages": pages,
        "all_rru": all_rru,
        "all_usd": all_rru * 0.125e-6 + pages * (1.0e-6 + 0.2e-6),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--whats", type=int, default=40, help="number of WHATs (feeds)")
    parser.add_argument("--zipf", type=float, default=1.3, help="Zipf exponent of the files per WHAT")
    parser.add_argument("--wheres", type=int, default=50, help="WHEREs (hosts) per WHAT, for the query")
    parser.add_argument("--peak-factor", type=float, default=2.5, help="busiest hour's rate / the day's average")
    parser.add_argument("--burst", type=float, default=20, help="mean files uploaded together (one second)")
    parser.add_argument("--work-id-share", type=float, default=0.6, help="share of files with a work_id")
    parser.add_argument("--job-files", type=float, default=200, help="mean files of one work_id (Pareto, alpha 1.5)")
    parser.add_argument("--job-seconds", type=float, default=60, help="seconds over which a job's files arrive")
    parser.add_argument("--job-rate", type=float, default=500, help="the most files one job uploads a second")
    parser.add_argument("--batch-ms", type=float, default=43.4, help="billed ms of an ingest batch of 10 (scripts/cost.py)")
    parser.add_argument("--max-concurrency", type=int, default=10, help="the template's IngestMaxConcurrency")
    parser.add_argument("--emit-files", help="write the busiest hour's uploads, one CSV line a file, to this file")
    parser.add_argument("--factor", type=float, default=40, help="with --emit-files: rates and bursts divided by this")
    parser.add_argument("--seconds", type=int, default=300, help="with --emit-files: seconds of the busiest hour")
    parser.add_argument("--files-per-day", type=int, default=100_000_000, help="with --emit-files or --emit-counts: the scale")
    parser.add_argument("--emit-counts", help="write the busiest hour's writes per day key and second to this file")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    if args.emit_files:
        files = emit_files(args, rng)
        with open(args.emit_files, "w") as out:
            for offset, w, where, work_id in files:
                out.write(f"{offset},what{w + 1:02d},host{where:02d},{work_id}\n")
        report_emitted(args, files)
        return
    if args.emit_counts:
        rows = emit_counts(args, rng)
        with open(args.emit_counts, "w") as out:
            out.write("key,second,writes\n")
            for key, second, writes in rows:
                out.write(f"{key},{second},{writes}\n")
        print(f"emitted {len(rows):,} (key, second) counts of the busiest hour at {args.files_per_day:,} files/day"
              f" to {args.emit_counts}")
        return

    emission = {"emit_files", "factor", "seconds", "files_per_day", "emit_counts"}
    print("assumptions: " + ", ".join(f"{k}={v}" for k, v in vars(args).items() if k not in emission))
    print(f"limits: {PARTITION_WCU} WCU/s and {PARTITION_RCU} RCU/s per partition (table and GSI);"
          f" {TABLE_WRU_QUOTA:,} WRU/s per on-demand table by default; 1 record item = 1 WCU")
    header = ("files/day", "avg/s", "peak/s", "top WHAT (top 3)", "top key p50/s", "p99.9/s", "max/s", "vs 1000",
              "biggest job", "GSI key/s", "Lambda conc.", "cap @10", "table WRU/s")
    rows = []
    for n in SCALES:
        r = simulate(n, args, rng)
        rows.append((f"{n:,}", f"{r['average_rate']:,.0f}", f"{r['peak_rate']:,.0f}", f"{100 * r['top_what_share']:.0f}% ({100 * r['top3_share']:.0f}%)",
                     f"{r['time_key_p50']:,}", f"{r['time_key_p999']:,}", f"{r['time_key_max']:,}",
                     f"{100 * r['time_key_max'] / PARTITION_WCU:.0f}%", f"{r['biggest_job']:,}", f"{r['gsi_peak']:,.0f}",
                     f"{r['concurrency']:.1f}", f"{r['max_rate_at_template_concurrency']:,.0f}/s", f"{r['table_wru_peak']:,.0f}"))
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    print()
    for row in [header] + rows:
        print("  ".join(str(x).rjust(w) for x, w in zip(row, widths)))
    print()
    print("a 100-day time query of one WHERE of the top WHAT (eventually consistent reads, $0.125 per million RRU):")
    for n in (1_000_000, 10_000_000, 100_000_000):
        q = query_100_days(n, args)
        print(f"  {n:>11,} files/day: {q['files_per_where_day']:,.0f} files a day in the query; first page"
              f" {q['first_page_rru']:g} RRU (${q['first_page_usd']:.6f}), 100 Queries in {q['waves']} waves of 32;"
              f" all {q['total_files']:,.0f} files: {q['pages']:,} pages, {q['all_rru']:,.0f} RRU,"
              f" ${q['all_usd']:.4f} with API Gateway and Lambda requests")


if __name__ == "__main__":
    main()
