#!/usr/bin/env bash
# Times redist from two builds (OLD, say main, and NEW), alternated launch by
# launch so that both see the same machine, on issue 25's configurations,
# and prints one Markdown row per configuration: each build's median (of
# its launches' medians) and minimum, new / old, and both builds' medians as
# ratios to one core's memcpy of the array (x_memcpy) and to the parallel
# copy limit (x_limit: every rank copies its own target share at once; see
# docs/PERFORMANCE.md, "How to read the ratios"), the new build's x_limit
# launch by launch (each launch's redist median over that launch's limit:
# the median of those ratios, and the worst in brackets), the fastest peer's
# median over the new build's (> 1: redist wins), and the new build's
# redist-private (the same plan on ordinary memory, the handover) and its
# median over redist's (> 1: reading node memory wins).
#
# A build whose benchmarks have redist-private runs redist with its source
# in node memory (and, where its rows have node_writes, its target too); an
# older build's redist is the handover. So, against an old build, "new /
# old" compares redist from node memory with the old handover. A build that has redist-private also runs it in every launch
# (in redist-bench beside the peers, in redist-matrix-bench always).
#
#   bench/redistribution/compare-builds.sh OLD_BUILD NEW_BUILD [P,r,Q,s ...]
#
# Without configurations: 2 ranks, 2,3->2,5; 2,64->2,96; 2,1->2,7;
# 2,4096->2,8192 at N = 10^6 and 10^7 (redist-bench), then redist-matrix-bench's
# three configurations on 4 ranks at N = 4096 and 8192.
#
# Environment: REDIST_BENCH_SIZES (default "1000000 10000000"),
# REDIST_MATRIX_SIZES (default "4096 8192"; empty: no matrices),
# REDIST_BENCH_REPS (timed runs per launch, default 15), REDIST_BENCH_ROUNDS
# (alternated launches per build, default 3), REDIST_COMPARE_KEEP (a folder
# that keeps every cell's launches, as CONFIG-N.old and .new, for a second
# look; default: none), REDIST_BENCH_METHOD (default
# redist), REDIST_BENCH_PEERS (run beside it by both builds, default
# "alltoallv,alltoallw,caterpillar,scalapack"): both builds' launches run
# the same methods, since what runs between two runs of redist decides how
# much of its arrays is still cached (at N = 10^6, 2,3 -> 2,5, one run
# straight after another took 0.75 ms at best, one after the caches were
# swept 1.26 ms). The references come from the NEW build's launches (an
# old redist-bench may not measure them). Every run is verified; timings
# never decide a test.
set -euo pipefail
old="$1" new="$2"
shift 2
configs=("$@")
if [ ${#configs[@]} -eq 0 ]; then
  configs=(2,3,2,5 2,64,2,96 2,1,2,7 2,4096,2,8192)
fi
sizes="${REDIST_BENCH_SIZES-1000000 10000000}"
matrix_sizes="${REDIST_MATRIX_SIZES-4096 8192}"
reps="${REDIST_BENCH_REPS:-15}"
rounds="${REDIST_BENCH_ROUNDS:-3}"
method="${REDIST_BENCH_METHOD:-redist}"
peers="${REDIST_BENCH_PEERS-alltoallv,alltoallw,caterpillar,scalapack}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_rmaps_base_oversubscribe=1
keep="${REDIST_COMPARE_KEEP:-}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
[ -z "$keep" ] || mkdir -p "$keep"

# Whether the build in $1 has redist-private (a singleton run, no mpirun).
has_private() {
  "$1/bin/redist-bench" cyclic 1 1 1 1 1 --method redist-private --reps 1 \
    >/dev/null 2>&1
}
old_extra="" new_extra=""
has_private "$old" && old_extra=",redist-private"
has_private "$new" && new_extra=",redist-private"

# Runs "$@" for OLD and NEW, alternately, $rounds times each: each round
# starts with the other build, so that neither always runs on the caches
# the other left. $1 names the output files; the command reads $dir and
# $extra (the peers, the same for both builds, and redist-private where the
# build has it).
alternate() {
  local name="$1"
  shift
  : >"$work/$name.old" && : >"$work/$name.new"
  for round in $(seq "$rounds"); do
    local order=(old new)
    [ $((round % 2)) -eq 0 ] && order=(new old)
    for which in "${order[@]}"; do
      dir=$old extra=$old_extra
      [ "$which" = new ] && dir=$new extra=$new_extra
      [ -n "$peers" ] && extra="$extra,$peers"
      "$@" >>"$work/$name.$which"
    done
  done
}

# Copies the cell's launches ($1.old and $1.new) to $keep as $2.old and
# $2.new, where REDIST_COMPARE_KEEP asks for them.
keep_launches() {
  [ -n "$keep" ] || return 0
  cp "$work/$1.old" "$keep/$2.old"
  cp "$work/$1.new" "$keep/$2.new"
}

echo "| configuration | N | old median ms | new median ms | new / old | old min ms | new min ms | new / old | old x_memcpy | new x_memcpy | old x_limit | new x_limit | by launch (worst) | best peer / new | by min | new private ms | private / new |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for config in "${configs[@]}"; do
  IFS=, read -r P r Q s <<<"$config"
  ranks=$((P > Q ? P : Q))
  for N in $sizes; do
    run_array() {
      mpirun -np "$ranks" "$dir/bin/redist-bench" cyclic "$P" "$r" "$Q" "$s" \
        "$N" --method "$method$extra" --reps "$reps" --verify --json
    }
    alternate array run_array
    keep_launches array "$P,$r,$Q,$s-$N"
    python3 "$here/compare-builds.py" array "$work/array.old" \
      "$work/array.new" "$P,$r → $Q,$s" "$N" "$method"
  done
done
for N in $matrix_sizes; do
  run_matrix() {
    mpirun -np 4 "$dir/bin/redist-matrix-bench" "$N" "$reps"
  }
  alternate matrix run_matrix
  keep_launches matrix "matrix-$N"
  python3 "$here/compare-builds.py" matrix "$work/matrix.old" \
    "$work/matrix.new" "" "$N" redist
done
