#!/usr/bin/env python3
"""Generate many HotSpot GC logs for `gcperf compare` at the source documents' scale (issue 12:
72 JVM option sets).

    python3 benches/compare_gen.py --out /tmp/cmp --runs 72

Run k (opt-00 .. opt-71) has 40 + k young pauses of a log-normal duration whose median grows
with k (2 ms to ~60 ms), a few full collections on every 5th run, and run 37 one
pathological option set: 122 full collections of 2 s each (244 s of pauses) that flattens
every other bar on a linear axis. Deterministic for a given --seed.
"""
import argparse
import math
import os
import random


def run_log(k, rng):
    lines = []
    t = 1.0
    median = 2.0 * math.exp(k * math.log(30.0) / 71.0)
    heap = 262144
    for _ in range(40 + k):
        t += rng.uniform(0.5, 2.0)
        d = median * math.exp(rng.gauss(0.0, 0.6)) / 1000.0
        lines.append(f"{t:.3f}: [GC {heap - 60000}K->{heap - 200000}K({heap}K), {d:.7f} secs]")
        t += d
    fulls = 122 if k == 37 else (3 if k % 5 == 0 else 0)
    for _ in range(fulls):
        t += rng.uniform(0.5, 2.0)
        d = 2.0 if k == 37 else median * 10 / 1000.0
        lines.append(f"{t:.3f}: [Full GC {heap - 10000}K->{heap - 220000}K({heap}K), {d:.7f} secs]")
        t += d
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--runs", type=int, default=72)
    ap.add_argument("--seed", type=int, default=12)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    os.makedirs(a.out, exist_ok=True)
    for k in range(a.runs):
        with open(os.path.join(a.out, f"opt-{k:02d}.log"), "w") as f:
            f.write(run_log(k, rng))


if __name__ == "__main__":
    main()
