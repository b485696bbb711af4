/* The fatal "g_object_ref: assertion '!object_already_finalized' failed"
 * that now and then killed an editor test (editor-window after
 * window_open_error_dialog, editor-i18n, editor-import): GTK 4.8's icon
 * cache race (editor/tess-icon-guard.c). An icon whose last reference is
 * dropped on a worker thread (GTK's texture loader, here a thread of the
 * test's) is at count 0 while it is still in the theme's cache; a lookup on
 * the main thread then takes a reference to it. The test forces that
 * ordering: it holds the worker inside the icon's finalizer (a wrapper of
 * the class's finalize) until the main thread has looked the icon up. With
 * the editor's guard the worker never gets there: the icon stays alive for
 * the lookup, and it is finalized later, on the main thread. */
#include <gtk/gtk.h>

#include "editor_fixture.h"

#define RING 100 /* gtkicontheme.c's LRU_CACHE_SIZE */
#define SIZE 23  /* an icon size no widget asks for: the test's icons are its own */

static struct {
  GMutex lock;
  GCond cond;
  GtkIconPaintable *watched;
  GThread *main;
  gboolean unref_returned; /* the worker's g_object_unref came back */
  gboolean at_zero;        /* the worker is in the watched icon's finalizer */
  gboolean looked_up;      /* the main thread has looked the icon up */
  GThread *finalized_on;
} race;

static void (*icon_finalize)(GObject *object);

static void finalize_watch(GObject *object) {
  if ((gpointer)object == race.watched) {
    g_mutex_lock(&race.lock);
    race.finalized_on = g_thread_self();
    if (g_thread_self() != race.main) {
      /* The count is 0; GTK's finalizer has not taken the icon out of its cache yet. */
      race.at_zero = TRUE;
      g_cond_broadcast(&race.cond);
      gint64 end = g_get_monotonic_time() + 2 * G_TIME_SPAN_SECOND;
      while (!race.looked_up && g_cond_wait_until(&race.cond, &race.lock, end)) {
      }
    }
    g_mutex_unlock(&race.lock);
  }
  icon_finalize(object);
}

static gpointer drop_last_reference(gpointer icon) {
  g_object_unref(icon);
  g_mutex_lock(&race.lock);
  race.unref_returned = TRUE;
  g_cond_broadcast(&race.cond);
  g_mutex_unlock(&race.lock);
  return NULL;
}

static GtkIconPaintable *lookup(GtkIconTheme *theme, const char *name) {
  return gtk_icon_theme_lookup_icon(theme, name, NULL, SIZE, 1, GTK_TEXT_DIR_NONE, 0);
}

/* Pushes the ring round more than once with two other icons, so the ring
 * holds no reference to the watched icon any more. */
static void cycle_ring(GtkIconTheme *theme) {
  for (int i = 0; i < 2 * RING + 2; i++) g_object_unref(lookup(theme, i % 2 ? "go-up-symbolic" : "go-down-symbolic"));
}

static void icons_finalized_on_the_main_thread(void) {
  TessWindow *w = fixture_window(NULL); /* the editor's window class installs the guard */
  GtkIconTheme *theme = gtk_icon_theme_get_for_display(gtk_widget_get_display(GTK_WIDGET(w)));
  GObjectClass *klass = g_type_class_ref(GTK_TYPE_ICON_PAINTABLE);
  icon_finalize = klass->finalize;
  klass->finalize = finalize_watch;
  race.main = g_thread_self();

  race.watched = lookup(theme, "window-close-symbolic");
  cycle_ring(theme); /* the test's reference is the icon's only one */
  GThread *worker = g_thread_new("last-unref", drop_last_reference, race.watched);
  g_mutex_lock(&race.lock);
  gint64 end = g_get_monotonic_time() + 5 * G_TIME_SPAN_SECOND;
  while (!race.at_zero && !race.unref_returned && g_cond_wait_until(&race.cond, &race.lock, end)) {
  }
  gboolean at_zero = race.at_zero;
  g_mutex_unlock(&race.lock);
  CHECK_MSG(!at_zero, "the icon's last reference went on a worker thread: it is at count 0 and still in GTK's cache");

  /* Without the guard this lookup is the fatal critical. */
  GtkIconPaintable *again = lookup(theme, "window-close-symbolic");
  g_mutex_lock(&race.lock);
  race.looked_up = TRUE;
  g_cond_broadcast(&race.cond);
  g_mutex_unlock(&race.lock);
  g_thread_join(worker);
  CHECK(again == race.watched); /* still the live icon: the worker's unref was passed to the main loop */
  CHECK(race.finalized_on == NULL);
  g_object_unref(again);

  /* Out of the ring and with the main loop's reference dropped, it goes, on the main thread. */
  fixture_spin();
  cycle_ring(theme);
  fixture_spin();
  CHECK_MSG(race.finalized_on == race.main, "the icon was finalized on %s",
            race.finalized_on ? "another thread" : "no thread: it is still alive");

  klass->finalize = icon_finalize;
  g_type_class_unref(klass);
  race.watched = NULL;
  fixture_close(w);
}

static const TessTestCase cases[] = {
    {"icons_finalized_on_the_main_thread", icons_finalized_on_the_main_thread},
};

int main(int argc, char **argv) { return fixture_main(argc, argv, cases, G_N_ELEMENTS(cases)); }
