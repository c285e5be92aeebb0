#!/usr/bin/env python3
"""Issue 36's one-core-against-two figure, beside the most two cores give on this machine.

    python3 benches/ceiling.py [--rounds N] [--bin BIN] LOG...

Per log, in one loop of N rounds (default 7), interleaved, with `wc -l LOG` timed in the same
loop: `summary -q --format json LOG` on one core (`taskset -c 0`, RAYON_NUM_THREADS=1) and on
both (plain); and two one-core runs at once, one on each core. Those two share nothing but the
machine, so `2 x one / both at once` is the speed-up that no parallel code can beat here (a
virtual machine's two cores may be one core's two hyper-threads, or a busy host's). Prints the
medians and minimums, the one-against-two ratio and that ceiling.
"""
import argparse
import os
import statistics
import subprocess
import time


def timed(cmds, env):
    t = time.perf_counter()
    procs = [subprocess.Popen(c, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
             for c in cmds]
    for p in procs:
        p.wait()
    return time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--bin", default="target/release/gcperf")
    ap.add_argument("logs", nargs="+")
    a = ap.parse_args()
    one_env = dict(os.environ, RAYON_NUM_THREADS="1")
    for log in a.logs:
        run = [a.bin, "summary", "-q", "--format", "json", log]
        t = {"wc": [], "one": [], "two": [], "pair": []}
        for _ in range(a.rounds):
            t["wc"].append(timed([["wc", "-l", log]], os.environ))
            t["one"].append(timed([["taskset", "-c", "0", *run]], one_env))
            t["two"].append(timed([run], os.environ))
            t["pair"].append(timed([["taskset", "-c", "0", *run], ["taskset", "-c", "1", *run]],
                                   one_env))
        med = {k: statistics.median(v) for k, v in t.items()}
        low = {k: min(v) for k, v in t.items()}
        print(f"{os.path.basename(log)} ({os.path.getsize(log):,} B), {a.rounds} rounds, "
              f"wc -l {med['wc']:.3f} s")
        print(f"  medians: one core {med['one']:.3f} s, two {med['two']:.3f} s, "
              f"two one-core runs at once {med['pair']:.3f} s; "
              f"ratio {med['one'] / med['two']:.2f}, ceiling {2 * med['one'] / med['pair']:.2f}")
        print(f"  minimums: one core {low['one']:.3f} s, two {low['two']:.3f} s, "
              f"at once {low['pair']:.3f} s; "
              f"ratio {low['one'] / low['two']:.2f}, ceiling {2 * low['one'] / low['pair']:.2f}")


if __name__ == "__main__":
    main()
