"""Runs redistc on a copy of a file in a fresh directory outside the build
tree, where no compilation database lies in the directory or above it.

usage: run_outside_build.py INPUT [REDISTC ARGUMENTS...]

In the arguments, IN stands for the copy and OUT for the output file next
to it. Prints redistc's standard error as it is, then its exit status and
whether it wrote the output.
"""
import os
import shutil
import subprocess
import sys
import tempfile


def main():
    work = tempfile.mkdtemp(prefix="redistc-nodb-")
    try:
        copy = os.path.join(work, os.path.basename(sys.argv[1]))
        shutil.copyfile(sys.argv[1], copy)
        out = os.path.join(work, "out.cpp")
        args = [{"IN": copy, "OUT": out}.get(a, a) for a in sys.argv[2:]]
        run = subprocess.run(["redistc"] + args, cwd=work,
                             stderr=subprocess.PIPE, stdout=subprocess.DEVNULL)
        sys.stdout.write(run.stderr.decode())
        print("exit status: %d" % run.returncode)
        print("output written: %s" % ("yes" if os.path.exists(out) else "no"))
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
