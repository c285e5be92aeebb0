#!/bin/bash
# The report of a 1,000-log folder (BENCHMARKS.md, session 29): an older binary ($OLD,
# default /tmp/gcperf-s28) against this build, 3 rounds interleaved. The folder: fixtures and
# ../shared/corpus copied in turn into host0..host4 until 1,000 files (see BENCHMARKS.md).
IN=${IN:-/tmp/fleet1000}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -d "$IN" ]; then
  files=$(find "$ROOT/fixtures" "$ROOT/../shared/corpus/gc" "$ROOT/../shared/corpus/perf" -type f \
    ! -name '*.md' ! -name 'gcviewer-reference.csv' | sort)
  i=0
  for r in 0 1 2 3 4; do
    mkdir -p "$IN/host$r"
    for f in $files; do
      i=$((i + 1)); [ $i -gt 1000 ] && break
      cp "$f" "$IN/host$r/$(echo "$f" | sed "s|$ROOT/||; s|/|_|g")"
    done
  done
fi
echo "inputs: $(find $IN -type f | wc -l) files, $(du -sb $IN | cut -f1) bytes"
/usr/bin/time -f "wc -l: %e s" sh -c "find $IN -type f -exec cat {} + | wc -l"
for r in 1 2 3; do
  for b in s28 head; do
    bin=${OLD:-/tmp/gcperf-s28}; [ $b = head ] && bin=$ROOT/target/release/gcperf
    rm -rf /tmp/rb-$b
    /usr/bin/time -f "$b round $r: %e s %M KB" $bin report $IN --out /tmp/rb-$b -q >/dev/null 2>/tmp/rb-$b.err; tail -1 /tmp/rb-$b.err
    echo "  $(du -sb /tmp/rb-$b | cut -f1) bytes, $(find /tmp/rb-$b -type f | wc -l) files, index $(stat -c %s /tmp/rb-$b/index.html) bytes, charts $(ls /tmp/rb-$b/charts | wc -l)"
  done
done
