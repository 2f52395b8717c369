#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Keep the engine's dependencies one way (docs/architecture.md, "Layers").

Usage: check-includes.py [ROOT] [--objects DIR]

Two rules over the #include "..." lines of sweep/, adapters/ and workloads/:
  1. no cycle between modules (a module is a stem: foo.c with foo.h);
  2. a file includes headers of its own folder or of folders below it, in the
     order docs/architecture.md writes on its line "Layers: a > b, c > d":
     top first, folders of one level (b, c) may not include each other.
With --objects DIR (the build's: DIR/sweep/run/x.o of sweep/run/x.c), rule 2
for calls too: a header may declare a function that a folder above defines
(spec/workload.h, workloads/registry.c), which no include shows, so each
object's undefined symbols (nm) are looked up among the others' definitions,
and a symbol used from a folder that is not above its definer's is an upward
call.  Every source needs its object there (build first).
Exits 1 naming every cycle and every include or call that runs back up; 0 when clean.
"""
import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'\s*#\s*include\s+"([^"]+)"')
TOPS = ("sweep", "adapters", "workloads")


def read_layers(doc):
    """The folder order of doc's "Layers:" line: {folder: level}, 0 on top."""
    for line in open(doc, encoding="utf-8"):
        m = re.match(r"\s*Layers:\s*(.+)", line)
        if m:
            levels = [lv.split(",") for lv in m.group(1).strip(" `.").split(">")]
            return {f.strip(): i for i, lv in enumerate(levels) for f in lv}
    return {}


def source_files(root):
    for top in TOPS:
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for name in sorted(names):
                if name.endswith((".c", ".h")):
                    yield os.path.relpath(os.path.join(dirpath, name), root)


def header_index(files):
    """Header base name -> its path; a name twice is an error (-I finds one)."""
    index, clashes = {}, []
    for f in files:
        if f.endswith(".h"):
            base = os.path.basename(f)
            if base in index:
                clashes.append(f"{f}: same name as {index[base]}")
            index[base] = f
    return index, clashes


def module(path):
    return os.path.splitext(path)[0]


def folder(path):
    """The layer folder of a path: sweep/run/x.c -> run; workloads/exec/x.c -> workloads."""
    parts = path.split(os.sep)
    if parts[0] != "sweep" or len(parts) < 3:
        return parts[0]
    return parts[1]


def edges(root, files, index):
    """(includer path, included header path) for every project header included."""
    for f in files:
        for line in open(os.path.join(root, f), encoding="utf-8", errors="replace"):
            m = INCLUDE.match(line)
            if m and os.path.basename(m.group(1)) in index:
                yield f, index[os.path.basename(m.group(1))]


def cycles(graph):
    """Strongly connected components of more than one module (Tarjan)."""
    order, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        order[v] = low[v] = len(order)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in order:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], order[w])
        if low[v] == order[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    sys.setrecursionlimit(100000)
    for v in sorted(graph):
        if v not in order:
            visit(v)
    return found


def upward(pairs, layers):
    """Includes of a header in a folder above (or beside) the includer's."""
    return [f"{src} includes {hdr}: {folder(hdr)} is not below {folder(src)}"
            for src, hdr in pairs if is_upward(src, hdr, layers)]


def is_upward(src, dst, layers):
    """Does src's folder reach dst's, which is not below it?"""
    a, b = folder(src), folder(dst)
    return a != b and a in layers and b in layers and layers[b] <= layers[a]


def symbols(objects):
    """{object: (defined global names, undefined names)} as nm -g says."""
    out = subprocess.run(["nm", "-A", "-g", *objects], capture_output=True, text=True,
                         check=True).stdout
    syms = {o: (set(), set()) for o in objects}
    for line in out.splitlines():
        path, _, rest = line.partition(":")
        words = rest.split()
        if len(words) < 2 or path not in syms:
            continue
        kind, name = words[-2], words[-1]
        if kind == "U":
            syms[path][1].add(name)
        elif kind not in "wv":
            syms[path][0].add(name)
    return syms


def upward_calls(objdir, files, layers):
    """Uses of a symbol that a folder above (or beside) the user's defines."""
    obj = {f: os.path.join(objdir, os.path.splitext(f)[0] + ".o") for f in files
           if f.endswith(".c")}
    missing = [f"{f}: no object {o} (build first)" for f, o in obj.items()
               if not os.path.exists(o)]
    srcs = [f for f, o in obj.items() if os.path.exists(o)]
    if not srcs:
        return missing
    syms = symbols([obj[f] for f in srcs])
    definer = {name: f for f in srcs for name in syms[obj[f]][0]}
    bad = {}
    for f in srcs:
        for name in sorted(syms[obj[f]][1]):
            d = definer.get(name)
            if d and is_upward(f, d, layers):
                bad.setdefault((f, d), []).append(name)
    return missing + [f"{f} calls {', '.join(names)} of {d}: {folder(d)} is not below "
                      f"{folder(f)}" for (f, d), names in sorted(bad.items())]


def unplaced(files, layers):
    """Folders holding code that the Layers line does not name."""
    if not layers:
        return []
    return sorted({f"{folder(f)}/ is not in the Layers line" for f in files
                   if folder(f) not in layers})


def main():
    args = sys.argv[1:]
    objdir = None
    if "--objects" in args:
        i = args.index("--objects")
        objdir = args[i + 1]
        del args[i:i + 2]
    root = args[0] if args else "."
    doc = os.path.join(root, "docs", "architecture.md")
    layers = read_layers(doc) if os.path.exists(doc) else {}
    files = list(source_files(root))
    index, problems = header_index(files)
    pairs = list(edges(root, files, index))
    graph = {}
    for src, hdr in pairs:
        if module(src) != module(hdr):
            graph.setdefault(module(src), set()).add(module(hdr))
    problems += ["cycle: " + " ".join(c) for c in cycles(graph)]
    problems += upward(pairs, layers) + unplaced(files, layers)
    if objdir is not None:
        problems += upward_calls(os.path.join(root, objdir), files, layers)
    for p in problems:
        print(f"check-includes: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
