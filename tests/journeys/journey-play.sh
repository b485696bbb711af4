#!/usr/bin/env bash
# Journey: open the demo, press F5, and see the bodies move: two screenshots
# of the Play canvas taken apart differ, and the step counter runs, without
# any other key (the README: "F5 (or Play) runs the level's physics").
# Escape returns to editing and the project file is as it was.
source "$(dirname "$0")/journey-lib.sh"

cp "$J_DEMO" "$J_WORK/play.tessera"
cp "$J_DEMO" "$J_WORK/before.tessera"
j_start "$J_WORK/play.tessera"

j_key F5
read -r kx ky kw kh < <(j_find "$J_TITLE" button "Keep Positions")
# The canvas: below the timeline row, above the status line of the preview.
read -r tx ty tw th < <(j_find "$J_TITLE" widget "Timeline")
read -r sx sy sw sh < <(j_find "$J_TITLE" label "Step ")
crop="${tw}x$((sy - ty - th - 2))+${tx}+$((ty + th + 1))"
j_shot play-first "$crop"

# Bodies fall under gravity within a few frames; poll until the canvas changed.
moved() {
  j_shot play-later "$crop"
  [ "$(j_pixels_differ play-first play-later)" -gt 200 ]
}
j_until 8 moved || j_fail "the bodies did not move after F5: the Play canvas stayed the same ($(j_find_now "$J_TITLE" label "Step " >/dev/null && awk -F '\t' '$2 == "label" && $3 ~ /^Step [0-9]/ { print $3; exit }' "$J_WORK/probe"))"
steps=$(awk -F '\t' '$2 == "label" && $3 ~ /^Step [0-9]/ { split($3, w, " "); print w[2]; exit }' "$J_WORK/probe")
[ "${steps:-0}" -gt 0 ] || j_fail "the step counter did not run: '$steps'"
echo "ok: F5 plays: $(j_pixels_differ play-first play-later) pixels of the canvas changed, step $steps"

j_key Escape
j_until 10 bash -c "! awk -F '\t' '\$2 == \"button\" && index(\$3, \"Keep Positions\") == 1 { f = 1 } END { exit !f }' '$J_WORK/probe'" ||
  j_fail "Escape did not leave Play mode"
j_shot editing-again
j_quit
out=$("$J_PIPELINE" diff "$J_WORK/before.tessera" "$J_WORK/play.tessera" || true)
[ "$out" = "no differences" ] || j_fail "Play changed the project file: $out"
echo "ok: Escape left Play, the project file is unchanged"
