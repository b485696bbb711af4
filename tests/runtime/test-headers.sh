#!/bin/sh
# Every header libtessera-runtime installs compiles on its own as C99 and as
# C++ with -Wall -Wextra -pedantic -Werror (a game may be either).
# Usage: test-headers.sh SOURCE_ROOT
set -eu
src=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
# libtessera-draw's header (beside the runtime) needs cairo's.
headers="tessera/aim.h tessera/base.h tessera/geom.h tessera/physics.h tessera/play.h tessera/scene.h tessera/runtime.h tlv_reader.h"
cairo=""
if pkg-config --exists cairo; then
  headers="$headers tessera/draw.h"
  cairo=$(pkg-config --cflags cairo)
fi
count=0
for h in $headers; do
  count=$((count + 1))
  printf '#include "%s"\nint main(void) { return 0; }\n' "$h" >"$tmp/t.c"
  cp "$tmp/t.c" "$tmp/t.cpp"
  for cc in "cc -std=c99 $tmp/t.c" "c++ -std=c++11 $tmp/t.cpp"; do
    if ! $cc -Wall -Wextra -pedantic -Werror -I"$src/core/include" -I"$src/core/pack" $cairo -c -o "$tmp/t.o" 2>"$tmp/err"; then
      echo "$h: does not compile with: $cc"
      cat "$tmp/err"
      status=1
    fi
  done
done
[ $status -eq 0 ] && echo "$count headers compile as C99 and C++11 with -Wall -Wextra -pedantic -Werror"
exit $status
