#!/usr/bin/env bash
# Issue 10's measurement: `gcperf summary --format json` on the five ~200 MiB GC logs of
# benches/gc_big.py, each binary given run N times, the binaries interleaved in one loop (these
# machines swing 1.5x from hour to hour: only same-loop figures compare), `wc -l` of each log
# in the same loop. Prints per binary and log the sorted wall times, the median, MiB/s
# (file MiB / median wall), the median peak RSS and RSS / file size.
#   bash benches/gc_speed.sh [runs] [binary...]      (default: 5, target/release/gcperf)
# Logs: /tmp/big-{jrockit,jrockit-r27,hotspot,hotspot-g1,unified}.log, made if missing.
# CMD="gc -f json" bash benches/gc_speed.sh ... times another command (default: the issue's
# `summary -q --format json`; the log's path goes last).
set -euo pipefail
runs=${1:-5}
shift || true
bins=("$@")
[ ${#bins[@]} -gt 0 ] || bins=(target/release/gcperf)
here=$(cd "$(dirname "$0")" && pwd)
fams=(jrockit jrockit-r27 hotspot hotspot-g1 unified)
for f in "${fams[@]}"; do
  [ -s "/tmp/big-$f.log" ] || python3 "$here/gc_big.py" "$f" --mib 200 --out "/tmp/big-$f.log"
done
out=$(mktemp)
for i in $(seq 1 "$runs"); do
  for f in "${fams[@]}"; do
    log=/tmp/big-$f.log
    /usr/bin/time -f "wc $f %e %M" wc -l "$log" >/dev/null 2>>"$out"
    for b in "${bins[@]}"; do
      # shellcheck disable=SC2086 # CMD is words
      /usr/bin/time -f "$b $f %e %M" "$b" ${CMD:-summary -q --format json} "$log" >/dev/null 2>>"$out"
    done
  done
done
python3 - "$out" "${fams[@]}" <<'PY'
import os, statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if len(l.split()) == 4]
for fam in sys.argv[2:]:
    size = os.path.getsize(f"/tmp/big-{fam}.log")
    for who in dict.fromkeys(r[0] for r in rows):
        t = sorted(float(r[2]) for r in rows if r[0] == who and r[1] == fam)
        m = [int(r[3]) for r in rows if r[0] == who and r[1] == fam]
        if not t:
            continue
        med = statistics.median(t)
        rss = statistics.median(m) * 1024
        print(f"{fam:12} {who:28} {' '.join(f'{x:.2f}' for x in t):32} median {med:.2f} s "
              f"{size / 2**20 / med:6.0f} MiB/s  RSS {rss / 1e6:5.0f} MB {rss / size:.2f}x")
PY
rm -f "$out"
