#!/usr/bin/env python3
"""Build a big GC log by repeating a corpus log with its uptime stamps shifted (issue 4).

    python3 benches/gc_big.py hotspot --mib 200 --out /tmp/gc-200m.log
    python3 benches/gc_big.py jrockit --mib 200 --out /tmp/gc-jrockit-200m.log
    python3 benches/gc_big.py unified --mib 200 --out /tmp/gc-unified-200m.log

Same construction as `grow()` in benches/parse.rs, so the logs match what the parse bench
measures, only written to a file and of any size: the family's source log from
`../shared/corpus/gc/` is appended copy after copy until the output holds at least
`--mib` MiB; in copy k (0, 1, 2, ...) every uptime stamp the family's regex finds gets
k * period seconds added (printed with 3 decimals), so time keeps moving forward across
copies. A newline is added after a copy that does not end in one. The output is
deterministic (no randomness): same family and --mib give a byte-identical file.

Families (source log, period in s; stamp patterns in FAMILIES, as in benches/parse.rs):
  jrockit      jrockit/SampleJRockit1_4_2gencon-big.txt (one-line collections)        100000
  jrockit-r27  jrockit/SampleJRockit1_5_12_gencon.txt ([gcpause] lines, wall stamps)  10
  hotspot      hotspot/SampleSun1_5_0CMS_PrintGCDetails.txt                           100
  hotspot-g1   hotspot/SampleSun1_8_0G1_ConcurrentCycle.txt (detailed G1 blocks)      1
  unified      unified/sample-ujl-g1-gc-all,safepoint,os+cpu.txt (-Xlog:gc*)          10

Big outputs belong under /tmp, never in the repository (the corpus must not be copied in).
"""
import argparse
import os
import re
import sys

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "corpus", "gc")

# Group 2 is the stamp shifted; an optional group 3 `-<end>` (JRockit `start-end:`) is shifted too.
JROCKIT_STAMP = rb"(\] |start time: |starting at )(\d+\.\d+)(-\d+\.\d+)?([: ])"
FAMILIES = {
    "jrockit": ("jrockit/SampleJRockit1_4_2gencon-big.txt", JROCKIT_STAMP, 100_000.0),
    "jrockit-r27": ("jrockit/SampleJRockit1_5_12_gencon.txt", JROCKIT_STAMP, 10.0),
    "hotspot": ("hotspot/SampleSun1_5_0CMS_PrintGCDetails.txt", rb"(^|\n|: |\[GC )(\d+\.\d+)()(: )", 100.0),
    "hotspot-g1": ("hotspot/SampleSun1_8_0G1_ConcurrentCycle.txt", rb"(^|\n |\n|: |\[GC )(\d+\.\d+)()(: )", 1.0),
    "unified": ("unified/sample-ujl-g1-gc-all,safepoint,os+cpu.txt", rb"(\[)(\d+\.\d+)()(s\])", 10.0),
}


def main():
    ap = argparse.ArgumentParser(description="Build a big GC log from a corpus log with shifted uptime stamps (issue 4).")
    ap.add_argument("family", choices=sorted(FAMILIES))
    ap.add_argument("--mib", type=float, default=200.0, help="minimum size in MiB (default 200)")
    ap.add_argument("--out", required=True, help="output file (put it under /tmp)")
    ap.add_argument("--corpus", default=CORPUS, help="corpus gc folder (default ../shared/corpus/gc)")
    a = ap.parse_args()

    rel, pattern, period = FAMILIES[a.family]
    with open(os.path.join(a.corpus, rel), "rb") as f:
        src = f.read()
    # No re.M: `^` matches only at the start of the copy, as in the Rust regex of parse.rs.
    stamp = re.compile(pattern)
    # Unified logs number their GCs: copies continue the numbering (a log never repeats a
    # GC id within one JVM run), so that a copy's GC(6) is not taken for an earlier copy's.
    gc_id = re.compile(rb"GC\((\d+)\)")
    ids = [int(m.group(1)) for m in gc_id.finditer(src)]
    id_step = max(ids) + 1 if ids else 0
    target = int(a.mib * 1024 * 1024)
    written, k = 0, 0
    with open(a.out, "wb") as out:
        while written < target:
            off = k * period
            def shift(m):
                end = m.group(3)
                if end:
                    end = b"-%.3f" % (float(end[1:]) + off)
                return m.group(1) + b"%.3f" % (float(m.group(2)) + off) + (end or b"") + m.group(4)
            copy = stamp.sub(shift, src)
            if id_step:
                copy = gc_id.sub(lambda m: b"GC(%d)" % (int(m.group(1)) + k * id_step), copy)
            if not copy.endswith(b"\n"):
                copy += b"\n"
            out.write(copy)
            written += len(copy)
            k += 1
    print(f"{a.family}: {k} copies of {rel}, {written:,} bytes -> {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
