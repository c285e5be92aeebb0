#!/usr/bin/env python3
"""Generate a big web-server access log for benchmarking issue 38's access-log families.

    python3 benches/access_gen.py --format haproxy --mib 512 --out /tmp/haproxy-512m.log
    python3 benches/access_gen.py --format iis --mib 512 --out /tmp/iis-512m.log

HAProxy's HTTP log (syslog prefix, accept date, `Tq/Tw/Tc/Tr/Ta` timers, status, request
line) or IIS W3C extended (`#Fields:` header, `time-taken` ms, a header again every
~100,000 lines as IIS writes after a restart). Over 8 paths with numeric ids (folded by
the reader into `/products/{id}`...), long-tailed times (log-normal body, ~0.5 % slow up
to 30 s), ~1 % 5xx and ~3 % 4xx, times non-decreasing over hours.

Prints the truth to stderr for the benchmark to check gcperf's figures against: requests,
errors (status >= 500), the sum and maximum of the time taken (ms).
Deterministic: the same --seed, --format and --mib give a byte-identical file.
"""
import argparse
import math
import random
import sys
import time

PATHS = [("GET", "/products/{}", 30, 40.0), ("GET", "/search", 20, 120.0),
         ("POST", "/orders", 12, 200.0), ("GET", "/orders/{}", 12, 60.0),
         ("GET", "/users/{}/cart", 10, 50.0), ("PUT", "/cart/{}", 8, 80.0),
         ("DELETE", "/cart/{}", 4, 30.0), ("GET", "/health", 4, 2.0)]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
START = 1_733_390_000.0
IIS_FIELDS = ("#Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username "
              "c-ip cs(User-Agent) cs(Referer) sc-status sc-substatus sc-win32-status time-taken")


def iis_header(t):
    tm = time.gmtime(t)
    return ("#Software: Microsoft Internet Information Services 10.0\n#Version: 1.0\n"
            f"#Date: {time.strftime('%Y-%m-%d %H:%M:%S', tm)}\n{IIS_FIELDS}\n")


def generate(fmt, limit, seed, out):
    rng = random.Random(seed)
    weights = [w for _, _, w, _ in PATHS]
    n = errors = total = max_t = 0
    written = 0
    t = START
    chunk = []
    if fmt == "iis":
        chunk.append(iis_header(t))
    sec = None
    stamp = ""
    while written < limit:
        method, path, _, median = rng.choices(PATHS, weights)[0]
        if "{}" in path:
            path = path.format(rng.randint(1, 99999))
        if rng.random() < 0.005:
            ms = int(math.exp(rng.uniform(math.log(1000), math.log(30000))))
        else:
            ms = int(median * math.exp(rng.gauss(0, 0.8)))
        r = rng.random()
        status = 500 + rng.randint(0, 4) if r < 0.01 else (404 if r < 0.04 else 200)
        t += rng.random() * 0.004
        whole = int(t)
        if fmt == "haproxy":
            if whole != sec:
                sec = whole
                tm = time.gmtime(whole)
                syslog = f"{MONTHS[tm.tm_mon - 1]} {tm.tm_mday:2d} {time.strftime('%H:%M:%S', tm)}"
                stamp = f"{tm.tm_mday:02d}/{MONTHS[tm.tm_mon - 1]}/{tm.tm_year}:{time.strftime('%H:%M:%S', tm)}"
            frac = int((t - whole) * 1000)
            tq, tc = rng.randint(0, 3), rng.randint(0, 2)
            tr = max(ms - tq - tc, 0)
            line = (f"{syslog} lb1 haproxy[1234]: 10.0.{rng.randint(0, 255)}.{rng.randint(1, 254)}:"
                    f"{rng.randint(1024, 65535)} [{stamp}.{frac:03d}] web~ app/srv{rng.randint(1, 4)} "
                    f"{tq}/0/{tc}/{tr}/{tq + tc + tr} {status} {rng.randint(100, 9000)} - - ---- "
                    f"12/12/3/1/0 0/0 \"{method} {path} HTTP/1.1\"\n")
            ms = tq + tc + tr
        else:
            if n and n % 100_000 == 0:
                chunk.append(iis_header(t))
            if whole != sec:
                sec = whole
                stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(whole))
            line = (f"{stamp} 10.0.0.1 {method} {path} - 443 - 10.1.{rng.randint(0, 255)}."
                    f"{rng.randint(1, 254)} Mozilla/5.0+(X11;+Linux+x86_64) - {status} 0 0 {ms}\n")
        n += 1
        errors += status >= 500
        total += ms
        max_t = max(max_t, ms)
        written += len(line)
        chunk.append(line)
        if len(chunk) >= 20000:
            out.write("".join(chunk))
            chunk.clear()
    out.write("".join(chunk))
    return n, errors, total, max_t


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--format", choices=["haproxy", "iis"], default="haproxy")
    ap.add_argument("--mib", type=int, default=512, help="size to reach, MiB (default 512)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    with open(a.out, "w", encoding="ascii", newline="\n", buffering=8 << 20) as out:
        n, errors, total, max_t = generate(a.format, a.mib << 20, a.seed, out)
    print(f"requests {n} errors {errors} sum_ms {total} max_ms {max_t} mean_ms {total / n:.4f}",
          file=sys.stderr)


if __name__ == "__main__":
    main()
