"""Checks that redistc left every byte outside the directives untouched.

usage: check_untouched.py INPUT OUTPUT

The output must be: the prologue, ending with `#line 1 "INPUT"`; then the
input, where each `#pragma redist` directive (from its '#' to the end of its
last line, continuation lines included) is replaced by generated code that
ends with a `#line N "INPUT"` naming the next input line. A `#line N
"OUTPUT"` in generated code must name the output line that follows it.
Prints a summary, or the first difference and exits 1.
"""
import re
import sys

DIRECTIVE = re.compile(rb"^([ \t]*)#[ \t]*pragma[ \t]+redist\b")


def fail(message):
    print("check_untouched: " + message)
    sys.exit(1)


def main():
    source = open(sys.argv[1], "rb").read()
    output = open(sys.argv[2], "rb").read()
    start = re.search(rb'(^|\n)#line 1 "[^"\n]*"\n', output)
    if not start:
        fail("no '#line 1' ending the prologue")
    cursor = start.end()
    lines = source.splitlines(keepends=True)
    name = re.escape(sys.argv[1].replace("\\", "/").split("/")[-1].encode())
    number = 0  # 0-based index into lines
    directives = 0
    while number < len(lines):
        line = lines[number]
        match = DIRECTIVE.match(line)
        if not match:
            if not output.startswith(line, cursor):
                fail("input line %d differs in the output" % (number + 1))
            cursor += len(line)
            number += 1
            continue
        # A directive: its lines, continuation lines included.
        last = number
        while lines[last].rstrip(b"\r\n").endswith(b"\\") and last + 1 < len(lines):
            last += 1
        indent = match.group(1)
        if not output.startswith(indent, cursor):
            fail("indentation of the directive on line %d changed" % (number + 1))
        ending = re.compile(rb'#line %d "[^"\n]*%s"' % (last + 2, name))
        found = ending.search(output, cursor)
        if not found:
            fail("no '#line %d' after the directive on line %d" % (last + 2, number + 1))
        cursor = found.end()
        newline = lines[last][len(lines[last].rstrip(b"\r\n")):]
        if not output.startswith(newline, cursor):
            fail("the end of line %d changed" % (last + 1))
        cursor += len(newline)
        directives += 1
        number = last + 1
    if cursor != len(output):
        fail("the output has %d extra bytes at the end" % (len(output) - cursor))
    # Generated code maps to the output file itself, line for line.
    out_name = re.escape(sys.argv[2].replace("\\", "/").split("/")[-1].encode())
    out_lines = output.splitlines()
    for index, text in enumerate(out_lines):
        mark = re.match(rb'\s*#line (\d+) "[^"]*%s"' % out_name, text)
        if mark and int(mark.group(1)) != index + 2:
            fail("output line %d says '#line %s', expected %d"
                 % (index + 1, mark.group(1).decode(), index + 2))
    print("untouched: %d lines, %d directives replaced" % (len(lines), directives))


main()
