/* Icons are finalized on the main thread only: a guard against GTK 4.8's
 * icon-cache race (see tess-icon-guard.c). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Installs the guard (once; later calls do nothing). Call it on the main
 * thread, before the first window: TessWindow's class does. */
void tess_icon_guard_install(void);

G_END_DECLS
