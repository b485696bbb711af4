#!/bin/sh
# Checks that the C sources are formatted as .clang-format says (STYLE.md:
# one .clang-format for the tree), with clang-format 14 (Debian 12's; other
# versions format differently). Prints each file that differs and how many of
# its lines would change, then the total; exits 1 if any differs.
#
#   build-aux/check-format.sh [FILE ...]    (default: every tracked .c/.h)
#   build-aux/check-format.sh --diff FILE   (the changes clang-format wants)
#
# The test `format` runs it (and so CI, through `make test`); it skips (77)
# where clang-format 14 is not installed (build-aux/install-deps.sh installs it).
set -eu
cd "$(dirname "$0")/.."
CF=${CLANG_FORMAT:-clang-format-14}
if ! command -v "$CF" >/dev/null 2>&1; then
  echo "check-format.sh: $CF not found (apt-get install clang-format-14): skipped" >&2
  exit 77
fi
if [ "${1:-}" = "--diff" ]; then
  shift
  for f in "$@"; do "$CF" --style=file "$f" | diff -u "$f" - || true; done
  exit 0
fi
if [ $# -eq 0 ]; then
  if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    set -- $(git ls-files '*.c' '*.h')
  else
    set -- $(find core editor pipeline tests data -name '*.[ch]' | sort)
  fi
fi
total=0
files=0
for f in "$@"; do
  n=$("$CF" --style=file "$f" | diff -U0 "$f" - | tail -n +3 | grep -c '^-' || true)
  if [ "$n" -gt 0 ]; then
    echo "$f: $n lines"
    total=$((total + n))
    files=$((files + 1))
  fi
done
echo "$files of $# files differ from .clang-format; $total lines would change"
[ "$files" -eq 0 ]
