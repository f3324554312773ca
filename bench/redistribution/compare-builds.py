"""Summarises compare-builds.sh's launches: one Markdown row per configuration.

    compare-builds.py array OLD NEW LABEL N METHOD    (redist-bench --json)
    compare-builds.py matrix OLD NEW "" N redist      (redist-matrix-bench)

Each build's median is the median of its launches' medians, its minimum the
least minimum; the fastest peer is compared with the new build both ways.
redist-private (the new build's redist on ordinary memory, absent from older
builds) is no peer: it has columns of its own. The references (one core's
memcpy, the parallel copy limit) are the medians over the NEW build's
launches, which measure them beside the methods; the old build's ratios use
them too. The new build's redist is also paired with the limit launch by
launch: each launch's median over the limit's median in the same launch,
summarised as the median of those ratios and the worst of them. Pairing
keeps a launch on which the whole machine ran slow (both slow) from
meeting another on which it ran fast in the ratio of medians.
"""
import json
import re
import statistics
import sys


def array_launches(path):
    """Per method: the launches' (median, min, limit); the references."""
    runs, memcpy, limit = {}, [], []
    for line in open(path):
        if not line.startswith("{"):
            continue
        row = json.loads(line)
        if not row["verified"]:
            sys.exit(f"not verified: {row}")
        runs.setdefault(row["method"], []).append(
            (row["median_s"] * 1e3, row["min_s"] * 1e3,
             row.get("limit_s", 0) * 1e3))
        if "limit_s" in row:
            memcpy.append(row["memcpy_s"] * 1e3)
            limit.append(row["limit_s"] * 1e3)
    return runs, memcpy, limit


PRIVATE = "redist-private"
METHOD = re.compile(r"^\s+(\S+)\s+min\s+([0-9.]+) ms\s+median\s+([0-9.]+) ms")
HEADER = re.compile(r"^(.*), N = (\d+): plan")
REFS = re.compile(r"memcpy \(one core\) median ([0-9.]+) ms; copy limit "
                  r"\(all ranks at once\) median ([0-9.]+) ms")


def matrix_launches(path):
    """Per configuration: per method the launches' (median, min, limit);
    refs."""
    configs, refs, name, launch_limit = {}, {}, None, 0
    for line in open(path):
        if m := HEADER.match(line):
            name, launch_limit = m.group(1), 0
            if r := REFS.search(line):
                refs.setdefault(name, ([], []))
                refs[name][0].append(float(r.group(1)))
                refs[name][1].append(float(r.group(2)))
                launch_limit = float(r.group(2))
        elif (m := METHOD.match(line)) and name:
            configs.setdefault(name, {}).setdefault(m.group(1), []).append(
                (float(m.group(3)), float(m.group(2)), launch_limit))
    return configs, refs


def row(label, n, old, new, memcpy, limit, method):
    def summary(launches):
        return (statistics.median(m for m, _, _ in launches),
                min(m for _, m, _ in launches))

    if method not in old or method not in new:
        sys.exit(f"{label} N = {n}: no {method} runs in both builds")
    (om, on), (nm, nn) = summary(old[method]), summary(new[method])
    mc = statistics.median(memcpy) if memcpy else 0
    li = statistics.median(limit) if limit else 0

    def ratio(a, b):
        return f"{a / b:.2f}" if b > 0 else "-"

    paired = [m / li for m, _, li in new[method] if li > 0]
    by_launch = (f"{statistics.median(paired):.2f} ({max(paired):.2f})"
                 if paired else "-")
    peers = [summary(v) for k, v in new.items() if k != method
             and k not in ("unsync", "overlapped", "redist-p2p",
                           PRIVATE)]
    best = ratio(min(m for m, _ in peers), nm) if peers else "-"
    best_min = ratio(min(m for _, m in peers), nn) if peers else "-"
    private, over = "-", "-"
    if PRIVATE in new and method != PRIVATE:
        pm = summary(new[PRIVATE])[0]
        private, over = f"{pm:.3f}", ratio(pm, nm)
    print(f"| {label} | {n} | {om:.3f} | {nm:.3f} | {ratio(nm, om)} | "
          f"{on:.3f} | {nn:.3f} | {ratio(nn, on)} | {ratio(om, mc)} | "
          f"{ratio(nm, mc)} | {ratio(om, li)} | {ratio(nm, li)} | "
          f"{by_launch} | {best} | "
          f"{best_min} | {private} | {over} |")


def main():
    kind, old_path, new_path, label, n, method = sys.argv[1:7]
    if kind == "array":
        old, _, _ = array_launches(old_path)
        new, memcpy, limit = array_launches(new_path)
        row(label, f"{int(n):.0e}", old, new, memcpy, limit, method)
        return
    old, _ = matrix_launches(old_path)
    new, refs = matrix_launches(new_path)
    for name in new:
        memcpy, limit = refs.get(name, ([], []))
        row(name, n, old.get(name, {}), new[name], memcpy, limit, method)


main()
