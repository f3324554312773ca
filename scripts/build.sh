#!/usr/bin/env bash
# Installs what is missing, then configures and builds redist in build/ (or
# $REDIST_BUILD_DIR). Safe to run again: every step is incremental.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${REDIST_BUILD_DIR:-$root/build}"

bash "$root/scripts/install-deps.sh"

if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        ${REDIST_CMAKE_ARGS:-}
fi
cmake --build "$build" -j "$(nproc)"
