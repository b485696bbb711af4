/* tessera-pipeline render: a PNG of a level drawn by core/render (a cairo
 * image surface: no display). From a project (--level NAME) or from a .tlv
 * (rebuilt as a one-level project by tess_project_from_pack). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "tessera/pack.h"
#include "tessera/render.h"
#include "tessera/store.h"
#include "tlv_reader.h"

const char tess_cmd_render_usage[] =
    "render PROJECT.tessera --level NAME -o PREVIEW.png [--overlay LIST | --tiles-only] [--scale S]\n"
    "       render FILE.tlv -o PREVIEW.png [--overlay LIST] [--scale S]\n"
    "  --level NAME    the level to draw (a project with one level needs none)\n"
    "  -o FILE         the PNG to write (atomically)\n"
    "  --overlay LIST  comma-separated: materials, collision, bodies, grid\n"
    "  --tiles-only    the tile layers alone on a transparent background (no objects, no\n"
    "                  overlays, no level edge): what tmxrasterizer draws of a Tiled map\n"
    "  --scale S       device pixels per level pixel, 1/16..16 (default 1; reduced to fit 16384 px)\n"
    "  --images DIR    .tlv without embedded images: read tileset and sprite PNGs from their\n"
    "                  source paths relative to DIR (default: the .tlv's directory)\n"
    "Exit status: 0 written, 1 failure, 2 usage.\n";

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcmp(s + n - k, suffix) == 0;
}

static int fail(const TessError *err) {
  char msg[1400];
  tess_error_format(err, msg, sizeof msg);
  fprintf(stderr, "%s\n", msg);
  return TESS_EXIT_FAIL;
}

int tess_cmd_render(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "--version") == 0) {
      printf("tessera-pipeline %s (packed level format %u.%u, writer %u)\n", TESS_VERSION, TLV_VERSION_MAJOR,
             TLV_VERSION_MINOR, TESS_PACK_WRITER_VERSION);
      return TESS_EXIT_OK;
    }
  const char *input = NULL, *level_name = NULL, *output = NULL, *overlay = NULL, *images = NULL;
  double scale = 1.0;
  bool scale_given = false, tiles_only = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--tiles-only") == 0) {
      tiles_only = true;
    } else if (strcmp(a, "--images") == 0) {
      if (++i >= argc) return tess_cmd_usage_error("render", "--images needs a directory");
      images = argv[i];
    } else if (strcmp(a, "--level") == 0 || strcmp(a, "-o") == 0 || strcmp(a, "--overlay") == 0 || strcmp(a, "--scale") == 0) {
      if (++i >= argc) return tess_cmd_usage_error("render", "%s needs a value", a);
      if (a[2] == 'l') level_name = argv[i];
      else if (a[1] == 'o') output = argv[i];
      else if (a[2] == 'o') overlay = argv[i];
      else {
        char *end;
        scale = strtod(argv[i], &end);
        if (*end || !(scale >= TESS_RENDER_ZOOM_MIN && scale <= TESS_RENDER_ZOOM_MAX))
          return tess_cmd_usage_error("render", "--scale needs a number from 1/16 to 16");
        scale_given = true;
      }
    } else if (a[0] == '-' && a[1]) {
      return tess_cmd_usage_error("render", "unknown option %s", a);
    } else if (!input) {
      input = a;
    } else {
      return tess_cmd_usage_error("render", "one input at a time");
    }
  }
  if (!input) return tess_cmd_usage_error("render", "no project or .tlv given");
  if (!output) return tess_cmd_usage_error("render", "no output (-o PREVIEW.png)");
  if (tess_cmd_check_output(output, &input, 1, 0) != TESS_EXIT_OK) return TESS_EXIT_FAIL;
  TessRenderOptions opt;
  tess_render_options_default(&opt);
  opt.flags = TESS_RENDER_TILES | TESS_RENDER_WALLS | TESS_RENDER_BACKGROUND | TESS_RENDER_BOUNDS;
  if (tiles_only && overlay) return tess_cmd_usage_error("render", "--tiles-only draws no overlays");
  if (tiles_only) opt.flags = TESS_RENDER_TILES;
  if (overlay) {
    char list[256];
    snprintf(list, sizeof list, "%s", overlay);
    for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
      if (strcmp(tok, "materials") == 0) opt.flags |= TESS_RENDER_MATERIALS;
      else if (strcmp(tok, "collision") == 0) opt.flags |= TESS_RENDER_COLLISION;
      else if (strcmp(tok, "bodies") == 0 || strcmp(tok, "objects") == 0) opt.flags |= TESS_RENDER_OBJECTS;
      else if (strcmp(tok, "grid") == 0) opt.flags |= TESS_RENDER_GRID;
      else return tess_cmd_usage_error("render", "unknown overlay '%s' (materials, collision, bodies, grid)", tok);
    }
  }

  TessProject *project = NULL;
  TessError err;
  tess_error_clear(&err);
  TessResult r;
  uint8_t *bytes = NULL;
  if (ends_with(input, ".tlv")) {
    size_t size = 0;
    r = tess_file_read(input, (size_t)1 << 32, &bytes, &size, &err);
    if (r != TESS_OK) return fail(&err);
    TlvLevel lv;
    TlvError terr;
    if (tlv_open(bytes, size, 0, &lv, &terr) != TLV_OK) {
      fprintf(stderr, "%s:byte %llu: %s\n", input, (unsigned long long)terr.offset, terr.message);
      tess_free(bytes);
      return TESS_EXIT_FAIL;
    }
    char dir[4096];
    if (!images) {
      snprintf(dir, sizeof dir, "%s", input);
      char *slash = strrchr(dir, '/');
      if (slash) *slash = 0;
      else snprintf(dir, sizeof dir, ".");
      images = dir;
    }
    r = tess_project_from_pack(&lv, images, &project, &err);
  } else {
    TessStore *store = NULL;
    r = tess_store_open(input, TESS_STORE_READ_ONLY, &store, &err);
    if (r == TESS_OK) r = tess_store_load(store, &project, &err);
    if (store) tess_store_close(store);
  }
  tess_free(bytes);
  if (r != TESS_OK) return fail(&err);
  const TessLevel *level = NULL;
  if (level_name) level = tess_project_level_by_name(project, level_name);
  else if (project->level_count == 1) level = project->levels[0];
  if (!level) {
    int status = level_name ? tess_cmd_usage_error("render", "%s has no level named '%s'", input, level_name)
                            : tess_cmd_usage_error("render", "%s has %u levels: name one with --level", input,
                                                   project->level_count);
    tess_project_destroy(project);
    return status;
  }
  double w = (double)level->settings.width * level->settings.tile_w, h = (double)level->settings.height * level->settings.tile_h;
  double largest = w > h ? w : h;
  if (!scale_given && largest * scale > 16384.0) scale = 16384.0 / largest;
  char name[TESS_CMD_PRINTABLE_NAME];
  tess_cmd_printable(level->settings.name, name, sizeof name);
  unlink(output);
  r = tess_render_level_to_png(project, level, scale, &opt, output, &err);
  tess_project_destroy(project);
  if (r != TESS_OK && access(output, F_OK) == 0) {
    /* An image that cannot be decoded (a tileset without its PNG) is drawn
     * as a placeholder check; the picture is still written. */
    char msg[1400];
    tess_error_format(&err, msg, sizeof msg);
    fprintf(stderr, "warning: %s (drawn as a placeholder)\n", msg);
    r = TESS_OK;
  }
  if (r != TESS_OK) return fail(&err);
  fprintf(stderr, "rendered %s -> %s\n", name, output);
  return TESS_EXIT_OK;
}
