#!/usr/bin/env bash
# Runs a command inside its own Xvfb (1280x800x24), as `xvfb-run -a` would,
# but without its race: `xvfb-run -a` picks a display by scanning lock files,
# and two of them started at once (two test runs on one machine) can pick the
# same number; the loser's tests then fail with "cannot open display". Here
# Xvfb itself claims a free display (-displayfd: it binds the socket, then
# writes the number it got), so there is nothing to race for; a server that
# still fails to start is retried a few times.
#
#   build-aux/xvfb.sh COMMAND [ARGS...]
set -uo pipefail

[ $# -ge 1 ] || { echo "usage: $0 COMMAND [ARGS...]" >&2; exit 2; }
command -v Xvfb >/dev/null || { echo "xvfb.sh: Xvfb is missing (build-aux/install-deps.sh)" >&2; exit 1; }

work=$(mktemp -d)
xvfb_pid=
cleanup() {
  if [ -n "$xvfb_pid" ] && kill -0 "$xvfb_pid" 2>/dev/null; then
    kill "$xvfb_pid"
    wait "$xvfb_pid" 2>/dev/null
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

display=
for attempt in 1 2 3 4 5; do
  rm -f "$work/display"
  mkfifo "$work/display"
  Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp -noreset 3>"$work/display" 2>>"$work/xvfb.log" &
  xvfb_pid=$!
  # The number arrives once the server listens; an empty read means it died.
  display=$(timeout 30 head -n1 "$work/display" || true)
  if [ -n "$display" ] && kill -0 "$xvfb_pid" 2>/dev/null; then break; fi
  kill "$xvfb_pid" 2>/dev/null
  wait "$xvfb_pid" 2>/dev/null
  xvfb_pid= display=
  echo "xvfb.sh: Xvfb did not start (attempt $attempt), retrying" >&2
  sleep "$attempt"
done
if [ -z "$display" ]; then
  echo "xvfb.sh: Xvfb failed to start 5 times:" >&2
  cat "$work/xvfb.log" >&2
  exit 1
fi

export DISPLAY=":$display"
"$@"
