#include "tess-i18n.h"

#include <glib.h>
#include <glib/gi18n.h>
#include <locale.h>

void tess_i18n_init(void) {
  setlocale(LC_ALL, "");
  const char *dir = LOCALEDIR;
  /* Uninstalled (make run, tests): the catalogues compiled in the build tree. */
  g_autofree char *installed = g_build_filename(LOCALEDIR, "fr", "LC_MESSAGES", GETTEXT_PACKAGE ".mo", NULL);
  g_autofree char *built = g_build_filename(TESS_BUILD_LOCALEDIR, "fr", "LC_MESSAGES", GETTEXT_PACKAGE ".mo", NULL);
  if (!g_file_test(installed, G_FILE_TEST_EXISTS) && g_file_test(built, G_FILE_TEST_EXISTS))
    dir = TESS_BUILD_LOCALEDIR;
  const char *override = g_getenv("TESSERA_LOCALEDIR");
  if (override && *override) dir = override;
  bindtextdomain(GETTEXT_PACKAGE, dir);
  bind_textdomain_codeset(GETTEXT_PACKAGE, "UTF-8");
  textdomain(GETTEXT_PACKAGE);
}
