#!/usr/bin/env bash
# Installs what is missing, then configures and builds redist in build/ (or
# $REDIST_BUILD_DIR). Safe to run again: every step is incremental.
#
#   build.sh [target ...]    (default: everything)
#
# REDIST_CMAKE_ARGS holds extra CMake arguments (CI: -DREDIST_WERROR=ON). The
# build folder is configured with exactly these: build.sh keeps the arguments
# of its last configure in <build>/redist-cmake-args and, when they differ
# (or the folder was configured some other way), configures it afresh: it
# deletes CMakeCache.txt, so that the cache starts from the defaults and these
# arguments and a removed argument is gone too. (Not cmake --fresh, which also
# deletes the object files.) Ninja then rebuilds only what the change
# touches. Settings made by hand in the cache are lost at that point: pass
# them in REDIST_CMAKE_ARGS, or use a build folder of your own.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${REDIST_BUILD_DIR:-$root/build}"

bash "$root/scripts/install-deps.sh"

# shellcheck disable=SC2206 # REDIST_CMAKE_ARGS holds separate arguments.
args=(-G Ninja -DCMAKE_BUILD_TYPE=Release ${REDIST_CMAKE_ARGS:-})
stamp="$build/redist-cmake-args"
wanted="$(printf '%s\n' "${args[@]}")"
if [ ! -f "$build/CMakeCache.txt" ] ||
   [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
  if [ -f "$build/CMakeCache.txt" ]; then
    echo "build.sh: configuring $build afresh: its CMake arguments were" \
         "'$(paste -sd' ' "$stamp" 2>/dev/null || echo unknown)', now" \
         "'${args[*]}'" >&2
  fi
  rm -f "$stamp" "$build/CMakeCache.txt"
  cmake -S "$root" -B "$build" "${args[@]}"
  printf '%s\n' "$wanted" >"$stamp"
fi
targets=()
for target in "$@"; do targets+=(--target "$target"); done
cmake --build "$build" -j "$(nproc)" "${targets[@]}"
