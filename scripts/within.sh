#!/usr/bin/env bash
# `solve --within W` on uniformly random solvable positions, one process
# and one thread each, in release: prints, per position, the time, the
# length, the lower bound and the nodes, then the mean ratio of length to
# lower bound, the largest time and how many finished within --timeout.
#
# Usage: scripts/within.sh RxC W [COUNT] [TIMEOUT] [-- query options, e.g. --db FILE]
#   scripts/within.sh 6x6 2 100 10
#   scripts/within.sh 4x4 1.2 100 10 -- --db /tmp/78v5.db
# The positions are seed 1's; SEED=N draws another seed's.
set -euo pipefail
cd "$(dirname "$0")/.."
board="$1" weight="$2" count="${3:-100}" timeout="${4:-10}"
shift $(( $# < 4 ? $# : 4 ))
seed="${SEED:-1}"
if ! [[ "$seed" =~ ^[0-9]{1,19}$ ]]; then
    echo "within.sh: SEED must be a whole number below 10^19, not '${seed:0:40}'" >&2
    exit 2
fi
[ "${1:-}" = "--" ] && shift
cargo build --release --quiet -p query
cargo build --release --quiet --example positions
target="${CARGO_TARGET_DIR:-target}/release"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"$target/examples/positions" "$count" "$seed" "$board" >"$tmp/starts"
while read -r start; do
    began=$(date +%s.%N)
    if answer=$("$target/query" --board "$board" "$@" solve --within "$weight" \
            --timeout "$timeout" --json "$start" 2>"$tmp/err"); then
        ended=$(date +%s.%N)
        echo "$answer" | python3 -c "import json,sys; v=json.load(sys.stdin); \
print(f\"{$ended-$began:.3f} {v['length']} {v['lower_bound']} {v['nodes']}\")"
    else
        echo "timeout $(head -c 200 "$tmp/err")"
    fi
done <"$tmp/starts" | tee "$tmp/rows"
python3 - "$tmp/rows" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1])]
done = [r for r in rows if r[0] != "timeout"]
ratios = [int(r[1]) / int(r[2]) for r in done]
times = sorted(float(r[0]) for r in done)
print(f"finished {len(done)}/{len(rows)}; mean length/lower_bound {sum(ratios)/max(len(ratios),1):.3f}; "
      f"median time {times[len(times)//2] if times else 0:.3f} s; max time {max(times, default=0):.3f} s; "
      f"within 1 s: {sum(t <= 1 for t in times)}")
PY
