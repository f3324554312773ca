#!/usr/bin/env bash
# README command 1: set up, build, and run redist's main job on a built-in
# example: examples/phases.cpp, translated by redistc at build time, whose
# phases redistribute one array between block-cyclic layouts, run on 4 ranks.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${REDIST_BUILD_DIR:-$root/build}"
bash "$root/scripts/build.sh"
# What redistc decided for each directive: static schedule or runtime call.
"$build/bin/redistc" --report "$root/examples/phases.cpp" -o /dev/null --
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
  mpirun --oversubscribe -np 4 "$build/bin/redist-example"
