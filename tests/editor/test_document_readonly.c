/* TessDocument on a project in a folder the user cannot write: it opens
 * read-only (not refused), an edit stays in memory and the document says it
 * is unsaved, and Save a Copy writes the project with the edit to a new
 * file and carries on there, writable. Run as nobody when the test is root
 * (permissions stop nothing for root); skipped (77) only when that is
 * impossible. No display needed: the document is GObject only. */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "tess-document.h"

static int reader(const char *path, const char *copy) {
  int bad = 0;
  g_autoptr(GError) error = NULL;
  TessDocument *doc = tess_document_open(path, &error);
  if (!doc) {
    fprintf(stderr, "open refused: %s\n", error->message);
    return 1;
  }
  if (!tess_document_get_read_only(doc)) bad |= 2;
  if (tess_document_get_unsaved(doc)) bad |= 4;
  TessProject *p = tess_document_get_project(doc);
  TessLevelSettings st = p->levels[0]->settings;
  snprintf(st.name, sizeof st.name, "Edited on read-only media");
  TessError err;
  if (tess_edit_level_set(p, p->levels[0]->id, &st, 0, 0, &err) != TESS_OK) bad |= 8;
  g_clear_error(&error);
  if (tess_document_commit(doc, &error) || !tess_document_get_unsaved(doc)) bad |= 16;
  g_clear_error(&error);
  if (!tess_document_save_copy(doc, copy, &error)) {
    fprintf(stderr, "save a copy: %s\n", error->message);
    bad |= 32;
  }
  if (tess_document_get_read_only(doc) || tess_document_get_unsaved(doc) ||
      strcmp(tess_document_get_path(doc), copy) != 0)
    bad |= 64;
  g_object_unref(doc);
  /* The copy holds the edit and opens for writing. */
  g_clear_error(&error);
  TessDocument *again = tess_document_open(copy, &error);
  if (!again || tess_document_get_read_only(again) ||
      strcmp(tess_document_get_project(again)->levels[0]->settings.name, "Edited on read-only media") != 0)
    bad |= 128;
  if (again) g_object_unref(again);
  return bad;
}

int main(void) {
  const char *build = getenv("TESS_BUILD_ROOT");
  char demo[1024], root[512], dir[1024], path[1200], outdir[1024], copy[1200];
  snprintf(demo, sizeof demo, "%s/data/demo/demo.tessera", build ? build : ".");
  snprintf(root, sizeof root, "/tmp/tessera-ro-XXXXXX");
  if (!mkdtemp(root)) return 1;
  chmod(root, 0755);
  snprintf(dir, sizeof dir, "%s/media", root);
  snprintf(outdir, sizeof outdir, "%s/out", root);
  mkdir(dir, 0755);
  mkdir(outdir, 0777);
  chmod(outdir, 0777);
  snprintf(path, sizeof path, "%s/demo.tessera", dir);
  snprintf(copy, sizeof copy, "%s/copy.tessera", outdir);
  gchar *bytes = NULL;
  gsize n = 0;
  if (!g_file_get_contents(demo, &bytes, &n, NULL) || !g_file_set_contents(path, bytes, (gssize)n, NULL)) {
    fprintf(stderr, "cannot copy %s\n", demo);
    return 1;
  }
  g_free(bytes);
  chmod(path, 0444);
  chmod(dir, 0555);
  uid_t uid = 0;
  if (geteuid() == 0) {
    struct passwd *pw = getpwnam("nobody");
    uid = pw ? pw->pw_uid : 65534;
  }
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    if (uid && (setgroups(0, NULL) != 0 || setgid(uid) != 0 || setuid(uid) != 0)) _exit(77);
    _exit(reader(path, copy));
  }
  int status = 0;
  waitpid(pid, &status, 0);
  int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  char cmd[1200];
  snprintf(cmd, sizeof cmd, "chmod -R u+w '%s' && rm -rf '%s'", root, root);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", root);
  if (code == 77) {
    printf("SKIP: running as root and cannot become user %u\n", (unsigned)uid);
    return 77;
  }
  printf("%s read-only document (child status %d)\n", code ? "FAIL" : "ok  ", code);
  return code ? 1 : 0;
}
