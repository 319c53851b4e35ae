#!/usr/bin/env bash
# Whole-process timings for the README: build-db, a one-shot query, and batch
# throughput. Needs hyperfine (apt-get install hyperfine) and python3.
# Usage: scripts/measure.sh [LINES]   (LINES of batch input, default 1000000)
set -euo pipefail
cd "$(dirname "$0")/.."
lines=${1:-1000000}
cargo build --release --workspace --examples --quiet
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=$PWD/target/release
median() {
  python3 - "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
print("%.2f ms median (min %.2f, %d runs)" % (r["median"] * 1e3, r["min"] * 1e3, len(r["times"])))
PY
}

cd "$work"
hyperfine -N --style none --warmup 10 --runs 100 --export-json build.json "$bin/build-db" >/dev/null 2>&1
echo "build-db, all nine 3x3 tables, whole process: $(median build.json)"
hyperfine -N --style none --warmup 20 --runs 300 --export-json solve.json "$bin/query solve 867254301" >/dev/null 2>&1
echo "query solve 867254301, whole process: $(median solve.json)"
hyperfine -N --style none --warmup 20 --runs 300 --export-json empty.json "$bin/query --version" >/dev/null 2>&1
echo "query --version (start-up alone), whole process: $(median empty.json)"

"$bin/examples/positions" "$lines" 1 > positions.txt
hyperfine --style none --warmup 1 --runs 5 --export-json batch.json "$bin/query batch < positions.txt > answers.jsonl" >/dev/null 2>&1
python3 - "$lines" <<'PY'
import json, sys
lines = int(sys.argv[1])
r = json.load(open("batch.json"))["results"][0]
print(f"query batch, {lines} solvable random 3x3 lines, JSON out: {lines / r['median'] / 1e6:.2f} million lines/s "
      f"({r['median']:.3f} s median of {len(r['times'])} runs)")
PY
