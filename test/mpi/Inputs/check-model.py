"""Checks a model file redist-calibrate wrote, without asserting its values
(the machine that runs the tests is noisy): the members, that the constants
are finite and non-negative (beta and gamma positive: every message takes
time), and that "measured_on" names the job. Prints one line for FileCheck.

usage: check-model.py FILE RANKS
"""
import json
import math
import sys


def fail(message):
    sys.stderr.write("check-model: %s\n" % message)
    sys.exit(1)


def main():
    path, ranks = sys.argv[1], int(sys.argv[2])
    with open(path) as f:
        doc = json.load(f)
    if list(doc) != ["format", "alpha_s", "beta_s_per_byte", "gamma_s",
                     "measured_on"]:
        fail("members %s" % list(doc))
    if doc["format"] != "redist-model/1":
        fail("format %r" % doc["format"])
    for name in ["alpha_s", "beta_s_per_byte", "gamma_s"]:
        value = doc[name]
        if not isinstance(value, (int, float)) or not math.isfinite(value) \
                or value < 0:
            fail("%s = %r" % (name, value))
    for name in ["beta_s_per_byte", "gamma_s"]:
        if doc[name] <= 0:
            fail("%s = %r, not positive" % (name, doc[name]))
    where = doc["measured_on"]
    if where.get("ranks") != ranks or where.get("nodes", 0) < 1:
        fail("measured_on %r" % where)
    for value in where.values():
        if not isinstance(value, (str, int, float)):
            fail("measured_on holds %r" % value)
    print("valid model: %d ranks on %d node(s), constants %s" %
          (where["ranks"], where["nodes"], where["constants"]))


if __name__ == "__main__":
    main()
