#!/usr/bin/env bash
# `make run`: opens the editor on a writable copy of the bundled demo project.
#
#   bash build-aux/run-demo.sh BUILD_DIR
#
# The demo is built into BUILD_DIR/data/demo/demo.tessera. The editor saves
# every edit into the file it opens, so it gets a copy in the user's data
# directory ($XDG_DATA_HOME/tessera, else ~/.local/share/tessera). The copy
# is refreshed when the bundled demo is newer (a rebuilt demo), and kept
# otherwise (the user's edits survive between runs).
set -euo pipefail

build="${1:-build}"
bundled="$build/data/demo/demo.tessera"
editor="$build/editor/tessera"

if [ ! -f "$bundled" ]; then
  echo "run-demo: $bundled does not exist; build first (make build, or meson compile -C $build)." >&2
  exit 1
fi

data_home="${XDG_DATA_HOME:-${HOME:?HOME is not set}/.local/share}"
dest_dir="$data_home/tessera"
dest="$dest_dir/demo.tessera"
mkdir -p "$dest_dir"

if [ ! -f "$dest" ] || [ "$bundled" -nt "$dest" ]; then
  # Copy under a temporary name, then rename: never a half-copied project.
  # SQLite's side files of an old copy belong to the old file: remove them.
  tmp="$dest.part.$$"
  cp "$bundled" "$tmp"
  if [ -f "$dest" ]; then
    # The previous copy may hold the user's edits: keep it beside the new one.
    # (The editor checkpoints on close, so the main file alone is complete.)
    mv -f "$dest" "$dest.old"
    echo "run-demo: the bundled demo is newer; your previous copy is now $dest.old"
  fi
  rm -f "$dest-wal" "$dest-shm" "$dest-journal"
  mv -f "$tmp" "$dest"
  # The copy gets the bundled file's time, so "newer" compares builds, not copies.
  touch -r "$bundled" "$dest"
  echo "run-demo: copied the demo project to $dest"
else
  echo "run-demo: using your copy of the demo project at $dest"
fi

if [ ! -x "$editor" ]; then
  echo "run-demo: the editor ($editor) is not built in this tree yet." >&2
  echo "run-demo: the demo project is ready at $dest; open it with the editor once it exists." >&2
  exit 1
fi

exec "$editor" "$dest"
