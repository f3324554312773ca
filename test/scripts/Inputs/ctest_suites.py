"""Prints each ctest test of a build whose name starts with "lit", with its
labels, resource locks and whether it has a timeout, from
`ctest --show-only=json-v1`."""
import json
import sys

with open(sys.argv[1]) as f:
    tests = json.load(f)["tests"]
for test in sorted(tests, key=lambda t: t["name"]):
    if not test["name"].startswith("lit"):
        continue
    props = {p["name"]: p["value"] for p in test.get("properties", [])}
    print("%s labels=%s lock=%s timeout=%s" % (
        test["name"], ",".join(sorted(props.get("LABELS", []))) or "-",
        ",".join(props.get("RESOURCE_LOCK", [])) or "-",
        "yes" if props.get("TIMEOUT") else "no"))
