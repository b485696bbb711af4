#!/usr/bin/env python3
"""Checks core's naming of internals (STYLE.md, issue 13).

- A private header (beside its .c files, not under core/include) is named
  after its module: <module>_private.h for what the whole module shares,
  <module>_<topic>.h for one part; snake_case. The drop-in reader's own
  public header, pack/tlv_reader.h, is the one exception (its name is its API).
- A function or macro-like helper declared in a private header, to be shared
  between the module's files, starts with the module's prefix, never with the
  public tess_ (which means "in core/include/tessera"). The prefix is the
  module's name; core/formats holds several formats and its internals start
  with the format's file family instead (text_, tiled_), as its files do.

Usage: check-names.py [SOURCE_ROOT]
"""
import os
import re
import sys

PREFIXES = {"formats": ("text_", "tiled_")}
EXEMPT_HEADERS = {"pack/tlv_reader.h"}
# A function declared or defined at file scope in a header (static inline too).
DECL = re.compile(r"^(?:static\s+inline\s+)?[A-Za-z_][A-Za-z0-9_ \*]*?[ \*]([a-z_][a-z0-9_]*)\s*\(", re.M)
HEADER_NAME = re.compile(r"^[a-z0-9]+(?:_[a-z0-9]+)*\.h$")


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    core = os.path.join(root, "core")
    problems = []
    headers = 0
    for module in sorted(os.listdir(core)):
        d = os.path.join(core, module)
        if module == "include" or not os.path.isdir(d):
            continue
        prefixes = PREFIXES.get(module, (module + "_",))
        for name in sorted(os.listdir(d)):
            rel = f"{module}/{name}"
            if not name.endswith(".h") or rel in EXEMPT_HEADERS:
                continue
            headers += 1
            if not HEADER_NAME.match(name) or not name.startswith(module + "_"):
                problems.append(f"core/{rel}: a private header is named {module}_private.h or {module}_<topic>.h")
            with open(os.path.join(d, name), encoding="utf-8") as f:
                text = f.read()
            # Declarations only: strip comments so prose does not count.
            text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
            for fn in DECL.findall(text):
                if fn in ("if", "while", "for", "switch", "return", "sizeof"):
                    continue
                if not fn.startswith(prefixes):
                    line = text[: text.index(fn + "(") if fn + "(" in text else 0].count("\n") + 1
                    problems.append(f"core/{rel}:{line}: {fn} is shared by core/{module}'s files: "
                                    f"name it {' or '.join(p + '...' for p in prefixes)} (tess_ is the public API)")
    for p in problems:
        print(p, file=sys.stderr)
    if not problems:
        print(f"{headers} private headers, named after their module, sharing only prefixed internals")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
