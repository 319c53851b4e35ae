#!/usr/bin/env bash
# Load on loopback: `query serve` (release) against examples/load.rs, 50,000
# /api/solve requests for 3x3 boards over 64 connections by default, with the
# server's resident memory before and after. Bounded in count; 127.0.0.1 only.
# Usage: scripts/load.sh [REQUESTS] [CONNECTIONS]
set -euo pipefail
cd "$(dirname "$0")/.."
requests=${1:-50000}
connections=${2:-64}
cargo build --release -p query -p npuzzle --example load --quiet
cargo build --release -p build-db --quiet
# Where cargo builds: CARGO_TARGET_DIR if set (relative to the checkout).
target=${CARGO_TARGET_DIR:-target}
[[ $target = /* ]] || target=$PWD/$target
bin=$target/release
work=$(mktemp -d)
server=
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
"$bin/build-db" --board 3x3 --out "$work/3x3.db" >/dev/null
"$bin/query" serve --port 0 --db "$work/3x3.db" >"$work/url" 2>"$work/log" &
server=$!
for _ in $(seq 100); do [ -s "$work/url" ] && break; sleep 0.05; done
url=$(head -1 "$work/url")
case "$url" in http://127.0.0.1:*) ;; *) echo "load: no URL from the server" >&2; cat "$work/log" >&2; exit 2 ;; esac
rss() { awk '/^VmRSS/ {print $2 " kB"}' "/proc/$server/status"; }
echo "server: $url (pid $server), resident memory before: $(rss)"
"$bin/examples/load" "$url" 2000 "$connections" >/dev/null   # warm-up
echo "after warm-up: $(rss)"
"$bin/examples/load" "$url" "$requests" "$connections"
echo "resident memory after: $(rss)"
"$bin/examples/load" "$url" "$requests" "$connections" >/dev/null
echo "after a second run: $(rss)"
