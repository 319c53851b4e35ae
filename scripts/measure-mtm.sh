#!/usr/bin/env bash
# The multi-tile metric against the published counts and against the
# single-tile build (issue 26). For each board: an STM and an MTM build,
# alternately, RUNS pairs (default 3): medians of wall time and peak memory,
# and their ratio, measured side by side because this machine's speed drifts.
# The last MTM build of each board is checked against the published MTM
# distance counts (lightln2, SlidingTilesSolver, results/multitile_frontier),
# which CI cannot afford for 12-cell boards. Needs python3, about 500 MB of
# free disk and 600 MB of memory; a few minutes on 2 cores.
# Usage: scripts/measure-mtm.sh [RUNS] [BOARD...]   (default 3; 3x3 2x5 3x4 4x3 2x6 6x2)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
shift || true
boards=("$@")
[ ${#boards[@]} -gt 0 ] || boards=(3x3 2x5 3x4 4x3 2x6 6x2)
target=${CARGO_TARGET_DIR:-$PWD/target}
cargo build --release -p build-db -p query --quiet
bin=$target/release
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# Published MTM counts from a corner goal; a board and its transpose agree.
published() {
  case $1 in
    3x3) echo "1 4 8 16 32 64 127 244 454 856 1576 2854 5117 8588 13466 19739 26558 31485 30985 23494 11751 3390 589 41 1" ;;
    2x5|5x2) echo "1 5 8 20 32 80 127 300 458 960 1458 3055 4540 8780 12694 23520 33370 57200 77373 119315 151791 204225 235617 256305 246642 178775 120853 49655 20885 4530 1229 440 113 30 8 5 1" ;;
    3x4|4x3) echo "1 5 12 30 72 180 431 1058 2418 5711 12858 29630 65053 145090 303771 640141 1260032 2476812 4490822 7999853 12981931 20265326 28065825 36086638 39470660 37460934 27258384 14584710 4854329 939300 93345 5229 204 5" ;;
    2x6|6x2) echo "1 6 10 30 50 150 249 720 1152 2880 4610 11544 18128 42684 65924 149514 228778 488796 728433 1467000 2136054 3978876 5574328 9510150 12699920 19077354 23527929 29862012 32688655 31474098 27976007 18457764 12016184 4687338 1939160 519318 141371 19092 3257 1038 200 36" ;;
  esac
}

for board in "${boards[@]}"; do
  : > "$work/stm"
  : > "$work/mtm"
  for _ in $(seq "$runs"); do
    for metric in stm mtm; do
      # One table, the default goal's, on every board: the same work for both.
      /usr/bin/time -f "%e %M" -o "$work/time" "$bin/build-db" --quiet --board "$board" \
        --metric "$metric" --no-paths --blank "$(echo "$board" | tr x ,)" \
        --out "$work/$board-$metric.db" > /dev/null
      cat "$work/time" >> "$work/$metric"
    done
  done
  s_wall=$(cut -d' ' -f1 "$work/stm" | median)
  m_wall=$(cut -d' ' -f1 "$work/mtm" | median)
  s_kb=$(cut -d' ' -f2 "$work/stm" | median)
  m_kb=$(cut -d' ' -f2 "$work/mtm" | median)
  counts=$("$bin/query" --db "$work/$board-mtm.db" histogram --json |
    python3 -c 'import json,sys; print(" ".join(map(str, json.load(sys.stdin)["counts"])))')
  if [ "$counts" = "$(published "$board")" ]; then check="equal to the published counts"; else check="DIFFERENT from the published counts: $counts"; fi
  printf "%-4s stm %7.2f s %5d MiB | mtm %7.2f s %5d MiB | time x%.2f, memory x%.2f | mtm radius %d, %s\n" \
    "$board" "$s_wall" "$((s_kb / 1024))" "$m_wall" "$((m_kb / 1024))" \
    "$(echo "$m_wall / $s_wall" | bc -l)" "$(echo "$m_kb / $s_kb" | bc -l)" \
    "$(($(echo "$counts" | wc -w) - 1))" "$check"
  rm -f "$work"/*.db
done
