#!/usr/bin/env bash
# Sanitizer pass over the editor: the `editor` suite (the GTK widget tests,
# the sprite tools, the end-to-end run of the real `tessera`) built with
# AddressSanitizer + UBSan and run under one Xvfb with LeakSanitizer on.
#   bash build-aux/ci-sanitize-gui.sh [BUILD_DIR]    (default build-asan-gui)
# Only what that suite needs is built (its programs and the files they
# read), not every test of the tree: the non-GUI tests have their own pass
# (build-aux/ci-sanitize.sh). Results land in BUILD_DIR/meson-logs/testlog.json.
set -uo pipefail
cd "$(dirname "$0")/.."
build="${1:-build-asan-gui}"
root="$PWD"

if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" -Db_sanitize=address,undefined -Db_lundef=false || exit 1
fi
rm -f "$build/meson-logs/testlog.json"

# The suite's programs and what its tests depend on (the demo project, the
# compiled schemas, the French catalogue), by name from meson's own lists.
targets=$(python3 - "$build" <<'PY'
import json, os, subprocess, sys
build = sys.argv[1]
def introspect(what):
    return json.loads(subprocess.check_output(["meson", "introspect", build, what]))
by_id = {t["id"]: t for t in introspect("--targets")}
wanted = set()
for t in introspect("--tests"):
    if "tessera:editor" not in t["suite"]:
        continue
    files = [f for dep in t.get("depends", []) for f in by_id.get(dep, {}).get("filename", [])]
    for f in files + t["cmd"]:
        rel = os.path.relpath(f, os.path.abspath(build)) if os.path.isabs(f) else ""
        if rel and not rel.startswith(".."):  # built here (not a source file, not /usr/bin/bash)
            wanted.add(rel)
print(" ".join(sorted(wanted)))
PY
) || exit 1
# shellcheck disable=SC2086
ninja -C "$build" ${CI_JOBS:+-j "$CI_JOBS"} $targets || exit 1

# As build-aux/ci-sanitize.sh, and: slow unwinding on malloc, so the stacks
# of fontconfig's and Mesa's process-lifetime caches reach the frames the
# suppressions name (build-aux/lsan.supp; ENVIRONMENT.md). Nothing of
# Tessera's own is suppressed.
export ASAN_OPTIONS="halt_on_error=1:abort_on_error=0:detect_leaks=1:print_stacktrace=1:fast_unwind_on_malloc=0"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:print_summary=1"
export LSAN_OPTIONS="suppressions=$root/build-aux/lsan.supp:print_suppressions=0"

# Everything runs several times slower under ASan, GTK more so: scale the timeouts.
bash build-aux/xvfb.sh meson test -C "$build" --no-rebuild --print-errorlogs --suite editor --timeout-multiplier 4
