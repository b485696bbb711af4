#!/usr/bin/env python3
"""Fails when the scaffolding from building the parts separately comes back.

Every part of the tree is always built (the editor only with GTK, which
meson's gtk_dep says), so:
- no `#if`/`#ifdef` on a TESS_HAVE_* macro in the sources, except
  TESS_HAVE_CHIPMUNK and TESS_HAVE_BOX2D (the optional peers of the
  benchmarks and cross-checks): a branch that still guards code with one
  compiles it out silently;
- no `is_variable(...)` or `fs.exists(...)`/`fs.is_dir(...)` in a meson.build,
  except the fuzz corpus' glob (its seeds differ per target).

Usage: check-scaffolding.py [SOURCE_ROOT]
"""
import os
import re
import sys

IFDEF = re.compile(r"^\s*#\s*(?:if|ifdef|ifndef|elif)\b.*\bTESS_HAVE_(?!(?:CHIPMUNK|BOX2D)\b)\w+")
MESON = re.compile(r"\b(?:is_variable|fs\.exists|fs\.is_dir)\s*\(")
ALLOWED_MESON = {os.path.join("tests", "fuzz", "meson.build"): 1}


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    problems = []
    for top in ("core", "editor", "pipeline", "tests", "data"):
        for folder, dirs, files in os.walk(os.path.join(root, top)):
            dirs[:] = [d for d in dirs if d not in ("corpus",)]
            for name in files:
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, root)
                if name.endswith((".c", ".h", ".cc", ".cpp")):
                    with open(path, encoding="utf-8", errors="replace") as f:
                        for n, line in enumerate(f, 1):
                            if IFDEF.search(line):
                                problems.append(f"{rel}:{n}: {line.strip()}")
                elif name == "meson.build":
                    with open(path, encoding="utf-8") as f:
                        hits = [(n, l) for n, l in enumerate(f, 1) if MESON.search(l)]
                    if len(hits) > ALLOWED_MESON.get(rel, 0):
                        problems += [f"{rel}:{n}: {l.strip()}" for n, l in hits]
    for top_file in ("meson.build",):
        with open(os.path.join(root, top_file), encoding="utf-8") as f:
            problems += [f"{top_file}:{n}: {l.strip()}" for n, l in enumerate(f, 1) if MESON.search(l)]
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} leftover(s) of building the parts separately: every part is always in the tree")
        return 1
    print("no build scaffolding")
    return 0


if __name__ == "__main__":
    sys.exit(main())
