#!/usr/bin/env bash
# Runs every fuzz target (fuzz/fuzz_targets/) for a while with cargo-fuzz.
#
#   scripts/fuzz.sh [SECONDS]     each target runs SECONDS (default 60)
#
# Uses the nightly toolchain when rustup has one, and otherwise the active
# (stable) toolchain with RUSTC_BOOTSTRAP=1, which lets it accept the
# sanitizer flags cargo-fuzz passes. Installs cargo-fuzz when it is missing.
# Exits 1 if any target found a crash, after naming the saved input, and 2
# if cargo-fuzz cannot be installed or the targets do not build.
#
# New corpus entries go to fuzz/corpus/TARGET/ and crashes to
# fuzz/artifacts/TARGET/; git ignores both (only the seed-* files of the
# corpus are committed), and the build to fuzz/target/.
set -uo pipefail
cd "$(dirname "$0")/.."

duration=${1:-60}
if ! [[ $duration =~ ^[0-9]+$ ]] || ((duration == 0)); then
  echo "usage: scripts/fuzz.sh [SECONDS]  (a whole number of seconds per target, default 60)" >&2
  exit 2
fi
targets=(parse_board open_database open_pattern_database batch_line)

if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "fuzz.sh: cargo-fuzz is missing; installing it"
  cargo install cargo-fuzz --locked || exit 2
fi

if command -v rustup >/dev/null && rustup toolchain list | grep -q '^nightly'; then
  fuzz=(cargo +nightly fuzz)
  echo "fuzz.sh: using the nightly toolchain ($(rustup run nightly rustc --version))"
else
  export RUSTC_BOOTSTRAP=1
  fuzz=(cargo fuzz)
  echo "fuzz.sh: no nightly toolchain; using $(rustc --version) with RUSTC_BOOTSTRAP=1"
fi
echo "fuzz.sh: $("${fuzz[@]}" --version), ${duration} s per target"

# The seeds are committed; make them again if a checkout lacks them.
if ! compgen -G "fuzz/corpus/open_database/seed-*" >/dev/null; then
  echo "fuzz.sh: writing the seed corpus"
  cargo run --quiet --manifest-path fuzz/Cargo.toml --example seeds -- fuzz/corpus || exit 2
fi

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

# One build for all targets, so that a build error is not taken for a crash.
"${fuzz[@]}" build || { echo "fuzz.sh: the fuzz targets do not build" >&2; exit 2; }

failed=()
summary=()
for target in "${targets[@]}"; do
  mkdir -p "fuzz/corpus/$target"
  log="$logs/$target.log"
  echo "fuzz.sh: $target for ${duration} s"
  extra=()
  if [[ $target == batch_line ]]; then
    # batch::run starts a thread pool per call, whose threads finish after
    # it returns; libFuzzer then sees more allocations than frees and runs
    # LeakSanitizer's whole-heap scan after nearly every input, which
    # halves the speed and can mistake a thread still exiting for a leak.
    # The flag alone still left LeakSanitizer's exit-time check on, which
    # reported the pool threads' thread-local destructor lists (32 bytes
    # from __cxa_thread_atexit_impl) as leaks; turn the sanitizer's own
    # leak check off too for this target.
    extra=(-detect_leaks=0)
    export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
  fi
  # -timeout: one input that takes 10 s is a bug too.
  "${fuzz[@]}" run "$target" "fuzz/corpus/$target" -- \
    -max_total_time="$duration" -timeout=10 -print_final_stats=1 "${extra[@]}" 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  # libFuzzer's last status line: "#RUNS DONE cov: … ft: … corp: … exec/s: …".
  last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
  runs=$(grep -E '^stat::number_of_executed_units:' "$log" | awk '{print $2}')
  if ((status == 0)); then
    summary+=("$target: ${runs:-?} runs; ${last:-no status line}")
  else
    failed+=("$target")
    artifact=$(grep -oE 'Test unit written to [^ ]+' "$log" | tail -n 1 |
      sed 's/^Test unit written to //')
    summary+=("$target: FAILED after ${runs:-?} runs; input: ${artifact:-none saved, see above}")
    echo "fuzz.sh: $target FAILED (exit $status)" >&2
    if [[ -n $artifact ]]; then
      echo "fuzz.sh: crash input: $artifact" >&2
      echo "fuzz.sh: reproduce: ${fuzz[*]} run $target $artifact" >&2
      echo "fuzz.sh: minimise:  ${fuzz[*]} tmin $target $artifact" >&2
    fi
  fi
done

echo
echo "fuzz.sh: summary (${duration} s per target)"
printf '  %s\n' "${summary[@]}"
if ((${#failed[@]} > 0)); then
  echo "fuzz.sh: crashes in: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz.sh: no crashes"
