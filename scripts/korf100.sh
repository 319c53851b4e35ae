#!/usr/bin/env bash
# Korf's 100 random 15-puzzle instances (Korf 1985) through the command
# line, in release: builds the 6-6-3 pattern database with build-db into a
# temporary folder, solves every instance with `query batch --threads 2`
# toward Korf's goal (blank top-left, 0 1 2 ... 15), and checks each length
# against the published one and the total against 5,305. Exits non-zero on
# any mismatch. A few minutes on 2 cores (most of it the release build).
#
# Usage: scripts/korf100.sh [PARTITION]   (6-6-3 by default; 7-8 takes
# minutes to build and 1.5 GB of memory)
set -euo pipefail
cd "$(dirname "$0")/.."
partition="${1:-6-6-3}"
data=tests/data/korf100.txt
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

cargo build --release --quiet -p build-db
cargo build --release --quiet -p query
target="${CARGO_TARGET_DIR:-target}/release"
"$target/build-db" --board 4x4 --partition "$partition" --out "$tmp/4x4.db" --quiet

grep -v '^#' "$data" | awk '{ s = $3; for (i = 4; i <= NF; i++) s = s " " $i; print s }' >"$tmp/starts"
grep -v '^#' "$data" | awk '{ print $2 }' >"$tmp/expected"
[ "$(wc -l <"$tmp/starts")" -eq 100 ] || { echo "korf100: expected 100 instances in $data" >&2; exit 1; }

start=$(date +%s.%N)
"$target/query" --board 4x4 --db "$tmp/4x4.db" batch --threads 2 --format jsonl \
    --goal '0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15' <"$tmp/starts" >"$tmp/answers"
end=$(date +%s.%N)

python3 - "$tmp/starts" "$tmp/expected" "$tmp/answers" "$partition" "$start" "$end" <<'PY'
import json, sys
starts, expected, answers, partition, t0, t1 = sys.argv[1:]
starts = [l.split() for l in open(starts)]
expected = [int(l) for l in open(expected)]
answers = [json.loads(l) for l in open(answers)]
assert len(answers) == 100, f"{len(answers)} answers"
step = {"U": -4, "D": 4, "L": -1, "R": 1}
bad = 0
for n, (cells, want, a) in enumerate(zip(starts, expected, answers), 1):
    board = [int(c) for c in cells]
    if a.get("distance") != want:
        print(f"instance {n}: length {a.get('distance')}, published {want}", file=sys.stderr)
        bad += 1
        continue
    blank = board.index(0)
    for m in a["moves"]:
        to = blank + step[m]
        ok = 0 <= to < 16 and (m in "UD" or to // 4 == blank // 4)
        if not ok:
            break
        board[blank], board[to] = board[to], 0
        blank = to
    if board != list(range(16)):
        print(f"instance {n}: the moves do not reach the goal", file=sys.stderr)
        bad += 1
total = sum(a.get("distance") or 0 for a in answers)
nodes = [a.get("nodes", 0) for a in answers]
print(f"korf100 ({partition}): {100 - bad}/100 optimal and replayed, total length {total} "
      f"(published 5305), mean nodes {sum(nodes) / len(nodes):,.0f}, "
      f"wall {float(t1) - float(t0):.2f} s with --threads 2")
sys.exit(1 if bad or total != 5305 else 0)
PY
