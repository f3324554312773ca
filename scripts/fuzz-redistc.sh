#!/usr/bin/env bash
# Fuzzes redistc's front end (the directive parser, the analysis and code
# generation) with libFuzzer for a while, on one core, and fails on the first
# crash, leak, sanitizer report or inconsistent outcome (test/fuzz/README.md).
#
#   fuzz-redistc.sh [SECONDS]     (default 60)
#
# REDIST_FUZZ_BUILD_DIR  the build folder (default build-fuzz/): scripts/build.sh
#                        configures it with clang-14, -DREDIST_FUZZ=ON,
#                        -DREDIST_SANITIZE=address,undefined and
#                        -DREDIST_BUILD_RUNTIME=OFF, and builds redistc-fuzzer
# REDIST_FUZZER          an already built fuzzer: nothing is built then
#
# Everything goes to <build>/fuzz-run/: seeds/ (test/fuzz/make-seed-corpus.py),
# corpus/ (the inputs that found new code, kept from run to run), artifacts/
# (crashing inputs) and fuzz.log.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-60}"
build="${REDIST_FUZZ_BUILD_DIR:-$root/build-fuzz}"
fuzzer="${REDIST_FUZZER:-}"
if [ -z "$fuzzer" ]; then
  REDIST_BUILD_DIR="$build" \
  REDIST_CMAKE_ARGS="-DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 -DREDIST_FUZZ=ON -DREDIST_SANITIZE=address,undefined -DREDIST_BUILD_RUNTIME=OFF" \
    bash "$root/scripts/build.sh" redistc-fuzzer
  fuzzer="$build/bin/redistc-fuzzer"
fi

run="$build/fuzz-run"
mkdir -p "$run/corpus" "$run/artifacts"
# The longest input, seed or mutation.
max_len=16384
rm -rf "$run/seeds"
python3 "$root/test/fuzz/make-seed-corpus.py" "$root" "$run/seeds" \
  --max-bytes "$max_len"
# One process. -timeout: an input that takes 10 s counts as a hang;
# -rss_limit_mb: one that takes 2 GiB, as unbounded growth. New inputs go to
# the first folder.
export ASAN_OPTIONS="${ASAN_OPTIONS:-halt_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
"$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
  -max_len="$max_len" -dict="$root/test/fuzz/redistc.dict" \
  -artifact_prefix="$run/artifacts/" -print_final_stats=1 \
  "$run/corpus" "$run/seeds" 2>&1 | tee "$run/fuzz.log"
