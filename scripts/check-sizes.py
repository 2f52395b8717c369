#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Keep files and functions short enough to read in one sitting.

Usage: check-sizes.py [ROOT]

Over the C files (.c and .h) of sweep/, adapters/ and workloads/:
  1. no file over 800 lines;
  2. no function over 60 lines.  A function is what the kernel style writes:
     its body opens on a line that is exactly "{" after its signature and
     closes on the next line that is exactly "}"; the lines between the two
     are counted.  The name is the identifier before the first "(" of the
     signature, read back from the "{" to the line that starts at column 0
     (parameters continue on indented lines; a SEC("...") line above the
     signature is not read).
Exits 1 naming each file:line (the "{" for a function) that is too long;
0 when all fit.
"""
import os
import re
import sys

TOPS = ("sweep", "adapters", "workloads")
FILE_MAX = 800
FUNCTION_MAX = 60
NAME = re.compile(r"([A-Za-z_]\w*)\s*\(")


def c_files(root):
    for top in TOPS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames.sort()
            for name in sorted(filenames):
                if name.endswith((".c", ".h")):
                    yield os.path.join(dirpath, name)


def function_name(lines, brace):
    """The name in the signature above lines[brace] (a "{"), or "?"."""
    first = brace - 1
    while first > 0 and lines[first][:1] in (" ", "\t"):
        first -= 1
    m = NAME.search(" ".join(lines[first:brace]))
    return m.group(1) if m else "?"


def long_functions(lines):
    """(line number of the "{", name, body lines) of each function over FUNCTION_MAX."""
    start = None
    for i, line in enumerate(lines):
        if line == "{":
            start = i
        elif line == "}" and start is not None:
            body = i - start - 1
            if body > FUNCTION_MAX:
                yield start + 1, function_name(lines, start), body
            start = None


def check(root):
    problems = []
    for path in c_files(root):
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        rel = os.path.relpath(path, root)
        if len(lines) > FILE_MAX:
            problems.append(f"{rel}:1: {len(lines)} lines, over {FILE_MAX}")
        for lineno, name, body in long_functions(lines):
            problems.append(f"{rel}:{lineno}: {name}() has {body} lines, over {FUNCTION_MAX}")
    return problems


def main(argv):
    root = argv[1] if len(argv) > 1 else "."
    problems = check(root)
    for p in problems:
        print(f"check-sizes: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
