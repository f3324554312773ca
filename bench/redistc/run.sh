#!/usr/bin/env bash
# redistc's benchmarks (never run as tests; the figures go to
# docs/PERFORMANCE.md):
#   1. translation time of ten_directives.cpp (10 directives) against
#      clang++ -fsyntax-only on the same file with the same flags;
#   2. run time of the static path against the runtime path (redistc
#      --dynamic) on the same redistribution, static_vs_runtime.cpp: the
#      median over alternated runs of each run's median, and the minimum
#      over all runs.
#
#   bench/redistc/run.sh [P,r,Q,s ...]      (default: the runtime issue's set)
#
# Environment: REDIST_BUILD_DIR (default build/, must hold a built redistc
# and runtime), REDIST_BENCH_SIZES (default "10000 1000000"),
# REDIST_BENCH_REPS (default 50), REDIST_BENCH_ROUNDS (alternated runs of
# each path, default 7: 4 ranks on 2 cores swing by 30 % from run to run),
# REDIST_BENCH_TIMES (translations timed, default 10). Jobs on more ranks than cores are oversubscribed.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${REDIST_BUILD_DIR:-$root/build}"
sizes="${REDIST_BENCH_SIZES:-10000 1000000}"
reps="${REDIST_BENCH_REPS:-50}"
times="${REDIST_BENCH_TIMES:-10}"
rounds="${REDIST_BENCH_ROUNDS:-7}"
configs=("$@")
if [ ${#configs[@]} -eq 0 ]; then
  configs=(2,3,2,5 4,3,4,5 4,4,2,3 4,1,4,7 2,64,2,96)
fi
redistc="$build/bin/redistc"
here="$root/bench/redistc"
work="$build/bench-redistc"
mkdir -p "$work"
cmake --build "$build" -j 2 --target redistc redist_runtime >&2

# The same flags for both: what redistc adds by itself (C++17, MPI and redist
# headers as system headers, no warnings).
flags=(-std=c++17 -w)
for dir in $(mpicxx -showme:incdirs) "$root/lib/include" "$root/runtime/include"; do
  flags+=(-isystem "$dir")
done
clang="$(dirname "$(command -v FileCheck || echo /usr/lib/llvm-14/bin/x)")/clang++"
[ -x "$clang" ] || clang=/usr/lib/llvm-14/bin/clang++

median() { sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
elapsed() { # wall time of "$@" in seconds
  local start end
  start=$(date +%s.%N)
  "$@" > /dev/null 2>&1
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN {print b - a}'
}

echo "## Translation time: ten_directives.cpp (10 directives), median of $times"
rm -f "$work/t-redistc" "$work/t-clang"
"$redistc" "$here/ten_directives.cpp" -o "$work/ten.cpp" --report -- "${flags[@]}"
# Alternated, so that both see the same load on a shared machine.
for _ in $(seq "$times"); do
  elapsed "$redistc" "$here/ten_directives.cpp" -o "$work/ten.cpp" -- "${flags[@]}" >> "$work/t-redistc"
  elapsed "$clang" -fsyntax-only "${flags[@]}" "$here/ten_directives.cpp" >> "$work/t-clang"
done
t_redistc=$(median < "$work/t-redistc")
t_clang=$(median < "$work/t-clang")
rm -f "$work/t-redistc" "$work/t-clang"
awk -v r="$t_redistc" -v c="$t_clang" 'BEGIN {
  printf "redistc %.3f s, clang++ -fsyntax-only %.3f s, ratio %.2f (target < 1.5)\n", r, c, r / c}'

echo
echo "## Run time: static path against the runtime path, $rounds alternated launches of $reps runs"
echo "| P | r | Q | s | N | static median (us) | runtime median (us) | static / runtime | static min (us) | runtime min (us) | static / runtime |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_rmaps_base_oversubscribe=1
for config in "${configs[@]}"; do
  IFS=, read -r P r Q s <<< "$config"
  ranks=$(( P > Q ? P : Q ))
  for n in $sizes; do
    defs=(-DBENCH_P="$P" -DBENCH_R="$r" -DBENCH_Q="$Q" -DBENCH_S="$s"
          -DBENCH_N="$n" -DBENCH_REPS="$reps")
    for mode in static dynamic; do
      opt=()
      [ "$mode" = dynamic ] && opt=(--dynamic)
      src="$work/bench-$mode.cpp"
      "$redistc" "${opt[@]}" "$here/static_vs_runtime.cpp" -o "$src" -- "${defs[@]}"
      mpicxx -O3 -std=c++17 -DOMPI_SKIP_MPICXX=1 "${defs[@]}" \
        -I"$root/lib/include" -I"$root/runtime/include" "$src" \
        -o "$work/bench-$mode" -L"$build/runtime" -L"$build/lib" \
        -lredist_runtime -lredist_schedule
      rm -f "$work/runs-$mode" "$work/mins-$mode"
    done
    # Alternated runs of each; the median of their medians, the least min.
    for _ in $(seq "$rounds"); do
      for mode in static dynamic; do
        line=$(mpirun --oversubscribe -np "$ranks" "$work/bench-$mode")
        case "$line" in *WRONG*) echo "wrong result: $line" >&2; exit 1;; esac
        sed -E 's/.*median ([0-9.]+) us.*/\1/' <<< "$line" >> "$work/runs-$mode"
        sed -E 's/.*min ([0-9.]+) us.*/\1/' <<< "$line" >> "$work/mins-$mode"
      done
    done
    result=("$(median < "$work/runs-static")" "$(median < "$work/runs-dynamic")"
            "$(sort -g "$work/mins-static" | head -1)"
            "$(sort -g "$work/mins-dynamic" | head -1)")
    awk -v p="$P" -v r="$r" -v q="$Q" -v s="$s" -v n="$n" \
      -v a="${result[0]}" -v b="${result[1]}" -v c="${result[2]}" \
      -v d="${result[3]}" \
      'BEGIN {printf "| %s | %s | %s | %s | %s | %s | %s | %.2f | %s | %s | %.2f |\n", p, r, q, s, n, a, b, a / b, c, d, c / d}'
  done
done
