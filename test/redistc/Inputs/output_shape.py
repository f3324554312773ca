"""Measures the shape of redistc's output, for output-shape.test.

usage: output_shape.py OUTPUT

Prints the prologue's line count (up to and with the `#line 1` that ends it)
and whether it defines anything (a function, a class or a template: the
executor lives in the runtime, not in translated files); then, for each
static directive, its `redistc:` title line, the lines its constant
tables take (from the message table to the end of the TranslatedSchedule)
and its step calls: one per step, or a loop.
"""
import re
import sys


def main():
    lines = open(sys.argv[1]).read().split("\n")
    end = next(i for i, l in enumerate(lines) if l.startswith("#line 1 "))
    prologue = lines[: end + 1]
    print("prologue lines: %d" % len(prologue))
    defines = [l for l in prologue
               if re.search(r"\b(template|struct|class|namespace|static)\b|\)\s*\{", l)
               and not l.startswith("//")]
    print("prologue definitions: %d" % len(defines))
    title = None
    start = None
    tables = 0
    for i, line in enumerate(lines):
        if line.startswith("// redistc: "):
            title = line[len("// redistc: "):]
        if "static constexpr redist::TranslatedMessage" in line:
            start = i
        if start is not None and line.rstrip().endswith(("nullptr};", "redistc_events};")):
            print("tables of %s %d lines" % (title, i - start + 1))
            tables += 1
            start = None
            calls = 0
            for after in lines[i + 1:]:
                if after.startswith("}"):
                    break
                if "redistc_steps.step(redistc_step)" in after:
                    calls = "a loop"
                elif "redistc_steps.step(" in after:
                    calls += 1
            print("  step calls: %s" % calls)
    print("static directives: %d" % tables)


main()
