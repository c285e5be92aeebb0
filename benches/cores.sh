#!/usr/bin/env bash
# How `gcperf summary` scales with cores (issue 36's many-core figures): the five GC logs of
# benches/gc_big.py and a perf log of benches/perf_gen.py, each binary given run under
# `taskset -c 0-(n-1)` with RAYON_NUM_THREADS=n for every n of THREADS, RUNS times, the
# binaries and thread counts interleaved in one loop, `wc -l` of each log in the same loop.
# Prints per log, binary and n the median wall time and peak RSS, the speed-up of the largest n
# over 1, and whether every n gave byte-identical output.
#   MIB=1024 RUNS=3 THREADS="1 2 4 16" bash benches/cores.sh BIN...   (default: target/release/gcperf)
# DIR: where the logs go (default /dev/shm when it exists, else /tmp); CORPUS: the corpus'
# gc folder gc_big.py reads (default ../shared/corpus/gc). Logs already there are kept.
#
# On a lent device (16 cores, minutes of time, no network, 64 MiB carried): first, here,
#   bash benches/cores.sh --prep BIN...
# puts the five source logs gc_big.py names and each binary, stripped and xz-compressed
# (~15 MB each), into .devdata/ (ignored), and prints the device command to run with
# carry [".devdata"]. The time is 6 logs x THREADS x binaries x RUNS runs after making the
# logs (here, 2 vCPUs: ~35 s a 1 GiB GC log, ~100 s the 13 M-line perf log, all in parallel):
# MIB=512 RUNS=2 fits a device call's minutes with room to spare.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ "${1:-}" = "--prep" ]; then
  shift
  dev=$here/../.devdata
  src=${CORPUS:-$here/../../shared/corpus/gc}
  rm -rf "$dev" && mkdir -p "$dev/bin"
  python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import gc_big
print("\n".join(v[0] for v in gc_big.FAMILIES.values()))' "$here" |
    while IFS= read -r rel; do
      mkdir -p "$dev/corpus/gc/$(dirname "$rel")"
      cp "$src/$rel" "$dev/corpus/gc/$rel"
    done
  names=()
  for b in "$@"; do
    name=gcperf-$(( ${#names[@]} + 1 ))
    strip -o "$dev/bin/$name" "$b"
    xz -T0 -6 "$dev/bin/$name"
    names+=(".devdata/bin/$name")
    echo "$name: $b"
  done
  du -sh "$dev"
  echo "device command (carry [\".devdata\"]):"
  echo "xz -d .devdata/bin/*.xz && chmod +x .devdata/bin/* && CORPUS=.devdata/corpus/gc bash benches/cores.sh ${names[*]}"
  exit 0
fi
mib=${MIB:-1024}
runs=${RUNS:-3}
threads=${THREADS:-"1 2 4 16"}
dir=${DIR:-$([ -d /dev/shm ] && echo /dev/shm || echo /tmp)}
bins=("$@")
[ ${#bins[@]} -gt 0 ] || bins=(target/release/gcperf)
corpus=()
[ -z "${CORPUS:-}" ] || corpus=(--corpus "$CORPUS")
fams=(jrockit jrockit-r27 hotspot hotspot-g1 unified)
logs=()
for f in "${fams[@]}"; do
  log=$dir/cores-$f-$mib.log
  logs+=("$log")
  [ -s "$log" ] || python3 "$here/gc_big.py" "$f" --mib "$mib" --out "$log" "${corpus[@]}" >/dev/null &
done
# 2 M lines are 163 MiB.
perf=$dir/cores-perf-$mib.log
logs+=("$perf")
[ -s "$perf" ] || python3 "$here/perf_gen.py" --lines $((mib * 2000000 / 163)) --out "$perf" &
wait
work=$(mktemp -d)
for i in $(seq 1 "$runs"); do
  for log in "${logs[@]}"; do
    name=$(basename "$log" .log)
    /usr/bin/time -f "wc $name 0 %e %M" wc -l "$log" >/dev/null 2>>"$work/times"
    for n in $threads; do
      for b in "${bins[@]}"; do
        tag=$(echo "$b" | tr '/' '_')
        RAYON_NUM_THREADS=$n /usr/bin/time -f "$b $name $n %e %M" \
          taskset -c "0-$((n - 1))" "$b" summary -q --format json "$log" \
          >"$work/$tag-$name-$n.out" 2>>"$work/times"
      done
    done
  done
done
python3 - "$work" "${logs[@]}" <<'PY'
import hashlib, os, statistics, sys
work, logs = sys.argv[1], sys.argv[2:]
rows = [l.split() for l in open(os.path.join(work, "times")) if len(l.split()) == 5]
def digest(b, name, n):
    p = os.path.join(work, f"{b.replace('/', '_')}-{name}-{n}.out")
    return hashlib.md5(open(p, "rb").read()).hexdigest() if os.path.exists(p) else None
for log in logs:
    name = os.path.basename(log)[:-4]
    wc = statistics.median(float(r[3]) for r in rows if r[0] == "wc" and r[1] == name)
    print(f"{name} ({os.path.getsize(log):,} B, wc -l {wc:.2f} s)")
    for b in dict.fromkeys(r[0] for r in rows if r[0] != "wc"):
        ns = list(dict.fromkeys(int(r[2]) for r in rows if r[0] == b and r[1] == name))
        med = {n: statistics.median(float(r[3]) for r in rows if r[:3] == [b, name, str(n)]) for n in ns}
        rss = {n: statistics.median(int(r[4]) for r in rows if r[:3] == [b, name, str(n)]) for n in ns}
        same = len({digest(b, name, n) for n in ns}) == 1
        cells = "  ".join(f"{n}: {med[n]:.2f} s {rss[n] / 1024:.0f} MB" for n in ns)
        print(f"  {b}: {cells}  {ns[0]}/{ns[-1]}: {med[ns[0]] / med[ns[-1]]:.2f}x"
              f"  outputs {'identical' if same else 'DIFFER'}")
PY
rm -rf "$work"
