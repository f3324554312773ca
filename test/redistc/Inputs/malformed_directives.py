"""Writes a C++ file full of malformed #pragma redist directives.

usage: malformed_directives.py SEED COUNT > file.cpp

Every directive is derived from a valid one by truncating it, by replacing,
inserting or deleting tokens (garbage, huge numbers, stray or deeply nested
brackets), or is a random token string. Half of them sit at namespace scope,
half in a function body. The same SEED writes the same file. redistc must
answer with diagnostics only: no crash, no hang, no output file.
"""
import random
import sys

VALID = [
    "processors P(4)",
    "processors Q(N / 2) comm(MPI_COMM_WORLD)",
    "distribute x[N](cyclic(3)) onto P",
    "distribute y[N](gen_block(Sizes)) onto P",
    "distribute p[N](block(K)) onto P",
    "redistribute x(block) onto P schedule(auto)",
    "redistribute x(cyclic(K)) schedule(caterpillar)",
    "assign p = x schedule(stepwise)",
]

GARBAGE = [
    "@", "$", "`", "\\", "#", "##", "'c'", '"text"', "...", "::", "->", ".",
    ",", ";", ":", "?", "=", "==", "<", ">", "<<", ">>", "&&", "||", "!", "~",
    "+", "-", "*", "/", "%", "auto", "int", "template", "this", "new",
    "delete", "sizeof", "operator", "onto", "schedule", "comm", "block",
    "cyclic", "gen_block", "processors", "distribute", "redistribute",
    "assign", "P", "Q", "x", "y", "p", "N", "K", "Sizes", "(", ")", "[", "]",
    "{", "}",
]

NUMBERS = [
    "0", "-1", "1", "4", "2.5", "1e308", "0x7fffffffffffffff",
    "9223372036854775807", "9223372036854775808", "-9223372036854775808",
    "99999999999999999999999999999999", "1LL << 62", "1LL << 63",
    "(1LL << 62) * 4", "N * N * N", "18446744073709551615ULL", "'\\0'",
]


def tokens(text):
    out, word = [], ""
    for ch in text:
        if ch.isalnum() or ch == "_":
            word += ch
            continue
        if word:
            out.append(word)
            word = ""
        if not ch.isspace():
            out.append(ch)
    if word:
        out.append(word)
    return out


def nested(rng):
    depth = rng.choice([2, 5, 40, 250])
    opener = rng.choice(["(", "[", "{"])
    closer = {"(": ")", "[": "]", "{": "}"}[opener]
    body = rng.choice(NUMBERS + ["x", ""])
    closing = closer * (depth - rng.choice([0, 0, 1, 2]))
    return opener * depth + body + closing


def mutate(rng, toks):
    toks = list(toks)
    kind = rng.randrange(6)
    position = rng.randrange(len(toks) + 1)
    if kind == 0:
        return toks[:max(position, 1) - 1]  # truncated
    if kind == 1 and toks:
        toks[min(position, len(toks) - 1)] = rng.choice(GARBAGE)
    elif kind == 2:
        toks.insert(position, rng.choice(GARBAGE))
    elif kind == 3 and toks:
        del toks[min(position, len(toks) - 1)]
    elif kind == 4:
        toks.insert(position, rng.choice(NUMBERS))
    else:
        toks.insert(position, nested(rng))
    return toks


def directive(rng):
    if rng.randrange(8) == 0:
        return " ".join(rng.choice(GARBAGE + NUMBERS)
                        for _ in range(rng.randrange(1, 12)))
    toks = tokens(rng.choice(VALID))
    for _ in range(rng.choice([1, 1, 2, 3])):
        toks = mutate(rng, toks)
    return " ".join(toks)


def main():
    rng = random.Random(int(sys.argv[1]))
    count = int(sys.argv[2])
    lines = [
        "#include <mpi.h>",
        "#include <cstdint>",
        "#include <vector>",
        "constexpr std::int64_t N = 1000, K = 7;",
        "constexpr std::int64_t Sizes[4] = {100, 200, 300, 400};",
        "#pragma redist processors P(4)",
        "std::vector<double> x, y;",
        "double *p = nullptr;",
    ]
    lines += ["#pragma redist " + directive(rng) for _ in range(count // 2)]
    lines.append("void body() {")
    lines += ["#pragma redist " + directive(rng) for _ in range(count - count // 2)]
    lines.append("}")
    print("\n".join(lines))


main()
