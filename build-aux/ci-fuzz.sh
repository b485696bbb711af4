#!/usr/bin/env bash
# Fuzz pass: every libFuzzer target (tests/fuzz, `fuzz-NAME` executables)
# built with clang and run for a share of a time budget, each from a copy of
# its seed corpus tests/fuzz/corpus/NAME in a temporary directory, so the
# checked-in corpus never grows.
#   bash build-aux/ci-fuzz.sh [BUILD_DIR] [SECONDS]   (default build-fuzz, 60)
# Writes one line per target to BUILD_DIR/meson-logs/fuzzlog.json in the form
# of meson's testlog.json ({"name": ..., "result": "OK" | "FAIL"}); a crash
# keeps its input under BUILD_DIR/fuzz-artifacts/NAME/ and prints its path.
set -uo pipefail
cd "$(dirname "$0")/.."
build="${1:-build-fuzz}"
budget="${2:-${FUZZ_SECONDS:-60}}"
root="$PWD"

if [ ! -f "$build/build.ninja" ]; then
  # b_sanitize and fuzzer-no-link instrument the libraries too (the readers
  # live in core/*), not only the target's own file: without them libFuzzer
  # sees ~100 coverage edges instead of ~3000 and ASan does not check the reader.
  CC="${FUZZ_CC:-clang}" meson setup "$build" -Dfuzzing=true -Deditor=disabled \
    -Db_sanitize=address,undefined -Db_lundef=false -Dc_args=-fsanitize=fuzzer-no-link || exit 1
fi
mkdir -p "$build/meson-logs"
results="$build/meson-logs/fuzzlog.json"
rm -f "$results"

# The fuzz targets, as "name path-relative-to-build" lines.
mapfile -t targets < <(meson introspect --targets "$build" | python3 -c '
import json, os, sys
build = os.path.abspath(sys.argv[1])
for t in json.load(sys.stdin):
    n = t["name"]
    if t["type"] == "executable" and n.startswith("fuzz-") and not n.startswith("fuzz-replay-"):
        print(n, os.path.relpath(t["filename"][0], build))
' "$build")
if [ ${#targets[@]} -eq 0 ]; then
  echo "fuzz: no libFuzzer targets configured in $build (needs clang and -Dfuzzing=true)"
  echo '{"name": "fuzz-targets", "result": "FAIL"}' >>"$results"
  exit 1
fi
ninja -C "$build" ${CI_JOBS:+-j "$CI_JOBS"} $(printf '%s\n' "${targets[@]}" | cut -d' ' -f2) || {
  for t in "${targets[@]}"; do echo "{\"name\": \"${t%% *}\", \"result\": \"FAIL\"}" >>"$results"; done
  exit 1
}

# Readable stacks: Debian's clang runtime looks only for llvm-symbolizer-14
# (package llvm-14); without it, fall back to binutils' addr2line.
symbolizer=""
for s in /usr/lib/llvm-14/bin/llvm-symbolizer "$(command -v llvm-symbolizer || true)" "$(command -v addr2line || true)"; do
  if [ -n "$s" ] && [ -x "$s" ]; then symbolizer="$s"; break; fi
done
export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:print_stacktrace=1${symbolizer:+:external_symbolizer_path=$symbolizer}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${symbolizer:+:external_symbolizer_path=$symbolizer}"

each=$((budget / ${#targets[@]}))
[ "$each" -lt 5 ] && each=5
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
status=0
for t in "${targets[@]}"; do
  name="${t%% *}"
  bin="$build/${t#* }"
  short="${name#fuzz-}"
  corpus="$tmp/corpus-$short"
  mkdir -p "$corpus"
  if [ -d "tests/fuzz/corpus/$short" ]; then
    cp -r "tests/fuzz/corpus/$short/." "$corpus/"
  else
    echo "$name: no seed corpus at tests/fuzz/corpus/$short, starting from nothing"
  fi
  seeds=$(find "$corpus" -type f | wc -l)
  art="$root/$build/fuzz-artifacts/$short"
  rm -rf "$art" && mkdir -p "$art"
  log="$build/meson-logs/$name.log"
  # A target's own libFuzzer flags, if it has any (tests/fuzz/NAME.flags, one line).
  extra=()
  [ -f "tests/fuzz/$short.flags" ] && read -r -a extra <"tests/fuzz/$short.flags"
  "$bin" -max_total_time="$each" -timeout=25 -rss_limit_mb=2048 -print_final_stats=1 "${extra[@]}" \
    -artifact_prefix="$art/" "$corpus" >"$log" 2>&1
  rc=$?
  runs=$(sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) second.*/\1 runs in \2 s/p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
  added=$(sed -n 's/^stat::new_units_added: *//p' "$log" | tail -1)
  if [ $rc -eq 0 ]; then
    echo "$name: ok, ${runs:-?}, ${cov:-cov: ?} edges, $seeds seeds, ${added:-0} new inputs (kept in the temp copy only)"
    echo "{\"name\": \"$name\", \"result\": \"OK\"}" >>"$results"
  else
    status=1
    echo "$name: FAILED (exit $rc) after ${runs:-an unknown number of runs}; the report:"
    # The sanitizer's report without libFuzzer's progress lines and the shadow-byte legend.
    grep -vE '^#[0-9]+[[:space:]]' "$log" | grep -vE '^(INFO|MS|stat|"|###)' |
      awk '/^Shadow bytes around/ {skip = 1} /ABORTING/ {skip = 0} !skip' | tail -n 60 | sed 's/^/    /'
    found=0
    for f in "$art"/*; do
      [ -f "$f" ] || continue
      found=1
      echo "$name: crashing input: $f ($(stat -c %s "$f") bytes)"
      echo "$name: reproduce with: $bin $f"
    done
    [ $found -eq 0 ] && echo "$name: no input was saved (see $log)"
    echo "{\"name\": \"$name\", \"result\": \"FAIL\"}" >>"$results"
  fi
done
exit $status
