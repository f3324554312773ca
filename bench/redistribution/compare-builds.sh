#!/usr/bin/env bash
# Times the same redist-bench methods from two builds of redist, alternated
# run by run so that both see the same machine, and prints one Markdown row
# per configuration: each build's median of its launches' medians, its
# minimum, and their ratios (new / old). For "no cell slower than before" after a change:
#
#   bench/redistribution/compare-builds.sh OLD_BUILD NEW_BUILD [P,r,Q,s ...]
#
# Environment: REDIST_BENCH_SIZES (default "1000000 10000000"),
# REDIST_BENCH_REPS (timed runs per launch, default 15), REDIST_BENCH_ROUNDS
# (alternated launches per build, default 5), REDIST_BENCH_METHOD (default
# redist). Every run is verified; timings never decide a test.
set -euo pipefail
old="$1" new="$2"
shift 2
configs=("$@")
if [ ${#configs[@]} -eq 0 ]; then
  configs=(2,3,2,5 4,3,4,5 4,4,2,3 4,1,4,7 2,64,2,96 2,4096,2,8192)
fi
sizes="${REDIST_BENCH_SIZES:-1000000 10000000}"
reps="${REDIST_BENCH_REPS:-15}"
rounds="${REDIST_BENCH_ROUNDS:-5}"
method="${REDIST_BENCH_METHOD:-redist}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_rmaps_base_oversubscribe=1
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "| P,r → Q,s | N | old median ms | new median ms | new / old | old min ms | new min ms | new / old |"
echo "|---|---|---|---|---|---|---|---|"
for config in "${configs[@]}"; do
  IFS=, read -r P r Q s <<<"$config"
  ranks=$((P > Q ? P : Q))
  for N in $sizes; do
    : >"$work/old" && : >"$work/new"
    for round in $(seq "$rounds"); do
      # Each round starts with the other build, so that neither always runs
      # on the caches the other left.
      order=(old new)
      [ $((round % 2)) -eq 0 ] && order=(new old)
      for which in "${order[@]}"; do
        dir=$old
        [ "$which" = new ] && dir=$new
        mpirun -np "$ranks" "$dir/bin/redist-bench" cyclic "$P" "$r" "$Q" \
          "$s" "$N" --method "$method" --reps "$reps" --verify --json \
          >>"$work/$which"
      done
    done
    python3 - "$work/old" "$work/new" "$P,$r → $Q,$s" "$N" <<'PY'
import json
import statistics
import sys

def launches(path):
    rows = [json.loads(line) for line in open(path) if line.startswith("{")]
    for row in rows:
        if not row["verified"]:
            sys.exit(f"not verified: {row}")
    return ([row["median_s"] * 1e3 for row in rows],
            [row["min_s"] * 1e3 for row in rows])

(old_med, old_min), (new_med, new_min) = launches(sys.argv[1]), launches(sys.argv[2])
mo, mn = statistics.median(old_med), statistics.median(new_med)
lo, ln = min(old_min), min(new_min)
print(f"| {sys.argv[3]} | {int(sys.argv[4]):.0e} | {mo:.3f} | {mn:.3f} | "
      f"{mn / mo:.2f} | {lo:.3f} | {ln:.3f} | {ln / lo:.2f} |")
PY
  done
done
