#!/usr/bin/env bash
# The farthest 15-puzzle positions (80 moves, tests/data/hardest4x4.txt),
# each solved on one thread with `query batch --threads 1`; prints the
# length found, the nodes generated and the whole process's wall time per
# position, and exits non-zero if a length differs from the published 80.
#
# Usage: scripts/hardest.sh [DB]   (a 4x4 pattern database; without one,
# the default 7-8 file is built into a temporary folder: minutes, 1.5 GB)
set -euo pipefail
cd "$(dirname "$0")/.."
data=tests/data/hardest4x4.txt
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

cargo build --release --quiet -p query
target="${CARGO_TARGET_DIR:-target}/release"
db="${1:-}"
if [ -z "$db" ]; then
    cargo build --release --quiet -p build-db
    db="$tmp/4x4.db"
    "$target/build-db" --board 4x4 --out "$db" --quiet
fi

status=0
while read -r number length cells; do
    start=$(date +%s.%N)
    answer=$("$target/query" --board 4x4 --db "$db" batch --threads 1 --format jsonl \
        --goal '0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15' <<<"$cells")
    end=$(date +%s.%N)
    python3 - "$number" "$length" "$answer" "$start" "$end" <<'PY' || status=1
import json, sys
number, length, answer, t0, t1 = sys.argv[1:]
a = json.loads(answer)
ok = a.get("distance") == int(length)
print(f"position {number}: {a.get('distance')} moves (published {length}), "
      f"{a.get('nodes'):,} nodes generated, {float(t1) - float(t0):.2f} s wall"
      + ("" if ok else "  WRONG"))
sys.exit(0 if ok else 1)
PY
done < <(grep -v '^#' "$data")
exit $status
