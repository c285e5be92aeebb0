#!/usr/bin/env python3
"""Checks examples/spark/fleet.py, fleet.sql and fleet_duckdb.sql against gcperf's own figures.

    python3 tests/spark/check_fleet.py --gcperf target/release/gcperf [--keep DIR]

1. Builds a fleet of 22 hosts (host00..host21) from fixtures/: GC logs of every family and
   performance logs of every kind, a gzipped copy, two hosts' `gc.log` with different contents,
   an empty file, a listed path that is not there, a host whose only file holds no records
   (its gcperf runs exit 1: the job must go on) and a log of 0 ms requests (the sketches'
   zeros).
2. Runs the job: `python3 fleet.py --master local[2] --tasks 8`.
3. Works out the reference on one machine: per host, one `gcperf summary --format json` run
   over its files, every pause from `gcperf gc --events` and every request's total from a
   `gcperf export` of its performance logs read with DuckDB (no other gcperf output lists
   each request's time); counts, sums, maxima and the exact p99 (linear interpolation, done
   here) per host and for the fleet, and a merge of the summaries' sketches done here.
4. Compares: the job's fleet.json with the reference (counts equal, floats to 1e-9 relative,
   merged p99s within the sketches' 1 % of the exact ones); the export's tables with the files
   table and the summaries; fleet_duckdb.sql run by DuckDB with the job's figures.

Prints `ok: ...` per group of checks, one line per failed check, and a count. Exit 0 when all
pass, 1 otherwise, 77 when pyspark or duckdb cannot be imported. The fleet and the outputs are
in a temporary folder, removed at the end, or in DIR with --keep (an empty or new folder).
"""

import argparse
import csv
import gzip
import io
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "fixtures"
JOB = REPO / "examples" / "spark" / "fleet.py"
DUCKDB_SQL = REPO / "examples" / "spark" / "fleet_duckdb.sql"

REL = 1e-9          # floats that are the same sum or percentile in another engine
ALPHA = 0.01        # the sketches' stated relative error
HOSTS = 22

# The fleet: host -> [(source, name in the host's folder)]. A source is a fixture's path, or
# gzip:PATH (that fixture gzipped), "empty" (an empty file), "missing" (listed, never written),
# "zeros" (a semicolon log written here, with 0 ms requests and an error).
FLEET = {
    "host00": [("hotspot/jdk8-g1-details.log", "gc.log"), ("perf/soap-after.log", "app.log")],
    "host01": [("hotspot/cms-diag.log", "gc.log"), ("hotspot/cms-printgcid.log", "gc-old.log"),
               ("perf/jmeter-daytrader.jtl", "results.jtl")],
    "host02": [("jrockit/r26-detgc.log", "gc.log"), ("jrockit/r28-gencon-gcpause.log", "gc2.log")],
    # host03/gc.log and host04/gc.log: the same name, different logs (unified G1, JRockit).
    "host03": [("unified/g1-jdk17.log", "gc.log")],
    "host04": [("jrockit/r26-gencon.log", "gc.log"), ("perf/grinder-data_trader.log", "data.log")],
    "host05": [("unified/zgc-jdk21.log", "gc.log"), ("unified/zgc-jdk17-stalls.log", "stalls.log")],
    "host06": [("ibm-text/optavgpause-variants.log", "verbosegc.log"),
               ("ibm-text/optthruput-af.log", "verbosegc.001.log")],
    "host07": [("j9-xml/gencon-r28.xml", "verbosegc.xml"),
               ("j9-xml-balanced/pgc-gmp.xml", "verbosegc-balanced.xml")],
    "host08": [("perf/jmeter-daytrader.jtl", "results.jtl")],
    "host09": [("perf/grinder-data_trader.log", "data_trader.log")],
    "host10": [("perf/soap-before.log", "app.log"), ("hotspot/parallel-diag.log", "gc.log")],
    "host11": [("jmeter-xml/mixed.jtl", "results.jtl"), ("jmeter-xml/damaged.jtl", "damaged.jtl")],
    "host12": [("k6-csv/results.csv", "k6.csv"), ("k6-json/results.json", "k6.json")],
    "host13": [("gatling/v2.0-simulation.log", "sim-2.0.log"),
               ("gatling/v2.3-simulation.log", "sim-2.3.log"),
               ("gatling/v3.0-simulation.log", "sim-3.0.log"),
               ("gatling/v3.5-simulation.log", "sim-3.5.log")],
    "host14": [("access-caddy/access.log", "caddy.log"), ("access-haproxy/haproxy.log", "haproxy.log"),
               ("hotspot/serial-diag.log", "gc.log")],
    "host15": [("access-iis/u_ex240305.log", "u_ex240305.log"), ("access-uwsgi/uwsgi.log", "uwsgi.log")],
    "host16": [("zeros", "edge.log"), ("unified/serial-young-into-full.log", "gc.log")],
    "host17": [(f"unified-decorations/{n}", n.replace("g1-jdk17-", "g1 ")) for n in (
        "g1-jdk17-hostname-pid-tid.log", "g1-jdk17-time-uptime-level.log", "g1-jdk17-time.log",
        "g1-jdk17-timemillis.log", "g1-jdk17-uptime.log", "g1-jdk17-uptimemillis.log",
        "g1-jdk17-uptimenanos.log")],
    "host18": [("hotspot/cms-remark-printed-inside-open-parnew.log", "gc.log"),
               ("hotspot/cms-scavenge-before-remark-jdk8.log", "gc.log.1"),
               ("hotspot/jdk142-parnew-cms-incremental.log", "gc.log.2"),
               ("hotspot/jdk8-parallel-datestamps.log", "gc.log.3"),
               ("missing", "gc.log.4")],
    "host19": [("jrockit/r27-detgc-target.log", "gc.log"), ("jrockit/r28-diag.log", "gc-diag.log"),
               ("empty", "empty.log")],
    # Nothing readable: both gcperf runs for this host exit 1, and the job goes on.
    "host20": [("bad/README.md", "notes.log")],
    "host21": [("gzip:perf/soap-after.log", "app.log.gz"), ("gzip:hotspot/g1-jdk8-diag.log", "gc.log.gz"),
               ("unified/cms-scavenge-before-remark-jdk11.log", "gc-cms.log")],
}
ALIKE = ("host03", "host04")        # each holds a gc.log
NO_RECORDS_FILE = ("host19", "empty.log")
MISSING_FILE = ("host18", "gc.log.4")
EXIT1_HOST = "host20"
ZEROS = [0, 0, 0.5, 1, 3, 0, 50, 150, 151, 1000, 7, 0.25, 12, 0]


# ---------------------------------------------------------------------------------------------
# Checks: failures are kept per group; a group with none prints one `ok:` line.

class Checks:
    def __init__(self):
        self.failed = []
        self.groups = 0
        self.count = 0
        self._group = None

    def start(self, title):
        self._group, self._failed_before = title, len(self.failed)

    def end(self, detail=""):
        self.groups += 1
        n = len(self.failed) - self._failed_before
        if n == 0:
            print(f"ok: {self._group}{f' ({detail})' if detail else ''}", flush=True)
        else:
            for line in self.failed[self._failed_before:]:
                print(f"FAIL: {line}", flush=True)

    def that(self, what, ok, detail=""):
        self.count += 1
        if not ok:
            self.failed.append(f"{self._group}: {what}{': ' + detail if detail else ''}")

    def equal(self, what, got, want, rel=0.0):
        self.that(what, same(got, want, rel), f"got {got!r}, want {want!r}")

    def within(self, what, approx, exact, rel):
        """approx within rel (relative) of exact; both null is fine, one null is not."""
        if approx is None or exact is None:
            self.that(what, approx is None and exact is None, f"got {approx!r}, exact {exact!r}")
            return
        ok = abs(approx - exact) <= rel * abs(exact) * (1 + 1e-9) + 1e-12
        err = abs(approx - exact) / abs(exact) if exact else float("inf")
        self.that(what, ok, f"{approx!r} vs exact {exact!r} ({err:.3%} off, allowed {rel:.0%})")


def same(got, want, rel=0.0):
    if got is None or want is None:
        return got is None and want is None
    if isinstance(got, bool) or isinstance(want, bool):
        return got == want
    if isinstance(got, float) or isinstance(want, float):
        return math.isclose(got, want, rel_tol=rel, abs_tol=1e-12)
    return got == want


# ---------------------------------------------------------------------------------------------
# Percentiles and sketches, worked out here and not taken from fleet.py.

def p99(values):
    """The exact 0.99 quantile by linear interpolation between closest ranks."""
    return quantile(sorted(values), 0.99)


def quantile(ordered, q):
    if not ordered:
        return None
    r = q * (len(ordered) - 1)
    lo = math.floor(r)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (r - lo) * (ordered[hi] - ordered[lo])


def merge(sketches):
    """Sum of sketches: zeros added, counts added by index. Returns (alpha, zeros, {i: c})."""
    alpha, zeros, counts = None, 0, defaultdict(int)
    for s in sketches:
        if alpha is not None and s["alpha"] != alpha:
            raise ValueError(f"sketches of alpha {alpha} and {s['alpha']}")
        alpha = s["alpha"]
        zeros += s["zeros"]
        for i, c in zip(s["index"], s["count"]):
            counts[i] += c
    return alpha, zeros, counts


def merged_quantile(sketches, q):
    """Quantile q of the merged sketches, by the definition gcperf states: ranks expanded
    one by one (slow, plain, independent of fleet.py's cumulative search)."""
    if not sketches:
        return None
    alpha, zeros, counts = merge(sketches)
    gamma = (1 + alpha) / (1 - alpha)
    values = [0.0] * zeros
    for i in sorted(counts):
        values += [2 * gamma ** i / (gamma + 1)] * counts[i]
    return quantile(values, q)


# ---------------------------------------------------------------------------------------------
# The fleet.

def build_fleet(root):
    """Writes the fleet's files under root; returns {host: [absolute paths]} in list order."""
    hosts = {}
    for host, files in FLEET.items():
        folder = root / host
        folder.mkdir(parents=True)
        paths = []
        for source, name in files:
            dest = folder / name
            if source == "empty":
                dest.write_bytes(b"")
            elif source == "missing":
                pass
            elif source == "zeros":
                with open(dest, "w") as f:
                    for i, t in enumerate(ZEROS):
                        err = "e-Timeout" if i == 4 else ""
                        f.write(f"[{i:032X}];2012-09-21 12:00:{i:02d}.000;{t};{t};0;1;op{i % 3};{err}\n")
            elif source.startswith("gzip:"):
                dest.write_bytes(gzip.compress((FIXTURES / source[5:]).read_bytes(), mtime=0))
            else:
                shutil.copyfile(FIXTURES / source, dest)
            paths.append(str(dest))
        hosts[host] = paths
    return hosts


def run(cmd, ok_codes=(0,), **kw):
    r = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kw)
    if r.returncode not in ok_codes:
        raise RuntimeError(f"{' '.join(map(str, cmd))[:300]} exited {r.returncode}:\n{r.stderr[-3000:]}")
    return r


def reference(exe, hosts, work, duckdb):
    """Per host: the summary objects by file, every pause by file, every request's
    (total_ms, ok) by file; all from gcperf run here on one machine."""
    ref = {}
    for host, paths in hosts.items():
        s = run([exe, "summary", "--format", "json", "-q", "--tag", f"host={host}", *paths],
                ok_codes=(0, 1))
        summaries = {o["file"]: o for o in json.loads(s.stdout)}
        gc_files = [p for p in paths if summaries[p].get("kind") == "gc"]
        perf_files = [p for p in paths if summaries[p].get("kind") == "perf"]
        pauses = defaultdict(list)
        if gc_files:
            # Without --all-records, --events lists the pauses only; the record column is
            # checked anyway, the way the summary counts them (record = pause).
            out = run([exe, "gc", "--events", "--format", "csv", "-q", *gc_files]).stdout
            for row in csv.DictReader(io.StringIO(out)):
                if row["record"] == "pause":
                    pauses[row["file"]].append(float(row["duration_ms"]))
        requests = defaultdict(list)
        if perf_files:
            folder = work / "ref-export" / host
            run([exe, "export", "-q", "--out", folder, *perf_files])
            rows = duckdb.sql(
                f"SELECT file, total_ms, ok FROM read_parquet('{folder}/perf/*.parquet')").fetchall()
            for f, t, ok in rows:
                requests[f].append((t, ok))
        ref[host] = {"summaries": summaries, "pauses": pauses, "requests": requests,
                     "summary_exit": s.returncode}
    return ref


def expected_figures(hosts_ref):
    """The figures of one host, or of the fleet (several hosts' references together)."""
    objs = [o for r in hosts_ref for o in r["summaries"].values()]
    pauses = [v for r in hosts_ref for vs in r["pauses"].values() for v in vs]
    reqs = [q for r in hosts_ref for qs in r["requests"].values() for q in qs]
    gc_logs = sum(1 for o in objs if o.get("kind") == "gc")
    perf_logs = sum(1 for o in objs if o.get("kind") == "perf")
    totals = [t for t, _ in reqs]
    # A log without pauses (requests) has a null sketch: it adds nothing to the merge.
    gc_sketches = [o["gc"]["pause_ms_sketch"] for o in objs
                   if o.get("kind") == "gc" and o["gc"].get("pause_ms_sketch")]
    perf_sketches = [o["perf"]["total_ms_sketch"] for o in objs
                     if o.get("kind") == "perf" and o["perf"].get("total_ms_sketch")]
    return {
        "files": len(objs),
        "files_without_records": sum(1 for o in objs if "error" in o),
        "gc_logs": gc_logs,
        "pauses": len(pauses) if gc_logs else None,
        "pause_total_ms": math.fsum(pauses) if pauses else None,
        "pause_max_ms": max(pauses) if pauses else None,
        "pause_p99_ms": p99(pauses),
        "pause_p99_ms_merged": merged_quantile(gc_sketches, 0.99) if pauses else None,
        "perf_logs": perf_logs,
        "requests": len(reqs) if perf_logs else None,
        "errors": sum(1 for _, ok in reqs if not ok) if perf_logs else None,
        "total_ms_sum": math.fsum(totals) if totals else None,
        "total_ms_max": max(totals) if totals else None,
        "total_ms_p99": p99(totals),
        "total_ms_p99_merged": merged_quantile(perf_sketches, 0.99) if totals else None,
    }


EXACT = ["files", "files_without_records", "gc_logs", "pauses", "pause_total_ms", "pause_max_ms",
         "pause_p99_ms", "perf_logs", "requests", "errors", "total_ms_sum", "total_ms_max",
         "total_ms_p99"]


def sql_statements(path):
    """fleet.py's reader of `-- name:` statements (the job's own, so that both read the .sql
    files alike); imported here, after pyspark is known to import."""
    sys.path.insert(0, str(JOB.parent))
    from fleet import sql_statements as read
    return read(path)


# ---------------------------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description="Check examples/spark/fleet.py end to end.")
    ap.add_argument("--gcperf", required=True, help="the gcperf binary to test")
    ap.add_argument("--keep", help="build and keep everything in this (empty or new) folder")
    args = ap.parse_args()

    try:
        import pyspark  # noqa: F401
    except ImportError:
        print("SKIPPED: pyspark cannot be imported (pip install pyspark; it needs Java 17+)")
        return 77
    try:
        import duckdb
    except ImportError:
        print("SKIPPED: duckdb cannot be imported (pip install duckdb)")
        return 77

    exe = os.path.abspath(args.gcperf)
    if args.keep:
        work = Path(args.keep).resolve()
        if work.exists() and any(work.iterdir()):
            print(f"--keep {work}: give an empty or new folder")
            return 2
        work.mkdir(parents=True, exist_ok=True)
    else:
        work = Path(tempfile.mkdtemp(prefix="check-fleet-"))
    started = time.monotonic()
    try:
        return check(exe, work, duckdb, started)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


def check(exe, work, duckdb, started):
    c = Checks()
    root = work / "logs"
    out = work / "out"
    hosts = build_fleet(root)
    listing = work / "paths.txt"
    listing.write_text("".join(p + "\n" for ps in hosts.values() for p in ps), encoding="utf-8")
    n_files = sum(len(p) for p in hosts.values())
    print(f"fleet: {len(hosts)} hosts, {n_files} listed paths under {root}", flush=True)

    # 2. The job.
    t0 = time.monotonic()
    job = subprocess.run(
        [sys.executable, str(JOB), "--gcperf", exe, "--list", str(listing), "--root", str(root),
         "--out", str(out), "--master", "local[2]", "--tasks", "8"],
        capture_output=True, text=True, timeout=1800)
    job_s = time.monotonic() - t0
    print(f"job: exit {job.returncode} in {job_s:.1f} s", flush=True)
    print("".join("  | " + line + "\n" for line in job.stdout.splitlines()), end="")
    c.start("job ran")
    c.equal("exit code", job.returncode, 0)
    if job.returncode != 0:
        print(job.stderr[-5000:])
        c.end()
        return summary_line(c, started)
    c.end()
    fleet = json.loads((out / "fleet.json").read_text())
    runs = {r["host"]: r for r in json.loads((out / "runs.json").read_text())}

    # 3. The reference.
    t0 = time.monotonic()
    ref = reference(exe, hosts, work, duckdb)
    print(f"reference: {time.monotonic() - t0:.1f} s", flush=True)

    gc_logs = [(h, f, o) for h, r in ref.items() for f, o in r["summaries"].items()
               if o.get("kind") == "gc"]
    perf_logs = [(h, f, o) for h, r in ref.items() for f, o in r["summaries"].items()
                 if o.get("kind") == "perf"]

    c.start("reference: gc --events pauses = summary's pauses, total, max, p99 per GC log")
    for h, f, o in gc_logs:
        v = ref[h]["pauses"].get(f, [])
        g = o["gc"]
        c.equal(f"{f} pauses", len(v), g["pauses"])
        if v:
            c.equal(f"{f} pause_total_ms", math.fsum(v), g["pause_total_ms"], REL)
            c.equal(f"{f} pause_max_ms", max(v), g["pause_max_ms"], REL)
            c.equal(f"{f} pause_p99_ms", p99(v), g["pause_p99_ms"], REL)
    c.end(f"{len(gc_logs)} GC logs")

    c.start("reference: exported requests = summary's requests, errors, sum, max, p99 per perf log")
    for h, f, o in perf_logs:
        v = ref[h]["requests"].get(f, [])
        p = o["perf"]
        c.equal(f"{f} requests", len(v), p["requests"])
        c.equal(f"{f} errors", sum(1 for _, ok in v if not ok), p["errors"])
        if v:
            t = [x for x, _ in v]
            c.equal(f"{f} total_ms_sum", math.fsum(t), p["total_ms_sum"], REL)
            c.equal(f"{f} total_ms_max", max(t), p["total_ms_max"], REL)
            c.equal(f"{f} total_ms_p99", p99(t), p["total_ms_p99"], REL)
    c.end(f"{len(perf_logs)} performance logs")

    c.start("sketches: alpha 0.01; zeros and buckets (ceil(ln v / ln gamma)) = the log's pauses / requests")
    for h, f, o in gc_logs + perf_logs:
        kind = o["kind"]
        name = "pause_ms_sketch" if kind == "gc" else "total_ms_sketch"
        s = o[kind].get(name)
        if s is None:
            c.that(f"{f}: no {kind}.{name} in the summary", False)
            continue
        n_values = len(ref[h]["pauses"].get(f, []) if kind == "gc" else ref[h]["requests"].get(f, []))
        c.equal(f"{f} alpha", s["alpha"], ALPHA)
        c.that(f"{f} index ascending", s["index"] == sorted(set(s["index"])), str(s["index"][:10]))
        c.that(f"{f} counts > 0", all(x > 0 for x in s["count"]) and len(s["count"]) == len(s["index"]))
        c.equal(f"{f} zeros + counts", s["zeros"] + sum(s["count"]), n_values)
        values = ref[h]["pauses"].get(f, []) if kind == "gc" else [t for t, _ in ref[h]["requests"].get(f, [])]
        c.equal(f"{f} zeros", s["zeros"], sum(1 for v in values if v <= 0))
        # The buckets, worked out here from the log's values as the spec states them.
        gamma = (1 + ALPHA) / (1 - ALPHA)
        buckets = defaultdict(int)
        for v in values:
            if v > 0:
                i = math.ceil(math.log(v) / math.log(gamma))
                buckets[i] += 1
                rep = 2 * gamma ** i / (gamma + 1)
                c.that(f"{f} value {v} within alpha of its bucket's value {rep}",
                       abs(rep - v) <= ALPHA * v * (1 + 1e-9))
        c.equal(f"{f} buckets", dict(zip(s["index"], s["count"])), dict(buckets))
    c.end(f"{len(gc_logs)} pause and {len(perf_logs)} request sketches")

    # 4. The job's figures.
    want_hosts = {h: expected_figures([ref[h]]) for h in hosts}
    want_fleet = expected_figures(list(ref.values()))

    c.start("job's hosts: every listed host, and only those")
    c.equal("hosts in fleet.json", sorted(fleet["hosts"]), sorted(hosts))
    c.equal("hosts in runs.json", sorted(runs), sorted(hosts))
    c.end(f"{len(hosts)} hosts")

    groups = [
        ("per-host files: files, files_without_records, gc_logs, perf_logs",
         ["files", "files_without_records", "gc_logs", "perf_logs"]),
        ("per-host pauses: count, total, max, exact p99",
         ["pauses", "pause_total_ms", "pause_max_ms", "pause_p99_ms"]),
        ("per-host requests: count, errors, sum, max, exact p99",
         ["requests", "errors", "total_ms_sum", "total_ms_max", "total_ms_p99"]),
    ]
    for title, keys in groups:
        c.start(title)
        for h in hosts:
            for k in keys:
                c.equal(f"{h} {k}", fleet["hosts"].get(h, {}).get(k), want_hosts[h][k], REL)
        c.end(f"{len(hosts)} hosts")

    c.start("fleet: every exact figure")
    for k in EXACT:
        c.equal(f"fleet {k}", fleet["fleet"][k], want_fleet[k], REL)
    c.end(", ".join(f"{k}={want_fleet[k]:.6g}" if isinstance(want_fleet[k], float)
                    else f"{k}={want_fleet[k]}" for k in ("pauses", "pause_p99_ms", "requests",
                                                          "total_ms_p99")))

    c.start("nulls: a host without GC (perf) logs has null pause (request) figures, never 0")
    nulls = 0
    for h, f in fleet["hosts"].items():
        if f["gc_logs"] == 0:
            for k in ("pauses", "pause_total_ms", "pause_max_ms", "pause_p99_ms", "pause_p99_ms_merged"):
                c.equal(f"{h} {k}", f[k], None)
                nulls += 1
        if f["perf_logs"] == 0:
            for k in ("requests", "errors", "total_ms_sum", "total_ms_max", "total_ms_p99",
                      "total_ms_p99_merged"):
                c.equal(f"{h} {k}", f[k], None)
                nulls += 1
    c.end(f"{nulls} null figures")

    c.start("merged p99s: Spark's merge = this script's merge of gcperf's sketches")
    for scope, got, want in [(h, fleet["hosts"][h], want_hosts[h]) for h in hosts] + \
            [("fleet", fleet["fleet"], want_fleet)]:
        for k in ("pause_p99_ms_merged", "total_ms_p99_merged"):
            c.equal(f"{scope} {k}", got.get(k), want[k], REL)
    c.end(f"{len(hosts)} hosts and the fleet")

    c.start("merged fleet percentiles within the stated error (1 %) of the exact ones")
    worst = 0.0
    for scope, got in [(h, fleet["hosts"][h]) for h in hosts] + [("fleet", fleet["fleet"])]:
        for merged, exact in (("pause_p99_ms_merged", "pause_p99_ms"),
                              ("total_ms_p99_merged", "total_ms_p99")):
            c.within(f"{scope} {merged}", got.get(merged), got.get(exact), ALPHA)
            if got.get(merged) is not None and got.get(exact):
                worst = max(worst, abs(got[merged] - got[exact]) / abs(got[exact]))
    f = fleet["fleet"]
    c.end(f"fleet pause p99 {f['pause_p99_ms_merged']!r} vs {f['pause_p99_ms']!r}, request p99 "
          f"{f['total_ms_p99_merged']!r} vs {f['total_ms_p99']!r}; worst {worst:.3%}")

    c.start("runs: exit 1 for the host with nothing readable, 0 for the others")
    for h, r in runs.items():
        want = 1 if h == EXIT1_HOST else 0
        c.equal(f"{h} export exit", r["export_exit"], want)
        c.equal(f"{h} summary exit", r["summary_exit"], want)
        c.equal(f"{h} files", r["files"], len(hosts[h]))
    c.equal("reference summary exit of the exit-1 host", ref[EXIT1_HOST]["summary_exit"], 1)
    c.that(f"{EXIT1_HOST}'s stderr tail says why", "no GC or performance records" in
           runs.get(EXIT1_HOST, {}).get("stderr_tail", ""), repr(runs.get(EXIT1_HOST)))
    c.end(f"{EXIT1_HOST}: exit {runs.get(EXIT1_HOST, {}).get('export_exit')}")

    export_checks(c, out, hosts, ref)
    duckdb_checks(c, duckdb, out, fleet)

    print(f"times: job {job_s:.1f} s, whole check {time.monotonic() - started:.1f} s")
    return summary_line(c, started)


def export_checks(c, out, hosts, ref):
    """The export's tables read with Spark, against the files table and the summaries."""
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F

    spark = (SparkSession.builder.master("local[2]").appName("check-fleet")
             .config("spark.ui.showConsoleProgress", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    try:
        gc = spark.read.parquet(str(out / "export" / "gc"))
        perf = spark.read.parquet(str(out / "export" / "perf"))
        files = spark.read.parquet(str(out / "export" / "files"))
        summaries = spark.read.parquet(str(out / "summaries"))
        frows = [r.asDict() for r in files.collect()]
        listed = sorted(p for ps in hosts.values() for p in ps)

        c.start("export tables: gc and perf hold exactly the GC and the perf rows")
        gc_records = sum(r["records"] for r in frows if r["kind"] == "gc")
        perf_records = sum(r["records"] for r in frows if r["kind"] == "perf")
        n_gc, n_perf = gc.count(), perf.count()
        c.equal("gc rows = files.records of GC logs", n_gc, gc_records)
        c.equal("perf rows = files.records of perf logs", n_perf, perf_records)
        for col in ("operation", "total_ms", "ok", "end_time", "db_ms"):
            c.that(f"no perf column {col} in gc", col not in gc.columns, str(gc.columns))
        for col in ("record", "duration_ms", "gc_id", "collector"):
            c.that(f"no gc column {col} in perf", col not in perf.columns, str(perf.columns))
        c.equal("gc rows' files are GC logs",
                sorted(r[0] for r in gc.select("file").distinct().collect()),
                sorted(r["file"] for r in frows if r["kind"] == "gc" and r["records"] > 0))
        c.equal("perf rows' files are perf logs",
                sorted(r[0] for r in perf.select("file").distinct().collect()),
                sorted(r["file"] for r in frows if r["kind"] == "perf" and r["records"] > 0))
        c.end(f"{n_gc} gc rows, {n_perf} perf rows")

        c.start("files table: one row per listed path, with its host; kind, format, lines, skipped, records = summary's")
        c.equal("files rows", sorted(r["file"] for r in frows), listed)
        by_file = {(r["host"], r["file"]): r for r in frows}
        pause_rows = {(r["host"], r["file"]): r["n"] for r in
                      gc.where("record = 'pause'").groupBy("host", "file").agg(F.count("*").alias("n")).collect()}
        perf_rows = {(r["host"], r["file"]): r["n"] for r in
                     perf.groupBy("host", "file").agg(F.count("*").alias("n")).collect()}
        for h, paths in hosts.items():
            for p in paths:
                row = by_file.get((h, p))
                if row is None:
                    c.that(f"{h} {p}: no files row with this host", False)
                    continue
                o = ref[h]["summaries"][p]
                kind = o.get("kind")
                c.equal(f"{p} kind", row["kind"], kind)
                c.equal(f"{p} format", row["format"], o.get("format"))
                c.equal(f"{p} lines", row["lines"], o.get("lines"))
                c.equal(f"{p} skipped_lines", row["skipped_lines"], o.get("skipped_lines"))
                if kind == "gc":
                    # A summary's `pauses` not equal to the pause rows exported would be
                    # gcperf disagreeing with itself: said here, not smoothed over.
                    c.equal(f"{p} files.pauses = summary pauses", row["pauses"], o["gc"]["pauses"])
                    c.equal(f"{p} pause rows = summary pauses", pause_rows.get((h, p), 0), o["gc"]["pauses"])
                elif kind == "perf":
                    c.equal(f"{p} files.requests = summary requests", row["requests"], o["perf"]["requests"])
                    c.equal(f"{p} perf rows = summary requests", perf_rows.get((h, p), 0), o["perf"]["requests"])
                    c.equal(f"{p} records = requests", row["records"], row["requests"])
                else:
                    c.equal(f"{p} records", row["records"], 0)
                    c.that(f"{p} error", bool(row["error"]), repr(row["error"]))
        c.end(f"{len(frows)} rows")

        c.start("alike-named files: host03/gc.log and host04/gc.log told apart by host")
        a, b = ALIKE
        fa, fb = (str(Path(hosts[h][0]).parent / "gc.log") for h in ALIKE)
        for h, fpath in ((a, fa), (b, fb)):
            n = gc.where((F.col("host") == h) & (F.col("file") == fpath) & (F.col("record") == "pause")).count()
            c.equal(f"{h}/gc.log pause rows", n, ref[h]["summaries"][fpath]["gc"]["pauses"])
            fmt = [r[0] for r in gc.where((F.col("host") == h) & F.col("file").endswith("/gc.log"))
                   .select("format").distinct().collect()]
            c.equal(f"{h}/gc.log format", fmt, [ref[h]["summaries"][fpath]["format"]])
        fmts = {h: ref[h]["summaries"][p]["format"] for h, p in ((a, fa), (b, fb))}
        c.that("the two gc.log are different logs", fmts[a] != fmts[b], str(fmts))
        c.end(f"{a}: {fmts[a]} {ref[a]['summaries'][fa]['gc']['pauses']} pauses, "
              f"{b}: {fmts[b]} {ref[b]['summaries'][fb]['gc']['pauses']} pauses")

        c.start("inputs without records: a files row with records 0 and an error")
        for h, name in (NO_RECORDS_FILE, MISSING_FILE, (EXIT1_HOST, "notes.log")):
            p = str(Path(hosts[h][0]).parent / name)
            row = by_file.get((h, p))
            c.that(f"{h}/{name} has a files row", row is not None)
            if row:
                c.equal(f"{h}/{name} records", row["records"], 0)
                c.that(f"{h}/{name} error", bool(row["error"]), repr(row["error"]))
        c.end(", ".join(f"{h}/{n}: {by_file.get((h, str(Path(hosts[h][0]).parent / n)), {}).get('error')!r}"
                        for h, n in (NO_RECORDS_FILE, MISSING_FILE)))

        c.start("summaries table: one object per listed path, with its host")
        srows = summaries.select("host", "file").collect()
        c.equal("summary rows", sorted(r["file"] for r in srows), listed)
        c.equal("hosts of the summary rows",
                sorted((r["host"], r["file"]) for r in srows),
                sorted((h, p) for h, ps in hosts.items() for p in ps))
        c.end(f"{len(srows)} rows")
    finally:
        spark.stop()


def duckdb_checks(c, duckdb, out, fleet):
    c.start("fleet_duckdb.sql: DuckDB's figures = Spark's, per host and for the fleet")
    sql = sql_statements(DUCKDB_SQL)
    c.equal("statements", sorted(sql), ["fleet", "per_host"])
    export = str(out / "export")
    con = duckdb.connect()
    results = {}
    for name, text in sql.items():
        rel = con.sql(text.replace("{{EXPORT}}", export))
        results[name] = [dict(zip(rel.columns, row)) for row in rel.fetchall()]
    per_host = {r["host"]: r for r in results.get("per_host", [])}
    c.equal("hosts", sorted(per_host), sorted(fleet["hosts"]))
    for h, want in fleet["hosts"].items():
        got = per_host.get(h, {})
        for k in EXACT:
            c.equal(f"{h} {k}", num(got.get(k)), want[k], REL)
    frow = (results.get("fleet") or [{}])[0]
    for k in EXACT:
        c.equal(f"fleet {k}", num(frow.get(k)), fleet["fleet"][k], REL)
    c.end(f"{len(per_host)} hosts and the fleet")


def num(v):
    """DuckDB's HUGEINT sums and DECIMALs as Python numbers."""
    if v is None or isinstance(v, (int, float)):
        return v
    return float(v)


def summary_line(c, started):
    print(f"{c.count} checks in {c.groups} groups, {len(c.failed)} failed "
          f"({time.monotonic() - started:.1f} s)")
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
