#!/usr/bin/env bash
# Journey: the tile palette's zoom (issue 14). Ctrl+scroll over the tileset
# zooms it one whole step (the zoom label says so, the palette's pixels
# change), a plain scroll does not; the zoom is kept in the project file
# (meta row setting.editor.palette_zoom) and the palette shows it again
# after a restart.
source "$(dirname "$0")/journey-lib.sh"

cp "$J_DEMO" "$J_WORK/palette.tessera"
db="$J_WORK/palette.tessera"
j_start "$db"

zoom_now() { awk -F '\t' -v t="$J_TITLE" '$1 == t && $2 == "label" && $3 ~ /^[0-9]+×$/ { print $3 + 0; f = 1; exit } END { exit !f }' "$J_WORK/probe"; }
j_wait 10 "no zoom label (N×) in the palette" zoom_now >/dev/null
z0=$(zoom_now)
read -r vx vy vw vh < <(j_find "$J_TITLE" widget "Click a tile to paint with it")
view="${vw}x${vh}+${vx}+${vy}"
j_shot_settled palette-before "$view"

# A plain wheel notch scrolls (or does nothing): the zoom stays.
xdotool mousemove --sync $((vx + vw / 2)) $((vy + vh / 2)) click 5
j_still || j_fail "the widgets never held still"
[ "$(zoom_now)" = "$z0" ] || j_fail "a plain scroll changed the zoom to $(zoom_now)"
# Ctrl and a wheel notch up: one whole step in.
xdotool keydown ctrl click 4 keyup ctrl
j_wait_eq 10 "Ctrl+scroll did not zoom from ${z0}× to $((z0 + 1))×" $((z0 + 1)) zoom_now
j_shot_settled palette-after "$view"
changed=$(j_pixels_differ palette-before palette-after)
[ "$changed" -gt 1000 ] || j_fail "the palette looks the same after zooming ($changed pixels differ)"
j_shot zoomed
j_quit

kept=$(j_sql "$db" "SELECT value FROM meta WHERE key = 'setting.editor.palette_zoom'")
[ "$kept" = $((z0 + 1)) ] || j_fail "the project keeps the palette zoom '$kept', not $((z0 + 1))"
j_start "$db"
j_wait_eq 10 "after a restart the palette is not at $((z0 + 1))×" $((z0 + 1)) zoom_now
j_quit
echo "ok: Ctrl+scroll zoomed the palette from ${z0}× to $((z0 + 1))× ($changed pixels changed), kept in the project"
