#!/bin/sh
# The example game built the way a game's own build does it: against a
# staged `meson install --destdir` only (its own Makefile, pkg-config with
# PKG_CONFIG_PATH and PKG_CONFIG_SYSROOT_DIR), linked with nothing of core
# but libtessera-runtime, and its world hash after 600 steps equal to the
# editor preview's for each demo level, and for a level with RK4 bodies and
# spring zones (made by SPRING_PROJECT, since the demo uses neither).
# Usage: test-game.sh BUILD_ROOT SOURCE_ROOT PREVIEW_HASH DEMO_PROJECT SPRING_PROJECT [EXTRA_CFLAGS]
# EXTRA_CFLAGS carries the build's sanitizer flags: a library built with
# AddressSanitizer needs its runtime linked into the program that loads it.
set -eu
build=$1 src=$2 preview=$3 demo=$4 springs=$5 extra=${6:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
meson install -C "$build" --destdir "$tmp/stage" --no-rebuild --quiet >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; exit 1; }
pc=$(find "$tmp/stage" -name tessera-runtime.pc)
[ -n "$pc" ] || { echo "no tessera-runtime.pc installed"; exit 1; }
libdir=$(dirname "$(dirname "$pc")")
cp -r "$src/pipeline/examples/game" "$tmp/game"
make -s -C "$tmp/game" PKG_CONFIG_PATH="$(dirname "$pc")" PKG_CONFIG_SYSROOT_DIR="$tmp/stage" CFLAGS="-O2 -Wall -Wextra -Werror $extra"
needed=$(readelf -d "$tmp/game/game" | grep NEEDED)
echo "$needed"
echo "$needed" | grep -q 'libtessera-runtime.so.0' || { echo "the game does not link libtessera-runtime.so.0"; exit 1; }
if echo "$needed" | grep -Eq 'sqlite|png|cairo|gtk|glib'; then echo "the game pulls in more than the runtime"; exit 1; fi
cp "$demo" "$tmp/demo.tessera"
"$build/pipeline/tessera-pipeline" export "$tmp/demo.tessera" -o "$tmp/tlv" --jobs 1 >/dev/null
"$springs" "$tmp/springs.tessera"
"$build/pipeline/tessera-pipeline" export "$tmp/springs.tessera" -o "$tmp/tlv" --jobs 1 >/dev/null
status=0
for level in Side Top-down Springs; do
  project="$tmp/demo.tessera"
  [ "$level" = Springs ] && project="$tmp/springs.tessera"
  out=$(LD_LIBRARY_PATH="$libdir" "$tmp/game/game" "$tmp/tlv/$level.tlv" 600)
  echo "$out"
  game=$(echo "$out" | sed -n 's/.*world hash \([0-9a-f]*\).*/\1/p')
  want=$("$preview" "$project" "$level" 600 | sed -n 's/world hash \([0-9a-f]*\)/\1/p')
  if [ -z "$game" ] || [ "$game" != "$want" ]; then
    echo "$level: the game's hash '$game' differs from the preview's '$want'"
    status=1
  else
    echo "$level: game and preview agree after 600 steps ($game)"
  fi
done
# The cairo example: three PNG frames of the Side level, at 16 px per metre,
# drawn by the installed libtessera-draw (pkg-config tessera-draw).
if pkg-config --exists cairo; then
  cp -r "$src/pipeline/examples/cairo" "$tmp/cairo"
  make -s -C "$tmp/cairo" PKG_CONFIG_PATH="$(dirname "$pc")" PKG_CONFIG_SYSROOT_DIR="$tmp/stage" CFLAGS="-O2 -Wall -Wextra -Werror $extra"
  needed=$(readelf -d "$tmp/cairo/frames" | grep NEEDED)
  echo "$needed" | grep -q 'libtessera-draw.so.0' || { echo "frames does not link libtessera-draw.so.0"; exit 1; }
  if echo "$needed" | grep -Eq 'sqlite|png16|gtk|glib'; then echo "frames pulls in more than the runtime, the painter and cairo"; exit 1; fi
  mkdir -p "$tmp/frames"
  LD_LIBRARY_PATH="$libdir" "$tmp/cairo/frames" "$tmp/tlv/Side.tlv" "$tmp/frames" 3
  for f in 0000 0001 0002; do
    head -c 24 "$tmp/frames/frame-$f.png" | od -An -tx1 | tr -d ' \n' | grep -q '^89504e470d0a1a0a0000000d49484452000004000000024' ||
      { echo "frame-$f.png is not a 1024 x 576 PNG"; status=1; }
  done
fi
exit $status
