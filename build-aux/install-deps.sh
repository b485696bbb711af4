#!/usr/bin/env bash
# Installs the Debian packages Tessera needs to build, test and benchmark.
# Skips what is already installed; runs `apt-get update` only when a package
# is missing. Must run as root (or through sudo).
set -euo pipefail

packages=(
  build-essential pkg-config meson ninja-build
  libgtk-4-dev libcairo2-dev libpng-dev zlib1g-dev libsqlite3-dev sqlite3
  gettext
  xvfb xauth xdotool imagemagick
  desktop-file-utils appstream libglib2.0-bin
  # The fuzz pass (.ci/run): clang needs libclang-rt-14-dev named explicitly.
  # llvm-14 (llvm-symbolizer) is not needed: gcc's sanitizers symbolize by
  # themselves and build-aux/ci-fuzz.sh points clang's at binutils' addr2line.
  clang libclang-rt-14-dev
  # The `format` test: the tree is formatted by clang-format 14 (.clang-format).
  clang-format-14
  libchipmunk-dev libjson-glib-dev
  # Map formats (core/formats): expat for TMX/TSX, jansson for TMJ/TSJ and the
  # text form of a project, zlib and zstd for compressed Tiled layer data.
  libexpat1-dev libjansson-dev libzstd-dev
  # Tests only: Tiled's tmxrasterizer is the reference renderer for imported
  # and exported maps, and the package ships Tiled's example maps.
  tiled
  # Tests of the French UI need the fr_FR.UTF-8 locale.
  locales
  # Benchmarks only: Box2D 2.4.1 as a second physics peer.
  libbox2d-dev
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
if ! $SUDO apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null 2>&1; then
  $SUDO apt-get update -q
  $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi
