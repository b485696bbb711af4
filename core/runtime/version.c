/* The runtime's version string (the project's, from meson). */
#include "tessera/runtime.h"

const char *tess_runtime_version(void) { return TESS_VERSION; }
