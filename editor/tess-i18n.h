/* Gettext set-up shared by the editor and its tests. */
#pragma once

/* setlocale, bindtextdomain (the installed locale dir, or the build tree's
 * when running uninstalled), UTF-8 codeset, textdomain. */
void tess_i18n_init(void);
