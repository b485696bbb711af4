#!/usr/bin/env python3
"""Reads the #include lines of core/ and checks its layering (DESIGN.md).

Each file belongs to a module: core/<module>/... or the public header
core/include/tessera/<module>.h. A module may include only modules on its
own layer or below; no two modules may include each other, directly or
around a longer loop. `--graph` prints the module graph instead (one
"a -> b" line per pair, with the files that make the arrow).

Usage: check-layers.py [--graph] [SOURCE_ROOT]
"""
import os
import re
import sys

# DESIGN.md's order, from the bottom up: a module may include its own layer
# or any below it. Modules on one layer must still not include each other.
LAYERS = [
    ["base", "tlv"],
    ["geom"],
    ["image", "mask", "physics"],
    ["scene"],
    ["aim"],  # tessera/aim.h: core/play's aiming (base only); play.c files include it
    ["play"],
    ["runtime"],
    ["draw"],  # libtessera-draw: the painter over the runtime's data (cairo); render feeds it the level model
    ["terrain"],  # tessera/terrain.h: terrain sets as plain data (base only); level.h includes it
    ["level"],
    ["textform"],  # the header of core/formats' text form (text_*.c include it from below formats)
    ["store", "pack", "formats"],
    ["render"],
]
# Edges that break the order today and are known, each with the issue step
# that removes it. The check fails if one of them disappears without being
# struck from here (so the list only ever shrinks), or if a new one appears.
KNOWN = {}

# libtessera-runtime: these modules, plus the files named, include nothing
# from outside this set (no level model, SQLite, libpng or cairo).
RUNTIME_MODULES = {"base", "tlv", "geom", "physics", "scene", "aim", "play", "runtime"}
RUNTIME_FILES = {"pack/scene_from_pack.c"}

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def layer_of(module):
    for i, layer in enumerate(LAYERS):
        if module in layer:
            return i
    return None


def module_of(path, core):
    rel = os.path.relpath(path, core).split(os.sep)
    # The drop-in reader depends on libc alone: its own module at the bottom.
    if rel[0] == "pack" and rel[-1] in ("tlv_reader.c", "tlv_reader.h"):
        return "tlv"
    if rel[0] == "include" and len(rel) == 3 and rel[1] == "tessera":
        return rel[2][:-2]
    return rel[0]


def scan(core):
    """{(a, b): [file, ...]} for every include of module b from module a."""
    headers = {}  # private header name -> module, for quoted includes beside their .c
    files = []
    for dirpath, _, names in os.walk(core):
        for n in sorted(names):
            if n.endswith((".c", ".h")):
                p = os.path.join(dirpath, n)
                files.append(p)
                if n.endswith(".h") and "include" not in os.path.relpath(p, core).split(os.sep)[:1]:
                    headers.setdefault(n, set()).add(module_of(p, core))
    edges = {}
    runtime_reach = []
    for p in sorted(files):
        a = module_of(p, core)
        with open(p, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for inc in INCLUDE.findall(text):
            if inc.startswith("tessera/"):
                b = inc[len("tessera/"):-2]
            else:
                name = os.path.basename(inc)
                beside = os.path.join(os.path.dirname(p), inc)
                if os.path.exists(beside):
                    b = module_of(os.path.normpath(beside), core)
                elif name in headers and len(headers[name]) == 1:
                    b = next(iter(headers[name]))
                else:
                    continue
            rel = os.path.relpath(p, core).replace(os.sep, "/")
            if (a in RUNTIME_MODULES or rel in RUNTIME_FILES) and b not in RUNTIME_MODULES:
                runtime_reach.append(f"{os.path.relpath(p, os.path.dirname(core))}: part of libtessera-runtime, includes {inc} ({b})")
            if a != b:
                edges.setdefault((a, b), []).append(os.path.relpath(p, os.path.dirname(core)))
    scan.runtime_reach = runtime_reach
    return edges


def cycles(edges):
    """Strongly connected components of more than one module (Tarjan)."""
    graph = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def main(argv):
    graph_only = "--graph" in argv
    args = [a for a in argv[1:] if not a.startswith("--")]
    root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    core = os.path.join(root, "core")
    edges = scan(core)
    if graph_only:
        for (a, b), where in sorted(edges.items(), key=lambda e: (layer_of(e[0][0]) or 0, e[0])):
            print(f"{a} -> {b}   ({len(where)}: {', '.join(sorted(set(where))[:3])}{' ...' if len(set(where)) > 3 else ''})")
        for c in cycles(edges):
            print("cycle: " + " <-> ".join(c))
        return 0
    problems = []
    for (a, b), where in sorted(edges.items()):
        la, lb = layer_of(a), layer_of(b)
        if la is None or lb is None:
            problems.append(f"{where[0]}: module '{a if la is None else b}' has no layer in check-layers.py (DESIGN.md's order)")
        elif lb > la and (a, b) not in KNOWN:
            problems.append(f"{where[0]}: {a} includes {b}, a module above it (DESIGN.md: layers point down only)")
    for pair, why in KNOWN.items():
        if pair not in edges:
            problems.append(f"check-layers.py: the known exception {pair[0]} -> {pair[1]} ({why}) is gone: strike it from KNOWN")
    problems.extend(scan.runtime_reach)
    for c in cycles(edges):
        problems.append("core: modules include each other in a cycle: " + " -> ".join(c + c[:1]))
    for p in problems:
        print(p, file=sys.stderr)
    if not problems:
        print(f"{len(edges)} module arrows, all pointing down; no cycle")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
