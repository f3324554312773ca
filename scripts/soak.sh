#!/usr/bin/env bash
# The soak (docs/reliability.md): redist-soak on 4 ranks builds, runs,
# caches and drops random 1-D plans, matrix plans and libredist_scalapack's
# pdgemr2d for a set time, checking every element, and samples each rank's
# resident memory, open file descriptors, live duplicates of its
# communicator and the runtime's segments in /dev/shm every 10 s.
#
#   soak.sh [SECONDS] [--kill] [--ranks R]     (default 600 s, 4 ranks)
#
# It fails unless every element arrived, the last minute's resident memory
# of every rank stays within 10 % + 4 MiB of its first minute's (with less
# than two minutes, the first and last half), descriptors and duplicates
# are the same at every sample after the first operation, and the rings a
# rank maps stay within what libredist_scalapack's 16 cached plans may hold.
# --kill instead kills rank 1 with SIGKILL halfway through: the job must end
# within 30 s and leave nothing in /dev/shm (no segment of the runtime's
# ranks, none of Open MPI's shared-memory transport for this job).
#
# REDIST_BUILD_DIR: the build folder (default build/), where redist-soak is
# built (by scripts/build.sh, if the folder is not configured yet). The
# samples go to <build>/soak/.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds=600 kill=0 ranks=4
while [ $# -gt 0 ]; do
  case "$1" in
    --kill) kill=1 ;;
    --ranks) ranks="$2"; shift ;;
    [0-9]*) seconds="$1" ;;
    *) echo "usage: soak.sh [SECONDS] [--kill] [--ranks R]" >&2; exit 2 ;;
  esac
  shift
done
build="${REDIST_BUILD_DIR:-$root/build}"
# A configured folder is built as it is (build.sh would configure it afresh
# unless REDIST_CMAKE_ARGS were the same as last time).
if [ -f "$build/build.ninja" ]; then
  cmake --build "$build" --target redist-soak >/dev/null
else
  bash "$root/scripts/build.sh" redist-soak >/dev/null
fi
out="$build/soak"
rm -rf "$out" && mkdir -p "$out/pids"
# As lit's configuration does for the tests: Open MPI as root, more ranks
# than cores.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
ls /dev/shm >"$out/shm-before"
mpirun=(mpirun --oversubscribe -np "$ranks" "$build/bin/redist-soak")

# Files of /dev/shm that this run left: the runtime's (named by a rank's
# pid) and Open MPI's (named by the job id, in hexadecimal).
leftovers() {
  local job="" pid
  if [ -s "$out/pids/jobid" ]; then
    job="$(printf '%x' "$(cat "$out/pids/jobid")")"
  fi
  ls /dev/shm | sort | comm -13 <(sort "$out/shm-before") - |
    while read -r name; do
      for pid in $(cat "$out"/pids/rank-*.pid 2>/dev/null); do
        case "$name" in redist."$pid".*) echo "$name" ;; esac
      done
      if [ -n "$job" ]; then
        case "$name" in vader_segment.*."$job".*) echo "$name" ;; esac
      fi
    done
}

if [ "$kill" = 1 ]; then
  "${mpirun[@]}" "$seconds" 10 1 "$out/pids" >"$out/samples" 2>"$out/stderr" &
  job=$!
  sleep $((seconds / 2))
  victim="$(cat "$out/pids/rank-1.pid")"
  start=$(date +%s%N)
  kill -KILL "$victim"
  status=0
  for _ in $(seq 300); do
    kill -0 "$job" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$job" 2>/dev/null; then
    echo "soak --kill: the job still runs 30 s after rank 1 was killed" >&2
    kill -- "$job" 2>/dev/null || true
    status=1
  fi
  wait "$job" || true
  ended=$((($(date +%s%N) - start) / 1000000))
  sleep 1
  left="$(leftovers)"
  printf 'soak --kill: rank 1 (pid %s) killed after %d s; the job ended %d ms later; /dev/shm: %s\n' \
    "$victim" $((seconds / 2)) "$ended" "${left:-clean}"
  [ -z "$left" ] || status=1
  exit "$status"
fi

status=0
"${mpirun[@]}" "$seconds" 10 1 "$out/pids" >"$out/samples" 2>"$out/stderr" ||
  status=$?
cat "$out/stderr" >&2
tail -n 1 "$out/samples"
left="$(leftovers)"
[ -z "$left" ] || { echo "soak: left in /dev/shm: $left" >&2; status=1; }
# One line per rank: the first and last window's largest RSS, the range of
# descriptors, duplicates and segments over the samples after the first.
awk -v total="$seconds" '
  /^sample/ {
    t = $4; r = $6 + 0; rss = $8; fds = $10; dups = $12; shm = $14
    ranks[r] = 1
    if (r > maxr) maxr = r
    window = total / 2 < 60 ? total / 2 : 60
    if (t > 0 && t <= window && rss > first[r]) first[r] = rss
    if (t >= total - window && rss > last[r]) last[r] = rss
    if ($2 > 0) {
      key = fds " " dups
      if (!(r in seen)) seen[r] = key
      else if (seen[r] != key) changed[r] = changed[r] " " key
      if (shm > rings[r]) rings[r] = shm
      ops = $16
    }
  }
  END {
    bad = 0
    for (r = 0; r in ranks; ++r) {
      flat = last[r] <= first[r] * 1.1 + 4096
      # libredist_scalapack keeps 16 plans, each mapping at most one ring
      # per rank of the node.
      bounded = rings[r] <= 16 * (maxr + 1)
      printf "soak: rank %d: rss first %d KB, last %d KB (%s); fds dups %s%s; rings mapped at most %d (%s)\n",
             r, first[r], last[r], flat ? "flat" : "GROWS", seen[r],
             r in changed ? ", then" changed[r] " (LEAK)" : ", constant",
             rings[r], bounded ? "bounded" : "LEAK"
      if (!flat || (r in changed) || !bounded) bad = 1
    }
    printf "soak: %d operations in %d s\n", ops, total
    exit bad
  }' "$out/samples" || status=1
exit "$status"
