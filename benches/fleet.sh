#!/usr/bin/env bash
# Build a ~2 GB folder of runs for the `gcperf report` benchmark (issue 5), under /tmp only:
# 30 generated semicolon perf logs of 600,000 lines (different seeds, ~51 MB each), three
# 200 MiB GC logs (HotSpot CMS, JRockit gencon, unified G1; benches/gc_big.py from the corpus),
# one of them also gzipped, and the fixtures' small logs. Deterministic.
#   bash benches/fleet.sh /tmp/fleet
set -euo pipefail
out=${1:-/tmp/fleet}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out/perf" "$out/gc" "$out/small"
for i in $(seq 1 30); do
  f="$out/perf/app-$(printf %02d "$i").log"
  [ -s "$f" ] || python3 "$here/perf_gen.py" --lines 600000 --seed "$i" --out "$f"
done
for fam in hotspot jrockit unified; do
  f="$out/gc/$fam-200m.log"
  [ -s "$f" ] || python3 "$here/gc_big.py" "$fam" --mib 200 --out "$f"
done
[ -s "$out/gc/hotspot-200m-copy.log.gz" ] || gzip -1 -c "$out/gc/hotspot-200m.log" > "$out/gc/hotspot-200m-copy.log.gz"
cp -r "$here/../fixtures/." "$out/small/"
du -sh --apparent-size "$out"
find "$out" -type f | wc -l
