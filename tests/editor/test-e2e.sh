#!/usr/bin/env bash
# End to end, as a person would: start the real `tessera` on a temporary
# copy of the demo project, pick the brush with its key, paint two strokes
# across the canvas with the mouse, press Ctrl+Z once, quit with Ctrl+Q, and
# check that the project file holds exactly the first stroke.
#
#   test-e2e.sh TESSERA E2E_DIFF DEMO.tessera
#
# Needs an X display (make test runs the suite inside xvfb-run) and xdotool.
set -euo pipefail

tessera=$1
e2e_diff=$2
demo=$3

if [ -z "${DISPLAY:-}" ]; then echo "no X display: skipped"; exit 77; fi
command -v xdotool >/dev/null || { echo "xdotool is missing: skipped"; exit 77; }

work=$(mktemp -d)
pid=
cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill "$pid"; fi
  rm -rf "$work"
}
trap cleanup EXIT
cp "$demo" "$work/e2e.tessera"
cp "$demo" "$work/before.tessera"

export GTK_A11Y=none GSETTINGS_BACKEND=memory GSK_RENDERER=cairo NO_AT_BRIDGE=1 LANGUAGE=C
# The editor writes where the level is drawn (its (0, 0) corner in the
# window's coordinates, the zoom, the tile size) and the map's tool to this
# file whenever they change: the test aims at cells whatever the layout and
# the fitted zoom, and sees a tool key arrive.
export TESS_TEST_GEOMETRY_FILE="$work/geometry"
"$tessera" "$work/e2e.tessera" >"$work/tessera.log" 2>&1 &
pid=$!

# Every step waits for a condition with a deadline, as the journeys do
# (tests/journeys/journey-lib.sh): never a fixed sleep that a loaded machine
# (load 20 on 2 cores runs the editor ten times slower) could outlast.
# E2E_WAIT_SCALE (default 4) multiplies every deadline, which is the seconds
# an idle machine needs with room to spare: a deadline is only reached when
# something is wrong.
scale=${E2E_WAIT_SCALE:-4}
fail() {
  echo "FAIL: $*"
  echo "--- geometry"; cat "$work/geometry" 2>/dev/null || true
  echo "--- editor log"; cat "$work/tessera.log" 2>/dev/null || true
  exit 1
}
# until_ok SECONDS CMD...: runs CMD every 50 ms until it succeeds; 1 after SECONDS (scaled).
until_ok() {
  local end=$((SECONDS + $1 * scale))
  shift
  until "$@"; do
    [ "$SECONDS" -ge "$end" ] && return 1
    sleep 0.05
  done
}
# wait_for SECONDS WHAT CMD...: until_ok, or fail saying what was awaited
# (and what the file last held, when CMD looked at it).
last_seen=
wait_for() {
  local limit=$1 what=$2
  shift 2
  last_seen=
  until_ok "$limit" "$@" || fail "$what (waited $((limit * scale)) s)${last_seen:+; the file last held: $(tr '\n' ';' <<<"$last_seen")}"
}

# The window is titled "project — level".
wid=$(timeout $((20 * scale)) xdotool search --sync --onlyvisible --name '^e2e — Side$' | head -n1) ||
  fail "the editor window did not appear within $((20 * scale)) s"
xdotool windowfocus --sync "$wid" 2>/dev/null || true

# The level is fitted to the view once the window has its size: the
# geometry must hold still for 300 ms (6 looks 50 ms apart) before it is read.
wait_for 10 "the editor wrote no geometry" test -s "$work/geometry"
last= same=0 end=$((SECONDS + 10 * scale))
while [ "$same" -lt 6 ]; do
  [ "$SECONDS" -ge "$end" ] && fail "the geometry did not hold still for 300 ms"
  cur=$(cat "$work/geometry" 2>/dev/null || true)
  if [ -n "$cur" ] && [ "$cur" = "$last" ]; then same=$((same + 1)); else same=0; fi
  last=$cur
  sleep 0.05
done
eval "$cur"
eval "$(xdotool getwindowgeometry --shell "$wid")"
# One cell on screen, in pixels (may be fractional: the level is fitted).
cell=$(awk -v z="$zoom" -v t="$tile_w" 'BEGIN { print z * t }')
if awk -v c="$cell" 'BEGIN { exit !(c < 4) }'; then fail "cells are $cell px on screen: too small to aim at"; fi

# Cell centre to screen point.
cx() { awk -v o="$origin_x" -v X="$X" -v c="$cell" -v i="$1" 'BEGIN { printf "%d", X + o + (i + 0.5) * c }'; }
cy() { awk -v o="$origin_y" -v Y="$Y" -v c="$cell" -v i="$1" 'BEGIN { printf "%d", Y + o + (i + 0.5) * c }'; }
step=$(awk -v c="$cell" 'BEGIN { s = int(c / 3); print (s < 1 ? 1 : s) }')

# The map's tool, as the editor last wrote it (TessTool: 0 brush, 1 eraser).
tool_is() { grep -qx "tool=$1" "$work/geometry"; }
# What the project file holds now, against the copy taken before (the editor
# commits each edit when it is made: a reader sees it in the file).
diff_is() {
  last_seen=$("$e2e_diff" "$work/before.tessera" "$work/e2e.tessera" 2>&1) || true
  [ "$last_seen" = "$1" ]
}
cells() { for x in $(seq "$2" "$3"); do echo "Side Ground $x $1 - Terrain#0"; done; }

# A stroke along one row, from column $2 to column $3, moving in small steps
# as a hand does. Each move is --sync (xdotool returns once the pointer is
# there); the X server hands the editor the events in order, and the brush
# paints along the line between two events it sees, so none is lost.
stroke() {
  local row=$1 from=$2 to=$3
  local y x end
  y=$(cy "$row")
  x=$(cx "$from")
  end=$(cx "$to")
  xdotool mousemove --sync "$x" "$y"
  xdotool mousedown 1
  while [ "$x" -lt "$end" ]; do
    x=$((x + step))
    [ "$x" -gt "$end" ] && x=$end
    xdotool mousemove --sync "$x" "$y"
  done
  xdotool mouseup 1
}

# The eraser first, then the brush, each waited for: if B did not reach the
# window, the strokes would erase and the checks below would fail.
xdotool key e
wait_for 10 "the E key did not choose the eraser" tool_is 1
xdotool key b
wait_for 10 "the B key did not choose the brush" tool_is 0

first=$(cells 5 3 8)
stroke 5 3 8
wait_for 10 "the first stroke is not in the file" diff_is "$first"
both=$(printf '%s\n%s' "$first" "$(cells 8 4 6)")
stroke 8 4 6
wait_for 10 "the second stroke is not in the file" diff_is "$both"
xdotool key ctrl+z
wait_for 10 "Ctrl+Z did not take the second stroke out of the file" diff_is "$first"
xdotool key ctrl+q
wait_for 10 "the editor did not quit on Ctrl+Q" bash -c "! kill -0 $pid 2>/dev/null"
wait "$pid" || fail "the editor exited with an error"
pid=

# The brush paints the palette's selected tile (Terrain's first tile) on the
# Ground layer; the second stroke was undone: the file after quitting.
actual=$("$e2e_diff" "$work/before.tessera" "$work/e2e.tessera")
if [ "$actual" != "$first" ]; then
  echo "the project file does not hold the expected cells"
  echo "--- expected"; echo "$first"
  echo "--- actual"; echo "$actual"
  fail "after quitting"
fi
echo "ok: the file holds exactly the first stroke (6 cells); the second was undone"
