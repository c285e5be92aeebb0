#!/usr/bin/env python3
"""Check the README's Export SQL against gcperf's own figures.

Exports fixtures/ with `gcperf export`, runs every ```sql block of the README's "## Export"
section with DuckDB on the files written, and compares:

- the band query with `gcperf perf fixtures/ --format json`: requests, every latency band's
  count, the counts and shares over 50 and 150 ms, per file;
- the GC query with `gcperf summary fixtures/ --format json`: collections, pauses, pause
  total and longest pause, per file;
- the hourly query's requests and errors with the totals of `gcperf perf`;
- DuckDB's quantile_cont with gcperf's p50/p90/p95/p99 per file;
- the result table shown in the README with the band query's output.

Usage: python3 benches/export_sql_check.py [path/to/gcperf]   (default target/release/gcperf)
Needs `pip install duckdb`; without it, prints SKIPPED and exits 0. Exit 1 on a mismatch.
"""

import json
import math
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BANDS = ["0", "0-50", "50-200", "200-1000", "1000-3000", "3000-10000", ">10000"]
# Request times on and around every band edge and threshold (the fixtures have no 0 ms
# request and few on an edge): a semicolon log written for the check.
EDGES = [0, 0, 0.5, 50, 50.5, 150, 151, 200, 200.5, 1000, 1001, 3000, 3000.5, 10000, 10001, 99999]

failures = []


def check(what, got, want, tol=0.0):
    ok = (
        math.isclose(got, want, rel_tol=tol, abs_tol=tol)
        if isinstance(want, float) or isinstance(got, float)
        else got == want
    )
    if not ok:
        failures.append(f"{what}: SQL {got!r}, gcperf {want!r}")


def gcperf_json(exe, *args):
    out = subprocess.run(
        [exe, *args, "--format", "json"], cwd=ROOT, capture_output=True, check=True
    )
    return json.loads(out.stdout)


def export_sql_blocks():
    readme = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    section = readme.split("\n## Export\n", 1)[1].split("\n## ", 1)[0]
    return section, re.findall(r"```sql\n(.*?)```", section, re.S)


def compare_bands(cols, rows, perf):
    for r in rows:
        d = dict(zip(cols, r))
        p = perf.get(d["file"])
        if p is None:
            failures.append(f"{d['file']}: not in gcperf perf's output")
            continue
        f = d["file"]
        check(f"{f} requests", d["requests"], p["requests"])
        got_bands = {b["label"]: b["count"] for b in p["bands"]}
        check(f"{f} band labels", list(got_bands), BANDS)
        for b in BANDS:
            check(f"{f} band {b}", d[b], got_bands.get(b))
        over = {o["ms"]: o for o in p["over"]}
        for ms in (50, 150):
            check(f"{f} over {ms}", d[f"over_{ms}"], over[float(ms)]["count"])
            check(f"{f} over {ms} %", float(d[f"over_{ms}_pct"]),
                  over[float(ms)]["share_pct"], 1e-9)


def edge_log(path):
    with open(path, "w") as f:
        for i, t in enumerate(EDGES):
            f.write(f"[{i:032X}];2012-09-21 12:00:{i:02d}.000;{t};{t};0;1;op{i % 3};\n")


def markdown(cols, rows):
    def cell(v):
        return f"{v:.4f}" if isinstance(v, float) else str(v)

    out = ["| " + " | ".join(cols) + " |"]
    out.append("|" + "|".join("---" for _ in cols) + "|")
    out += ["| " + " | ".join(cell(v) for v in r) + " |" for r in rows]
    return "\n".join(out)


def main():
    exe = os.path.abspath(
        sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target/release/gcperf")
    )
    try:
        import duckdb
    except ImportError:
        print("SKIPPED: python duckdb is not installed (pip install duckdb)")
        return 0

    section, blocks = export_sql_blocks()
    if len(blocks) < 3:
        print(f"FAIL: expected 3 SQL blocks in the README's Export section, found {len(blocks)}")
        return 1
    perf = {o["file"]: o["perf"] for o in gcperf_json(exe, "perf", "fixtures/")}
    gc = {
        o["file"]: o["gc"]
        for o in gcperf_json(exe, "summary", "fixtures/")
        if o.get("kind") == "gc"
    }

    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            [exe, "export", "fixtures/", "--out", os.path.join(tmp, "export"), "-q"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        written = out.stdout.split()
        check("tables written", sorted(os.path.basename(os.path.dirname(p)) for p in written),
              ["files", "gc", "perf"])
        # The README's paths are relative: export/perf/*.parquet.
        os.chdir(tmp)
        con = duckdb.connect()
        band_table = None
        band_sql = None
        for sql in blocks:
            rel = con.sql(sql)
            cols = rel.columns
            rows = rel.fetchall()
            if not rows:
                failures.append(f"no rows from:\n{sql}")
                continue
            if "0-50" in cols:
                # The README shows the performance fixtures' rows (fixtures/ also holds the
                # fuzzer's cases and the correlate run).
                band_table = markdown(cols, [r for r in rows if r[0].startswith("fixtures/perf/")])
                band_sql = sql
                check("perf files", sorted(r[0] for r in rows), sorted(perf))
                compare_bands(cols, rows, perf)
            elif "pause_total_ms" in cols:
                check("gc files", sorted(r[0] for r in rows), sorted(gc))
                for r in rows:
                    d = dict(zip(cols, r))
                    g = gc.get(d["file"])
                    if g is None:
                        continue
                    f = d["file"]
                    for k in ("collections", "pauses"):
                        check(f"{f} {k}", d[k], g[k])
                    check(f"{f} pause_total_ms", d["pause_total_ms"], g["pause_total_ms"], 1e-9)
                    check(f"{f} pause_max_ms", d["pause_max_ms"], g["pause_max_ms"], 1e-12)
            elif "hour" in cols:
                d = [dict(zip(cols, r)) for r in rows]
                check("hourly requests", sum(x["requests"] for x in d),
                      sum(p["requests"] for p in perf.values()))
                check("hourly errors", sum(x["errors"] for x in d),
                      sum(p["errors"] for p in perf.values()))
            else:
                failures.append(f"SQL block not checked:\n{sql}")
        # The band query on band edges: the same path, another export.
        if band_sql is not None:
            edge = os.path.join(tmp, "edges.log")
            edge_log(edge)
            subprocess.run([exe, "export", edge, "--out", os.path.join(tmp, "edges")],
                           check=True, capture_output=True)
            rel = con.sql(band_sql.replace("export/perf/", "edges/perf/"))
            rows = rel.fetchall()
            want = {o["file"]: o["perf"] for o in gcperf_json(exe, "perf", edge)}
            check("edge-log rows", len(rows), 1)
            compare_bands(rel.columns, rows, want)
            d = dict(zip(rel.columns, rows[0]))
            # By hand: 0 ms twice; 0.5 and 50 in 0-50; 50.5, 150, 151, 200 in 50-200; ...
            check("edge-log bands by hand", [d[b] for b in BANDS], [2, 2, 4, 2, 2, 2, 2])
            print(f"edge log {EDGES} ms: bands {[d[b] for b in BANDS]}, "
                  f"over 50: {d['over_50']}, over 150: {d['over_150']}")
        # Percentiles: DuckDB's quantile_cont is gcperf's linear interpolation.
        q = con.sql(
            "SELECT file, quantile_cont(total_ms, [0.5, 0.9, 0.95, 0.99]) "
            "FROM read_parquet('export/perf/*.parquet') GROUP BY file"
        ).fetchall()
        for f, qs in q:
            for p, v in zip(("p50", "p90", "p95", "p99"), qs):
                check(f"{f} {p}", v, perf[f][f"total_ms_{p}"], 1e-9)

    if band_table is None:
        failures.append("no band query (a result column `0-50`) in the README")
    elif band_table not in section:
        failures.append("README's result table differs from the query's output:\n" + band_table)
    print(band_table or "")
    if failures:
        print("FAIL:\n  " + "\n  ".join(failures))
        return 1
    print(f"OK: {len(blocks)} SQL blocks agree with gcperf perf and gcperf summary on fixtures/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
