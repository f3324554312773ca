#!/usr/bin/env python3
"""How good is auto's pick under a calibrated cost model?

For each configuration, times the schedule of every algorithm that applies
through the runtime (redist-bench, method redist-p2p: the Scheduled mode
with every message an MPI transfer, as across nodes; all algorithms
interleaved in every round), asks redist-plan which one auto picks under the
model, and reports how often the pick was the fastest and how much slower it
was when not. Prints Markdown tables (docs/PERFORMANCE.md section 7).

  bench/autochoice/validate-auto.py [--model FILE] [--reps K] [--ranks R]
                                    [--build DIR] [config ...]

config: P,r,Q,s,N (cyclic) or gb:n0/n1/...:m0/m1/... (GEN_BLOCK). Without
--model, redist-calibrate measures one first, on --ranks ranks (default 4).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

ALGORITHMS = ["caterpillar", "walker_otto", "classes", "stepwise", "greedy",
              "scpa", "chain", "mincost", "mincost-steps"]

DEFAULT_CONFIGS = [
    "4,3,4,5,10000", "4,3,4,5,1000000",
    "4,4,2,3,10000", "4,4,2,3,1000000",
    "4,1,4,7,10000", "4,1,4,7,1000000",
    "3,4,3,5,6000", "3,4,3,5,600000",
    "4,2,3,3,10000", "4,2,3,3,1000000",
    "gb:3000/1000/5000/1000:1000/4000/2000/3000",
    "gb:300000/100000/500000/100000:100000/400000/200000/300000",
]


def mpirun(ranks):
    cmd = ["mpirun", "-np", str(ranks), "--oversubscribe",
           "--bind-to", "none"]
    return cmd


def problem_args(config):
    """redist-plan's and redist-bench's arguments, and the ranks needed."""
    if config.startswith("gb:"):
        _, src, dst = config.split(":")
        src, dst = src.split("/"), dst.split("/")
        common = ["genblock", "--source", ",".join(src),
                  "--target", ",".join(dst)]
        return common, [], common, max(len(src), len(dst))
    p, r, q, s, n = config.split(",")
    return (["cyclic", p, r, q, s], ["--n", n], ["cyclic", p, r, q, s, n],
            max(int(p), int(q)))


def run(cmd, **kwargs):
    done = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    if done.returncode != 0:
        sys.exit("validate-auto: %s failed:\n%s" % (" ".join(cmd),
                                                    done.stderr))
    return done.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model")
    parser.add_argument("--reps", type=int, default=15)
    parser.add_argument("--ranks", type=int, default=4)
    parser.add_argument("--build", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "build"))
    parser.add_argument("configs", nargs="*")
    args = parser.parse_args()
    bindir = os.path.join(args.build, "bin")
    os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
    os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")

    model = args.model
    if not model:
        model = os.path.join(args.build, "calibrated-model.json")
        run(mpirun(args.ranks) +
            [os.path.join(bindir, "redist-calibrate"), "-o", model])
    with open(model) as f:
        constants = json.load(f)

    rows = []
    for config in args.configs or DEFAULT_CONFIGS:
        plan_problem, plan_extra, bench_problem, ranks = problem_args(config)
        plan = json.loads(run([os.path.join(bindir, "redist-plan")] +
                              plan_problem + plan_extra +
                              ["--json", "--model", model]))
        pick = plan["algorithm"]
        # Every algorithm that applies (auto may stop early, at a schedule
        # that meets every lower bound), with its schedule: algorithms may
        # build the same one, and a pick whose schedule is the fastest one's
        # is the fastest, whatever the noise between them.
        schedules = {}
        for name in ALGORITHMS:
            extra = []
            if name == "mincost-steps":
                extra = ["--steps", str(plan["lower_bounds"]["steps"])]
            done = subprocess.run(
                [os.path.join(bindir, "redist-plan")] + plan_problem +
                plan_extra + ["--json", "--algorithm", name] + extra,
                capture_output=True, text=True)
            if done.returncode == 0:
                schedules[name] = frozenset(
                    frozenset(step)
                    for step in json.loads(done.stdout)["steps"] if step)
        names = list(schedules)
        out = run(mpirun(ranks) + [os.path.join(bindir, "redist-bench")] +
                  bench_problem +
                  ["--method", "redist-p2p", "--algorithm", ",".join(names),
                   "--reps", str(args.reps), "--verify", "--json"])
        results = [json.loads(line) for line in out.splitlines()]
        if len(results) != len(names) or \
                [r["algorithm"] for r in results] != names or \
                not all(r["verified"] for r in results):
            sys.exit("validate-auto: %s: unexpected results %s" %
                     (config, results))
        median = {r["algorithm"]: r["median_s"] for r in results}
        least = {r["algorithm"]: r["min_s"] for r in results}
        fastest = min(names, key=lambda a: median[a])
        rows.append({
            "config": config, "pick": pick, "fastest": fastest,
            "same": schedules[pick] == schedules[fastest],
            "median_ratio": median[pick] / median[fastest],
            "min_ratio": least[pick] / min(least.values()),
            "times": median,
        })

    print("Model: alpha %.3g s, gamma %.3g s, beta %.3g s/byte (%s)\n" %
          (constants["alpha_s"], constants["gamma_s"],
           constants["beta_s_per_byte"], model))
    print("| configuration | auto's pick | fastest (median) | same schedule |"
          " pick / fastest, median | pick / fastest, min | all medians (ms) |")
    print("|---|---|---|---|---|---|---|")
    for row in rows:
        times = ", ".join("%s %.3f" % (a, t * 1e3)
                          for a, t in sorted(row["times"].items(),
                                             key=lambda item: item[1]))
        print("| %s | %s | %s | %s | %.2f | %.2f | %s |" %
              (row["config"], row["pick"], row["fastest"],
               "yes" if row["same"] else "no", row["median_ratio"],
               row["min_ratio"], times))
    hits = sum(1 for row in rows if row["same"])
    misses = [row["median_ratio"] for row in rows if not row["same"]]
    near = sum(1 for row in rows if row["median_ratio"] <= 1.05)
    print("\nauto picked the fastest schedule (by median; an algorithm that "
          "builds the same schedule counts as the same) in %d of %d "
          "configurations; within 5%% of it in %d." % (hits, len(rows), near))
    if misses:
        print("When not, its pick was %.2fx slower in the median case "
              "(worst %.2fx)." % (statistics.median(misses), max(misses)))


if __name__ == "__main__":
    main()
