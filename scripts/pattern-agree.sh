#!/usr/bin/env bash
# Issue 13's 3×5 and 5×3 target through the command line, in release: for
# each board, builds two different partitions (7-7 and 6-6-2) with
# build-db into a temporary folder, solves the same random positions
# (seeded, from `examples/positions.rs`) with `query batch --threads 2`
# through each file, checks that the two partitions give every position
# the same length and that every solution replays to the goal, and prints
# each build's wall and CPU time, peak memory and file size, and each
# solve's median wall time over RUNS runs. Exits non-zero on any
# disagreement or failed replay.
#
# Usage: scripts/pattern-agree.sh [BOARD...]   (3x5 5x3 by default)
# Environment: COUNT positions (100), SEED (13), RUNS solve runs (3).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -gt 0 ]; then boards=("$@"); else boards=(3x5 5x3); fi
partitions=(7-7 6-6-2)
count="${COUNT:-100}"
seed="${SEED:-13}"
runs="${RUNS:-3}"
for setting in "COUNT=$count" "SEED=$seed" "RUNS=$runs"; do
    value="${setting#*=}"
    if ! [[ $value =~ ^[0-9]{1,9}$ ]] || { [[ $setting != SEED=* ]] && ((10#$value == 0)); }; then
        echo "pattern-agree.sh: ${setting%%=*} must be a whole number (1 to 999999999; SEED may be 0), got '${value:0:40}'" >&2
        exit 2
    fi
done
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

cargo build --release --quiet -p build-db
cargo build --release --quiet -p query -p npuzzle --example positions
target="${CARGO_TARGET_DIR:-target}/release"

# One figure line per build and per solve run, for the summary below.
: >"$tmp/figures"
for board in "${boards[@]}"; do
    "$target/examples/positions" "$count" "$seed" "$board" >"$tmp/$board.starts"
    for partition in "${partitions[@]}"; do
        db="$tmp/$board-$partition.db"
        /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" \
            "$target/build-db" --board "$board" --partition "$partition" --out "$db" --quiet >/dev/null
        read -r wall user sys peak <"$tmp/time"
        echo "build $board $partition $wall $user $sys $peak $(stat -c %s "$db")" >>"$tmp/figures"
        for run in $(seq "$runs"); do
            /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" \
                "$target/query" --board "$board" --db "$db" batch --threads 2 --format jsonl \
                <"$tmp/$board.starts" >"$tmp/$board-$partition.answers"
            read -r wall user sys peak <"$tmp/time"
            echo "solve $board $partition $wall $user $sys $peak $run" >>"$tmp/figures"
        done
        rm -f "$db"
    done
done

python3 - "$tmp" "$count" "$seed" "${boards[@]}" <<'PY'
import json, statistics, sys
tmp, count, seed, boards = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
partitions = ["7-7", "6-6-2"]
figures = [line.split() for line in open(f"{tmp}/figures")]
bad = 0

def replays(cells, moves, rows, cols):
    board = list(cells)
    blank = board.index(0)
    step = {"U": -cols, "D": cols, "L": -1, "R": 1}
    for m in moves:
        to = blank + step[m]
        if not (0 <= to < rows * cols and (m in "UD" or to // cols == blank // cols)):
            return False
        board[blank], board[to] = board[to], 0
        blank = to
    return board == list(range(1, rows * cols)) + [0]

for board in boards:
    rows, cols = map(int, board.split("x"))
    starts = [[int(c) for c in line.split()] for line in open(f"{tmp}/{board}.starts")]
    answers = {p: [json.loads(l) for l in open(f"{tmp}/{board}-{p}.answers")] for p in partitions}
    for p in partitions:
        if len(answers[p]) != count:
            print(f"{board} {p}: {len(answers[p])} answers for {count} positions", file=sys.stderr)
            bad += 1
    for n, (cells, a, b) in enumerate(zip(starts, *answers.values()), 1):
        if a.get("distance") is None or a.get("distance") != b.get("distance"):
            print(f"{board} position {n}: 7-7 says {a.get('distance')}, 6-6-2 {b.get('distance')}",
                  file=sys.stderr)
            bad += 1
        for p, x in zip(partitions, (a, b)):
            if x.get("moves") is None or not replays(cells, x["moves"], rows, cols):
                print(f"{board} position {n}: the {p} moves do not reach the goal", file=sys.stderr)
                bad += 1
    lengths = [a.get("distance") or 0 for a in answers["7-7"]]
    agree = sum(a.get("distance") == b.get("distance") for a, b in zip(*answers.values()))
    print(f"{board}: {agree}/{count} lengths agree between 7-7 and 6-6-2 and replay "
          f"(seed {seed}; lengths {min(lengths)} to {max(lengths)}, mean {statistics.mean(lengths):.2f})")
    for p in partitions:
        build = next(f for f in figures if f[:3] == ["build", board, p])
        wall, user, sys_, peak, size = map(float, build[3:])
        solves = [f for f in figures if f[:3] == ["solve", board, p]]
        walls = [float(f[3]) for f in solves]
        cpus = [float(f[4]) + float(f[5]) for f in solves]
        nodes = statistics.mean(a.get("nodes", 0) for a in answers[p])
        print(f"  {p:>5}: build {wall:.1f} s wall, {user + sys_:.1f} s CPU, {peak / 1024:.0f} MiB peak, "
              f"file {size / 1e6:.1f} MB; solve {count} with --threads 2: median {statistics.median(walls):.2f} s "
              f"wall ({', '.join(f'{w:.2f}' for w in walls)}), {statistics.median(cpus):.2f} s CPU, "
              f"mean nodes {nodes:,.0f}")
sys.exit(1 if bad else 0)
PY
