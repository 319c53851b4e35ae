#!/usr/bin/env bash
# How long `query serve` takes to stop on Ctrl-C with a search under way:
# the milliseconds from SIGINT to the client's answer and to the server's
# exit, and the answer's start. The search is the textbook searches at
# distances 18 to 30 of the 15-puzzle, seconds of work, stopped 3 s in.
# Usage: scripts/serve-stop.sh QUERY FILE_4x4 [PORT] [RUNS]
set -euo pipefail
query=$1 db=$2 port=${3:-8735} runs=${4:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for _ in $(seq "$runs"); do
    "$query" serve --port "$port" --db "$db" > /dev/null 2>&1 &
    server=$!
    sleep 1
    (curl -s -m 60 "http://127.0.0.1:$port/api/compare?board=4x4&distance=18..=30&count=10&max_nodes=1000000" \
        > "$work/answer" || true; date +%s%N > "$work/answered") &
    client=$!
    sleep 3
    signalled=$(date +%s%N)
    kill -INT "$server"
    wait "$server" || true
    stopped=$(date +%s%N)
    wait "$client"
    answered=$(cat "$work/answered")
    echo "answer after $(( (answered - signalled) / 1000000 )) ms, exit after $(( (stopped - signalled) / 1000000 )) ms: $(head -c 60 "$work/answer")"
done
