#!/usr/bin/env bash
# Not a test: screenshots of the sprite tools in the real editor, to compare
# before and after a change to them (`compare -metric AE A.png B.png null:`):
# the demo project, the Sprites tab chosen, its second sprite chosen
# (panel.png), then that sprite's collision mask editor open (mask.png).
#   build-aux/xvfb.sh tests/sprites/sprites-tab-shots.sh TESSERA PIPELINE DEMO.tessera OUTDIR
OUT=$(realpath "$4")
source "$(dirname "$0")/../journeys/journey-lib.sh"
cp "$J_DEMO" "$J_WORK/shots.tessera"
db="$J_WORK/shots.tessera"
name=$(j_sql "$db" "SELECT name FROM sprites ORDER BY id LIMIT 1 OFFSET 1")
j_start "$db"
j_click "$J_TITLE" label "=Sprites"
j_click "$J_TITLE" label "=$name"
xdotool mousemove --sync 1279 0
sleep 2 # the list's overlay scrollbar shows for a second after the click
j_shot_settled panel
cp "$J_WORK/panel.png" "$OUT/panel.png"
j_click "$J_TITLE" button "Edit Collision"
j_window "Collision Mask — $name"
xdotool mousemove --sync 1279 0
sleep 2
j_shot_settled mask
cp "$J_WORK/mask.png" "$OUT/mask.png"
j_key Escape
j_quit
echo "shots of '$name' in $OUT"
