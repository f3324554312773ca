#!/usr/bin/env bash
# README command 2: set up, build, and run the whole test suite (everything
# but the "slow" sweeps).
#
#   run-tests.sh [--slow] [--sanitize] [--mpi]
#
#   --slow      include the slow sweeps (ctest label "slow")
#   --sanitize  instead of build/, build in build-sanitize/ (or
#               $REDIST_SANITIZE_BUILD_DIR) with -DREDIST_SANITIZE=address,undefined
#               and run the tests that start no MPI job under ASan and UBSan:
#               the unit tests (schedule library, redistc, runtime kernels,
#               benchmark round order) and the lit
#               suites redist-plan, redistc and
#               scripts (CI's second stage). It builds only what those need,
#               with clang-14 and -DREDIST_FUZZ=ON, so that the same objects
#               give the two fuzz targets, and ends with a fuzz smoke: 30 s
#               of each, side by side, each first passing its whole seed
#               corpus (scripts/fuzz-redistc.sh; docs/reliability.md).
#   --mpi       run only the suites that start MPI jobs (ctest label "mpi":
#               mpi, redistc/mpi with the installed-package test, bench and
#               scalapack), after building everything. With --sanitize, the
#               sanitized MPI stage (docs: README.md, "Sanitizers"); ctest's
#               test "sanitize-mpi" (label sanitize-mpi) runs it.
# It prints the time it took.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
slow=0 sanitize=0 mpi=0 fuzz=0
for arg in "$@"; do
  case "$arg" in
    --slow) slow=1 ;;
    --sanitize) sanitize=1 ;;
    --mpi) mpi=1 ;;
    *) echo "usage: run-tests.sh [--slow] [--sanitize] [--mpi]" >&2; exit 2 ;;
  esac
done
start=$SECONDS
trap 'echo "run-tests.sh: $((SECONDS - start)) s"' EXIT

targets=()
exclude=()
if [ "$sanitize" = 1 ]; then
  export REDIST_BUILD_DIR="${REDIST_SANITIZE_BUILD_DIR:-$root/build-sanitize}"
  export REDIST_CMAKE_ARGS="${REDIST_CMAKE_ARGS:-} -DREDIST_SANITIZE=address,undefined"
  if [ "$mpi" = 0 ]; then
    targets=(redist-unit-tests redistc-unit-tests redist-runtime-unit-tests
             redist-bench-unit-tests redist-plan redistc redist_runtime
             redist-calibrate)
    exclude=(mpi)
    # libFuzzer is clang's: built with clang, the sanitized objects serve the
    # fuzz targets too, for two links instead of a build of their own.
    REDIST_CMAKE_ARGS+=" -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 -DREDIST_FUZZ=ON"
    targets+=(redistc-fuzzer plan-input-fuzzer)
    fuzz=1
  fi
fi
# The sanitized MPI stage is a test of the ordinary build: never inside it.
exclude+=(sanitize-mpi)
if [ "$slow" = 0 ]; then exclude+=(slow); fi
build="${REDIST_BUILD_DIR:-$root/build}"

bash "$root/scripts/build.sh" "${targets[@]}"
# libredist_scalapack exists only where ScaLAPACK was found; the sanitized
# stage's install test (scripts/sanitize.test) installs it when it does.
if [ "$sanitize" = 1 ] && [ "$mpi" = 0 ] &&
   ninja -C "$build" -t query redist_scalapack >/dev/null 2>&1; then
  cmake --build "$build" --target redist_scalapack
fi
label_filter=()
if [ "$mpi" = 1 ]; then label_filter=(-L '^mpi$'); fi
label_filter+=(-LE "^($(IFS='|'; echo "${exclude[*]}"))\$")
# Under the sanitizers the property sweep's shards take minutes each (they
# run unsanitized in the first stage): the sanitized stage leaves them out.
name_filter=()
if [ "$sanitize" = 1 ] && [ "$mpi" = 0 ]; then
  name_filter=(-E 'PropertySweepTest')
fi
(cd "$build" &&
  ctest --output-on-failure -j 2 "${label_filter[@]}" "${name_filter[@]}")
if [ "$fuzz" = 1 ]; then
  # The fuzz smoke: a fuzzer that stops at once (a seed that hangs or
  # crashes) fails the run. One process per target, side by side. A hang
  # is an input over 60 s here: the overlap seed takes about 20 s of CPU
  # under the sanitizers, and a CI machine may be shared.
  pids=()
  for target in redistc plan-input; do
    REDIST_FUZZ_TIMEOUT="${REDIST_FUZZ_TIMEOUT:-60}" \
    REDIST_FUZZ_BUILD_DIR="$build" REDIST_FUZZER="$build/bin/$target-fuzzer" \
      bash "$root/scripts/fuzz-redistc.sh" --target "$target" 30 \
      >"$build/fuzz-smoke-$target.log" 2>&1 &
    pids+=($!)
  done
  failed=0
  for k in 0 1; do
    wait "${pids[$k]}" || failed=1
  done
  for target in redistc plan-input; do
    echo "fuzz smoke $target: $(grep -h '^stat::number_of_executed_units' \
      "$build/fuzz-smoke-$target.log" || echo 'no statistics')"
  done
  if [ "$failed" = 1 ]; then
    tail -n 40 "$build"/fuzz-smoke-*.log
    exit 1
  fi
fi
