"""Checks a redist-plan --json document against its contract.

Step schedules ("model" other than "overlap"):

Reads the document on stdin and verifies, independently of the library:
the members and their order, the grid (recomputed by counting the owner of
every element, of the array, of the cyclic2d matrix or of the array of
any rank, or from the overlaps
of GEN_BLOCK segments), that the steps partition the messages without contention,
num_steps, cost and the lower bounds, and the algorithm/model pair; with
auto, its "auto" member: the chosen candidate's figures (the critical
messages recomputed here) and prediction, and that no candidate is predicted
faster. Prints one summary line for FileCheck, or the first problem on
stderr and exits 1.

Overlapped schedules ("model": "overlap", algorithms overlap and
overlap-split): the members, the grid, that the events add up to each
message with no process sending two or receiving two at once, makespan,
split_messages and the lower bounds; with MAX_MAKESPAN, that the makespan is
at most that.

usage: check-schedule.py REQUESTED_ALGORITHM [MAX_MAKESPAN] < document.json
"""
import collections
import itertools
import json
import sys

TOP_KEYS = ["format", "problem", "algorithm", "model", "messages", "steps",
            "num_steps", "cost", "lower_bounds"]
MODEL = {"caterpillar": "baseline", "walker_otto": "steps",
         "classes": "steps", "stepwise": "steps", "greedy": "cost",
         "scpa": "steps", "chain": "steps", "mincost": "cost",
         "mincost-steps": "cost"}


def fail(message):
    sys.stderr.write("check-schedule: %s\n" % message)
    sys.exit(1)


def expect(condition, message):
    if not condition:
        fail(message)


def counted_grid(p, r, q, s, n):
    """Length of every (src, dst) message, one element at a time."""
    grid = collections.Counter()
    for i in range(n):
        grid[((i // r) % p, (i // s) % q)] += 1
    return grid


def counted_matrix_grid(m, n, p, r, q, s):
    """Length of every (src, dst) message of a cyclic2d matrix, one element
    at a time; process (i, j) of a P0 x P1 grid is i * P1 + j."""
    def owner(grid, block, i, j):
        return ((i // block[0]) % grid[0]) * grid[1] + (j // block[1]) % grid[1]
    grid = collections.Counter()
    for i in range(m):
        for j in range(n):
            grid[(owner(p, r, i, j), owner(q, s, i, j))] += 1
    return grid


def overlap_grid(source, target):
    """Length of every (src, dst) message of GEN_BLOCK segments."""
    grid = collections.Counter()
    src_begin = 0
    for src, src_size in enumerate(source):
        dst_begin = 0
        for dst, dst_size in enumerate(target):
            common = (min(src_begin + src_size, dst_begin + dst_size) -
                      max(src_begin, dst_begin))
            if common > 0:
                grid[(src, dst)] = common
            dst_begin += dst_size
        src_begin += src_size
    return grid


def dimension_owner(spelling, extent, procs):
    """The owner function of one dimension's format, spelled as redist-plan
    spells it, over procs processes."""
    if spelling == "block":
        size = -(-extent // procs) if extent else 1
        return lambda i: i // size
    if spelling == "cyclic":
        return lambda i: i % procs
    name, _, argument = spelling.partition("(")
    argument = argument.rstrip(")")
    if name == "block":
        return lambda i: i // int(argument)
    if name == "cyclic":
        return lambda i: (i // int(argument)) % procs
    expect(name == "gen_block", "format " + spelling)
    sizes = [int(x) for x in argument.split(";")]
    expect(len(sizes) == procs and sum(sizes) == extent,
           "gen_block sizes %s" % sizes)
    ends = [sum(sizes[:k + 1]) for k in range(procs)]
    return lambda i: next(k for k, end in enumerate(ends) if i < end)


def array_owner(side, extents):
    """Element index -> process id of one side of an array problem: the
    distributed dimensions in order onto the grid, ids row-major."""
    grid, formats = side["grid"], side["formats"]
    expect(list(side) == ["grid", "formats"], "side members %s" % list(side))
    expect(len(formats) == len(extents), "formats %s" % formats)
    owners = []
    g = 0
    for d, spelling in enumerate(formats):
        if spelling == "*":
            continue
        owners.append((d, dimension_owner(spelling, extents[d], grid[g])))
        g += 1
    expect(g == len(grid), "grid %s for formats %s" % (grid, formats))

    def owner(index):
        proc = 0
        for (d, of), procs in zip(owners, grid):
            proc = proc * procs + of(index[d])
        return proc
    return owner


def counted_array_grid(problem):
    """Length of every (src, dst) message of an array of any rank, one
    element at a time; target dimension k is source dimension permute[k]."""
    extents, perm = problem["extents"], problem["permute"]
    expect(sorted(perm) == list(range(len(extents))), "permute %s" % perm)
    source = array_owner(problem["from"], extents)
    target = array_owner(problem["to"], [extents[k] for k in perm])
    grid = collections.Counter()
    for index in itertools.product(*(range(n) for n in extents)):
        grid[(source(index), target([index[k] for k in perm]))] += 1
    return grid


def problem_grid(problem):
    """The expected grid of the problem, and its number of elements."""
    if problem["kind"] == "cyclic":
        expect(list(problem) == ["kind", "P", "r", "Q", "s", "N"],
               "problem members %s" % list(problem))
        p, r, q, s, n = (problem[k] for k in ["P", "r", "Q", "s", "N"])
        return counted_grid(p, r, q, s, n), n
    if problem["kind"] == "array":
        expect(list(problem) == ["kind", "extents", "from", "to", "permute"],
               "problem members %s" % list(problem))
        n = 1
        for extent in problem["extents"]:
            n *= extent
        return counted_array_grid(problem), n
    if problem["kind"] == "cyclic2d":
        expect(list(problem) == ["kind", "M", "N", "P", "r", "Q", "s"],
               "problem members %s" % list(problem))
        m, n, p, r, q, s = (problem[k] for k in ["M", "N", "P", "r", "Q", "s"])
        for pair in [p, r, q, s]:
            expect(len(pair) == 2, "not a [rows, columns] pair: %s" % pair)
        return counted_matrix_grid(m, n, p, r, q, s), m * n
    expect(problem["kind"] == "gen_block", "kind " + problem["kind"])
    expect(list(problem) == ["kind", "source", "target", "N"],
           "problem members %s" % list(problem))
    expect(sum(problem["source"]) == problem["N"] == sum(problem["target"]),
           "sizes do not sum to N")
    return overlap_grid(problem["source"], problem["target"]), problem["N"]


def critical_messages(messages, steps):
    """The longest chain of messages in increasing steps, each sharing a rank
    with the one before (source p and target p are rank p; p->p is a local
    copy)."""
    chain = collections.Counter()
    longest = 0
    for step in steps:
        extended = []
        for message_id in step:
            m = messages[message_id]
            if m["src"] != m["dst"]:
                extended.append((m, 1 + max(chain[m["src"]], chain[m["dst"]])))
        for m, length in extended:
            for rank in (m["src"], m["dst"]):
                chain[rank] = max(chain[rank], length)
            longest = max(longest, length)
    return longest


def check_auto(doc, messages, steps):
    choice = doc["auto"]
    expect(list(choice) == ["cost_model", "reason", "candidates"],
           "auto members %s" % list(choice))
    model = choice["cost_model"]
    expect(list(model) == ["alpha_s", "beta_s_per_byte", "gamma_s",
                           "element_bytes", "from"],
           "cost_model members %s" % list(model))
    chosen = [c for c in choice["candidates"] if c.get("chosen")]
    expect(len(chosen) == 1, "%d chosen candidates" % len(chosen))
    chosen = chosen[0]
    expect(chosen["algorithm"] == doc["algorithm"],
           "chose %s, built %s" % (chosen["algorithm"], doc["algorithm"]))
    expect(choice["reason"].startswith(doc["algorithm"] + ": predicted "),
           "reason " + choice["reason"])
    non_empty = sum(1 for step in steps if step)
    critical = critical_messages(messages, steps)
    expect((chosen["non_empty_steps"], chosen["critical_messages"],
            chosen["cost"]) == (non_empty, critical, doc["cost"]),
           "chosen figures %s, schedule has %d steps, %d critical messages, "
           "cost %d" % (chosen, non_empty, critical, doc["cost"]))
    for c in choice["candidates"]:
        if "failure" in c:
            continue
        predicted = (model["alpha_s"] * c["non_empty_steps"] +
                     model["gamma_s"] * c["critical_messages"] +
                     model["beta_s_per_byte"] * model["element_bytes"] *
                     c["cost"])
        expect(abs(predicted - c["predicted_s"]) <= 1e-9 * predicted,
               "%s: predicted %g, the model gives %g" %
               (c["algorithm"], c["predicted_s"], predicted))
        expect(c["predicted_s"] >= chosen["predicted_s"],
               "%s is predicted faster than the chosen %s" %
               (c["algorithm"], chosen["algorithm"]))


OVERLAP_KEYS = ["format", "problem", "algorithm", "model", "messages",
                "events", "makespan", "split_messages", "lower_bounds"]


def check_messages(messages, grid, n):
    expect(len(messages) == len(grid),
           "%d messages, %d expected" % (len(messages), len(grid)))
    for index, (message, pair) in enumerate(zip(messages, sorted(grid))):
        expect(list(message) == ["id", "src", "dst", "len"],
               "message members %s" % list(message))
        expect(message["id"] == index, "message %d has id %d" %
               (index, message["id"]))
        expect((message["src"], message["dst"]) == pair,
               "message %d is %d->%d, expected %d->%d" %
               ((index, message["src"], message["dst"]) + pair))
        expect(message["len"] == grid[pair], "message %d->%d: len %d, not %d" %
               (pair + (message["len"], grid[pair])))
    expect(sum(message["len"] for message in messages) == n,
           "the messages carry %d elements, not N = %d" %
           (sum(message["len"] for message in messages), n))


def process_bounds(messages):
    degree = collections.Counter()
    volume = collections.Counter()
    for message in messages:
        for end in [("src", message["src"]), ("dst", message["dst"])]:
            degree[end] += 1
            volume[end] += message["len"]
    return max(degree.values(), default=0), max(volume.values(), default=0)


def check_overlap(doc, requested):
    expect(list(doc) == OVERLAP_KEYS, "members %s" % list(doc))
    expect(doc["format"] == "redist-schedule/1", "format " + doc["format"])
    expect(doc["algorithm"] == requested, "algorithm " + doc["algorithm"])
    grid, n = problem_grid(doc["problem"])
    messages = doc["messages"]
    check_messages(messages, grid, n)
    sent = collections.Counter()
    pieces = collections.Counter()
    busy = collections.defaultdict(list)  # (role, process) -> intervals
    makespan = 0
    previous = None
    for event in doc["events"]:
        expect(list(event) == ["msg", "start", "len"],
               "event members %s" % list(event))
        key = (event["start"], event["msg"])
        expect(previous is None or previous < key, "events not in order")
        previous = key
        expect(0 <= event["msg"] < len(messages), "event id %d" % event["msg"])
        expect(event["start"] >= 0 and event["len"] > 0, "event %s" % event)
        message = messages[event["msg"]]
        sent[event["msg"]] += event["len"]
        pieces[event["msg"]] += 1
        end = event["start"] + event["len"]
        makespan = max(makespan, end)
        busy[("src", message["src"])].append((event["start"], end))
        busy[("dst", message["dst"])].append((event["start"], end))
    for message in messages:
        expect(sent[message["id"]] == message["len"],
               "message %d: %d of %d elements sent" %
               (message["id"], sent[message["id"]], message["len"]))
    for (role, process), intervals in busy.items():
        intervals.sort()
        for (_, end), (start, _) in zip(intervals, intervals[1:]):
            expect(start >= end, "%s %d busy twice at %d" %
                   (role, process, start))
    split = sum(1 for count in pieces.values() if count > 1)
    expect(doc["makespan"] == makespan, "makespan %d, events end at %d" %
           (doc["makespan"], makespan))
    expect(doc["split_messages"] == split, "split_messages %d, not %d" %
           (doc["split_messages"], split))
    steps, cost = process_bounds(messages)
    bounds = doc["lower_bounds"]
    expect(list(bounds) == ["steps", "cost", "makespan"],
           "bounds %s" % list(bounds))
    expect(bounds["steps"] == steps and bounds["cost"] == cost and
           bounds["makespan"] == cost, "lower bounds %s" % bounds)
    if len(sys.argv) > 2:
        expect(makespan <= int(sys.argv[2]), "makespan %d above %s" %
               (makespan, sys.argv[2]))
    print("valid %s schedule (overlap): %d messages of %d elements, %d "
          "events, %d split, makespan %d, T_opt %d" %
          (doc["algorithm"], len(messages), n, len(doc["events"]), split,
           makespan, cost))


def main():
    requested = sys.argv[1]
    doc = json.load(sys.stdin, object_pairs_hook=collections.OrderedDict)
    if doc.get("model") == "overlap":
        check_overlap(doc, requested)
        return
    # "note", a string, may come last when a scheduler repaired its
    # schedule; mincost-steps adds its step limit before it.
    keys = list(doc)
    if keys[-1:] == ["note"]:
        expect(isinstance(doc["note"], str) and doc["note"], "note")
        keys.pop()
    limited = requested == "mincost-steps"
    extra = ["auto"] if requested == "auto" else []
    extra += ["step_limit"] if limited else []
    expect(keys == TOP_KEYS + extra, "members %s" % list(doc))
    if limited:
        expect(doc["num_steps"] <= doc["step_limit"],
               "%d steps over the limit %d" %
               (doc["num_steps"], doc["step_limit"]))
    expect(doc["format"] == "redist-schedule/1", "format " + doc["format"])

    grid, n = problem_grid(doc["problem"])

    algorithm, model = doc["algorithm"], doc["model"]
    # A product of 1-D schedules optimises what its 1-D algorithm does.
    base = algorithm
    if algorithm.startswith("product(") and algorithm.endswith(")"):
        expect(doc["problem"]["kind"] in ("cyclic2d", "array"),
               "product in 1-D")
        base = algorithm[len("product("):-1]
    expect(base in MODEL, "algorithm " + algorithm)
    if requested == "auto":
        expect(model == "alpha-beta", "model %s for auto" % model)
    else:
        expect(algorithm == requested, "algorithm %s, not %s" %
               (algorithm, requested))
        expect(model == MODEL[base], "model %s for %s" % (model, algorithm))

    messages = doc["messages"]
    check_messages(messages, grid, n)

    steps = doc["steps"]
    seen = set()
    step_costs = []
    uniform = True
    for number, step in enumerate(steps):
        expect(step == sorted(step), "step %d ids not ascending" % number)
        senders, receivers = set(), set()
        for message_id in step:
            expect(0 <= message_id < len(messages),
                   "step %d: id %d" % (number, message_id))
            expect(message_id not in seen, "message %d twice" % message_id)
            seen.add(message_id)
            message = messages[message_id]
            expect(message["src"] not in senders,
                   "step %d: %d sends twice" % (number, message["src"]))
            expect(message["dst"] not in receivers,
                   "step %d: %d receives twice" % (number, message["dst"]))
            senders.add(message["src"])
            receivers.add(message["dst"])
        lengths = {messages[i]["len"] for i in step}
        uniform = uniform and len(lengths) <= 1
        step_costs.append(max(lengths, default=0))
    expect(len(seen) == len(messages),
           "%d messages never sent" % (len(messages) - len(seen)))
    expect(doc["num_steps"] == len(steps), "num_steps %d" % doc["num_steps"])
    expect(doc["cost"] == sum(step_costs), "cost %d, steps sum to %d" %
           (doc["cost"], sum(step_costs)))

    max_degree, max_volume = process_bounds(messages)
    bounds = doc["lower_bounds"]
    expect(list(bounds) == ["steps", "cost"], "bounds %s" % list(bounds))
    expect(bounds["steps"] == max_degree, "step bound %d" % bounds["steps"])
    expect(bounds["cost"] == max_volume, "cost bound %d" % bounds["cost"])

    if requested == "auto":
        check_auto(doc, messages, steps)

    print("valid %s schedule (%s): %d messages of %d elements, %d steps "
          "(%d non-empty), cost %d, lower bounds %d steps and cost %d" %
          (algorithm, model, len(messages), sum(m["len"] for m in messages),
           len(steps), sum(1 for step in steps if step), doc["cost"],
           bounds["steps"], bounds["cost"]))
    print("step costs, largest first: %s" %
          " ".join(str(c) for c in sorted(step_costs, reverse=True)))
    print("every step of equal lengths: %s" % ("yes" if uniform else "no"))


if __name__ == "__main__":
    main()
