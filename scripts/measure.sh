#!/usr/bin/env bash
# Whole-process timings for the README: build-db, a one-shot query against an
# empty Rust program, and batch throughput in every format, on one and on
# all cores. Needs hyperfine (apt-get install hyperfine) and python3.
# Usage: scripts/measure.sh [LINES]   (LINES of batch input, default 10000000;
# SKIP_BATCH=1 skips the batch runs, which take a few minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
# A figure is hyperfine's: without it every figure would be empty.
command -v hyperfine >/dev/null || { echo "$0: needs hyperfine (apt-get install hyperfine)" >&2; exit 2; }
shopt -s inherit_errexit
lines=${1:-10000000}
cargo build --release --workspace --examples --quiet
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Where cargo builds: CARGO_TARGET_DIR if set (relative to the checkout).
target=${CARGO_TARGET_DIR:-target}
[[ $target = /* ]] || target=$PWD/$target
bin=$target/release
cd "$work"

# Prints "<median> ms median (min <min>, <runs> runs)" from a hyperfine export.
median() {
  python3 - "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
print("%.2f ms median (min %.2f, %d runs)" % (r["median"] * 1e3, r["min"] * 1e3, len(r["times"])))
PY
}
time_cmd() { # NAME RUNS COMMAND...
  local name=$1 runs=$2
  shift 2
  hyperfine -N --style none --warmup 10 --runs "$runs" --export-json "$name.json" "$*" >/dev/null 2>&1
  echo "$(median "$name.json")"
}

echo 'fn main() {}' > empty.rs
rustc -O -o empty empty.rs
# Every file is this run's own (--out, --db): the user's databases are
# neither read nor replaced, and the queries read the default build.
echo "build-db --every-blank, all nine 3x3 tables with path tables, whole process: $(time_cmd build9 100 "$bin/build-db --out $work/9.db --every-blank")"
echo "build-db --every-blank --no-paths, nine tables without path tables: $(time_cmd build9n 100 "$bin/build-db --out $work/9n.db --every-blank --no-paths")"
echo "build-db, 3x3 every goal (3 tables with path tables), whole process: $(time_cmd build 100 "$bin/build-db --out $work/3x3.db")"
db="--db $work/3x3.db"
echo "empty Rust program: $(time_cmd empty 300 ./empty)"
echo "query solve 867254301: $(time_cmd solve 300 "$bin/query $db solve 867254301")"
echo "query distance 867254301: $(time_cmd distance 300 "$bin/query $db distance 867254301")"
echo "query heuristics: $(time_cmd heuristics 50 "$bin/query $db heuristics")"
echo "query stats: $(time_cmd stats 100 "$bin/query $db stats")"
echo "query random --distance 20 --count 10000: $(time_cmd random 100 "$bin/query $db random --distance 20 --count 10000")"

[ "${SKIP_BATCH:-}" = 1 ] && exit 0
"$bin/examples/positions" "$lines" 1 > positions.txt
for format in moves jsonl csv; do
  for threads in 1 2; do
    hyperfine --style none --warmup 1 --runs 3 --export-json "batch.json" \
      "$bin/query $db batch --format $format --threads $threads < positions.txt > answers" >/dev/null 2>&1
    python3 - "$lines" "$format" "$threads" <<'PY'
import json, sys
lines, fmt, threads = int(sys.argv[1]), sys.argv[2], sys.argv[3]
r = json.load(open("batch.json"))["results"][0]
print(f"query batch --format {fmt} --threads {threads}, {lines} random solvable 3x3 lines: "
      f"{lines / r['median'] / 1e6:.2f} million lines/s ({r['median']:.2f} s median of {len(r['times'])})")
PY
  done
done
/usr/bin/time -f "query batch --format jsonl, peak memory: %M KB" "$bin/query" $db batch < positions.txt > /dev/null
