#!/usr/bin/env bash
# Sanitizer pass: everything that needs no GTK (core, pipeline, data and the
# non-GUI tests) built with AddressSanitizer + UBSan, and the test suite run
# with every sanitizer error fatal and LeakSanitizer on.
#   bash build-aux/ci-sanitize.sh [BUILD_DIR]    (default build-asan)
# The results land in BUILD_DIR/meson-logs/testlog.json like any meson test run.
set -uo pipefail
cd "$(dirname "$0")/.."
build="${1:-build-asan}"
root="$PWD"

if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" -Db_sanitize=address,undefined -Db_lundef=false -Deditor=disabled || exit 1
fi
# A stale log must never be counted as this run's results.
rm -f "$build/meson-logs/testlog.json"

# Only what the tests need: the benchmarks are built and run by the plain build.
ninja -C "$build" ${CI_JOBS:+-j "$CI_JOBS"} meson-test-prereq || exit 1

# Every sanitizer report ends the process with a non-zero status, with a stack.
# UBSan (gcc) recovers by default: halt_on_error=1 makes each report a failure.
# Stacks come out symbolized through gcc's built-in libbacktrace symbolizer.
# The default fast (frame-pointer) unwinding is kept for malloc stacks: slow
# unwinding on every allocation makes the store's kill-timing test starve. The
# suppressions only apply to GTK programs, which this pass does not build; if a
# GUI test is ever added here, also set fast_unwind_on_malloc=0 so the
# suppressions can see the fontconfig and Mesa frames (ENVIRONMENT.md).
export ASAN_OPTIONS="halt_on_error=1:abort_on_error=0:detect_leaks=1:print_stacktrace=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:print_summary=1"
export LSAN_OPTIONS="suppressions=$root/build-aux/lsan.supp:print_suppressions=0"

# Under ASan everything runs two to four times slower: scale meson's timeouts.
meson test -C "$build" --no-rebuild --print-errorlogs --timeout-multiplier 3
