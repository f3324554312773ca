"""Checks the runs of `redist-faults SEED abort` (faults-abort.test).

Each file holds one run's output, stdout and stderr, followed by the
`exit code N` line the test's shell adds. The program prints
`expect: abort` when some rank was given an invalid value, which must end
the job: MPI_Abort's exit code 1, the faulty rank's "aborting the job" line,
no sanitizer report. `expect: data` must finish with exit code 0 and
"0 failures". A hang ends in timeout's exit code 124, which fails as well.
Prints one summary line; exits 1 on the first run that breaks the rules.
"""
import re
import sys

aborted = moved = 0
for path in sys.argv[1:]:
    with open(path, errors="replace") as f:
        text = f.read()
    codes = re.findall(r"^exit code (\d+)$", text, re.M)
    expect = re.search(r"^expect: (abort|data)$", text, re.M)
    problem = None
    if not codes or not expect:
        problem = "no exit code or expectation"
    elif "Sanitizer" in text or "runtime error:" in text or "FAIL" in text:
        problem = "a report or a failure"
    elif expect.group(1) == "abort":
        if codes[-1] != "1" or "aborting the job" not in text:
            problem = "expected the job to abort (exit code 1), got exit code " + codes[-1]
        aborted += 1
    else:
        if codes[-1] != "0" or " 0 failures" not in text:
            problem = "expected the data to move, got exit code " + codes[-1]
        moved += 1
    if problem:
        print("%s: %s\n%s" % (path, problem, text))
        sys.exit(1)
print("%d runs: %d aborted as documented, %d moved the data"
      % (aborted + moved, aborted, moved))
