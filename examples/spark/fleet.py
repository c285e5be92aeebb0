#!/usr/bin/env python3
"""A fleet's GC and performance logs on Spark, with gcperf doing the reading.

    spark-submit examples/spark/fleet.py --gcperf /usr/local/bin/gcperf \
        --list paths.txt --root /logs --out /shared/fleet-out [--master local[4]] [--tasks N]

(or `python3 examples/spark/fleet.py ...` where pyspark is installed: the script builds its
own SparkSession.)

paths.txt holds one log path per line; a log's host is its first folder below --root
(`/logs/web07/gc.log` is host `web07`). The hosts are spread over --tasks Spark tasks; each task
runs, per host,

    gcperf export  -q --tag host=H --files-from - -0 --out OUT/export
    gcperf summary -q --tag host=H --files-from - -0 --format jsonl

and the driver then reads OUT/export/{gc,perf,files} and the summary lines back as tables,
asks them the questions in fleet.sql (exact counts, sums, maxima and p99s per host and for the
fleet) and merges the summaries' sketches into fleet-wide p99s that need no raw records.

Writes OUT/export/ (gcperf's Parquet), OUT/summaries/ (the summary objects, Parquet),
OUT/runs.json (one record per host: its exit codes and the end of gcperf's stderr) and
OUT/fleet.json ({"hosts": {host: figures}, "fleet": figures}); prints the figures as a table.

OUT must be a folder every executor and the driver see at the same path (a local folder with
--master local[N], a shared file system on a cluster): gcperf writes plain files, not HDFS/S3.

Exit codes: 0 done; 2 bad arguments, a gcperf run that failed (any exit code but 0 and 1; the
host, the code and gcperf's stderr are printed) or sketches that cannot be merged.
"""

import argparse
import bisect
import json
import math
import os
import re
import stat
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

from pyspark import SparkFiles
from pyspark.sql import SparkSession
from pyspark.sql import functions as F
from pyspark.sql import types as T

HERE = Path(__file__).resolve().parent
SQL_FILE = HERE / "fleet.sql"

# The figures of a host and of the fleet, in the order fleet.json and the table show them.
FIGURES = [
    "files", "files_without_records",
    "gc_logs", "pauses", "pause_total_ms", "pause_max_ms", "pause_p99_ms", "pause_p99_ms_merged",
    "perf_logs", "requests", "errors", "total_ms_sum", "total_ms_max", "total_ms_p99",
    "total_ms_p99_merged",
]

# A marker on the message of a failed gcperf run, so that the driver can pick it out of the
# Java stack trace the task's exception arrives wrapped in.
FAILED = "GCPERF-RUN-FAILED"
STDERR_TAIL = 2000


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--gcperf", required=True, help="the gcperf binary (shipped to the executors)")
    p.add_argument("--list", required=True, help="a file of log paths, one per line")
    p.add_argument("--root", required=True, help="the folder whose subfolders are the hosts")
    p.add_argument("--out", required=True, help="output folder (must not hold an export yet)")
    p.add_argument("--master", help="Spark master, e.g. local[4] (default: spark-submit's)")
    p.add_argument("--tasks", type=int, help="Spark tasks to spread the hosts over "
                   "(default: the default parallelism)")
    p.add_argument("--sql", default=str(SQL_FILE), help="the queries (default: fleet.sql "
                   "beside this script; give it where the script is shipped without it)")
    return p.parse_args(argv)


def fail(msg):
    print(f"fleet.py: {msg}", file=sys.stderr)
    sys.exit(2)


def hosts_of(list_file, root):
    """{host: [absolute paths]} from the path list. Paths are made absolute in the driver:
    a task's working folder is not the driver's, and `file` in every table is then the same
    full name whichever executor read it."""
    root = os.path.abspath(root)
    groups = defaultdict(list)
    outside = []
    # surrogateescape: a name that is not UTF-8 goes to gcperf as the bytes it was.
    with open(list_file, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            path = line.rstrip("\n")
            if not path.strip():
                continue
            path = os.path.abspath(path)
            rel = os.path.relpath(path, root)
            parts = Path(rel).parts
            # A host is a folder below root: a path outside root, or a file right in it, has none.
            if parts[0] == os.pardir or len(parts) < 2:
                outside.append(path)
                continue
            groups[parts[0]].append(path)
    if outside:
        fail(f"{len(outside)} path(s) not in a host folder below {root}, e.g. {outside[0]}")
    if not groups:
        fail(f"no paths in {list_file}")
    return groups


def run_gcperf(exe, host, args, paths):
    """Runs gcperf with the host's paths on stdin (NUL-separated: any file name goes through).
    Returns (exit code, stdout, stderr)."""
    stdin = b"".join(p.encode("utf-8", "surrogateescape") + b"\0" for p in paths)
    cmd = [exe, *args, "-q", "--tag", f"host={host}", "--files-from", "-", "-0"]
    r = subprocess.run(cmd, input=stdin, capture_output=True)
    return r.returncode, r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace")


def host_task(binary_name, export_dir):
    """The function each Spark task runs over its share of (host, paths) groups.

    The runs go through subprocess, not rdd.pipe: pipe streams one command's output for a whole
    partition and raises on a non-zero exit without saying which host it was for, while here
    each host's exit code is seen and 1 (nothing readable in that host's batch: its files rows
    and {"file","error"} summary lines say why) is an outcome, not a failure."""

    def run(groups):
        exe = SparkFiles.get(binary_name)
        # addFile does not keep the executable bit everywhere.
        if not os.access(exe, os.X_OK):
            os.chmod(exe, os.stat(exe).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        for host, paths in groups:
            export = run_gcperf(exe, host, ["export", "--out", export_dir], paths)
            summary = run_gcperf(exe, host, ["summary", "--format", "jsonl"], paths)
            for what, (code, _, err) in (("export", export), ("summary", summary)):
                if code not in (0, 1):
                    raise RuntimeError(
                        f"{FAILED}: gcperf {what} for host {host} exited {code}: "
                        + err.strip()[-STDERR_TAIL:].replace("\n", " | "))
            # export prints each part it wrote: the driver keeps only the parts of the task
            # attempts whose results it got (see drop_orphan_parts).
            parts = [line for line in export[1].splitlines() if line.strip()]
            yield ("host", {
                "host": host,
                "files": len(paths),
                "export_exit": export[0],
                "summary_exit": summary[0],
                "stderr_tail": (export[2] + summary[2])[-STDERR_TAIL:],
                "parts": parts,
            })
            for line in summary[1].splitlines():
                if line.strip():
                    yield ("summary", line)

    return run


def drop_orphan_parts(export_dir, runs):
    """Removes the parts that no successful task attempt reported. A task that failed half-way
    (a lost executor, a gcperf run that exited 2) and was retried by Spark leaves the parts of
    its first attempt behind; read as they are, its hosts' rows would count twice."""
    kept = {os.path.realpath(p) for r in runs for p in r["parts"]}
    dropped = []
    for table in ("gc", "perf", "files"):
        folder = os.path.join(export_dir, table)
        if not os.path.isdir(folder):
            continue
        for name in os.listdir(folder):
            path = os.path.realpath(os.path.join(folder, name))
            if name.startswith("part-") and name.endswith(".parquet") and path not in kept:
                os.remove(path)
                dropped.append(path)
    if dropped:
        print(f"fleet.py: removed {len(dropped)} part(s) of failed task attempts",
              file=sys.stderr)


def sql_statements(path):
    """{name: statement} from a .sql file whose statements each follow a `-- name: X` line
    and end with `;` at the end of a line."""
    statements, name, lines = {}, None, []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        m = re.match(r"--\s*name:\s*(\w+)", line)
        if m:
            name, lines = m.group(1), []
            continue
        if name is None:
            continue
        lines.append(line)
        if line.rstrip().endswith(";"):
            statements[name] = "\n".join(lines).rstrip().rstrip(";")
            name = None
    return statements


# The columns fleet.sql reads, for a table no export wrote a part of (a fleet without
# performance logs has no perf/ folder): an empty view keeps the queries valid.
EMPTY = {
    "gc": "host STRING, file STRING, record STRING, duration_ms DOUBLE",
    "perf": "host STRING, file STRING, total_ms DOUBLE, ok BOOLEAN",
    "files": "host STRING, file STRING, kind STRING, records BIGINT, error STRING",
}


def table(spark, export_dir, name):
    folder = os.path.join(export_dir, name)
    has_parts = os.path.isdir(folder) and any(
        n.endswith(".parquet") for n in os.listdir(folder))
    if has_parts:
        return spark.read.parquet(folder)
    return spark.createDataFrame([], EMPTY[name])


def has_field(schema, path):
    """Whether a nested field (("gc", "pause_ms_sketch")) is in a DataFrame's schema: the
    summaries' schema is inferred from the objects, so a fleet without GC logs has no `gc`."""
    for name in path:
        if not isinstance(schema, T.StructType) or name not in schema.fieldNames():
            return False
        schema = schema[name].dataType
    return True


def merged_buckets(summaries, kind, sketch):
    """Merges the per-file sketches in Spark: zeros summed per host; the (index, count) pairs
    exploded with arrays_zip and summed per (host, index), and per index for the fleet.
    Returns (alpha, {host: (zeros, [(index, count)...])}, (zeros, [...]) for the fleet), or
    None when the summaries carry no such sketch (a gcperf without them)."""
    if not has_field(summaries.schema, (kind, sketch)):
        return None
    s = (summaries.where(F.col(f"{kind}.{sketch}").isNotNull())
         .select("host", F.col(f"{kind}.{sketch}").alias("s")))
    per_host_zeros = (s.groupBy("host")
                      .agg(F.sum("s.zeros").alias("zeros"), F.collect_set("s.alpha").alias("alphas"))
                      .collect())
    alphas = sorted({a for r in per_host_zeros for a in r["alphas"]})
    if len(alphas) > 1:
        fail(f"{kind}.{sketch}: sketches of different alpha {alphas} cannot be merged")
    if not alphas:
        return None
    zeros = {r["host"]: r["zeros"] for r in per_host_zeros}
    buckets = (s.select("host", F.explode(F.arrays_zip("s.index", "s.count")).alias("b"))
               .select("host", F.col("b.index").alias("index"), F.col("b.count").alias("count")))
    by_host = buckets.groupBy("host", "index").agg(F.sum("count").alias("count"))
    by_host.cache()
    fleet = by_host.groupBy("index").agg(F.sum("count").alias("count"))
    # The merged buckets are few (a few thousand at most whatever the number of values: the
    # sketch's buckets grow with the log of the range, not with the count), so the last step,
    # the quantile, runs in the driver.
    hosts = defaultdict(list)
    for r in by_host.collect():
        hosts[r["host"]].append((r["index"], r["count"]))
    fleet_buckets = sorted((r["index"], r["count"]) for r in fleet.collect())
    by_host.unpersist()
    per_host = {h: (zeros.get(h, 0), sorted(hosts.get(h, []))) for h in set(zeros) | set(hosts)}
    return alphas[0], per_host, (sum(zeros.values()), fleet_buckets)


def sketch_quantile(alpha, zeros, buckets, q):
    """Quantile q of a merged sketch, as gcperf defines it: rank r = q*(n-1), the values at
    floor(r) and the next rank interpolated linearly. A rank below `zeros` is 0; any other is
    the value of the bucket holding it (in index order), 2*gamma^i/(gamma+1), within alpha
    (relative) of every value in that bucket. None for an empty sketch."""
    n = zeros + sum(c for _, c in buckets)
    if n == 0:
        return None
    gamma = (1 + alpha) / (1 - alpha)
    ends = []  # ends[j]: how many bucketed values lie in buckets 0..j
    total = 0
    for _, c in buckets:
        total += c
        ends.append(total)

    def value_at(k):
        if k < zeros:
            return 0.0
        j = bisect.bisect_right(ends, k - zeros)
        return 2 * gamma ** buckets[j][0] / (gamma + 1)

    r = q * (n - 1)
    lo = math.floor(r)
    v = value_at(lo)
    return v if r == lo else v + (r - lo) * (value_at(lo + 1) - v)


def print_table(figures):
    cols = [("host", "host"), ("files", "files"), ("no rec", "files_without_records"),
            ("gc logs", "gc_logs"), ("pauses", "pauses"), ("pause ms", "pause_total_ms"),
            ("pause max", "pause_max_ms"), ("pause p99", "pause_p99_ms"),
            ("p99~", "pause_p99_ms_merged"), ("perf logs", "perf_logs"),
            ("requests", "requests"), ("errors", "errors"), ("total ms", "total_ms_sum"),
            ("total max", "total_ms_max"), ("total p99", "total_ms_p99"),
            ("p99~", "total_ms_p99_merged")]

    def cell(v):
        if v is None:
            return "-"
        if isinstance(v, float):
            return f"{v:.2f}" if abs(v) >= 0.01 or v == 0 else f"{v:.4g}"
        return str(v)

    rows = [[h] + [cell(f[k]) for _, k in cols[1:]] for h, f in figures["hosts"].items()]
    rows.append(["FLEET"] + [cell(figures["fleet"][k]) for _, k in cols[1:]])
    widths = [max(len(c[0]), *(len(r[i]) for r in rows)) for i, c in enumerate(cols)]
    line = lambda r: "  ".join(v.ljust(w) if i == 0 else v.rjust(w)
                               for i, (v, w) in enumerate(zip(r, widths)))
    print(line([c[0] for c in cols]))
    for r in rows[:-1]:
        print(line(r))
    print(line(rows[-1]))
    print("(ms; p99~: from the merged sketches, within 1 % of the exact p99; -: no such figure)")


def main(argv=None):
    args = parse_args(argv if argv is not None else sys.argv[1:])
    binary = os.path.abspath(args.gcperf)
    if not os.path.isfile(binary):
        fail(f"no gcperf binary at {binary}")
    groups = hosts_of(args.list, args.root)
    out = os.path.abspath(args.out)
    export_dir = os.path.join(out, "export")
    # Exports only ever add parts: an old export's rows would be read with the new ones.
    if os.path.exists(export_dir) and os.listdir(export_dir):
        fail(f"{export_dir} already holds an export; remove it or give another --out")
    os.makedirs(export_dir, exist_ok=True)

    builder = (SparkSession.builder.appName("gcperf-fleet")
               .config("spark.ui.showConsoleProgress", "false"))
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("WARN")
    sc = spark.sparkContext

    sc.addFile(binary)
    tasks = args.tasks or sc.defaultParallelism
    # The queries group by host (or not at all): their shuffles carry a row per host, so
    # Spark's default 200 shuffle partitions would be 200 near-empty tasks per step. As many
    # as the tasks, unless the Spark configuration says otherwise.
    if not sc.getConf().contains("spark.sql.shuffle.partitions"):
        spark.conf.set("spark.sql.shuffle.partitions", str(tasks))
    work = sorted(groups.items())
    rdd = sc.parallelize(work, max(1, min(tasks, len(work))))
    # One action, collected once: the tasks' results are small (a record per host, a summary
    # line per log file), and running the RDD a second time (a second action over it, or an
    # evicted cache) would run every export again and write every part twice.
    try:
        results = rdd.mapPartitions(host_task(os.path.basename(binary), export_dir)).collect()
    except Exception as e:  # a Py4JJavaError wrapping the task's RuntimeError
        msgs = sorted(set(re.findall(FAILED + r": [^\n]*", str(e))))
        fail("a gcperf run failed:\n  " + "\n  ".join(msgs or [str(e)[:4000]]))

    runs = sorted((r for k, r in results if k == "host"), key=lambda r: r["host"])
    lines = [r for k, r in results if k == "summary"]
    drop_orphan_parts(export_dir, runs)
    with open(os.path.join(out, "runs.json"), "w", encoding="utf-8") as f:
        json.dump([{k: v for k, v in r.items() if k != "parts"} for r in runs], f, indent=2)
    for r in runs:
        if r["export_exit"] == 1 or r["summary_exit"] == 1:
            print(f"host {r['host']}: nothing readable in its {r['files']} file(s) "
                  f"(export exit {r['export_exit']}, summary exit {r['summary_exit']}): "
                  + r["stderr_tail"].strip().replace("\n", " | ")[-300:])

    # The summary lines as a table, kept as Parquet for later questions.
    summaries_dir = os.path.join(out, "summaries")
    spark.read.json(sc.parallelize(lines, max(1, min(tasks, len(lines))))) \
        .write.mode("overwrite").parquet(summaries_dir)
    summaries = spark.read.parquet(summaries_dir)

    for name in ("gc", "perf", "files"):
        table(spark, export_dir, name).createOrReplaceTempView(name)
    summaries.createOrReplaceTempView("summaries")

    # The exact figures: fleet.sql's statements, run as written there.
    sql = sql_statements(args.sql)
    per_host = {r["host"]: r.asDict() for r in spark.sql(sql["per_host"]).collect()}
    fleet_row = spark.sql(sql["fleet"]).collect()[0].asDict()

    # The merged figures: the summaries' sketches, merged per host and for the fleet.
    merged = {}
    for kind, sketch, figure in (("gc", "pause_ms_sketch", "pause_p99_ms_merged"),
                                 ("perf", "total_ms_sketch", "total_ms_p99_merged")):
        m = merged_buckets(summaries, kind, sketch)
        if m is None and kind in summaries.columns and not has_field(summaries.schema,
                                                                       (kind, sketch)):
            print(f"fleet.py: the summaries carry no {kind}.{sketch} (a gcperf older than the "
                  f"sketches): {figure} is null", file=sys.stderr)
        merged[figure] = m

    def figures(row, host):
        f = {k: row.get(k) for k in FIGURES if not k.endswith("_merged")}
        for figure, m in merged.items():
            if m is None:
                f[figure] = None
                continue
            alpha, by_host, fleet = m
            zeros, buckets = fleet if host is None else by_host.get(host, (0, []))
            f[figure] = sketch_quantile(alpha, zeros, buckets, 0.99)
        return {k: f[k] for k in FIGURES}

    result = {
        "hosts": {h: figures(per_host[h], h) for h in sorted(per_host)},
        "fleet": figures(fleet_row, None),
    }
    with open(os.path.join(out, "fleet.json"), "w", encoding="utf-8") as f:
        json.dump(result, f, indent=2)
    print_table(result)
    print(f"wrote {out}/fleet.json, runs.json, summaries/ and export/")
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
