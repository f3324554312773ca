#!/usr/bin/env bash
# README command 1: set up, build, and run redist's main job on a built-in
# example: the schedule of desprez-1998's Example 1, CYCLIC(3) -> CYCLIC(5)
# on 16 processes.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${REDIST_BUILD_DIR:-$root/build}"
bash "$root/scripts/build.sh"
"$build/bin/redist-plan" cyclic 16 3 16 5 --algorithm auto --table
