#!/usr/bin/env bash
# Builds of the 10- to 12-cell boards for the README: wall time, CPU time
# over wall time (both cores busy?), peak memory and file size, as medians
# of RUNS builds; then the cost of opening a 1 GB database (3x4, every goal)
# against the 3x3 one, as whole-process `query distance` timings. Needs
# hyperfine and python3, about 2 GB of free disk and 1 GB of memory.
# Usage: scripts/measure-large.sh [RUNS]   (default 3)
set -euo pipefail
cd "$(dirname "$0")/.."
# A figure is hyperfine's: without it every figure would be empty.
command -v hyperfine >/dev/null || { echo "$0: needs hyperfine (apt-get install hyperfine)" >&2; exit 2; }
shopt -s inherit_errexit
runs=${1:-3}
cargo build --release --workspace --quiet
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Where cargo builds: CARGO_TARGET_DIR if set (relative to the checkout).
target=${CARGO_TARGET_DIR:-target}
[[ $target = /* ]] || target=$PWD/$target
bin=$target/release

# Median of the numbers on stdin.
median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

build() { # BOARD [build-db options...]: one line of medians over $runs builds
  local board=$1
  shift
  : > "$work/runs"
  for _ in $(seq "$runs"); do
    /usr/bin/time -f "%e %U %S %M" -o "$work/time" \
      "$bin/build-db" --quiet --board "$board" --out "$work/$board.db" "$@" > "$work/out"
    read -r wall user sys kb < "$work/time"
    echo "$wall $(echo "($user + $sys) / $wall" | bc -l) $kb" >> "$work/runs"
  done
  local wall ratio mb
  wall=$(cut -d' ' -f1 "$work/runs" | median)
  ratio=$(cut -d' ' -f2 "$work/runs" | median)
  mb=$(cut -d' ' -f3 "$work/runs" | median)
  printf "build-db --board %-4s %-12s %6.2f s wall, CPU/wall %.2f, peak %4d MiB, file %d bytes (%s)\n" \
    "$board" "$*" "$wall" "$ratio" "$((mb / 1024))" "$(stat -c %s "$work/$board.db")" \
    "$(sed -E 's/.*board, ([0-9]+ tables? \(blank at [^)]*\)).*/\1/' "$work/out")"
}

build 2x5
build 5x2
for board in 3x4 4x3 2x6 6x2; do
  build "$board"
  rm -f "$work/$board.db"
done

# Opening: the 3x3 file (3 tables, 0.5 MB) against 3x4 with every goal
# (4 tables, 958 MB), one distance each, page cache warm.
"$bin/build-db" --quiet --board 3x3 --out "$work/3x3.db" > /dev/null
"$bin/build-db" --quiet --board 3x4 --all-goals --out "$work/3x4.db" > /dev/null
ls -l "$work"/*.db
hyperfine -N --style none --warmup 20 --runs 300 --export-json "$work/open.json" \
  "$bin/query --db $work/3x3.db distance 867254301" \
  "$bin/query --db $work/3x4.db distance '0 3 2 1 8 7 6 5 4 11 10 9'" > /dev/null 2>&1
python3 - "$work/open.json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print("%-90s %.2f ms median (min %.2f)" % (r["command"].split("/")[-1], r["median"] * 1e3, r["min"] * 1e3))
PY
