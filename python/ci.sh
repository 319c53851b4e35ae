#!/usr/bin/env bash
# CI for the Python package: a fresh virtual environment, the build and test
# tools from PyPI, the package built and installed (release) with its dask
# extra, then pytest, stubtest and mypy --strict. Needs only Rust and python3
# (3.10 or newer). Exits non-zero on any failure. The tests compare against
# the `query` binary where one is built under the workspace's target folder
# (cargo test builds it), and skip that comparison cleanly where none is.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="${NPUZZLE_CI_VENV:-$(mktemp -d)/venv}"

python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet maturin pytest numpy mypy pandas-stubs

# Builds the wheel (release, by maturin) and installs it, as a user would,
# with the dask extra (dask, distributed, pyarrow) for tests/test_dask.py.
"$venv/bin/python" -m pip install --quiet "$here[dask]"

# Away from the source folder, so the installed package is the one tested.
cd "$(mktemp -d)"
"$venv/bin/python" -m pytest "$here/tests" -q -p no:cacheprovider
"$venv/bin/python" -m mypy.stubtest npuzzle
"$venv/bin/python" -m mypy --strict "$here/npuzzle"
