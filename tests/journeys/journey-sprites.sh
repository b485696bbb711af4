#!/usr/bin/env bash
# Journey: the Sprites tab's Import PNGs… takes two PNGs, one after the
# other, typed into the chooser; the second, chosen in the list, goes on the
# map with Place on the Map and a click. The project file holds both
# sprites with their traced masks (a disc of radius 12: area near pi 12^2; a
# 20 x 36 plank: exactly 720) and one new body of the plank where it was
# clicked.
source "$(dirname "$0")/journey-lib.sh"

# The project in a folder of its own: the chooser browses the assets' folder only.
mkdir -p "$J_WORK/project"
cp "$J_DEMO" "$J_WORK/project/sprites.tessera"
db="$J_WORK/project/sprites.tessera"
mkdir -p "$J_WORK/art"
convert -size 32x32 xc:none +antialias -fill '#d08020' -draw 'circle 15.5,15.5 15.5,3.5' "PNG32:$J_WORK/art/disc.png"
convert -size 24x40 xc:none +antialias -fill '#2080d0' -draw 'rectangle 2,2 21,37' "PNG32:$J_WORK/art/plank.png"
s0=$(j_sql "$db" "SELECT count(*) FROM sprites")
o0=$(j_sql "$db" "SELECT count(*) FROM objects")
j_start "$db"

j_click "$J_TITLE" label "=Sprites"
for png in disc plank; do
  j_click "$J_TITLE" button "Import one or more PNG files"
  j_chooser_open "Import Sprites" "$J_WORK/art/$png.png"
  j_wait_sql 20 "the sprite '$png' was not imported" "$db" "SELECT count(*) FROM sprites WHERE name = '$png'" 1
done
j_wait_sql 20 "the two sprites were not imported (the file had $s0)" "$db" "SELECT count(*) FROM sprites" $((s0 + 2))
disc=$(j_sql "$db" "SELECT id FROM sprites WHERE name = 'disc'")
plank=$(j_sql "$db" "SELECT id FROM sprites WHERE name = 'plank'")

# The sprite just imported is the one chosen in the list: place it.
j_click "$J_TITLE" button "The object tool places this sprite as a body"
# Where cell (30, 4) is now: the panels may have moved the map since the start.
j_map_settled
read -r x y < <(j_cell 30 4)
xdotool mousemove --sync "$x" "$y" click 1
j_wait_sql 10 "no body was placed (the file had $o0 objects)" "$db" "SELECT count(*) FROM objects" $((o0 + 1))
read -r sprite ox oy < <(j_sql "$db" "SELECT body_sprite || ' ' || x || ' ' || y FROM objects ORDER BY id DESC LIMIT 1")
[ "$sprite" = "$plank" ] || j_fail "the placed body uses sprite '$sprite', not the plank ($plank) chosen in the list"
# Where it was clicked: cell (30, 4) of 32 px tiles, within the half-cell snap.
awk -v x="$ox" -v y="$oy" 'BEGIN { exit !(x >= 30 * 32 && x <= 31 * 32 && y >= 4 * 32 && y <= 5 * 32) }' ||
  j_fail "the body is at ($ox, $oy), not in cell (30, 4)"
j_key Escape
j_shot placed
j_quit

"$J_PIPELINE" dump "$db" -o "$J_WORK/dump" >/dev/null
python3 - "$J_WORK/dump/sprites/$disc.json" "$J_WORK/dump/sprites/$plank.json" <<'PY' || j_fail "the sprites' masks in the file are wrong"
import json, math, sys
def area(path):
    m = json.load(open(path))["mask"]
    return m["area"]
disc, plank = area(sys.argv[1]), area(sys.argv[2])
print("mask areas: disc", disc, "px2 (pi 12^2 =", round(math.pi * 144, 1), "), plank", plank, "px2 (20 x 36 = 720)")
assert abs(disc - math.pi * 144) < 0.1 * math.pi * 144, disc
assert plank == 720.0, plank
PY
echo "ok: two sprites imported with their masks, the plank placed as a body at ($ox, $oy)"
