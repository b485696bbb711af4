/* TessApplication: startup, actions, accelerators, settings and recents. */
#include "tess-application.h"

#include <glib/gi18n.h>

#include "tess-test-probe.h"
#include "tess-window.h"

#define RECENT_MAX 10

struct _TessApplication {
  GtkApplication parent_instance;

  /* owned */
  GSettings *settings;
  GStrv recent; /* mirror of the settings key, or the only copy without settings */
};

G_DEFINE_FINAL_TYPE(TessApplication, tess_application, GTK_TYPE_APPLICATION)

enum { SIGNAL_RECENT_CHANGED,
       N_SIGNALS };
static guint signals[N_SIGNALS];

/* ---- Settings ---------------------------------------------------------- */

/* The installed schema first; from a build tree, the schema compiled there. */
static GSettings *load_settings(void) {
  GSettingsSchemaSource *source = g_settings_schema_source_get_default();
  g_autoptr(GSettingsSchema) schema =
      source ? g_settings_schema_source_lookup(source, TESS_APPLICATION_ID, TRUE) : NULL;
#ifdef TESS_BUILD_SCHEMADIR
  if (schema == NULL && g_file_test(TESS_BUILD_SCHEMADIR "/gschemas.compiled", G_FILE_TEST_EXISTS)) {
    g_autoptr(GSettingsSchemaSource) build_source =
        g_settings_schema_source_new_from_directory(TESS_BUILD_SCHEMADIR, source, FALSE, NULL);
    if (build_source) schema = g_settings_schema_source_lookup(build_source, TESS_APPLICATION_ID, TRUE);
  }
#endif
  if (schema == NULL) return NULL;
  return g_settings_new_full(schema, NULL, NULL);
}

GSettings *tess_application_get_settings(TessApplication *app) {
  g_return_val_if_fail(TESS_IS_APPLICATION(app), NULL);
  return app->settings;
}

const char *const *tess_application_get_recent(TessApplication *app) {
  g_return_val_if_fail(TESS_IS_APPLICATION(app), NULL);
  return (const char *const *)app->recent;
}

static void set_recent(TessApplication *app, GPtrArray *list) {
  g_ptr_array_add(list, NULL);
  g_strfreev(app->recent);
  app->recent = (GStrv)g_ptr_array_free(list, FALSE);
  if (app->settings) g_settings_set_strv(app->settings, "recent-projects", (const char *const *)app->recent);
  g_signal_emit(app, signals[SIGNAL_RECENT_CHANGED], 0);
}

void tess_application_add_recent(TessApplication *app, const char *path) {
  g_return_if_fail(TESS_IS_APPLICATION(app));
  g_autofree char *abs = g_canonicalize_filename(path, NULL);
  GPtrArray *list = g_ptr_array_new();
  g_ptr_array_add(list, g_strdup(abs));
  for (guint i = 0; app->recent && app->recent[i] && list->len < RECENT_MAX; i++)
    if (g_strcmp0(app->recent[i], abs) != 0) g_ptr_array_add(list, g_strdup(app->recent[i]));
  set_recent(app, list);
}

void tess_application_remove_recent(TessApplication *app, const char *path) {
  g_return_if_fail(TESS_IS_APPLICATION(app));
  GPtrArray *list = g_ptr_array_new();
  for (guint i = 0; app->recent && app->recent[i]; i++)
    if (g_strcmp0(app->recent[i], path) != 0) g_ptr_array_add(list, g_strdup(app->recent[i]));
  set_recent(app, list);
}

/* ---- Opening ----------------------------------------------------------- */

static TessWindow *find_empty_window(TessApplication *app) {
  for (GList *l = gtk_application_get_windows(GTK_APPLICATION(app)); l; l = l->next)
    if (TESS_IS_WINDOW(l->data) && tess_window_get_document(l->data) == NULL) return l->data;
  return NULL;
}

GtkWindow *tess_application_open_path(TessApplication *app, const char *path) {
  g_return_val_if_fail(TESS_IS_APPLICATION(app), NULL);
  TessWindow *window = find_empty_window(app);
  if (window == NULL) window = tess_window_new(app);
  gtk_window_present(GTK_WINDOW(window));
  tess_window_open_path(window, path);
  return GTK_WINDOW(window);
}

static void tess_application_activate(GApplication *application) {
  TessApplication *self = TESS_APPLICATION(application);
  GtkWindow *window = gtk_application_get_active_window(GTK_APPLICATION(self));
  if (window == NULL) window = GTK_WINDOW(tess_window_new(self));
  gtk_window_present(window);
}

static void tess_application_open(GApplication *application, GFile **files, int n_files, const char *hint) {
  TessApplication *self = TESS_APPLICATION(application);
  for (int i = 0; i < n_files; i++) {
    g_autofree char *path = g_file_get_path(files[i]);
    if (path) tess_application_open_path(self, path);
  }
}

/* ---- Actions ----------------------------------------------------------- */

static TessWindow *target_window(TessApplication *self) {
  GtkWindow *active = gtk_application_get_active_window(GTK_APPLICATION(self));
  if (TESS_IS_WINDOW(active)) return TESS_WINDOW(active);
  TessWindow *window = tess_window_new(self);
  gtk_window_present(GTK_WINDOW(window));
  return window;
}

static void action_open(GSimpleAction *action, GVariant *param, gpointer user) {
  tess_window_choose_open(target_window(user));
}

static void action_new(GSimpleAction *action, GVariant *param, gpointer user) {
  tess_window_choose_new(target_window(user));
}

static void action_open_recent(GSimpleAction *action, GVariant *param, gpointer user) {
  tess_application_open_path(user, g_variant_get_string(param, NULL));
}

static void action_quit(GSimpleAction *action, GVariant *param, gpointer user) {
  GtkApplication *app = user;
  /* Closing each window saves its size and closes its project cleanly
   * (every edit is already in the file). */
  GList *windows = g_list_copy(gtk_application_get_windows(app));
  for (GList *l = windows; l; l = l->next) gtk_window_close(l->data);
  g_list_free(windows);
}

static void action_about(GSimpleAction *action, GVariant *param, gpointer user) {
  GtkWindow *parent = gtk_application_get_active_window(GTK_APPLICATION(user));
  static const char *authors[] = {"The Tessera authors", NULL};
  gtk_show_about_dialog(parent, "program-name", _("Tessera"), "logo-icon-name", TESS_APPLICATION_ID,
                        "version", TESS_VERSION, "comments",
                        _("Paint tile maps, materials and physics objects for 2D games"), "license-type",
                        GTK_LICENSE_GPL_3_0, "authors", authors, "translator-credits", _("translator-credits"),
                        NULL);
}

static const GActionEntry app_actions[] = {
    {"open", action_open, NULL, NULL, NULL, {0}},
    {"new", action_new, NULL, NULL, NULL, {0}},
    {"open-recent", action_open_recent, "s", NULL, NULL, {0}},
    {"quit", action_quit, NULL, NULL, NULL, {0}},
    {"about", action_about, NULL, NULL, NULL, {0}},
};

/* Accelerators with a modifier. The single-key tool keys live on the
 * window's own shortcut controller (bubble phase) so that typing a "b" in a
 * text field never switches tools. */
static const struct {
  const char *action;
  const char *accels[3];
} app_accels[] = {
    {"app.open", {"<Control>o", NULL}},
    {"app.new", {"<Control>n", NULL}},
    {"app.quit", {"<Control>q", NULL}},
    {"win.undo", {"<Control>z", NULL}},
    {"win.redo", {"<Control><Shift>z", "<Control>y", NULL}},
    {"win.save-copy", {"<Control><Shift>s", NULL}},
    {"win.export", {"<Control>e", NULL}},
    {"win.level-properties", {"<Control>comma", NULL}},
    {"win.add-tileset", {"<Control>t", NULL}},
    {"win.close", {"<Control>w", NULL}},
    {"win.copy", {"<Control>c", NULL}},
    {"win.cut", {"<Control>x", NULL}},
    {"win.paste", {"<Control>v", NULL}},
    {"win.zoom-in", {"<Control>plus", "<Control>equal", NULL}},
    {"win.zoom-out", {"<Control>minus", NULL}},
    {"win.zoom-fit", {"<Control>0", NULL}},
    {"win.zoom-reset", {"<Control>1", NULL}},
    {"win.show-help-overlay", {"<Control>question", NULL}},
};

static void tess_application_startup(GApplication *application) {
  TessApplication *self = TESS_APPLICATION(application);
  G_APPLICATION_CLASS(tess_application_parent_class)->startup(application);

  g_action_map_add_action_entries(G_ACTION_MAP(self), app_actions, G_N_ELEMENTS(app_actions), self);
  for (guint i = 0; i < G_N_ELEMENTS(app_accels); i++)
    gtk_application_set_accels_for_action(GTK_APPLICATION(self), app_accels[i].action, app_accels[i].accels);

  gtk_window_set_default_icon_name(TESS_APPLICATION_ID);
  tess_test_probe_install(); /* only with TESS_TEST_PROBE_FILE (tests/journeys) */
  GdkDisplay *display = gdk_display_get_default();
  if (display) {
    g_autoptr(GtkCssProvider) css = gtk_css_provider_new();
    gtk_css_provider_load_from_resource(css, "/org/tessera/Editor/style.css");
    gtk_style_context_add_provider_for_display(display, GTK_STYLE_PROVIDER(css),
                                               GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  }
}

/* ---- Life cycle -------------------------------------------------------- */

static void tess_application_dispose(GObject *object) {
  TessApplication *self = TESS_APPLICATION(object);
  g_clear_object(&self->settings);
  g_clear_pointer(&self->recent, g_strfreev);
  G_OBJECT_CLASS(tess_application_parent_class)->dispose(object);
}

static void tess_application_class_init(TessApplicationClass *klass) {
  GObjectClass *object_class = G_OBJECT_CLASS(klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS(klass);
  object_class->dispose = tess_application_dispose;
  app_class->startup = tess_application_startup;
  app_class->activate = tess_application_activate;
  app_class->open = tess_application_open;

  signals[SIGNAL_RECENT_CHANGED] = g_signal_new("recent-changed", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0,
                                                NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void tess_application_init(TessApplication *self) {
  self->settings = load_settings();
  if (self->settings) self->recent = g_settings_get_strv(self->settings, "recent-projects");
  else self->recent = g_new0(char *, 1);
}

TessApplication *tess_application_new(void) {
  /* Non-unique: each `tessera FILE` is its own process, which also keeps
   * the editor working where there is no session bus (tests, containers). */
  return g_object_new(TESS_TYPE_APPLICATION, "application-id", TESS_APPLICATION_ID, "flags",
                      G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE, "resource-base-path",
                      "/org/tessera/Editor", NULL);
}
