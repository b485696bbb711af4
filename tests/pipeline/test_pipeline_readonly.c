/* export, render, validate and info of a project (and a .tlv) in a folder
 * the user cannot write, run as that user: they read it whole; a project
 * whose -wal cannot be replayed there is refused with a message naming it.
 *
 * As root, permissions stop nothing: the commands then run as nobody. The
 * test is skipped (77) only when it runs as root and cannot become another
 * user. */
#include <errno.h>
#include <pwd.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "pipeline_run.h"
#include "tessera/image.h"
#include "tessera/pack.h"
#include "tessera/store.h"
#include "tlv_reader.h"

static char out[65536], err[65536];
static PipelineRun as_reader = {-1, 0, NULL};

static int run_as_reader(const char *const *args) { return pipeline_run_with(&as_reader, args, out, sizeof out, err, sizeof err); }

static void copy(const char *from, const char *to) {
  size_t n = 0;
  char *data = slurp(from, &n);
  FILE *f = fopen(to, "wb");
  CHECK_MSG(data && f && fwrite(data, 1, n, f) == n, "copy %s -> %s", from, to);
  if (f) fclose(f);
  free(data);
  chmod(to, 0444);
}

int main(void) {
  if (!pipeline_exe()) {
    fprintf(stderr, "TESS_PIPELINE is not set\n");
    return 1;
  }
  if (geteuid() == 0) {
    struct passwd *pw = getpwnam("nobody");
    as_reader.uid = pw ? pw->pw_uid : 65534;
  }
  /* A folder everyone may traverse (the tests' own tmpdir is private). */
  char root[512], ro[1024], wal_ro[1024], outdir[1024], project[1200], wal_project[1200], src[1024];
  snprintf(root, sizeof root, "/tmp/tessera-ro-XXXXXX");
  if (!mkdtemp(root)) {
    fprintf(stderr, "mkdtemp: %s\n", strerror(errno));
    return 1;
  }
  chmod(root, 0755);
  /* The reader runs a copy of the pipeline from there: the build tree may sit
   * in a folder only root can enter (a clone in a mktemp -d folder). The
   * binary links no library of the build tree. */
  char exe_copy[600];
  snprintf(exe_copy, sizeof exe_copy, "%s/tessera-pipeline", root);
  copy(pipeline_exe(), exe_copy);
  chmod(exe_copy, 0755);
  setenv("TESS_PIPELINE", exe_copy, 1);
  const char *version[] = {"--version", NULL};
  if (run_as_reader(version) == 126) {
    printf("SKIP: running as root and cannot become user %u: no way to test without write permission\n",
           (unsigned)as_reader.uid);
    return 77;
  }
  snprintf(src, sizeof src, "%s/src.tessera", root);
  snprintf(ro, sizeof ro, "%s/media", root);
  snprintf(wal_ro, sizeof wal_ro, "%s/media-wal", root);
  snprintf(outdir, sizeof outdir, "%s/out", root);
  TessProject *p = fixture(31, 2, 12);
  CHECK(p && save_project(p, src));
  mkdir(ro, 0755);
  mkdir(outdir, 0777);
  chmod(outdir, 0777);
  snprintf(project, sizeof project, "%s/p.tessera", ro);
  copy(src, project);

  /* A .tlv exported beforehand, also on the read-only medium. */
  char tlv_src[1200], tlv[1200], png[1200];
  const char *pre[] = {"export", src, "-o", root, NULL};
  CHECK(pipeline_run(pre, NULL, 0) == 0);
  snprintf(tlv_src, sizeof tlv_src, "%s/Level_1.tlv", root);
  snprintf(tlv, sizeof tlv, "%s/Level_1.tlv", ro);
  copy(tlv_src, tlv);
  chmod(ro, 0555);

  const char *exp[] = {"export", project, "-o", outdir, "--json", NULL};
  CHECK_MSG(run_as_reader(exp) == 0 && strstr(out, "\"exported\": 2"), "export: %s %s", out, err);
  char written[1300];
  snprintf(written, sizeof written, "%s/Level_2.tlv", outdir);
  size_t n = 0;
  char *data = slurp(written, &n);
  TlvLevel lv;
  TlvError terr;
  CHECK(data && tlv_open(data, n, 0, &lv, &terr) == TLV_OK &&
        lv.header.content_hash == tess_pack_content_hash(p, p->levels[1], NULL));
  free(data);
  snprintf(png, sizeof png, "%s/level.png", outdir);
  const char *render[] = {"render", project, "--level", "Level 1", "-o", png, NULL};
  CHECK_MSG(run_as_reader(render) == 0, "render: %s", err);
  TessImage img;
  TessError e;
  CHECK_OK(tess_png_load(png, &img, &e), &e);
  CHECK(img.width == 12 * 16 && img.height == 9 * 16);
  tess_image_clear(&img);
  const char *validate[] = {"validate", project, NULL};
  int v = run_as_reader(validate);
  CHECK_MSG((v == 0 || v == 1) && strstr(out, project) && !strstr(err, "p.tessera"), "validate %d: %s %s", v, out, err);
  const char *info[] = {"info", tlv, NULL};
  CHECK_MSG(run_as_reader(info) == 0 && strstr(out, "valid: yes"), "info: %s", err);
  const char *render_tlv[] = {"render", tlv, "-o", png, NULL};
  CHECK_MSG(run_as_reader(render_tlv) == 0, "render .tlv: %s", err);

  /* Commits still in the log (a writer has it open), the file and its log
   * copied without the -shm: refused, naming the log, by every command. */
  TessStore *w = NULL;
  CHECK_OK(tess_store_open(src, TESS_STORE_READ_WRITE, &w, &e), &e);
  CHECK_OK(tess_edit_paint_material(p, p->levels[0]->id, 0, 0, 3, 3, p->materials[0].id, 0, &e), &e);
  CHECK_OK(tess_store_flush(w, p, &e), &e);
  mkdir(wal_ro, 0755);
  snprintf(wal_project, sizeof wal_project, "%s/p.tessera", wal_ro);
  copy(src, wal_project);
  char from[1100], to[1300];
  snprintf(from, sizeof from, "%s-wal", src);
  snprintf(to, sizeof to, "%s-wal", wal_project);
  copy(from, to);
  chmod(wal_ro, 0555);
  tess_store_close(w);
  const char *validate_wal[] = {"validate", wal_project, NULL};
  const char *export_wal[] = {"export", wal_project, "-o", outdir, NULL};
  const char *render_wal[] = {"render", wal_project, "--level", "Level 1", "-o", png, NULL};
  const char *const *refused[] = {validate_wal, export_wal, render_wal};
  for (int i = 0; i < 3; i++)
    CHECK_MSG(run_as_reader(refused[i]) == 1 && strstr(err, "p.tessera-wal") && strstr(err, wal_project), "%s: %s",
              refused[i][0], err);
  tess_project_destroy(p);

  char cmd[1200];
  snprintf(cmd, sizeof cmd, "chmod -R u+w '%s' && rm -rf '%s'", root, root);
  if (tess_test_failures == 0 && system(cmd) != 0) fprintf(stderr, "could not remove %s\n", root);
  printf("%s\n", tess_test_failures ? "FAIL" : "ok   export, render, validate, info on a read-only folder");
  return tess_test_failures ? 1 : 0;
}
