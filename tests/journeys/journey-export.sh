#!/usr/bin/env bash
# Journey: Ctrl+E opens Export Levels; the destination is chosen in the
# folder chooser by typing its path; Export writes every level. The files
# are byte for byte those of `tessera-pipeline export` of the same project,
# and the dialog says how many it wrote.
source "$(dirname "$0")/journey-lib.sh"

cp "$J_DEMO" "$J_WORK/export.tessera"
mkdir -p "$J_WORK/out" "$J_WORK/cli"
j_start "$J_WORK/export.tessera"

j_key ctrl+e
j_window "Export Levels"
j_click "Export Levels" label "Choose a folder"
j_chooser_open "Export To" "$J_WORK/out/" Select
j_until 10 j_find_now "Export Levels" label "$J_WORK/out" >/dev/null ||
  j_fail "the dialog does not show the chosen folder"
j_find_now "Export Levels" label "Choose the folder the levels go to." >/dev/null &&
  j_fail "the dialog still asks for a folder after one was chosen"
j_click "Export Levels" button "Export"

levels=$(j_sql "$J_WORK/export.tessera" "SELECT count(*) FROM levels")
j_until 20 j_find_now "Export Levels" label "$levels exported, 0 up to date." >/dev/null ||
  j_fail "the dialog did not report $levels levels exported"
j_shot dialog-done
tlvs=$(find "$J_WORK/out" -name '*.tlv' | wc -l)
[ "$tlvs" -eq "$levels" ] || j_fail "$tlvs .tlv files for $levels levels"

"$J_PIPELINE" export "$J_WORK/export.tessera" -o "$J_WORK/cli" >/dev/null
diff -r "$J_WORK/cli" "$J_WORK/out" >/dev/null || j_fail "the dialog's files differ from the pipeline's: $(diff -rq "$J_WORK/cli" "$J_WORK/out")"
j_click "Export Levels" button "Close"
j_until 10 bash -c "! xdotool search --onlyvisible --name '^Export Levels\$' >/dev/null" || j_fail "Close left the dialog open"
j_quit
echo "ok: the dialog exported $levels levels, the same bytes as tessera-pipeline export"
