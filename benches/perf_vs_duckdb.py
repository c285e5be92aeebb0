#!/usr/bin/env python3
"""gcperf against DuckDB on a semicolon performance log: speed, peak memory, same figures.

    pip install duckdb
    python3 benches/perf_gen.py --out /tmp/perf-5m.log
    python3 benches/perf_vs_duckdb.py /tmp/perf-5m.log [--runs 3] [--gcperf PATH]

(a) `gcperf perf FILE --format json -q`, and
(b) a DuckDB query (`read_csv` with explicit column types, `ignore_errors=true`) computing the
    same aggregates in SQL, run by this script in a separate Python process so that its wall
    time and peak RSS are measured the same way as gcperf's.

Each is run --runs times, alternating (so that a load change hits both), through
`/usr/bin/time -v` for the peak RSS ("Maximum resident set size"); wall time is taken
around the process. The file is read once beforehand so every run starts with it in the
page cache. DuckDB keeps its default thread count (= cores).

Then every figure of gcperf's JSON that the SQL also computes is compared: counts, sums,
maxima exactly, means / percentiles / shares / rates within 1e-9 relative. Any mismatch is
printed and the exit code is 1. Lines skipped are compared too: gcperf's `skipped_lines`
against the lines DuckDB rejected (counted in an extra, untimed run with `store_rejects`).
Last, a markdown table of the timings.
"""
import argparse
import hashlib
import json
import math
import shutil
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BANDS = [0, 50, 200, 1000, 3000, 10000]  # gcperf's defaults; "0" is total = 0 exactly
BAND_LABELS = ["0", "0-50", "50-200", "200-1000", "1000-3000", "3000-10000", ">10000"]
OVER = [50, 150]                          # gcperf's defaults
QUANTILES = [0.5, 0.9, 0.95, 0.99]
REL = 1e-9

# ---------------------------------------------------------------------------------------------
# (b) DuckDB side. Runs in its own process: `perf_vs_duckdb.py --duckdb-worker FILE`.
# ---------------------------------------------------------------------------------------------

# Explicit types: a line with too few fields, or a field that does not cast (non-numeric
# total, hour 25), is an error that `ignore_errors` drops, which is what gcperf skips.
# quote='' / escape='': the log has no quoting; a `"` in an error message is just text.
READ_CSV = """read_csv(?, delim=';', header=false, quote='', escape='', auto_detect=false,
    columns={'id': 'VARCHAR', 'ts': 'TIMESTAMP', 'total': 'BIGINT', 'java': 'BIGINT',
             'db': 'BIGINT', 'calls': 'BIGINT', 'op': 'VARCHAR', 'flag': 'VARCHAR'},
    timestampformat='%Y-%m-%d %H:%M:%S.%g', ignore_errors=true@EXTRA@)"""
COLUMNS = ["id", "ts", "total", "java", "db", "calls", "op", "flag"]


def duckdb_sql():
    """One scan: GROUPING SETS gives the whole-log row (op IS NULL, g = 1) and one row per
    operation from the same pass over the CSV."""
    bands = ["count_if(total <= 0) AS band0"]  # times are non-negative: "0" is exactly 0
    edges = BANDS[1:]
    lo = 0
    for i, hi in enumerate(edges, 1):
        bands.append(f"count_if(total > {lo} AND total <= {hi}) AS band{i}")
        lo = hi
    bands.append(f"count_if(total > {lo}) AS band{len(edges) + 1}")
    over = [f"count_if(total > {ms}) AS over{i}" for i, ms in enumerate(OVER)]
    qs = ", ".join(str(q) for q in QUANTILES)
    return f"""
    WITH t AS (
        SELECT ts, total, java, db, calls, op,
               -- gcperf: failed when the field after the operation starts with `e-`
               starts_with(ltrim(coalesce(flag, '')), 'e-') AS err
        FROM {READ_CSV.replace('@EXTRA@', '')}
    )
    SELECT grouping(op) AS whole, op,
           count(*) AS requests, count_if(err) AS errors,
           count_if(java + db <> total) AS inconsistent,
           strftime(min(ts), '%Y-%m-%dT%H:%M:%S.%g') AS first,
           strftime(max(ts), '%Y-%m-%dT%H:%M:%S.%g') AS last,
           epoch_ms(max(ts)) - epoch_ms(min(ts)) AS span_ms,
           sum(total)::BIGINT AS total_sum, sum(java)::BIGINT AS java_sum,
           sum(db)::BIGINT AS db_sum, sum(calls)::BIGINT AS calls_sum,
           -- the DB share is over the rows whose Java + DB fits in their total
           sum(db) FILTER (WHERE java + db <= total)::BIGINT AS db_in_share,
           sum(total) FILTER (WHERE java + db <= total)::BIGINT AS total_with_db,
           avg(total) AS mean,
           -- linear interpolation between ranks, as gcperf (polars Linear, numpy default)
           quantile_cont(total::DOUBLE, [{qs}]) AS q,
           max(total) AS max,
           {", ".join(over)},
           {", ".join(bands)}
    FROM t
    GROUP BY GROUPING SETS ((), (op))
    """


def duckdb_worker(path, rejects):
    """Print the figures as JSON shaped like gcperf's `perf` object (the parts compared)."""
    import duckdb

    con = duckdb.connect()
    if rejects:
        # Untimed: which lines DuckDB dropped. One reject row per error, so count lines.
        # Every column is read (a bare count(*) would not parse them, and record nothing).
        con.execute("SELECT " + ", ".join(f"count({c})" for c in COLUMNS) + " FROM "
                    + READ_CSV.replace("@EXTRA@", ", store_rejects=true"), [path]).fetchall()
        rows = con.execute("SELECT count(DISTINCT line) FROM reject_errors").fetchone()[0]
        kinds = con.execute("""SELECT error_type, count(DISTINCT line) FROM reject_errors
                               GROUP BY 1 ORDER BY 1""").fetchall()
        json.dump({"rejected_lines": rows, "by_error_type": dict(kinds),
                   "duckdb": duckdb.__version__,
                   "threads": con.execute("SELECT current_setting('threads')").fetchone()[0]},
                  sys.stdout)
        return
    cur = con.execute(duckdb_sql(), [path])
    cols = [d[0] for d in cur.description]
    rows = [dict(zip(cols, r)) for r in cur.fetchall()]

    def figures(r):
        n = r["requests"]
        share = (lambda c: c * 100.0 / n) if n else (lambda c: 0.0)
        return {
            "requests": n, "errors": r["errors"], "inconsistent": r["inconsistent"],
            "first": r["first"], "last": r["last"], "span_ms": r["span_ms"],
            "total_ms_sum": r["total_sum"], "java_ms_sum": r["java_sum"],
            "db_ms_sum": r["db_sum"], "db_calls_sum": r["calls_sum"],
            "db_share_pct": (r["db_in_share"] * 100.0 / r["total_with_db"]
                             if r["total_with_db"] else None),
            "total_ms_mean": r["mean"],
            **{f"total_ms_p{round(q * 100)}": v for q, v in zip(QUANTILES, r["q"])},
            "total_ms_max": r["max"],
            "over": [{"ms": ms, "count": r[f"over{i}"], "share_pct": share(r[f"over{i}"])}
                     for i, ms in enumerate(OVER)],
            "bands": [{"label": lab, "count": r[f"band{i}"], "share_pct": share(r[f"band{i}"])}
                      for i, lab in enumerate(BAND_LABELS)],
        }

    whole = next(r for r in rows if r["whole"] == 1)
    out = figures(whole)
    out["operations"] = [dict(name=r["op"], **figures(r)) for r in rows if r["whole"] == 0]
    json.dump(out, sys.stdout)


# ---------------------------------------------------------------------------------------------
# Driver: timing, peak RSS, comparison, table.
# ---------------------------------------------------------------------------------------------

def busy_cpu_s():
    """CPU seconds spent busy so far, all cores (from /proc/stat)."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:9]]
    return (sum(v) - v[3] - v[4]) / os.sysconf("SC_CLK_TCK")  # minus idle and iowait


def wait_idle(limit_s=600):
    """Until other processes use < 5 % of the CPUs over 1 s, twice in a row (at most
    limit_s): on a shared development machine, a build next door halves DuckDB's threads."""
    quiet, t_end = 0, time.time() + limit_s
    while quiet < 2 and time.time() < t_end:
        b0 = busy_cpu_s()
        time.sleep(1.0)
        quiet = quiet + 1 if busy_cpu_s() - b0 < 0.05 * os.cpu_count() else 0


def timed(cmd):
    """Run cmd under /usr/bin/time -v: (wall s, peak RSS KiB, user+sys s, stdout, CPU s used
    by other processes meanwhile: a busy machine makes the timings unfair)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        b0 = busy_cpu_s()
        t0 = time.perf_counter()
        p = subprocess.run(["/usr/bin/time", "-v", "-o", tf.name, *cmd],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        wall = time.perf_counter() - t0
        busy = busy_cpu_s() - b0
        stats = {}
        for line in tf.read().splitlines():
            k, _, v = line.strip().rpartition(": ")
            stats[k] = v
    if p.returncode != 0:
        sys.exit(f"FAILED ({p.returncode}): {' '.join(cmd)}\n{p.stderr.decode()[-2000:]}")
    rss = int(stats["Maximum resident set size (kbytes)"])
    cpu = float(stats["User time (seconds)"]) + float(stats["System time (seconds)"])
    return wall, rss, cpu, p.stdout, max(busy - cpu, 0.0)


def snapshot(path, into, seconds=300):
    """Copy the binary and run the copy: a rebuild may replace (or briefly remove) it while
    we run, and all runs must time one and the same build. Returns (copy, short sha256)."""
    t0 = time.time()
    while not os.access(path, os.X_OK):
        if time.time() - t0 > seconds:
            sys.exit(f"{path}: not there (waited {seconds} s)")
        time.sleep(2)
    copy = os.path.join(into, "gcperf")
    shutil.copy2(path, copy)
    with open(copy, "rb") as f:
        return copy, hashlib.sha256(f.read()).hexdigest()[:12]


class Compare:
    def __init__(self):
        self.bad = []
        self.checked = 0

    def exact(self, what, g, d):
        self.checked += 1
        if g is None or d is None or float(g) != float(d):
            self.bad.append(f"{what}: gcperf {g!r} != DuckDB {d!r}")

    def close(self, what, g, d):
        self.checked += 1
        if g is None or d is None or not math.isclose(g, d, rel_tol=REL, abs_tol=1e-12):
            self.bad.append(f"{what}: gcperf {g!r} vs DuckDB {d!r} (> {REL} relative)")

    def same(self, what, g, d):
        self.checked += 1
        if g != d:
            self.bad.append(f"{what}: gcperf {g!r} != DuckDB {d!r}")


EXACT = ["requests", "errors", "inconsistent", "total_ms_sum", "java_ms_sum", "db_ms_sum",
         "db_calls_sum", "total_ms_max"]
CLOSE = ["total_ms_mean", "total_ms_p50", "total_ms_p90", "total_ms_p95", "total_ms_p99",
         "db_share_pct"]
OP_EXACT = ["count", "errors", "total_ms_sum", "java_ms_sum", "db_ms_sum", "db_calls_sum",
            "total_ms_max"]
OP_CLOSE = ["total_ms_mean", "total_ms_p95", "db_share_pct"]


def compare(g, d, c):
    """g: gcperf's `perf` object; d: the DuckDB worker's figures."""
    for k in EXACT:
        c.exact(k, g[k], d[k])
    for k in CLOSE:
        c.close(k, g[k], d[k])
    c.same("first", g["first"], d["first"])
    c.same("last", g["last"], d["last"])
    span_s = d["span_ms"] / 1000.0
    c.close("span_s", g["span_s"], span_s)
    c.close("throughput_per_s", g["throughput_per_s"], d["requests"] / span_s)
    c.close("error_pct", g["error_pct"], d["errors"] * 100.0 / d["requests"])
    for go, do in zip(g["over"], d["over"], strict=True):
        c.exact(f"over {do['ms']} ms count", go["count"], do["count"])
        c.close(f"over {do['ms']} ms share", go["share_pct"], do["share_pct"])
    for gb, db in zip(g["bands"], d["bands"], strict=True):
        c.same("band label", gb["label"], db["label"])
        c.exact(f"band {db['label']} count", gb["count"], db["count"])
        c.close(f"band {db['label']} share", gb["share_pct"], db["share_pct"])
    gops = {o["name"]: o for o in g["operations"]}
    dops = {o["name"]: o for o in d["operations"]}
    c.same("operation names", sorted(gops), sorted(dops))
    for name in sorted(set(gops) & set(dops)):
        go, do = gops[name], dict(dops[name], count=dops[name]["requests"])
        for k in OP_EXACT:
            c.exact(f"{name}.{k}", go[k], do[k])
        for k in OP_CLOSE:
            c.close(f"{name}.{k}", go[k], do[k])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("--runs", type=int, default=3, help="runs per tool (default 3)")
    ap.add_argument("--gcperf", default=os.path.join(ROOT, "target/release/gcperf"))
    ap.add_argument("--retries", type=int, default=5,
                    help="wait for an idle machine before each run and redo a run during "
                         "which other processes used > 10%% of its wall time, up to this "
                         "many times (default 5; 0: take every run as it comes)")
    ap.add_argument("--duckdb-worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--duckdb-rejects", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.duckdb_worker or a.duckdb_rejects:
        return duckdb_worker(a.file, a.duckdb_rejects)

    path = os.path.abspath(a.file)
    size = os.path.getsize(path)
    with open(path, "rb") as f:  # warm the page cache; count lines for the skip check
        lines = sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 24), b""))
    me = [sys.executable, os.path.abspath(__file__)]
    tmp = tempfile.TemporaryDirectory(prefix="perf_vs_duckdb.")
    gcperf, binary = snapshot(a.gcperf, tmp.name)
    tools = {
        "gcperf": lambda: [gcperf, "perf", path, "--format", "json", "-q"],
        "DuckDB": lambda: [*me, "--duckdb-worker", path],
        # Reference only: the Python process that hosts DuckDB, doing nothing but the import.
        "python + import duckdb": lambda: [sys.executable, "-c", "import duckdb"],
    }
    print(f"file {path}: {size / 2**20:.1f} MiB, {lines} lines; gcperf {a.gcperf} "
          f"(sha256 {binary}); load average {os.getloadavg()[0]:.2f}", file=sys.stderr)

    runs = {t: [] for t in tools}
    outputs = {}
    not_idle = 0
    for i in range(a.runs):
        for tool, cmd in tools.items():
            for attempt in range(a.retries + 1):
                if a.retries:
                    wait_idle()
                wall, rss, cpu, out, other = timed(cmd())
                outputs.setdefault(tool, out)
                print(f"run {i + 1} {tool}: {wall:.3f} s wall, {cpu:.2f} s cpu, "
                      f"{rss / 1024:.0f} MiB peak RSS; others used {other:.2f} CPU s "
                      f"meanwhile", file=sys.stderr)
                if other <= 0.1 * wall:
                    break
                print("  the machine was not idle during this run"
                      + ("; again" if attempt < a.retries else ""), file=sys.stderr)
            else:
                not_idle += 1  # kept, but flagged in the output
            runs[tool].append((wall, rss, cpu))

    # --- same figures? ---
    g = json.loads(outputs["gcperf"])[0]
    d = json.loads(outputs["DuckDB"])
    rej = json.loads(subprocess.run([*me, "--duckdb-rejects", path], check=True,
                                    stdout=subprocess.PIPE).stdout)
    c = Compare()
    compare(g["perf"], d, c)
    c.exact("lines", g["lines"], lines)
    c.exact("skipped lines (gcperf skipped_lines vs DuckDB rejected lines)",
            g["skipped_lines"], rej["rejected_lines"])
    c.exact("DuckDB rows + rejected = lines", d["requests"] + rej["rejected_lines"], lines)
    print(f"\nDuckDB {rej['duckdb']}, threads = {rej['threads']} (its default: one per core)")
    print(f"skipped: gcperf {g['skipped_lines']}, DuckDB {rej['rejected_lines']} "
          f"{rej['by_error_type']}")
    if c.bad:
        print(f"\n!!! {len(c.bad)} MISMATCHES of {c.checked} figures compared:")
        for m in c.bad:
            print(f"!!!   {m}")
    else:
        print(f"all {c.checked} figures agree (counts and sums exact, the rest within "
              f"{REL} relative)")

    # --- table ---
    mib = size / 2**20
    print(f"\n| tool | wall s best | wall s median | CPU s (best run) | peak RSS MiB "
          f"| file MiB | peak RSS < file |")
    print("|---|---|---|---|---|---|---|")
    for tool, rs in runs.items():
        best = min(rs)
        peak = max(r[1] for r in rs) / 1024
        below = "yes" if peak < mib else "no"
        if tool.startswith("python"):
            below = "(reference)"
        print(f"| {tool} | {best[0]:.3f} | {statistics.median(r[0] for r in rs):.3f} "
              f"| {best[2]:.2f} | {peak:.0f} | {mib:.0f} | {below} |")
    # Best and median can disagree: on a VM the kernel's cost of handing out fresh memory
    # (page zeroing) varies from run to run, so say both.
    print()
    for how, pick in (("best", min), ("median", statistics.median)):
        gb = pick(r[0] for r in runs["gcperf"])
        db = pick(r[0] for r in runs["DuckDB"])
        faster = "gcperf" if gb < db else "DuckDB"
        print(f"faster ({how} of {a.runs}): {faster}, by {max(gb, db) / min(gb, db):.2f}x "
              f"(gcperf {gb:.3f} s, DuckDB {db:.3f} s)")
    print("peak RSS is the largest of the runs")
    if not_idle:
        print(f"WARNING: other processes used > 10 % of the wall time in {not_idle} of "
              f"{a.runs * len(tools)} runs: timings are not clean, rerun on an idle machine")
    return 1 if c.bad else 0


if __name__ == "__main__":
    sys.exit(main())
