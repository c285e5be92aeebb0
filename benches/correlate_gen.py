#!/usr/bin/env python3
"""Generate a GC log and a semicolon performance log of the same run (issue 11).

    python3 benches/correlate_gen.py --requests 1000000 --pauses 100000 --hours 8 \\
        --gc-out /tmp/cor-gc.log --perf-out /tmp/cor-perf.log          # the benchmark pair
    python3 benches/correlate_gen.py --requests 7200 --pauses 480 --hours 2 --short-ids \\
        --gc-out fixtures/correlate/run-gc.log --perf-out fixtures/correlate/run-perf.log

The run: a HotSpot JDK 8 Parallel GC log with date stamps (`--no-datestamps`: uptimes only,
for `--gc-start`), host offset +0300, JVM started at 2012-09-21 09:59:50 local time; young
pauses 5-90 ms at exponential gaps, one pause in 150 (`--full-every`) a full GC of 300-1500 ms. Requests start
at exponential gaps from 10:00:00 (local, as the semicolon log writes); each takes a
log-normal time split into Java and database time, and a GC pause that starts while it runs
stops it: its end moves on by the pause (that time counted as Java); one arriving
during a pause is timed from the pause's end. Two stretches of 3
minutes where the database is slow (x8) make slow requests away from GC. With `--safepoints`
each pause is followed by its `Total time for which application threads were stopped` line.

Deterministic for the same arguments. Pure Python; ~10 s for 1M requests.
"""
import argparse
import calendar
import heapq
import math
import random
import time

OPS = [("getBalance", 30, 8.0), ("loadCustomersList", 30, 20.0), ("getContract", 20, 15.0),
       ("saveOrder", 15, 28.0), ("searchCustomer", 5, 40.0)]
JVM_START = calendar.timegm((2012, 9, 21, 9, 59, 50))  # local, formatted with gmtime
FIRST_REQUEST_MS = 10_000  # 10:00:00, ms after the JVM start
OFFSET = "+0300"


def stamp_gc(up_ms):
    t = JVM_START + up_ms // 1000
    return "%s.%03d%s" % (time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)), up_ms % 1000, OFFSET)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--requests", type=int, default=7200)
    ap.add_argument("--pauses", type=int, default=480)
    ap.add_argument("--hours", type=float, default=2.0)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--full-every", type=int, default=150, help="one pause in N is a full GC")
    ap.add_argument("--gc-out", required=True)
    ap.add_argument("--perf-out", required=True)
    ap.add_argument("--no-datestamps", action="store_true")
    ap.add_argument("--safepoints", action="store_true")
    ap.add_argument("--short-ids", action="store_true", help="[r0000001] ids (fixtures)")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    span = int(a.hours * 3600 * 1000)

    # Pauses: (start ms after JVM start, duration ms as written in 0.1 ms, full?).
    pauses = []
    t = FIRST_REQUEST_MS - 5000
    gap = span / max(a.pauses, 1)
    for i in range(a.pauses):
        t += max(1, int(-gap * math.log(1.0 - rng.random())))
        full = rng.random() < 1 / a.full_every
        d = rng.uniform(300, 1500) if full else rng.uniform(5, 90) * (1 + 2 * rng.random() ** 8)
        d = round(d, 1)
        pauses.append((t, d, full))
        t += int(math.ceil(d))
    with open(a.gc_out, "w") as gc:
        gc.write("Java HotSpot(TM) 64-Bit Server VM (25.66-b17) for linux-amd64 JRE (1.8.0_66-b17)\n"
                 "CommandLine flags: -XX:+PrintGCDetails -XX:+PrintGCTimeStamps%s -XX:+UseParallelGC\n"
                 % ("" if a.no_datestamps else " -XX:+PrintGCDateStamps"))
        lines = []
        for (t, d, full) in pauses:
            pre = "" if a.no_datestamps else stamp_gc(t) + ": "
            up = "%d.%03d" % (t // 1000, t % 1000)
            if full:
                lines.append("%s%s: [Full GC (Ergonomics) [PSYoungGen: 10736K->0K(141824K)] [ParOldGen: 819376K->525001K(1175104K)] 830112K->525001K(1316928K), [Metaspace: 9876K->9876K(1058816K)], %.7f secs] [Times: user=1.41 sys=0.01, real=%.2f secs]"
                             % (pre, up, d / 1000, d / 1000))
            else:
                lines.append("%s%s: [GC (Allocation Failure) [PSYoungGen: 76256K->10736K(141824K)] 877992K->830112K(1316928K), %.7f secs] [Times: user=0.07 sys=0.02, real=%.2f secs]"
                             % (pre, up, d / 1000, d / 1000))
            if a.safepoints:
                end = t + int(math.ceil(d))
                pre = "" if a.no_datestamps else stamp_gc(end) + ": "
                lines.append("%s%d.%03d: Total time for which application threads were stopped: %.7f seconds, Stopping threads took: 0.0000200 seconds"
                             % (pre, end // 1000, end % 1000, (d + 0.3) / 1000))
            if len(lines) > 50_000:
                gc.write("\n".join(lines) + "\n")
                lines.clear()
        gc.write("\n".join(lines) + ("\n" if lines else ""))

    # Requests: start, base time; a pause starting while one runs moves its end on.
    slow_db = [(span * 0.3, span * 0.3 + 180_000), (span * 0.7, span * 0.7 + 180_000)]
    names = [o[0] for o in OPS]
    cum, acc = [], 0
    for o in OPS:
        acc += o[1]
        cum.append(acc)
    gap = span / max(a.requests, 1)
    t = float(FIRST_REQUEST_MS)
    heap = []  # (end ms, request, fields): lines are written in end order
    pi = 0
    n_p = len(pauses)
    with open(a.perf_out, "w") as pf:
        buf = []
        for i in range(a.requests):
            t += -gap * math.log(1.0 - rng.random())
            start = int(t)
            op = rng.choices(range(len(OPS)), cum_weights=cum)[0]
            base = max(1, int(math.exp(math.log(OPS[op][2]) + 0.6 * rng.gauss(0, 1))))
            db = int(base * rng.uniform(0.4, 0.8))
            rel = start - FIRST_REQUEST_MS
            if any(lo <= rel < hi for lo, hi in slow_db):
                db *= 8
                base += db * 7 // 8
            # A request arriving during a pause is taken in (and timed) when the pause ends.
            while pi < n_p and pauses[pi][0] + pauses[pi][1] <= start:
                pi += 1
            if pi < n_p and pauses[pi][0] <= start:
                start = int(math.ceil(pauses[pi][0] + pauses[pi][1]))
            end = start + base
            # Pauses starting before the request ends stop it (pauses sorted by start).
            j = pi
            while j < n_p and pauses[j][0] < end:
                if pauses[j][0] >= start:
                    end += int(math.ceil(pauses[j][1]))
                j += 1
            total = end - start
            java = total - db
            heapq.heappush(heap, (end, i, "%s;%d;%d;%d;%d;%s;" % ("", total, java, db, 1 + db // 20, names[op])))
            # Lines come out in end order, as the service writes them.
            while heap and heap[0][0] <= start:
                e, k, rest = heapq.heappop(heap)
                buf.append(line(e, k, rest, a.short_ids, rng))
            if len(buf) > 50_000:
                pf.write("\n".join(buf) + "\n")
                buf.clear()
        while heap:
            e, k, rest = heapq.heappop(heap)
            buf.append(line(e, k, rest, a.short_ids, rng))
        pf.write("\n".join(buf) + ("\n" if buf else ""))


_sec = [None, None]


def line(end_ms, k, rest, short, rng):
    sec = end_ms // 1000
    if _sec[0] != sec:
        _sec[0] = sec
        _sec[1] = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(JVM_START + sec))
    ident = ("r%07d" % k) if short else ("%032X" % rng.getrandbits(128))
    return "[%s];%s.%03d%s" % (ident, _sec[1], end_ms % 1000, rest)


if __name__ == "__main__":
    main()
