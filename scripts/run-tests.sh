#!/usr/bin/env bash
# README command 2: set up, build, and run the whole test suite (everything
# but the "slow" sweeps; pass --slow to include them).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${REDIST_BUILD_DIR:-$root/build}"
bash "$root/scripts/build.sh"
exclude=(-LE slow)
if [ "${1:-}" = "--slow" ]; then exclude=(); fi
cd "$build"
ctest --output-on-failure -j 2 "${exclude[@]}"
