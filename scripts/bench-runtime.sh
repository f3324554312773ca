#!/usr/bin/env bash
# Reproduces docs/PERFORMANCE.md section 3: builds redist-bench, runs every
# configuration of the runtime issue at N = 1e6 and 1e7 doubles with every
# method and --verify, and prints the report's tables (Markdown) to stdout.
#
#   scripts/bench-runtime.sh [config ...]     config = P,r,Q,s (default: all)
#
# Environment:
#   REDIST_BUILD_DIR     build directory (default build/)
#   REDIST_BENCH_OUT     where raw outputs go (default <build>/bench-runtime)
#   REDIST_BENCH_SIZES   array sizes (default "1000000 10000000")
#   REDIST_BENCH_REPS    timed runs per method (default 30)
#   REDIST_BENCH_SINGLE_COPY  Open MPI vader single-copy mechanism for large
#                        messages: cma (default) or none
#   REDIST_BENCH_EXTRA   extra redist-bench flags, e.g. "--packing datatypes"
#   REDIST_BENCH_MALLOC  keep (default): glibc malloc keeps freed memory
#                        instead of returning it to the kernel; system: its
#                        default behaviour (see docs/PERFORMANCE.md section 3:
#                        page faults are very expensive on this VM, and
#                        pdgemr2d allocates its buffers on every call)
#
# Each job runs on max(P, Q) ranks bound to cores; 4 ranks on this 2-core
# machine oversubscribe, so they are bound two per core.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${REDIST_BUILD_DIR:-$root/build}"
out="${REDIST_BENCH_OUT:-$build/bench-runtime}"
sizes="${REDIST_BENCH_SIZES:-1000000 10000000}"
reps="${REDIST_BENCH_REPS:-30}"
single_copy="${REDIST_BENCH_SINGLE_COPY:-cma}"
extra="${REDIST_BENCH_EXTRA:-}"

configs=("$@")
if [ ${#configs[@]} -eq 0 ]; then
  configs=(2,3,2,5 4,3,4,5 4,4,2,3 4,1,4,7 2,64,2,96 2,4096,2,8192)
fi

if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >&2
fi
cmake --build "$build" -j 2 --target redist-bench >&2

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader
export OMPI_MCA_btl_vader_single_copy_mechanism="$single_copy"
malloc_env=()
if [ "${REDIST_BENCH_MALLOC:-keep}" = keep ]; then
  export MALLOC_MMAP_MAX_=0 MALLOC_TRIM_THRESHOLD_=1000000000000
  malloc_env=(-x MALLOC_MMAP_MAX_ -x MALLOC_TRIM_THRESHOLD_)
fi
cores=$(nproc)

mkdir -p "$out"
for config in "${configs[@]}"; do
  IFS=, read -r P r Q s <<<"$config"
  ranks=$((P > Q ? P : Q))
  binding=(--bind-to core)
  if [ "$ranks" -gt "$cores" ]; then
    binding=(--oversubscribe --bind-to core:overload-allowed)
  fi
  for N in $sizes; do
    file="$out/cyclic-$P-$r-$Q-$s-N$N.txt"
    # Other programs disturb the timings: note how busy the machine was.
    echo "bench-runtime: ($P,$r -> $Q,$s) N=$N on $ranks ranks," \
         "load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
    # shellcheck disable=SC2086 # $extra holds separate flags.
    mpirun -np "$ranks" "${binding[@]}" "${malloc_env[@]}" \
      "$build/bin/redist-bench" \
      cyclic "$P" "$r" "$Q" "$s" "$N" --method all --reps "$reps" --verify \
      $extra >"$file" || echo "bench-runtime: redist-bench failed, see $file" >&2
  done
done

# The report's tables, from the raw outputs.
python3 - "$out" "$single_copy" "${REDIST_BENCH_MALLOC:-keep}" "$sizes" \
  "${configs[@]}" <<'EOF'
import re
import sys

out, single_copy, malloc = sys.argv[1:4]
sizes, configs = sys.argv[4].split(), sys.argv[5:]
peers = ["alltoallv", "alltoallw", "caterpillar", "scalapack"]
methods = ["redist", "redist-p2p", "unsync"] + peers


def parse(path):
    lines = open(path).read().splitlines()
    memcpy = {"median": float(re.search(r"median ([0-9.]+) ms", lines[1])[1]),
              "min": float(re.search(r"min ([0-9.]+) ms", lines[1])[1])}
    # The rows follow the column header, after the reference and note
    # lines; verified is the last column.
    first = next(i for i, line in enumerate(lines)
                 if line.startswith("method ")) + 1
    rows = {}
    for line in lines[first:]:
        f = line.split()
        rows[f[0]] = dict(algorithm=f[1], plan=float(f[2]),
                          median=float(f[3]), min=float(f[4]),
                          gbps=float(f[5]), verified=f[-1])
    return memcpy, rows


unverified = []
for N in map(int, sizes):
  for stat in ("median", "min"):
    print(f"\n### N = {N:.0e} doubles ({N * 8 / 1e6:.0f} MB): {stat} times, "
          f"vader single copy {single_copy}, malloc {malloc}\n")
    print(f"Each cell: {stat} time in ms over the runs (each run timed on its "
          "slowest rank) and its ratio to the same statistic of one core's "
          "memcpy of the whole array.\n")
    print("| P,r → Q,s | ranks | memcpy ms | " + " | ".join(methods) +
          " | redist GB/s | best peer | redist / best peer | redist plan ms |")
    print("|" + "---|" * (len(methods) + 7))
    for config in configs:
        P, r, Q, s = config.split(",")
        try:
            memcpy, rows = parse(f"{out}/cyclic-{P}-{r}-{Q}-{s}-N{N}.txt")
        except FileNotFoundError:
            continue
        memcpy = memcpy[stat]
        if stat == "median":
            unverified += [f"{config} N={N} {m}" for m, row in rows.items()
                           if row["verified"] != "yes"]
        cells = [f"{rows[m][stat]:.2f} ({rows[m][stat] / memcpy:.1f}×)"
                 if m in rows else "–" for m in methods]
        best = min((m for m in peers if m in rows),
                   key=lambda m: rows[m][stat])
        red = rows["redist"]
        print(f"| {P},{r} → {Q},{s} | {max(int(P), int(Q))} | {memcpy:.2f} | "
              + " | ".join(cells) +
              f" | {N * 8 / red[stat] / 1e6:.2f} | {best}"
              f" | {red[stat] / rows[best][stat]:.2f}"
              f" | {red['plan']:.3f} ({red['algorithm']}) |")
if unverified:
    print("\nNOT VERIFIED: " + ", ".join(unverified))
    sys.exit(1)
EOF
