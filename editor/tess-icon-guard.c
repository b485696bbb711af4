/* GTK 4.8's icon theme (gtkicontheme.c) keeps every icon paintable in a
 * cache that holds no reference, plus a ring of the last 100 used, which
 * does. An icon that drops out of the ring while no widget shows it is
 * finalized by whichever thread pushed the ring last, and that is often
 * GTK's own texture loader (load_icon_thread, a GTask worker: every
 * GtkImage preloads its icon there after a style change). Between the last
 * unref taking the count to 0 and the finalizer taking the cache's lock to
 * remove the icon, a lookup of the same icon on the main thread still finds
 * it and takes a reference:
 *
 *   GLib-GObject-CRITICAL: g_object_ref: assertion '!object_already_finalized' failed
 *
 * main: g_object_ref <- icon_cache_lookup <- gtk_icon_theme_lookup_icon <-
 *       gtk_icon_theme_lookup_by_gicon <- the icon helper's style change;
 * worker: icon_cache_remove <- gtk_icon_paintable_finalize <- g_object_unref
 *       <- icon_cache_mark_used_if_cached <- load_icon_thread.
 *
 * The window headers' icons (window-close-symbolic, open-menu-symbolic)
 * lose their last reference on that worker after a window closes, just as
 * the next window looks them up; the editor tests died of it now and then.
 * The race is GTK's; the guard takes away its condition: an icon whose last
 * reference goes on another thread is re-referenced in its dispose (GObject
 * then does not finalize it) and the reference is dropped by the main loop,
 * on the main thread, the only thread that looks icons up. */
#include "tess-icon-guard.h"

#include <gtk/gtk.h>

static GThread *main_thread;
static void (*icon_dispose)(GObject *object);

static gboolean unref_on_main(gpointer icon) {
  g_object_unref(icon);
  return G_SOURCE_REMOVE;
}

static void dispose_on_main(GObject *object) {
  if (g_thread_self() != main_thread) {
    g_idle_add_full(G_PRIORITY_DEFAULT_IDLE, unref_on_main, g_object_ref(object), NULL);
    return;
  }
  icon_dispose(object);
}

void tess_icon_guard_install(void) {
  if (main_thread) return;
  main_thread = g_thread_self();
  /* The class stays referenced for the life of the process. */
  GObjectClass *klass = g_type_class_ref(GTK_TYPE_ICON_PAINTABLE);
  icon_dispose = klass->dispose;
  klass->dispose = dispose_on_main;
}
