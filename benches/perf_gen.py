#!/usr/bin/env python3
"""Generate a realistic semicolon performance log for benchmarking (issue 3).

    python3 benches/perf_gen.py --out /tmp/perf-5m.log              # 5,000,000 lines
    python3 benches/perf_gen.py --lines 100000 --out /tmp/perf-100k.log --seed 7

One line per web-service operation, as the service writes it:

    [7842BD261FD27732B848D3E904F42A59];2012-09-21 12:04:02.308;813;78;735;2;loadCustomersList;
    [0E3C78844FFDB8A124BC7773B72BD547];2012-09-21 12:13:42.964;617;107;510;1;getContract;e-Read timed out

(id; end time; total ms; Java ms; DB ms; DB calls; operation; `e-` + message on failure).

What the data looks like, so that a benchmark on it means something:
- 8 operations with skewed frequencies (the most frequent ~17x the rarest);
- long-tailed totals: per operation a log-normal body (most requests 1-200 ms), ~0.5 % slow
  outliers spread log-uniformly up to 30 s, ~0.3 % exactly 0 (answered from a cache);
- Java + DB = total on most rows, ~0.5 % inconsistent (the two parts overshoot the total);
- DB calls 0-20 (0 exactly when DB time is 0);
- ~1 % errors, `e-` followed by a short message that never contains `;`;
- end times non-decreasing over about two hours, several requests in one ms possible;
- ~0.1 % bad lines that every reader must skip: lines cut before the operation, a
  non-numeric total, a garbled hour, Java stack-trace lines. Each has too few fields or a
  field that cannot be a number / time, so gcperf and a CSV reader with typed columns
  (DuckDB `read_csv(..., ignore_errors=true)`) both reject exactly these lines.

Deterministic: the same --seed and --lines give a byte-identical file. Pure Python (no
numpy), ~25 s for 5M lines on the 2-core machine: per-line work is a handful of `random()`
calls and one %-format; timestamps are formatted once per second; output goes out in chunks.
"""
import argparse
import calendar
import math
import random
import sys
import time

# (name, weight, median ms, log-normal sigma, DB share of total, max DB calls, error rate)
OPERATIONS = [
    ("loadCustomersList", 35, 60.0, 0.9, 0.85, 20, 0.008),
    ("getBalance", 20, 15.0, 0.7, 0.70, 4, 0.005),
    ("getContract", 15, 40.0, 0.8, 0.80, 10, 0.015),
    ("searchCustomer", 10, 120.0, 1.0, 0.90, 12, 0.010),
    ("saveOrder", 8, 90.0, 0.8, 0.75, 15, 0.020),
    ("getTariffs", 6, 5.0, 0.6, 0.50, 2, 0.002),
    ("updateCustomer", 4, 70.0, 0.9, 0.80, 8, 0.030),
    ("closeContract", 2, 150.0, 1.1, 0.85, 20, 0.040),
]

# Failure messages: short, no `;` (a `;` would make an extra field for CSV readers).
ERROR_MESSAGES = [
    "",  # a bare `e-`
    "java.net.SocketTimeoutException: Read timed out",
    "ORA-00060: deadlock detected while waiting for resource",
    "ORA-20001: Клиент не найден",
    "javax.xml.ws.WebServiceException: Could not send Message.",
    "java.lang.IllegalStateException: contract is closed",
    "ORA-01013: user requested cancel of current operation",
]

P_ZERO = 0.003          # total exactly 0 (cached answer)
P_TAIL = 0.005          # slow outlier, 1 s .. 30 s
P_INCONSISTENT = 0.005  # Java + DB != total
P_BAD = 0.001           # line that must be skipped
MAX_MS = 30000
SPAN_MS = 2 * 3600 * 1000
START = (2012, 9, 21, 10, 0, 0)  # first end time, local
CHUNK = 50_000


def generate(n_lines, seed, out):
    rng = random.Random(seed)
    rnd = rng.random
    gauss = rng.gauss
    bits = rng.getrandbits

    names = [o[0] for o in OPERATIONS]
    cum = []
    acc = 0
    for o in OPERATIONS:
        acc += o[1]
        cum.append(acc)
    log_median = [math.log(o[2]) for o in OPERATIONS]
    sigma = [o[3] for o in OPERATIONS]
    share = [o[4] for o in OPERATIONS]
    max_calls = [o[5] for o in OPERATIONS]
    err_rate = [o[6] for o in OPERATIONS]
    log_tail_lo, log_tail_hi = math.log(1000.0), math.log(MAX_MS)
    ms3 = ["%03d" % i for i in range(1000)]

    # Exponential gaps with a mean that spreads n_lines over ~2 h; floor() loses ~0.5 ms.
    mean_gap = SPAN_MS / max(n_lines, 1) + 0.5
    t0 = calendar.timegm(START)  # formatted with gmtime: no time zone, no DST
    t_ms = 0
    cur_sec = -1
    prefix = ""
    bad_kind = 0
    written = 0
    lines = []
    while written < n_lines:
        k = min(CHUNK, n_lines - written)
        ops = rng.choices(range(len(OPERATIONS)), cum_weights=cum, k=k)
        lines.clear()
        for op in ops:
            t_ms += int(-mean_gap * math.log(1.0 - rnd()))
            sec = t_ms // 1000
            if sec != cur_sec:
                cur_sec = sec
                prefix = time.strftime("%Y-%m-%d %H:%M:%S.", time.gmtime(t0 + sec))
            stamp = prefix + ms3[t_ms % 1000]

            u = rnd()
            if u < P_ZERO:
                total = 0
            elif u < P_ZERO + P_TAIL:
                total = int(math.exp(log_tail_lo + (log_tail_hi - log_tail_lo) * rnd()))
            else:
                total = int(math.exp(log_median[op] + sigma[op] * gauss(0.0, 1.0))) + 1
                if total > MAX_MS:
                    total = MAX_MS
            db = int(total * share[op] * (0.7 + 0.6 * rnd()))
            if db > total:
                db = total
            java = total - db
            calls = 1 + int(rnd() * max_calls[op]) if db > 0 else 0
            if rnd() < P_INCONSISTENT:
                java += 1 + int(rnd() * 20)

            flag = ""
            if rnd() < err_rate[op]:
                flag = "e-" + ERROR_MESSAGES[int(rnd() * len(ERROR_MESSAGES))]

            line = "[%032X];%s;%d;%d;%d;%d;%s;%s" % (
                bits(128), stamp, total, java, db, calls, names[op], flag)

            if rnd() < P_BAD:
                line = bad_line(line, bad_kind, rng)
                bad_kind = (bad_kind + 1) % 4
            lines.append(line)
        out.write("\n".join(lines))
        out.write("\n")
        written += k


def bad_line(line, kind, rng):
    """Spoil a good line so that gcperf and a typed CSV reader both must reject it."""
    f = line.split(";")
    if kind == 0:
        # Cut before the operation name (a record cut while being written): too few fields.
        # Cutting inside or after the name would leave a line gcperf may legitimately read.
        cut_max = len(";".join(f[:6]))  # up to just before the 6th `;`
        return line[: 1 + int(rng.random() * cut_max)]
    if kind == 1:
        # A non-numeric total.
        f[2] = rng.choice([f[2] + "x", "n/a", "-", "1e"])
        return ";".join(f)
    if kind == 2:
        # A garbled time: hour 25.
        f[1] = f[1][:11] + "25" + f[1][13:]
        return ";".join(f)
    # A Java stack-trace line written into the perf log.
    return rng.choice([
        "java.lang.NullPointerException",
        "\tat ru.example.CustomerService.load(CustomerService.java:42)",
    ])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, default=5_000_000, help="lines to write (default 5M)")
    ap.add_argument("--out", default="-", help="output file (default stdout)")
    ap.add_argument("--seed", type=int, default=3, help="random seed (default 3)")
    a = ap.parse_args()
    start = time.perf_counter()
    if a.out == "-":
        generate(a.lines, a.seed, sys.stdout)
    else:
        # newline="\n": identical bytes on every platform; 8 MiB buffer.
        with open(a.out, "w", encoding="utf-8", newline="\n", buffering=8 << 20) as out:
            generate(a.lines, a.seed, out)
        print(f"{a.lines} lines -> {a.out} in {time.perf_counter() - start:.1f} s",
              file=sys.stderr)


if __name__ == "__main__":
    main()
