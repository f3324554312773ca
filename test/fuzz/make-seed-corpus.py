#!/usr/bin/env python3
"""Gathers the seed corpus of redistc-fuzzer: every C++ file with a
`#pragma redist` directive that the repository holds, as one file each.

    make-seed-corpus.py SOURCE_ROOT OUT_DIR [--max-bytes N] [--split-file PATH]

Sources: the .cpp tests of test/redistc (and its mpi folder), the files
inside its .test files (split-file parts), examples/*.cpp, and a few files of
test/redistc/Inputs/malformed_directives.py, the robustness test's
generator. Files are named by a hash of their text, so running it twice
gives the same corpus, and a file longer than --max-bytes is left out (the
fuzzer's -max_len).
"""
import argparse
import hashlib
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile


def split_parts(split_file, test, scratch):
    """The files split-file writes for TEST, or none (not a split-file test)."""
    out = pathlib.Path(tempfile.mkdtemp(dir=scratch))
    done = subprocess.run([split_file, "--no-leading-lines", str(test),
                           str(out)], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL)
    if done.returncode != 0:
        return []
    return [p for p in out.rglob("*") if p.is_file()]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source_root", type=pathlib.Path)
    parser.add_argument("out_dir", type=pathlib.Path)
    parser.add_argument("--max-bytes", type=int, default=16384)
    parser.add_argument("--split-file", default=shutil.which("split-file")
                        or "/usr/lib/llvm-14/bin/split-file")
    args = parser.parse_args()
    root = args.source_root
    args.out_dir.mkdir(parents=True, exist_ok=True)

    texts = []
    with tempfile.TemporaryDirectory() as scratch:
        candidates = []
        for folder in ("test/redistc", "examples"):
            candidates += sorted((root / folder).rglob("*.cpp"))
        for test in sorted((root / "test/redistc").rglob("*.test")):
            candidates += split_parts(args.split_file, test, scratch)
        for path in candidates:
            if "Inputs" in path.parts and path.suffix != ".cpp":
                continue
            texts.append(path.read_bytes())
        generator = root / "test/redistc/Inputs/malformed_directives.py"
        for seed in range(1, 5):
            texts.append(subprocess.run(
                [sys.executable, str(generator), str(seed), "20"],
                check=True, stdout=subprocess.PIPE).stdout)

    written = 0
    for text in texts:
        if b"#pragma redist" not in text or len(text) > args.max_bytes:
            continue
        name = hashlib.sha1(text).hexdigest()
        (args.out_dir / name).write_bytes(text)
        written += 1
    print("%d seed files in %s" % (written, args.out_dir))


if __name__ == "__main__":
    main()
