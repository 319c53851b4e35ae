#!/usr/bin/env bash
# Two builds of `query` side by side on `solve --within`: for each board,
# seed and W, the position `query --board B random --seed S` solved by the
# old build, then by the new, each a whole process with --timeout 5.
# Prints "board seed W old=LENGTH/BOUND/TIME new=…" ("none" at the timeout).
#
#   scripts/within_compare.sh OLD_QUERY NEW_QUERY [5x5.db 4x4.db]
#
# Boards without a file (linear conflicts) always; 5×5 and 4×4 with their
# pattern databases when the two files are given.
set -euo pipefail
old=$1 new=$2 db55=${3:-} db44=${4:-}

run() { # query board db weight position
    local db=() start end out
    [ "$3" != none ] && db=(--db "$3")
    start=$(date +%s.%N)
    out=$("$1" --board "$2" "${db[@]}" solve --within "$4" --timeout 5 --json "$5" 2>/dev/null || true)
    end=$(date +%s.%N)
    python3 - "$out" "$start" "$end" <<'PY'
import json, sys
out, start, end = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
try:
    v = json.loads(out)
    print(f"{len(v['moves'])}/{v['lower_bound']}/{end - start:.2f}s")
except ValueError:
    print(f"none/{end - start:.2f}s")
PY
}

boards="6x6 none 1.5,3,100
3x12 none 1.5,3,100
2x12 none 2,3,100
2x18 none 3,5,100"
[ -n "$db55" ] && boards+=$'\n'"5x5 $db55 1.2,3"
[ -n "$db44" ] && boards+=$'\n'"4x4 $db44 1.2,3"

while read -r board db weights; do
    for seed in 1 2 3 4 5; do
        position=$("$new" --board "$board" random --seed "$seed")
        for w in ${weights//,/ }; do
            echo "$board seed=$seed W=$w old=$(run "$old" "$board" "$db" "$w" "$position")" \
                "new=$(run "$new" "$board" "$db" "$w" "$position")"
        done
    done
done <<< "$boards"
