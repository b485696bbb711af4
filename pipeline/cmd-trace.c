/* tessera-pipeline trace: a sprite's alpha -> hull, simplified hull or
 * convex pieces, pixel mass properties, and SI mass for a placed body.
 * The JSON form is documented in pipeline/README-trace.md; keep the two in
 * step (fields are only ever added). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "tessera/image.h"
#include "tessera/mask.h"

#define CMD "trace"

typedef struct TraceOptions {
  const char *path;
  TessMaskSettings mask;
  bool pieces;
  bool json;
  bool have_ppm, have_density;
  double ppm, density;
} TraceOptions;

static bool parse_double(const char *s, double *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s || *end || errno || !isfinite(v)) return false;
  *out = v;
  return true;
}

static bool parse_uint(const char *s, unsigned long max, unsigned long *out) {
  char *end;
  errno = 0;
  if (*s < '0' || *s > '9') return false;
  unsigned long v = strtoul(s, &end, 10);
  if (end == s || *end || errno || v > max) return false;
  *out = v;
  return true;
}

/* Returns -1 when parsed, else the exit code of a usage error. */
static int parse(int argc, char **argv, TraceOptions *o) {
  memset(o, 0, sizeof *o);
  tess_mask_settings_default(&o->mask);
  o->mask.mode = TESS_MASK_HULL;
  bool no_more_options = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (no_more_options || a[0] != '-' || a[1] == '\0') {
      if (o->path) return tess_cmd_usage_error(CMD, "one sprite at a time (got '%s' and '%s')", o->path, a);
      o->path = a;
      continue;
    }
    if (strcmp(a, "--") == 0) {
      no_more_options = true;
      continue;
    }
    if (strcmp(a, "--json") == 0) {
      o->json = true;
      continue;
    }
    if (strcmp(a, "--largest-island") == 0) {
      o->mask.largest_island_only = true;
      continue;
    }
    /* Options with a value: "--name value" or "--name=value". */
    const char *names[] = {"--threshold", "--max-vertices", "--mode", "--tolerance", "--ppm", "--density"};
    int which = -1;
    const char *value = NULL;
    for (int k = 0; k < 6; k++) {
      size_t n = strlen(names[k]);
      if (strncmp(a, names[k], n) == 0 && (a[n] == '\0' || a[n] == '=')) {
        which = k;
        if (a[n] == '=') value = a + n + 1;
        else if (i + 1 < argc) value = argv[++i];
        break;
      }
    }
    if (which < 0) return tess_cmd_usage_error(CMD, "unknown option '%s'", a);
    if (!value) return tess_cmd_usage_error(CMD, "%s needs a value", names[which]);
    unsigned long u;
    double d;
    switch (which) {
      case 0:
        if (!parse_uint(value, 255, &u)) return tess_cmd_usage_error(CMD, "--threshold wants 0..255, not '%s'", value);
        o->mask.threshold = (uint8_t)u;
        break;
      case 1:
        if (!parse_uint(value, TESS_MASK_MAX_VERTICES, &u) || u < 3)
          return tess_cmd_usage_error(CMD, "--max-vertices wants 3..%u, not '%s'", TESS_MASK_MAX_VERTICES, value);
        o->mask.max_vertices = (uint32_t)u;
        break;
      case 2:
        if (strcmp(value, "hull") == 0) o->pieces = false;
        else if (strcmp(value, "pieces") == 0) o->pieces = true;
        else return tess_cmd_usage_error(CMD, "--mode wants hull or pieces, not '%s'", value);
        break;
      case 3:
        if (!parse_double(value, &d) || d < 0)
          return tess_cmd_usage_error(CMD, "--tolerance wants a number of pixels >= 0, not '%s'", value);
        o->mask.tolerance = d;
        break;
      case 4:
        if (!parse_double(value, &d) || !(d > 0))
          return tess_cmd_usage_error(CMD, "--ppm wants pixels per metre > 0, not '%s'", value);
        o->ppm = d;
        o->have_ppm = true;
        break;
      case 5:
        if (!parse_double(value, &d) || !(d > 0))
          return tess_cmd_usage_error(CMD, "--density wants kg/m^2 > 0, not '%s'", value);
        o->density = d;
        o->have_density = true;
        break;
    }
  }
  if (!o->path) return tess_cmd_usage_error(CMD, "which sprite? (a PNG file)");
  if (o->have_ppm != o->have_density) return tess_cmd_usage_error(CMD, "--ppm and --density go together");
  if (o->pieces) o->mask.mode = TESS_MASK_PIECES;
  return -1;
}

/* ---- Output ----------------------------------------------------------------- */

/* %.15g: every integer and pixel coordinate exactly, no float noise. */
#define NUM "%.15g"

static void json_points(FILE *f, const TessDVec2 *v, uint32_t n) {
  fputc('[', f);
  for (uint32_t i = 0; i < n; i++) fprintf(f, "%s[" NUM ", " NUM "]", i ? ", " : "", v[i].x, v[i].y);
  fputc(']', f);
}

static void json_mass(FILE *f, const TessMassProps *m) {
  fprintf(f, "\"area\": " NUM ", \"centroid\": [" NUM ", " NUM "], \"inertia\": " NUM, m->area, m->cx, m->cy, m->inertia);
}

static void text_mass(FILE *f, const char *label, const TessMassProps *m) {
  fprintf(f, "%-11s area " NUM " px^2, centroid (" NUM ", " NUM "), inertia " NUM " px^4\n", label, m->area, m->cx,
          m->cy, m->inertia);
}

static void text_points(FILE *f, const TessDVec2 *v, uint32_t n) {
  fputs("           ", f);
  for (uint32_t i = 0; i < n; i++) fprintf(f, " (" NUM ", " NUM ")", v[i].x, v[i].y);
  fputc('\n', f);
}

typedef struct TraceResult {
  TessImage image;
  TessMaskHull hull;
  TessMassProps hull_mass;
  TessDVec2 *simple;
  uint32_t simple_count;
  double added_area;
  TessMassProps simple_mass;
  TessMaskPieces pieces;
  bool have_pieces;
  TessMaskSecondMoments moments; /* of the pixels, with the principal axes */
} TraceResult;

static void print_json(FILE *f, const TraceOptions *o, const TraceResult *r) {
  const TessMassProps *shape = r->have_pieces ? &r->pieces.shape : &r->simple_mass;
  fprintf(f, "{\n  \"format\": \"tessera-trace\",\n  \"version\": 1,\n  \"version_minor\": 2,\n  \"file\": ");
  tess_cmd_json_string(f, o->path); /* a path is bytes: valid UTF-8 JSON whatever it holds */
  fprintf(f, ",\n  \"width\": %u,\n  \"height\": %u,\n", r->image.width, r->image.height);
  fprintf(f, "  \"threshold\": %u,\n  \"mode\": \"%s\",\n  \"max_vertices\": %u,\n  \"tolerance\": " NUM ",\n",
          o->mask.threshold, r->have_pieces ? "pieces" : "hull", o->mask.max_vertices, o->mask.tolerance);
  fprintf(f, "  \"pixels\": {");
  json_mass(f, &r->hull.pixels);
  fprintf(f, ", \"bounds\": [%u, %u, %u, %u]", r->hull.x0, r->hull.y0, r->hull.x1, r->hull.y1);
  const TessMaskSecondMoments *m = &r->moments;
  fprintf(f, ", \"second_moments\": {\"xx\": " NUM ", \"yy\": " NUM ", \"xy\": " NUM "}", m->ixx, m->iyy, m->ixy);
  fprintf(f, ", \"principal_axes\": {\"angle\": " NUM ", \"angle_degrees\": " NUM ", \"major\": " NUM ", \"minor\": " NUM "}},\n",
          m->angle, m->angle * (180.0 / M_PI), m->major, m->minor);
  fprintf(f, "  \"hull\": {\"count\": %u, \"vertices\": ", r->hull.count);
  json_points(f, r->hull.v, r->hull.count);
  fprintf(f, ", ");
  json_mass(f, &r->hull_mass);
  fprintf(f, "},\n  \"simplified\": {\"count\": %u, \"vertices\": ", r->simple_count);
  json_points(f, r->simple, r->simple_count);
  fprintf(f, ", ");
  json_mass(f, &r->simple_mass);
  fprintf(f, ", \"added_area\": " NUM "},\n", r->added_area);
  if (r->have_pieces) {
    const TessMaskPieces *p = &r->pieces;
    fprintf(f, "  \"pieces\": {\"count\": %u, \"islands\": %u, \"polygons\": [", p->count, p->island_count);
    for (uint32_t i = 0; i < p->count; i++) {
      fprintf(f, "%s", i ? ", " : "");
      json_points(f, p->v + p->start[i], p->start[i + 1] - p->start[i]);
    }
    fprintf(f, "], ");
    json_mass(f, &p->shape);
    fprintf(f, ", \"uncovered_area\": " NUM ", \"added_area\": " NUM, p->uncovered_area, p->added_area);
    fprintf(f, ", \"runs\": %llu, \"run_budget\": %u, \"simplified\": %s, \"block\": %u},\n",
            (unsigned long long)p->runs, o->mask.run_budget, p->block > 1 ? "true" : "false", p->block);
  } else {
    fprintf(f, "  \"pieces\": null,\n");
  }
  fprintf(f, "  \"shape\": {\"kind\": \"%s\", ", r->have_pieces ? "pieces" : "simplified");
  json_mass(f, shape);
  fprintf(f, "},\n");
  if (o->have_ppm) {
    fprintf(f,
            "  \"si\": {\"ppm\": " NUM ", \"density\": " NUM ", \"mass\": " NUM ", \"inertia\": " NUM
            ", \"shape_mass\": " NUM ", \"shape_inertia\": " NUM "}\n",
            o->ppm, o->density, tess_mask_mass_kg(r->hull.pixels.area, o->ppm, o->density),
            tess_mask_inertia_kgm2(r->hull.pixels.inertia, o->ppm, o->density),
            tess_mask_mass_kg(shape->area, o->ppm, o->density),
            tess_mask_inertia_kgm2(shape->inertia, o->ppm, o->density));
  } else {
    fprintf(f, "  \"si\": null\n");
  }
  fprintf(f, "}\n");
}

static void print_text(FILE *f, const TraceOptions *o, const TraceResult *r) {
  fprintf(f, "%s: %u x %u px, threshold %u\n", o->path, r->image.width, r->image.height, o->mask.threshold);
  text_mass(f, "pixels", &r->hull.pixels);
  fprintf(f, "axes        major at " NUM " deg (y down), second moments along it " NUM ", across " NUM " px^4 (xx " NUM ", yy " NUM ", xy " NUM ")\n",
          r->moments.angle * (180.0 / M_PI), r->moments.major, r->moments.minor, r->moments.ixx, r->moments.iyy,
          r->moments.ixy);
  fprintf(f, "hull        %u vertices\n", r->hull.count);
  text_mass(f, "", &r->hull_mass);
  text_points(f, r->hull.v, r->hull.count);
  fprintf(f, "simplified  %u vertices (max %u), added area " NUM " px^2\n", r->simple_count, o->mask.max_vertices,
          r->added_area);
  text_mass(f, "", &r->simple_mass);
  text_points(f, r->simple, r->simple_count);
  const TessMassProps *shape = &r->simple_mass;
  if (r->have_pieces) {
    const TessMaskPieces *p = &r->pieces;
    fprintf(f, "pieces      %u convex piece%s of <= %u vertices, %u island%s, tolerance " NUM " px, uncovered " NUM " px^2, added " NUM " px^2\n",
            p->count, p->count == 1 ? "" : "s", o->mask.max_vertices, p->island_count, p->island_count == 1 ? "" : "s", o->mask.tolerance,
            p->uncovered_area, p->added_area);
    if (p->block > 1)
      fprintf(f, "simplified  %llu runs of opaque pixels exceed the budget of %u: traced on %u x %u pixel blocks\n",
              (unsigned long long)p->runs, o->mask.run_budget, p->block, p->block);
    text_mass(f, "", &p->shape);
    for (uint32_t i = 0; i < p->count; i++) text_points(f, p->v + p->start[i], p->start[i + 1] - p->start[i]);
    shape = &p->shape;
  }
  if (o->have_ppm) {
    fprintf(f, "body        at %g px/m and %g kg/m^2: mass %.6g kg, inertia %.6g kg m^2 (pixels); shape %.6g kg, %.6g kg m^2\n",
            o->ppm, o->density, tess_mask_mass_kg(r->hull.pixels.area, o->ppm, o->density),
            tess_mask_inertia_kgm2(r->hull.pixels.inertia, o->ppm, o->density),
            tess_mask_mass_kg(shape->area, o->ppm, o->density),
            tess_mask_inertia_kgm2(shape->inertia, o->ppm, o->density));
  }
}

static int fail(const char *path, TessError *err) {
  if (!err->file[0]) snprintf(err->file, sizeof err->file, "%s", path);
  char buf[1200];
  tess_error_format(err, buf, sizeof buf);
  fprintf(stderr, "%s\n", buf);
  return TESS_EXIT_FAIL;
}

int tess_cmd_trace(int argc, char **argv) {
  TraceOptions o;
  int usage = parse(argc, argv, &o);
  if (usage >= 0) return usage;
  TraceResult r;
  memset(&r, 0, sizeof r);
  TessError err;
  tess_error_clear(&err);
  int code = TESS_EXIT_OK;
  if (tess_png_load(o.path, &r.image, &err) != TESS_OK) return fail(o.path, &err);
  TessImageView view = tess_image_view(&r.image);
  if (tess_mask_hull(view, o.mask.threshold, &r.hull, &err) != TESS_OK) {
    code = fail(o.path, &err);
    goto done;
  }
  r.hull_mass = tess_poly_mass(r.hull.v, r.hull.count);
  if (tess_mask_pixel_moments(view, o.mask.threshold, &r.moments, &err) != TESS_OK) {
    code = fail(o.path, &err);
    goto done;
  }
  r.simple = malloc(sizeof *r.simple * (r.hull.count + 3));
  if (!r.simple) {
    tess_error_set(&err, TESS_ERR_NOMEM, o.path, "out of memory");
    code = fail(o.path, &err);
    goto done;
  }
  if (tess_mask_simplify_hull(r.hull.v, r.hull.count, o.mask.max_vertices, r.simple, &r.simple_count, &r.added_area,
                              &err) != TESS_OK) {
    code = fail(o.path, &err);
    goto done;
  }
  r.simple_mass = tess_poly_mass(r.simple, r.simple_count);
  if (o.pieces) {
    if (tess_mask_pieces(view, &o.mask, &r.pieces, &err) != TESS_OK) {
      code = fail(o.path, &err);
      goto done;
    }
    r.have_pieces = true;
  }
  if (o.json) print_json(stdout, &o, &r);
  else print_text(stdout, &o, &r);
  code = tess_cmd_finish_stdout(code);
done:
  tess_mask_pieces_clear(&r.pieces);
  free(r.simple);
  tess_mask_hull_clear(&r.hull);
  tess_image_clear(&r.image);
  return code;
}
