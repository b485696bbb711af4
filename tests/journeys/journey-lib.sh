# The end-to-end journeys' shared steps (sourced by each journey-*.sh):
# start the real `tessera` on a temporary copy of a project, find widgets by
# what they say (the editor's TESS_TEST_PROBE_FILE) and cells by the map's
# geometry (TESS_TEST_GEOMETRY_FILE), drive them with xdotool, take
# screenshots, quit. Every wait polls a condition with a deadline; no step
# sleeps a fixed time to let something happen.
#
# Each journey is run as: journey-NAME.sh TESSERA PIPELINE DEMO.tessera
set -euo pipefail

J_TESSERA=$1
J_PIPELINE=$2
J_DEMO=$3
J_NAME=$(basename "$0" .sh)

if [ -z "${DISPLAY:-}" ]; then echo "no X display: skipped"; exit 77; fi
for tool in xdotool import compare sqlite3; do
  command -v "$tool" >/dev/null || { echo "$tool is missing (build-aux/install-deps.sh): skipped"; exit 77; }
done

J_WORK=$(mktemp -d)
# Screenshots stay beside the test log, to be looked at after a run.
J_SHOTS=${TESS_BUILD_ROOT:-$J_WORK}/meson-logs/journeys
mkdir -p "$J_SHOTS"
J_PID=
j_cleanup() {
  if [ -n "$J_PID" ] && kill -0 "$J_PID" 2>/dev/null; then kill "$J_PID"; fi
  rm -rf "$J_WORK"
}
trap j_cleanup EXIT

export GTK_A11Y=none GSETTINGS_BACKEND=memory GSK_RENDERER=cairo NO_AT_BRIDGE=1 LANGUAGE=C
export TESS_TEST_GEOMETRY_FILE="$J_WORK/geometry" TESS_TEST_PROBE_FILE="$J_WORK/probe"

# Says why on stderr (j_find runs inside command substitutions, whose stdout is taken).
j_fail() {
  {
    echo "FAIL ($J_NAME): $*"
    j_shot failure || true
    echo "--- editor log"; cat "$J_WORK/tessera.log" 2>/dev/null || true
    echo "--- widgets seen"; cut -f1-4 "$J_WORK/probe" 2>/dev/null | head -80 || true
  } >&2
  exit 1
}

# Deadlines are generous: on a loaded machine (load 20 on 2 cores) the editor
# runs ten times slower than idle, and a deadline is only reached when
# something is wrong. J_WAIT_SCALE (default 4) multiplies every deadline the
# journeys give (they are written as the seconds an idle machine needs, 
# with room to spare).
J_WAIT_SCALE=${J_WAIT_SCALE:-4}

# j_until SECONDS CMD...: runs CMD every 50 ms until it succeeds; returns 1
# after SECONDS (scaled). CMD is run afresh each time: a condition on the
# file or the probe goes in CMD (a function, or bash -c), never in a "$(...)"
# of the caller, which the shell expands once, before the first try.
j_until() {
  local limit=$(($1 * J_WAIT_SCALE))
  shift
  local end=$((SECONDS + limit))
  until "$@"; do
    [ "$SECONDS" -ge "$end" ] && return 1
    sleep 0.05
  done
}

# j_wait SECONDS WHAT CMD...: j_until, and on timeout fails saying what it
# waited for, for how long, and the command it polled.
j_wait() {
  local limit=$1 what=$2
  shift 2
  j_until "$limit" "$@" || j_fail "$what (waited $((limit * J_WAIT_SCALE)) s for: $*)"
}

# j_wait_eq SECONDS WHAT WANT CMD...: polls CMD until it prints WANT; on
# timeout fails with what it printed last.
J_LAST=
j_prints() {
  local want=$1
  shift
  J_LAST=$("$@" 2>&1) || true
  [ "$J_LAST" = "$want" ]
}
j_wait_eq() {
  local limit=$1 what=$2 want=$3
  shift 3
  j_until "$limit" j_prints "$want" "$@" ||
    j_fail "$what (waited $((limit * J_WAIT_SCALE)) s for '$*' to give '$want'; it last gave '$J_LAST')"
}
# j_wait_sql SECONDS WHAT DB SQL WANT: polls a query on the project file
# until it gives WANT (the editor commits each edit, but not at once).
j_wait_sql() { j_wait_eq "$1" "$2" "$5" j_sql "$3" "$4"; }

# j_start PROJECT: the editor on PROJECT; waits for its window (titled "NAME — LEVEL")
# and for the map's geometry to be written.
j_start() {
  local project=$1 name
  name=$(basename "$project" .tessera)
  rm -f "$J_WORK/geometry" "$J_WORK/probe"
  "$J_TESSERA" "$project" >>"$J_WORK/tessera.log" 2>&1 &
  J_PID=$!
  J_WID=$(timeout $((20 * J_WAIT_SCALE)) xdotool search --sync --onlyvisible --name "^$name — " | head -n1) ||
    j_fail "the editor window '$name — …' did not appear within $((20 * J_WAIT_SCALE)) s"
  J_TITLE=$(xdotool getwindowname "$J_WID")
  j_wait 10 "the editor wrote no map geometry" test -s "$J_WORK/geometry"
  j_wait 10 "the editor wrote no widget probe" test -s "$J_WORK/probe"
  j_map_settled
}

# The level is fitted to the view once the window has its size: wait until
# the geometry file holds still for a few frames, then read it.
j_map_settled() {
  local last= cur= same=0 end=$((SECONDS + 10 * J_WAIT_SCALE))
  while :; do
    cur=$(cat "$J_WORK/geometry" 2>/dev/null || true)
    if [ -n "$cur" ] && [ "$cur" = "$last" ]; then same=$((same + 1)); else same=0; fi
    [ "$same" -ge 6 ] && break
    [ "$SECONDS" -ge "$end" ] && j_fail "the map's geometry did not hold still for 300 ms within $((10 * J_WAIT_SCALE)) s (last: $(tr '\n' ' ' <<<"$cur"))"
    last=$cur
    sleep 0.05
  done
  eval "$cur"
  J_CELL=$(awk -v z="$zoom" -v t="$tile_w" 'BEGIN { print z * t }')
  eval "$(xdotool getwindowgeometry --shell "$J_WID")"
  J_WX=$X J_WY=$Y
}

# j_cell COL ROW: "x y" of the centre of a cell, on the screen.
j_cell() {
  awk -v ox="$origin_x" -v oy="$origin_y" -v X="$J_WX" -v Y="$J_WY" -v c="$J_CELL" -v i="$1" -v j="$2" \
    'BEGIN { printf "%d %d\n", X + ox + (i + 0.5) * c, Y + oy + (j + 0.5) * c }'
}
# j_px X Y: a level point in pixels, on the screen.
j_px() {
  awk -v ox="$origin_x" -v oy="$origin_y" -v X="$J_WX" -v Y="$J_WY" -v z="$zoom" -v px="$1" -v py="$2" \
    'BEGIN { printf "%d %d\n", X + ox + px * z, Y + oy + py * z }'
}

# j_find WINDOW-TITLE KIND TEXT-PREFIX: "x y w h" (screen) of the first
# visible widget of that kind whose text starts with TEXT-PREFIX ("=TEXT":
# whose text is TEXT).
j_find_now() {
  awk -F '\t' -v t="$1" -v k="$2" -v p="$3" \
    'BEGIN { exact = substr(p, 1, 1) == "="; if (exact) p = substr(p, 2) }
     $1 == t && $2 == k && (exact ? $3 == p : index($3, p) == 1) { print $4, $5, $6, $7; found = 1; exit }
     END { exit !found }' \
    "$J_WORK/probe" 2>/dev/null
}
# The widgets hold still: their places in the probe (rewritten on every
# change, looked at every 100 ms) have not changed for 300 ms, so a place read now is where
# the widget will be when the click lands.
j_still() {
  local last= cur same=0 end=$((SECONDS + 5 * J_WAIT_SCALE))
  while [ "$SECONDS" -lt "$end" ]; do
    # Places only (Play's counters change every frame), of all but text fields (their content is not a place).
    cur=$(awk -F '\t' '$2 != "text" { print $1, $2, $4, $5 }' "$J_WORK/probe" 2>/dev/null | md5sum)
    if [ "$cur" = "$last" ]; then same=$((same + 1)); else same=0; fi
    [ "$same" -ge 6 ] && return 0
    last=$cur
    sleep 0.05
  done
  return 1
}
j_find() {
  local r
  j_wait 10 "no $2 '$3' in window '$1'" j_find_now "$@" >/dev/null
  j_still || j_fail "the widgets never held still for 300 ms (waited $((5 * J_WAIT_SCALE)) s, looking for $2 '$3' in '$1')"
  j_find_now "$@" >/dev/null || j_fail "$2 '$3' in window '$1' went away"
  r=$(j_find_now "$@")
  # The probe's places are in the named window's own coordinates.
  local wid X=0 Y=0
  wid=$(xdotool search --onlyvisible --name "^$(j_regex "$1")\$" 2>/dev/null | head -n1 || true)
  [ -n "$wid" ] && eval "$(xdotool getwindowgeometry --shell "$wid" | grep -E '^[XY]=')"
  set -- $r
  echo "$((X + $1)) $((Y + $2)) $3 $4"
}
# j_click WINDOW-TITLE KIND TEXT-PREFIX: clicks the middle of that widget.
j_click() {
  local r
  r=$(j_find "$@")
  set -- $r
  xdotool mousemove --sync $(($1 + $3 / 2)) $(($2 + $4 / 2)) click 1
}

# j_window TITLE: waits (with a deadline) until a window of that exact title is shown.
j_window() {
  timeout $((15 * J_WAIT_SCALE)) xdotool search --sync --onlyvisible --name "^$(j_regex "$1")\$" >/dev/null ||
    j_fail "no window '$1' appeared (waited $((15 * J_WAIT_SCALE)) s)"
}

# A window title as a literal in xdotool's regular expressions.
j_regex() { sed 's/[][\\.*^$+?(){}|]/\\&/g' <<<"$1"; }

j_key() { xdotool key --clearmodifiers "$@"; }

# j_shot NAME [WxH+X+Y]: a screenshot (of a region) into the work folder, kept under meson-logs/journeys.
j_shot() {
  local out="$J_WORK/$1.png"
  if [ -n "${2:-}" ]; then import -window root -crop "$2" +repage "$out"; else import -window root "$out"; fi
  cp "$out" "$J_SHOTS/$J_NAME-$1.png"
}
# j_pixels_differ A B: how many pixels differ between two screenshots of one size.
# (compare exits 1 when they differ; under pipefail that must not end the journey
# before it can say by how much.)
j_pixels_differ() { { compare -metric AE "$J_WORK/$1.png" "$J_WORK/$2.png" null: 2>&1 || true; } | cut -d' ' -f1; }
# j_shot_settled NAME [GEOMETRY]: a screenshot of a still screen: shots are
# taken until two in a row are equal, so a hover highlight the pointer just
# left, or a frame still being drawn, is not what is compared.
j_shot_settled() {
  local tries=0
  j_shot "$1" "${2:-}"
  while :; do
    cp "$J_WORK/$1.png" "$J_WORK/$1-previous.png"
    j_shot "$1" "${2:-}"
    [ "$(j_pixels_differ "$1-previous" "$1")" = 0 ] && return 0
    tries=$((tries + 1))
    [ "$tries" -ge 50 ] && j_fail "the screen did not hold still for the screenshot '$1'"
  done
}

# j_quit: Ctrl+Q, then the process must end by itself with status 0.
j_quit() {
  j_key ctrl+q
  j_wait 10 "the editor did not quit on Ctrl+Q" bash -c "! kill -0 $J_PID 2>/dev/null"
  wait "$J_PID" || j_fail "the editor exited with an error"
  J_PID=
}

# j_sql PROJECT SQL: one query on the project file (the editor has checkpointed on quit).
j_sql() { sqlite3 -batch -noheader -cmd ".timeout 3000" "$1" "$2"; }

# j_chooser_open TITLE PATH [BUTTON]: in GTK's file chooser titled TITLE,
# types the file's path in the location field (as a person pastes one)
# until the field shows it (keys sent while the chooser still sets itself up
# can go nowhere, or be cleared by its first folder load: the path is typed
# again), then accepts it with Return (or a click on BUTTON) until the
# chooser is gone (its completion may take the first Return).
j_chooser_shown() { j_find_now "$1" label "=Other Locations" >/dev/null; }
j_chooser_open() {
  local title=$1 path=$2 button=${3:-} tries=0
  j_window "$title"
  j_wait 10 "no file chooser '$title' (its 'Other Locations' label)" j_chooser_shown "$title"
  while :; do
    j_key ctrl+l
    j_key ctrl+a
    xdotool type --delay 2 "$path"
    j_until 2 j_find_now "$title" text "$path" >/dev/null && break
    tries=$((tries + 1))
    [ "$tries" -ge 5 ] && j_fail "the location field of the chooser '$title' did not show $path after it was typed $tries times (it shows: '$(awk -F '\t' -v t="$title" '$1 == t && $2 == "text" { print $3 }' "$J_WORK/probe" | tr '\n' ' ')')"
  done
  tries=0
  while j_chooser_shown "$title"; do
    tries=$((tries + 1))
    [ "$tries" -gt 10 ] && j_fail "the chooser '$title' did not take $path (it was accepted $((tries - 1)) times)"
    if [ -n "$button" ]; then j_click "$title" button "$button"; else j_key Return; fi
    j_until 2 bash -c "! awk -F '\t' '\$1 == \"$title\" && \$3 == \"Other Locations\" { f = 1 } END { exit !f }' '$J_WORK/probe'" || true
  done
}
