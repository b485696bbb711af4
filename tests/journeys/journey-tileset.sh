#!/usr/bin/env bash
# Journey: Add Tileset (Ctrl+T) with a PNG whose tiles sit inside a 2 px
# margin and 1 px spacing, typed into the chooser and the tileset dialog;
# then main menu → Tileset Collision…, choose that second tileset in its
# drop-down (the one that froze the editor, issue 14 item 1) and Trace All
# Tiles. The project file (dumped by the pipeline) holds the tileset with its
# margin and spacing, tile 0 a full 16 x 16 square and tile 1 traced as the
# triangle drawn in it: each tile's area is the hull of its own pixels in
# the image, which a wrong margin or spacing would shift.
source "$(dirname "$0")/journey-lib.sh"

# The project in a folder of its own: the chooser browses the assets' folder only.
mkdir -p "$J_WORK/project" "$J_WORK/assets"
cp "$J_DEMO" "$J_WORK/project/tiles.tessera"
db="$J_WORK/project/tiles.tessera"
# 2 tiles of 16 x 16: margin 2, spacing 1 -> 2 + 16 + 1 + 16 + 2 = 37 x 20.
convert -size 37x20 xc:none +antialias -fill '#c03020' -draw 'rectangle 2,2 17,17' \
  -fill '#2040c0' -draw 'polygon 19,2 19,17 34,17' "PNG32:$J_WORK/assets/spaced.png"
# Its pixels as text (x,y: ... alpha), for the expected hull below.
convert "$J_WORK/assets/spaced.png" -alpha extract txt:- >"$J_WORK/alpha.txt"
n0=$(j_sql "$db" "SELECT count(*) FROM tilesets")
j_start "$db"

j_key ctrl+t
j_window "Add Tileset"
j_chooser_open "Add Tileset" "$J_WORK/assets/spaced.png"
j_find "Add Tileset" field "Margin" >/dev/null
set_field() { # set_field LABEL VALUE
  j_click "Add Tileset" field "$1"
  j_key ctrl+a
  xdotool type --delay 2 "$2"
  j_key Tab
}
grid_counted() { j_find_now "Add Tileset" label "2 × 1 tiles (37 × 20 px image)" >/dev/null; }
# A field that had not taken the keys yet (the dialog still mapping) is typed again.
for attempt in 1 2 3; do
  set_field "Tile width" 16
  set_field "Tile height" 16
  set_field "Margin" 2
  set_field "Spacing" 1
  j_until 3 grid_counted && break
done
grid_counted || j_fail "the dialog does not count 2 x 1 tiles of 16 px with margin 2 and spacing 1"
j_shot tileset-dialog
j_click "Add Tileset" button "Add"
j_wait_sql 10 "no tileset was added to the file (it had $n0)" "$db" "SELECT count(*) FROM tilesets" $((n0 + 1))
read -r ts name < <(j_sql "$db" "SELECT id || ' ' || name FROM tilesets ORDER BY id DESC LIMIT 1")
grid=$(j_sql "$db" "SELECT margin || ' ' || spacing || ' ' || columns || ' ' || tile_count FROM tilesets WHERE id = $ts")
[ "$grid" = "2 1 2 2" ] || j_fail "the tileset's margin, spacing, columns and count are '$grid', not '2 1 2 2'"

j_click "$J_TITLE" button "Main Menu"
j_click "$J_TITLE" label "Tileset Collision…"
j_window "Tileset Collision"
# The drop-down opens on the tileset in use (the new one). Going to the
# first tileset and back through it is what froze the editor (item 1): each
# choice must load its tileset, once.
first=$(j_sql "$db" "SELECT name FROM tilesets ORDER BY id LIMIT 1")
first_count=$(j_sql "$db" "SELECT tile_count FROM tilesets ORDER BY id LIMIT 1")
choose() { # choose FROM TO: opens the drop-down showing FROM and picks TO
  j_click "Tileset Collision" label "=$1"
  j_until 5 bash -c "[ \$(awk -F '\t' '\$1 == \"Tileset Collision\" && \$3 == \"$2\"' '$J_WORK/probe' | wc -l) -ge 1 ]" ||
    j_fail "the drop-down does not list '$2'"
  j_still
  read -r x y w h < <(awk -F '\t' -v n="$2" '$1 == "Tileset Collision" && $3 == n { r = $4 " " $5 " " $6 " " $7 } END { print r }' "$J_WORK/probe")
  xdotool mousemove --sync $((x + w / 2)) $((y + h / 2)) click 1 # the list's entry: the last one drawn
}
j_find "Tileset Collision" label "=$name" >/dev/null
choose "$name" "$first"
j_until 10 j_find_now "Tileset Collision" label "$first_count tiles:" >/dev/null ||
  j_fail "choosing '$first' in the drop-down did not load it (frozen?)"
choose "$first" "$name"
j_until 10 j_find_now "Tileset Collision" label "2 tiles:" >/dev/null ||
  j_fail "Tileset Collision did not load the 2-tile tileset (frozen?)"
j_click "Tileset Collision" label "=Trace All Tiles"
j_until 10 j_find_now "Tileset Collision" label "2 tiles: 0 none, 1 full, 1 traced" >/dev/null ||
  j_fail "Trace All Tiles left a tile without collision: $(awk -F '\t' '$3 ~ /^2 tiles/ { print $3 }' "$J_WORK/probe")"
j_shot traced
j_key Escape
j_quit

"$J_PIPELINE" dump "$db" -o "$J_WORK/dump" >/dev/null
python3 - "$J_WORK/dump/tilesets/$ts.json" "$J_WORK/alpha.txt" <<'PY' || j_fail "the traced tiles in the file are wrong"
import json, re, sys
t = json.load(open(sys.argv[1]))
assert (t["margin"], t["spacing"], t["tile_w"], t["tile_h"]) == (2, 1, 16, 16), t
def area(pts):
    return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1]))) / 2
def hull(pts):  # Andrew's monotone chain
    pts = sorted(set(pts))
    def half(ps):
        h = []
        for p in ps:
            while len(h) >= 2 and (h[-1][0] - h[-2][0]) * (p[1] - h[-2][1]) - (h[-1][1] - h[-2][1]) * (p[0] - h[-2][0]) <= 0:
                h.pop()
            h.append(p)
        return h[:-1]
    return half(pts) + half(pts[::-1])
# The expected answer from the image itself: the hull of the opaque pixels'
# squares inside each tile's window (margin 2, spacing 1).
opaque = set()
for line in open(sys.argv[2]):
    m = re.match(r"(\d+),(\d+): \((\d+)", line)
    if m and int(m.group(3)) >= t["alpha_threshold"]:
        opaque.add((int(m.group(1)), int(m.group(2))))
tiles = {x["tile"]: x for x in t["tiles"]}
for i in (0, 1):
    ox, oy = 2 + i * 17, 2
    corners = [(x - ox + dx, y - oy + dy) for (x, y) in opaque if ox <= x < ox + 16 and oy <= y < oy + 16
               for dx in (0, 1) for dy in (0, 1)]
    want = area(hull(corners))
    tile = tiles[i]
    got = 256.0 if tile["collision"] == "full" else sum(area(list(zip(p[0::2], p[1::2]))) for p in tile["pieces"])
    print("tile", i, tile["collision"], "area", got, "px2; the pixels' hull:", want)
    assert abs(got - want) < 0.5, "tile %d: traced area %g, its pixels' hull %g" % (i, got, want)
assert tiles[1]["collision"] == "traced" and want < 200, "tile 1 is not the triangle"
PY
echo "ok: tileset '$name' (margin 2, spacing 1) added and traced from Tileset Collision"
