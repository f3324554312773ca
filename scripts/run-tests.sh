#!/usr/bin/env bash
# README command 2: set up, build, and run the whole test suite (everything
# but the "slow" sweeps).
#
#   run-tests.sh [--slow] [--sanitize]
#
#   --slow      include the slow sweeps (ctest label "slow")
#   --sanitize  instead of build/, build in build-sanitize/ (or
#               $REDIST_SANITIZE_BUILD_DIR) with -DREDIST_SANITIZE=address,undefined
#               and run the tests that start no MPI job under ASan and UBSan:
#               the unit tests (schedule library and redistc) and the lit
#               suites redist-plan, redistc and
#               scripts (CI's second stage). It builds only what those need;
#               for the MPI suites too, build that folder fully and run ctest
#               there (docs: README.md, "Sanitizers").
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
slow=0 sanitize=0
for arg in "$@"; do
  case "$arg" in
    --slow) slow=1 ;;
    --sanitize) sanitize=1 ;;
    *) echo "usage: run-tests.sh [--slow] [--sanitize]" >&2; exit 2 ;;
  esac
done

targets=()
exclude=()
if [ "$sanitize" = 1 ]; then
  export REDIST_BUILD_DIR="${REDIST_SANITIZE_BUILD_DIR:-$root/build-sanitize}"
  export REDIST_CMAKE_ARGS="${REDIST_CMAKE_ARGS:-} -DREDIST_SANITIZE=address,undefined"
  targets=(redist-unit-tests redistc-unit-tests redist-plan redistc redist_runtime
           redist-calibrate)
  exclude=(mpi)
fi
if [ "$slow" = 0 ]; then exclude+=(slow); fi
build="${REDIST_BUILD_DIR:-$root/build}"

bash "$root/scripts/build.sh" "${targets[@]}"
# libredist_scalapack exists only where ScaLAPACK was found; the sanitized
# stage's install test (scripts/sanitize.test) installs it when it does.
if [ "$sanitize" = 1 ] && ninja -C "$build" -t query redist_scalapack >/dev/null 2>&1; then
  cmake --build "$build" --target redist_scalapack
fi
label_filter=()
if [ ${#exclude[@]} -gt 0 ]; then
  label_filter=(-LE "^($(IFS='|'; echo "${exclude[*]}"))\$")
fi
# Under the sanitizers the property sweep's shards take minutes each (they
# run unsanitized in the first stage): the sanitized stage leaves them out.
name_filter=()
if [ "$sanitize" = 1 ]; then name_filter=(-E 'PropertySweepTest'); fi
cd "$build"
ctest --output-on-failure -j 2 "${label_filter[@]}" "${name_filter[@]}"
