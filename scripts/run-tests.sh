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
#               there (docs: README.md, "Sanitizers"). Where clang++-14 is
#               installed the folder is built with clang and -DREDIST_FUZZ=ON,
#               so that the same objects give the two fuzz targets, and a
#               fuzz smoke follows the tests: 40 s of redistc-fuzzer and 20 s
#               of plan-input-fuzzer, each first passing its seed corpus
#               (scripts/fuzz-redistc.sh).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
slow=0 sanitize=0 fuzz=0
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
  # libFuzzer is clang's: with clang the sanitized objects serve the fuzz
  # targets too, which then cost two links instead of a build of their own.
  if command -v clang++-14 >/dev/null 2>&1; then
    REDIST_CMAKE_ARGS+=" -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 -DREDIST_FUZZ=ON"
    targets+=(redistc-fuzzer plan-input-fuzzer)
    fuzz=1
  fi
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
(cd "$build" &&
  ctest --output-on-failure -j 2 "${label_filter[@]}" "${name_filter[@]}")
if [ "$fuzz" = 1 ]; then
  # A short run of each fuzz target, so that a fuzzer that stops at once
  # (a seed that hangs or crashes) fails CI. Each keeps its corpus in
  # the build folder.
  REDIST_FUZZ_BUILD_DIR="$build" REDIST_FUZZER="$build/bin/redistc-fuzzer" \
    bash "$root/scripts/fuzz-redistc.sh" --target redistc 40 >"$build/fuzz-smoke-redistc.log" 2>&1 ||
    { tail -n 40 "$build/fuzz-smoke-redistc.log"; exit 1; }
  REDIST_FUZZ_BUILD_DIR="$build" REDIST_FUZZER="$build/bin/plan-input-fuzzer" \
    bash "$root/scripts/fuzz-redistc.sh" --target plan-input 20 >"$build/fuzz-smoke-plan-input.log" 2>&1 ||
    { tail -n 40 "$build/fuzz-smoke-plan-input.log"; exit 1; }
  grep -h "^stat::number_of_executed_units\|^Done" "$build"/fuzz-smoke-*.log || true
fi
