"""Checks a redist-plan ring --json document against its contract.

Reads the redist-ring/1 document on stdin and verifies, independently of the
library: the members and their order; that fwd and bwd count the transfers;
the model of docs/ring.md (item u of a transfer occupies its link during
[start + u*c, start + (u+1)*c), leaves the sender at the start of that
interval and can be sent on from its end; one item sent and one received at
a time per process; nobody sends an item it does not hold; the final loads
are the targets); the makespan (the last arrival); and the lower bound
(Theorem 2 corrected, or Lemma 12), recomputed here. Prints one summary line
for FileCheck, or the first problem on stderr and exits 1.

usage: check-ring.py < document.json
"""
import json
import math
import sys

TOP_KEYS = ["format", "problem", "algorithm", "fwd", "bwd", "transfers",
            "makespan", "lower_bound"]
PROBLEM_KEYS = ["loads", "target", "c_fwd", "c_bwd", "bidirectional"]
TOL = 1e-9


def fail(message):
    sys.stderr.write("check-ring: %s\n" % message)
    sys.exit(1)


def expect(condition, message):
    if not condition:
        fail(message)


def lower_bound(loads, target, cf, cb, bi):
    n = len(loads)
    delta = [l - t for l, t in zip(loads, target)]
    best = 0.0
    if bi:
        for k in range(n):
            d = delta[k]
            if d > 0:
                best = max(best, d * min(cb[k], cf[k]))
            elif d < 0:
                best = max(best, -d * min(cf[k - 1], cb[(k + 1) % n]))
    for k in range(n):
        d = 0
        for l in range(n - 1):
            end = (k + l) % n
            d += delta[end]
            if not bi:
                if d > 0:
                    best = max(best, d * cf[end])
                elif d < 0:
                    best = max(best, -d * cf[k - 1])
            elif l >= 1 and d != 0:
                a, b = (cb[k], cf[end]) if d > 0 else (cf[k - 1],
                                                       cb[(end + 1) % n])
                m = abs(d)
                best = max(best, min(max(i * a, (m - i) * b)
                                     for i in range(m + 1)))
    return best


def main():
    doc = json.load(sys.stdin)
    expect(list(doc.keys()) == TOP_KEYS, "members %s" % list(doc.keys()))
    expect(doc["format"] == "redist-ring/1", "format %s" % doc["format"])
    prob = doc["problem"]
    expect(list(prob.keys()) == PROBLEM_KEYS,
           "problem members %s" % list(prob.keys()))
    loads, target, cf = prob["loads"], prob["target"], prob["c_fwd"]
    bi = prob["bidirectional"]
    n = len(loads)
    expect(len(target) == n and len(cf) == n, "list lengths")
    cb = prob["c_bwd"]
    if bi:
        expect(isinstance(cb, list) and len(cb) == n, "c_bwd must be a list")
    else:
        expect(cb is None, "c_bwd must be null on a unidirectional ring")
    fwd, bwd = [0] * n, [0] * n
    sends = [[] for _ in range(n)]
    receives = [[] for _ in range(n)]
    departures = [[] for _ in range(n)]
    arrivals = [[] for _ in range(n)]
    makespan = 0.0
    for t in doc["transfers"]:
        expect(list(t.keys()) == ["from", "dir", "start", "items"],
               "transfer members %s" % list(t.keys()))
        i, d, s, k = t["from"], t["dir"], t["start"], t["items"]
        expect(0 <= i < n and d in (1, -1) and k >= 1 and s >= 0,
               "transfer %s" % t)
        expect(bi or d == 1, "backwards on a unidirectional ring: %s" % t)
        c = cf[i] if d == 1 else cb[i]
        to = (i + d) % n
        (fwd if d == 1 else bwd)[i] += k
        end = s + k * c
        sends[i].append((s, end))
        receives[to].append((s, end))
        for u in range(k):
            departures[i].append(s + u * c)
            arrivals[to].append(s + (u + 1) * c)
        makespan = max(makespan, end)
    expect(doc["fwd"] == fwd, "fwd %s, transfers say %s" % (doc["fwd"], fwd))
    expect(doc["bwd"] == bwd, "bwd %s, transfers say %s" % (doc["bwd"], bwd))
    for p in range(n):
        for spans, what in ((sends[p], "sends"), (receives[p], "receives")):
            spans.sort()
            for a, b in zip(spans, spans[1:]):
                expect(b[0] >= a[1] - TOL,
                       "process %d %s two items at once" % (p, what))
        # Arrivals up to a departure's time (within TOL) come first.
        arr = sorted(arrivals[p])
        j = 0
        for q, x in enumerate(sorted(departures[p])):
            while j < len(arr) and arr[j] <= x + TOL:
                j += 1
            expect(loads[p] + j - (q + 1) >= 0,
                   "process %d sends an item it does not hold at %s" % (p, x))
        held = loads[p] + len(arrivals[p]) - len(departures[p])
        expect(held == target[p], "process %d ends with %d items, target %d"
               % (p, held, target[p]))
    expect(math.isclose(doc["makespan"], makespan, abs_tol=TOL),
           "makespan %s, transfers end at %s" % (doc["makespan"], makespan))
    bound = lower_bound(loads, target, cf, cb, bi)
    expect(math.isclose(doc["lower_bound"], bound, abs_tol=TOL),
           "lower_bound %s, recomputed %s" % (doc["lower_bound"], bound))
    expect(doc["makespan"] >= bound - TOL, "makespan below the lower bound")
    print("valid %s schedule: %d transfers, makespan %s, lower bound %s"
          % (doc["algorithm"], len(doc["transfers"]), doc["makespan"],
             doc["lower_bound"]))


main()
