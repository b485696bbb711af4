/* tessera: the editor's entry point. Everything else is in the tess-editor library. */
#include <glib/gi18n.h>
#include <locale.h>

#include "tess-application.h"
#include "tess-i18n.h"

int main(int argc, char **argv) {
  tess_i18n_init();
  g_set_application_name(_("Tessera"));
  g_autoptr(TessApplication) app = tess_application_new();
  return g_application_run(G_APPLICATION(app), argc, argv);
}
