/* For the end-to-end journeys (tests/journeys): with TESS_TEST_PROBE_FILE
 * set, the editor writes where every visible labelled widget is (buttons by
 * label or tooltip, labels, the fields labels name, notebook tabs, menu
 * items in open popovers), so xdotool aims at "the Keep Positions button" as
 * a person reads the screen, whatever the layout. Off (nothing installed)
 * without the variable. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void tess_test_probe_install(void);

G_END_DECLS
