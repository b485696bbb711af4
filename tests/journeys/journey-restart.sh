#!/usr/bin/env bash
# Journey: edits of several kinds with the mouse and keys (a brush stroke, a
# flipped stamp, a material stroke, a placed object), Ctrl+Q, start again:
# the project file holds every edit (the pipeline's diff names them) and the
# map after the restart is pixel for pixel the map before it.
source "$(dirname "$0")/journey-lib.sh"

cp "$J_DEMO" "$J_WORK/restart.tessera"
cp "$J_DEMO" "$J_WORK/before.tessera"
j_start "$J_WORK/restart.tessera"
awk -v c="$J_CELL" 'BEGIN { exit !(c >= 4) }' || j_fail "cells are $J_CELL px on screen: too small to aim at"
step=$(awk -v c="$J_CELL" 'BEGIN { s = int(c / 3); print (s < 1 ? 1 : s) }')

# A drag along one row, from column $2 to column $3, in small moves as a hand makes.
stroke() {
  local row=$1 from=$2 to=$3 x y end
  read -r x y < <(j_cell "$from" "$row")
  read -r end _ < <(j_cell "$to" "$row")
  xdotool mousemove --sync "$x" "$y" mousedown 1
  while [ "$x" -lt "$end" ]; do
    x=$((x + step))
    [ "$x" -gt "$end" ] && x=$end
    xdotool mousemove --sync "$x" "$y"
  done
  xdotool mouseup 1
}
# Whether the project file already holds an edit (the pipeline's words for it):
# every edit is committed at once, so the journey polls the file.
changed() {
  local words
  words=$("$J_PIPELINE" diff "$J_WORK/before.tessera" "$J_WORK/restart.tessera" || true) # 1 on differences, as diff(1)
  grep -q "$1" <<<"$words"
}

j_key b
stroke 5 3 8
j_until 10 changed "layer 'Ground'" || j_fail "the brush stroke did not reach the file: $("$J_PIPELINE" diff "$J_WORK/before.tessera" "$J_WORK/restart.tessera" 2>&1)"
j_key x
read -r x y < <(j_cell 10 5)
xdotool mousemove --sync "$x" "$y" click 1
j_key m
stroke 7 3 5
j_until 10 changed "layer 'Materials'" || j_fail "the material stroke did not reach the file"
j_key o
read -r x y < <(j_cell 20 3)
xdotool mousemove --sync "$x" "$y" click 1
j_until 10 changed "added" || j_fail "the placed object did not reach the file"
j_key Escape
j_key b

levelw=$(j_sql "$J_WORK/restart.tessera" "SELECT width FROM levels WHERE name = 'Side'")
levelh=$(j_sql "$J_WORK/restart.tessera" "SELECT height FROM levels WHERE name = 'Side'")
read -r x0 y0 < <(j_px 0 0)
crop=$(awk -v w="$levelw" -v h="$levelh" -v c="$J_CELL" -v x="$x0" -v y="$y0" \
  'BEGIN { printf "%dx%d+%d+%d\n", w * c, h * c, x, y }')
# Hover out of the map, so no tool preview is drawn under the pointer.
read -r hx hy _ < <(j_find "$J_TITLE" button "Main Menu")
xdotool mousemove --sync "$hx" "$hy"
j_until 5 changed "added"
j_shot_settled before-quit "$crop"
j_quit

diff_words=$("$J_PIPELINE" diff "$J_WORK/before.tessera" "$J_WORK/restart.tessera" || true) # exits 1 on differences, as diff(1)
echo "$diff_words"
grep -q "layer 'Ground': 7 cells changed" <<<"$diff_words" || j_fail "the file lacks the 6-cell stroke and the flipped cell"
grep -q "layer 'Materials': 3 cells changed" <<<"$diff_words" || j_fail "the file lacks the 3-cell material stroke"
grep -q "added" <<<"$diff_words" || j_fail "the file lacks the placed object"

j_start "$J_WORK/restart.tessera"
xdotool mousemove --sync "$hx" "$hy"
j_shot_settled after-restart "$crop"
d=$(j_pixels_differ before-quit after-restart)
[ "$d" = 0 ] || j_fail "the map after the restart differs from the map before it in $d pixels"
j_quit
echo "ok: every edit is in the file and on the screen after a restart"
