#!/usr/bin/env python3
"""Counts one pass's results from a meson test log (testlog.json: one JSON
object per line, field "result": OK, FAIL, SKIP, EXPECTEDFAIL, TIMEOUT, ...).

Prints "PASSED FAILED SKIPPED" on the first line, then the name of each test
that did not pass, one per line. A missing or unreadable log counts as one
failure: the pass did not get as far as running its tests.
"""
import json
import sys


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: ci-count.py testlog.json", file=sys.stderr)
        return 2
    passed = failed = skipped = 0
    failures = []
    try:
        with open(sys.argv[1], encoding="utf-8") as log:
            for line in log:
                line = line.strip()
                if not line:
                    continue
                entry = json.loads(line)
                result = entry.get("result", "")
                if result in ("OK", "EXPECTEDFAIL"):
                    passed += 1
                elif result == "SKIP":
                    skipped += 1
                else:
                    failed += 1
                    failures.append(f"{entry.get('name', '?')} ({result})")
    except (OSError, ValueError) as e:
        print("0 1 0")
        print(f"no usable test log: {e}")
        return 0
    print(passed, failed, skipped)
    for name in failures:
        print(name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
