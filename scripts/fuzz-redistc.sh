#!/usr/bin/env bash
# Fuzzes with libFuzzer for a while, on one core, and fails on the first
# crash, hang, leak, sanitizer report or inconsistent outcome
# (test/fuzz/README.md). Two targets:
#   redistc     redistc's front end: the directive parser, the analysis and
#               code generation (the default)
#   plan-input  what users type outside source files: redist-plan's command
#               line, and model files (redist-model/1)
#
#   fuzz-redistc.sh [--target redistc|plan-input] [SECONDS]   (default 60)
#
# REDIST_FUZZ_BUILD_DIR  the build folder (default build-fuzz/): scripts/build.sh
#                        configures it with clang-14, -DREDIST_FUZZ=ON,
#                        -DREDIST_SANITIZE=address,undefined and
#                        -DREDIST_BUILD_RUNTIME=OFF, and builds the fuzzer
# REDIST_FUZZER          an already built fuzzer of the target: nothing is
#                        built then
# REDIST_FUZZ_TIMEOUT    seconds of wall time after which an input counts as
#                        a hang (default 30; more on a machine shared with
#                        other jobs, where a process gets a fraction of a core)
#
# Everything goes to <build>/fuzz-run/ (redistc) or <build>/fuzz-run-plan-input/:
# seeds/ (the seed corpus: test/fuzz/make-seed-corpus.py, or
# test/fuzz/plan-input-seeds/), corpus/ (the inputs that found new code, kept
# from run to run), artifacts/ (crashing inputs) and fuzz.log. The run must
# first pass every seed, then fuzz for SECONDS.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
target=redistc
if [ "${1:-}" = "--target" ]; then
  target="${2:-}"
  shift 2
fi
seconds="${1:-60}"
case "$target" in
  redistc) fuzz_target=redistc-fuzzer run_name=fuzz-run max_len=16384
           extra=() ;;
  # Its output (the plans) goes nowhere: -close_fd_mask=1 closes stdout.
  plan-input) fuzz_target=plan-input-fuzzer run_name=fuzz-run-plan-input
              max_len=512 extra=(-close_fd_mask=1) ;;
  *) echo "usage: fuzz-redistc.sh [--target redistc|plan-input] [SECONDS]" >&2
     exit 2 ;;
esac
build="${REDIST_FUZZ_BUILD_DIR:-$root/build-fuzz}"
fuzzer="${REDIST_FUZZER:-}"
if [ -z "$fuzzer" ]; then
  REDIST_BUILD_DIR="$build" \
  REDIST_CMAKE_ARGS="-DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 -DREDIST_FUZZ=ON -DREDIST_SANITIZE=address,undefined -DREDIST_BUILD_RUNTIME=OFF" \
    bash "$root/scripts/build.sh" "$fuzz_target"
  fuzzer="$build/bin/$fuzz_target"
fi

run="$build/$run_name"
mkdir -p "$run/corpus" "$run/artifacts"
rm -rf "$run/seeds"
if [ "$target" = redistc ]; then
  python3 "$root/test/fuzz/make-seed-corpus.py" "$root" "$run/seeds" \
    --max-bytes "$max_len"
else
  cp -r "$root/test/fuzz/plan-input-seeds" "$run/seeds"
fi
# One process. -timeout: an input that takes 30 s counts as a hang (bounded
# planning keeps a schedule search to about a second in a release build;
# the sanitizers make it several times slower, a busy machine more);
# -rss_limit_mb: one that takes 2 GiB, as unbounded growth. New inputs go to
# the first folder.
export ASAN_OPTIONS="${ASAN_OPTIONS:-halt_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
"$fuzzer" -max_total_time="$seconds" -timeout="${REDIST_FUZZ_TIMEOUT:-30}" -rss_limit_mb=2048 \
  -max_len="$max_len" -dict="$root/test/fuzz/$target.dict" \
  -artifact_prefix="$run/artifacts/" -print_final_stats=1 ${extra[@]+"${extra[@]}"} \
  "$run/corpus" "$run/seeds" 2>&1 | tee "$run/fuzz.log"
