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
# window's coordinates, the zoom, the tile size) to this file whenever it
# changes: the test aims at cells whatever the layout and the fitted zoom.
export TESS_TEST_GEOMETRY_FILE="$work/geometry"
"$tessera" "$work/e2e.tessera" >"$work/tessera.log" 2>&1 &
pid=$!

# The window is titled "project — level". Polled, with a deadline generous
# enough for a loaded machine (30 s): the editor usually shows in 2-4 s.
wid=
for _ in $(seq 300); do
  wid=$(xdotool search --onlyvisible --name '^e2e — Side$' 2>/dev/null | head -n1 || true)
  [ -n "$wid" ] && break
  sleep 0.1
done
if [ -z "$wid" ]; then echo "the editor window did not appear"; cat "$work/tessera.log"; exit 1; fi
xdotool windowfocus --sync "$wid" 2>/dev/null || true

# Wait until the geometry has settled (the level is fitted to the view once
# the window has its size): the same content for half a second.
last=
for _ in $(seq 50); do
  sleep 0.5
  cur=$(cat "$work/geometry" 2>/dev/null || true)
  [ -n "$cur" ] && [ "$cur" = "$last" ] && break
  last=$cur
done
if [ -z "$cur" ]; then echo "the editor wrote no geometry"; cat "$work/tessera.log"; exit 1; fi
eval "$cur"
eval "$(xdotool getwindowgeometry --shell "$wid")"
# One cell on screen, in pixels (may be fractional: the level is fitted).
cell=$(awk -v z="$zoom" -v t="$tile_w" 'BEGIN { print z * t }')
if awk -v c="$cell" 'BEGIN { exit !(c < 4) }'; then echo "cells are $cell px on screen: too small to aim at"; exit 1; fi

# Cell centre to screen point.
cx() { awk -v o="$origin_x" -v X="$X" -v c="$cell" -v i="$1" 'BEGIN { printf "%d", X + o + (i + 0.5) * c }'; }
cy() { awk -v o="$origin_y" -v Y="$Y" -v c="$cell" -v i="$1" 'BEGIN { printf "%d", Y + o + (i + 0.5) * c }'; }
step=$(awk -v c="$cell" 'BEGIN { s = int(c / 3); print (s < 1 ? 1 : s) }')

# A stroke along one row, from column $2 to column $3, moving in small steps
# as a hand does (every motion event reaches the brush).
stroke() {
  local row=$1 from=$2 to=$3
  local y x end
  y=$(cy "$row")
  x=$(cx "$from")
  end=$(cx "$to")
  xdotool mousemove "$x" "$y"
  sleep 0.2
  xdotool mousedown 1
  sleep 0.1
  while [ "$x" -lt "$end" ]; do
    x=$((x + step))
    [ "$x" -gt "$end" ] && x=$end
    xdotool mousemove "$x" "$y"
    sleep 0.02
  done
  sleep 0.1
  xdotool mouseup 1
  sleep 0.3
}

# The eraser first, then the brush: if B did not reach the window, the
# strokes would erase and the check below would fail.
xdotool key e
sleep 0.2
xdotool key b
sleep 0.2
stroke 5 3 8
stroke 8 4 6
xdotool key ctrl+z
sleep 0.5
xdotool key ctrl+q

for _ in $(seq 300); do
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
if kill -0 "$pid" 2>/dev/null; then echo "the editor did not quit on Ctrl+Q"; exit 1; fi
wait "$pid" || { echo "the editor exited with an error"; cat "$work/tessera.log"; exit 1; }
pid=

# The brush paints the palette's selected tile (Terrain's first tile) on the
# Ground layer; the second stroke was undone.
actual=$("$e2e_diff" "$work/before.tessera" "$work/e2e.tessera")
expected=$(for x in 3 4 5 6 7 8; do echo "Side Ground $x 5 - Terrain#0"; done)
if [ "$actual" != "$expected" ]; then
  echo "the project file does not hold the expected cells"
  echo "--- expected"; echo "$expected"
  echo "--- actual"; echo "$actual"
  echo "--- editor log"; cat "$work/tessera.log"
  exit 1
fi
echo "ok: the file holds exactly the first stroke (6 cells); the second was undone"
