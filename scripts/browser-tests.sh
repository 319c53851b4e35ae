#!/usr/bin/env bash
# The page of `query serve` in a real browser: installs Debian's chromium and
# chromium-driver when missing (apt-get, as root), then runs the WebDriver
# tests of tests/browser.rs, which are ignored in a plain `cargo test`.
# They also rewrite docs/serve.png, the screenshot in the README. The
# accessibility test injects axe-core (from npm, into ~/.cache/npuzzle/axe
# when missing; never part of the page) through WebDriver.
# Usage: scripts/browser-tests.sh [extra cargo test arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromedriver >/dev/null || ! command -v chromium >/dev/null; then
  if [ "$(id -u)" != 0 ]; then
    echo "browser-tests: chromium and chromedriver are missing; install them as root with:" >&2
    echo "  apt-get update && apt-get install -y chromium chromium-driver" >&2
    exit 2
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
fi
if ! command -v npm >/dev/null; then
  if [ "$(id -u)" != 0 ]; then
    echo "browser-tests: npm is missing (for axe-core); install it as root with:" >&2
    echo "  apt-get update && apt-get install -y npm" >&2
    exit 2
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null
fi
axe_dir="${XDG_CACHE_HOME:-$HOME/.cache}/npuzzle/axe"
export AXE_CORE_JS="$axe_dir/node_modules/axe-core/axe.min.js"
if [ ! -f "$AXE_CORE_JS" ]; then
  npm install --prefix "$axe_dir" --no-save --no-audit --no-fund axe-core@4.14.1 >/dev/null
fi
chromium --version 2>/dev/null || true
chromedriver --version
# The tests run the `query` binary, which is another package of the
# workspace: `cargo test --test it` does not rebuild it, so build it here,
# with the same profile.
profile=()
for arg in "$@"; do
  if [ "$arg" = --release ]; then profile=(--release); fi
done
cargo build -p query ${profile[@]+"${profile[@]}"}
cargo test --test it "$@" -- --ignored --test-threads=1 browser
