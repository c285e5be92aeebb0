#!/usr/bin/env python3
"""Generate a big JMeter XML results file (a .jtl saved as XML) for benchmarking issue 38.

    python3 benches/perf_gen_xml.py --mib 512 --out /tmp/jmeter-512m.jtl

What it holds, so that a benchmark on it means something:
- top-level `<httpSample>`s (the requests) over 6 labels, long-tailed `t` (log-normal body,
  ~0.5 % slow outliers up to 30 s), `ts` non-decreasing epoch ms over hours;
- ~30 % with embedded resources as nested `<httpSample>`s (never counted again), ~5 % as
  a transaction `<sample>` whose children are `<httpSample>`s;
- ~1.5 % failures: a 5xx code with its message, or a 200 whose `<assertionResult>` failed;
- one sample per line group, indented as JMeter writes it.

It prints the truth to stderr, for the benchmark to check gcperf's figures against: the
top-level samples, the failed ones, the sum and the maximum of their `t`.
Deterministic: the same --seed and --mib give a byte-identical file.
"""
import argparse
import math
import random
import sys

LABELS = [("login", 30, 80.0), ("search", 25, 150.0), ("product", 20, 60.0),
          ("cart", 12, 90.0), ("checkout", 8, 300.0), ("logout", 5, 20.0)]
RESOURCES = ["/static/app.js", "/static/app.css", "/img/logo.png"]
START_MS = 1_733_390_000_000


def attrs(t, ts, ok, lb, rc, rm, tn):
    return (f't="{t}" it="0" lt="{max(t - 5, 0)}" ct="3" ts="{ts}" s="{"true" if ok else "false"}" '
            f'lb="{lb}" rc="{rc}" rm="{rm}" tn="{tn}" dt="text" by="2048" sby="310" ng="8" na="8"')


def generate(limit, seed, out):
    rng = random.Random(seed)
    weights = [w for _, w, _ in LABELS]
    n = failed = total_t = max_t = 0
    written = 0
    ts = START_MS
    head = '<?xml version="1.0" encoding="UTF-8"?>\n<testResults version="1.2">\n'
    out.write(head)
    written += len(head)
    chunk = []
    while written < limit:
        lb, _, median = rng.choices(LABELS, weights)[0]
        if rng.random() < 0.005:
            t = int(math.exp(rng.uniform(math.log(1000), math.log(30000))))
        else:
            t = int(median * math.exp(rng.gauss(0, 0.8)))
        ts += rng.randint(0, 40)
        tn = f"Thread Group 1-{rng.randint(1, 50)}"
        r = rng.random()
        lines = []
        if r < 0.01:
            lines.append(f"<httpSample {attrs(t, ts, False, lb, 500, 'Internal Server Error', tn)}/>")
            failed += 1
        elif r < 0.015:
            lines.append(f"<httpSample {attrs(t, ts, False, lb, 200, 'OK', tn)}>")
            lines.append("  <assertionResult>")
            lines.append("    <name>Response Assertion</name>")
            lines.append("    <failure>true</failure>")
            lines.append("    <error>false</error>")
            lines.append("    <failureMessage>Test failed: text expected to contain /Welcome/"
                         "</failureMessage>")
            lines.append("  </assertionResult>")
            lines.append("</httpSample>")
            failed += 1
        elif r < 0.065:
            lines.append(f"<sample {attrs(t, ts, True, lb + ' transaction', 200, 'OK', tn)}>")
            half = t // 2
            lines.append(f"  <httpSample {attrs(half, ts, True, lb, 200, 'OK', tn)}/>")
            lines.append(f"  <httpSample {attrs(t - half, ts + half, True, lb + ' 2', 200, 'OK', tn)}/>")
            lines.append("</sample>")
        elif r < 0.365:
            lines.append(f"<httpSample {attrs(t, ts, True, lb, 200, 'OK', tn)}>")
            for res in RESOURCES:
                lines.append(f"  <httpSample {attrs(t // 4, ts, True, res, 200, 'OK', tn)}/>")
            lines.append("</httpSample>")
        else:
            lines.append(f"<httpSample {attrs(t, ts, True, lb, 200, 'OK', tn)}/>")
        n += 1
        total_t += t
        max_t = max(max_t, t)
        text = "\n".join(lines) + "\n"
        written += len(text)
        chunk.append(text)
        if len(chunk) >= 20000:
            out.write("".join(chunk))
            chunk.clear()
    chunk.append("</testResults>\n")
    out.write("".join(chunk))
    return n, failed, total_t, max_t


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mib", type=int, default=512, help="size to reach, MiB (default 512)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=5)
    a = ap.parse_args()
    with open(a.out, "w", encoding="ascii", newline="\n", buffering=8 << 20) as out:
        n, failed, total_t, max_t = generate(a.mib << 20, a.seed, out)
    print(f"requests {n} failed {failed} sum_t {total_t} max_t {max_t} mean_t {total_t / n:.4f}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
