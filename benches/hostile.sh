#!/usr/bin/env bash
# Peak memory and time on hostile inputs (issue 9), release binary, under /tmp only:
#   1. a 50 MB single line of HotSpot `[GC ...]` events without a newline,
#   2. a gzip of 1 GiB of zeros (about 1 MB compressed),
#   3. `summary` over 30 logs of 18 MB (HotSpot CMS PrintGCDetails from the corpus, repeated).
# Each is timed with /usr/bin/time -v (wall, peak RSS), three runs, and `wc -l` on the same file
# in the same run for scale.
#   bash benches/hostile.sh [/tmp/hostile] [path/to/gcperf]
set -euo pipefail
out=${1:-/tmp/hostile}
bin=${2:-target/release/gcperf}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out/thirty"
[ -s "$out/line-50m.log" ] || python3 - "$out/line-50m.log" <<'PY'
import sys
ev = b"1.000: [GC 1.000: [ParNew: 104960K->13042K(118016K), 0.0284337 secs] 104960K->34501K(249088K), 0.0285898 secs]"
n = 50_000_000 // len(ev) + 1
with open(sys.argv[1], "wb") as f:
    f.write(ev * n)
PY
[ -s "$out/zeros-1g.gz" ] || head -c 1073741824 /dev/zero | gzip -6 > "$out/zeros-1g.gz"
if [ ! -s "$out/thirty/run-30.log" ]; then
  python3 "$here/gc_big.py" hotspot --mib 18 --out "$out/thirty/run-01.log"
  for i in $(seq -w 2 30); do cp "$out/thirty/run-01.log" "$out/thirty/run-$i.log"; done
fi
ls -l "$out/line-50m.log" "$out/zeros-1g.gz"; du -sh --apparent-size "$out/thirty"
measure() {
  local label=$1; shift
  for run in 1 2 3; do
    /usr/bin/time -f "$label run $run: %e s wall, %M KB peak RSS, exit %x" "$@" > /dev/null 2> "$out/err.txt" || true
    tail -1 "$out/err.txt"
  done
}
wc_time() { local s; s=$(date +%s.%N); cat "$@" | wc -l > /dev/null; echo "wc -l $(basename "$1")...: $(echo "$(date +%s.%N) - $s" | bc) s"; }
measure "50 MB single line" "$bin" summary -q "$out/line-50m.log"; wc_time "$out/line-50m.log"
measure "1 GiB of zeros, gzip" "$bin" summary -q "$out/zeros-1g.gz"
s=$(date +%s.%N); gzip -dc "$out/zeros-1g.gz" | wc -l > /dev/null; echo "gzip -dc | wc -l: $(echo "$(date +%s.%N) - $s" | bc) s"
measure "summary 30 x 18 MB" "$bin" summary -q "$out/thirty"; wc_time "$out"/thirty/*.log
