/* tessera-pipeline validate PROJECT.tessera: the database's own check
 * (PRAGMA quick_check) and the level problems a designer can fix: bodies
 * inside solid cells, sprites with no collision mask, unused materials,
 * joints to bodies that do not exist. One line each; exit 1 if any. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "tlv_reader.h"
#include "tessera/pack.h"
#include "tessera/level.h"
#include "tessera/store.h"

const char tess_cmd_validate_usage[] =
    "validate PROJECT.tessera\n"
    "  Prints one line per problem: PROJECT: level 'NAME': what is wrong.\n"
    "Exit status: 0 no problems, 1 problems found (or the file cannot be read), 2 usage.\n";

static bool sprite_has_mask(const TessSprite *s) {
  const TessSpriteMask *m = &s->mask;
  if (m->mode == TESS_MASK_CIRCLE) return m->circle_radius > 0;
  return m->piece_count > 0;
}

static bool is_body(const TessLevel *level, TessId id) {
  const TessObject *o = tess_level_object(level, id, NULL);
  return o && o->kind == TESS_OBJECT_BODY;
}

/* Marks the materials a level uses (cells of the material layer, bodies). */
static void mark_level_materials(const TessProject *p, const TessLevel *level, bool *used) {
  for (uint32_t li = 0; li < level->layer_count; li++) {
    const TessLayer *layer = level->layers[li];
    if (layer->props.kind == TESS_LAYER_MATERIAL) {
      for (uint32_t cy = 0; cy < layer->chunks_y; cy++)
        for (uint32_t cx = 0; cx < layer->chunks_x; cx++) {
          const TessChunk *ch = tess_layer_chunk(layer, cx, cy);
          if (!ch) continue;
          for (uint32_t i = 0; i < TESS_CHUNK_CELLS; i++) {
            const TessMaterial *m = ch->cells[i] ? tess_project_material(p, ch->cells[i]) : NULL;
            if (m) used[m - p->materials] = true;
          }
        }
    }
    for (uint32_t i = 0; i < layer->object_count; i++) {
      const TessObject *o = &layer->objects[i];
      if (o->kind != TESS_OBJECT_BODY) continue;
      const TessMaterial *m = o->u.body.material ? tess_project_material(p, o->u.body.material)
                                                 : (p->material_count ? &p->materials[0] : NULL);
      if (m) used[m - p->materials] = true;
    }
  }
}

static int level_problems(const char *path, const TessProject *p, const TessLevel *level) {
  int problems = 0;
  const TessLevelSettings *st = &level->settings;
  char lname[TESS_CMD_PRINTABLE_NAME], oname[TESS_CMD_PRINTABLE_NAME];
  tess_cmd_printable(st->name, lname, sizeof lname);
  for (uint32_t li = 0; li < level->layer_count; li++) {
    const TessLayer *layer = level->layers[li];
    for (uint32_t i = 0; i < layer->object_count; i++) {
      const TessObject *o = &layer->objects[i];
      if (o->kind == TESS_OBJECT_BODY) {
        double cx = floor(o->pos.x / st->tile_w), cy = floor(o->pos.y / st->tile_h);
        if (cx >= 0 && cy >= 0 && cx < st->width && cy < st->height) {
          TessCellCollision cc;
          tess_level_cell_collision(p, level, (uint32_t)cx, (uint32_t)cy, &cc);
          if (cc.kind == TESS_TILE_COLLISION_FULL) {
            printf("%s: level '%s': body '%s' (id %u) at (%g, %g) px is inside the solid cell (%u, %u)\n", path, lname,
                   tess_cmd_printable(o->name, oname, sizeof oname), o->id, (double)o->pos.x, (double)o->pos.y, (unsigned)cx, (unsigned)cy);
            problems++;
          }
        }
      } else if (o->kind == TESS_OBJECT_JOINT) {
        const TessId ends[2] = {o->u.joint.body_a, o->u.joint.body_b};
        for (int k = 0; k < 2; k++) {
          if (ends[k] && !is_body(level, ends[k])) {
            printf("%s: level '%s': joint '%s' (id %u) is attached to body %u, which does not exist\n", path, lname,
                   tess_cmd_printable(o->name, oname, sizeof oname), o->id, ends[k]);
            problems++;
          }
        }
      }
    }
  }
  return problems;
}

int tess_cmd_validate(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "--version") == 0) {
      printf("tessera-pipeline %s (packed level format %u.%u, writer %u)\n", TESS_VERSION, TLV_VERSION_MAJOR,
             TLV_VERSION_MINOR, TESS_PACK_WRITER_VERSION);
      return TESS_EXIT_OK;
    }
  const char *path = NULL;
  for (int i = 1; i < argc; i++) {
    if (argv[i][0] == '-' && argv[i][1]) return tess_cmd_usage_error("validate", "unknown option %s", argv[i]);
    if (path) return tess_cmd_usage_error("validate", "one project at a time");
    path = argv[i];
  }
  if (!path) return tess_cmd_usage_error("validate", "no project given");
  TessStore *store = NULL;
  TessProject *p = NULL;
  TessError err;
  char msg[1400];
  tess_error_clear(&err);
  TessResult r = tess_store_open(path, TESS_STORE_READ_ONLY, &store, &err);
  int problems = 0;
  if (r == TESS_OK && tess_store_quick_check(store, &err) != TESS_OK) {
    tess_error_format(&err, msg, sizeof msg);
    printf("%s\n", msg);
    problems++;
  }
  if (r == TESS_OK) r = tess_store_load(store, &p, &err);
  if (store) tess_store_close(store);
  if (r != TESS_OK) {
    tess_error_format(&err, msg, sizeof msg);
    fprintf(stderr, "%s\n", msg);
    return TESS_EXIT_FAIL;
  }
  for (uint32_t i = 0; i < p->level_count; i++) problems += level_problems(path, p, p->levels[i]);
  char name[TESS_CMD_PRINTABLE_NAME];
  for (uint32_t i = 0; i < p->sprite_count; i++) {
    if (!sprite_has_mask(p->sprites[i])) {
      printf("%s: sprite '%s' (id %u) has no collision mask\n", path,
             tess_cmd_printable(p->sprites[i]->name, name, sizeof name), p->sprites[i]->id);
      problems++;
    }
  }
  bool *used = calloc(p->material_count ? p->material_count : 1, sizeof *used);
  for (uint32_t i = 0; i < p->level_count; i++) mark_level_materials(p, p->levels[i], used);
  for (uint32_t t = 0; t < p->tileset_count; t++)
    for (uint32_t k = 0; k < p->tilesets[t]->tile_count; k++) {
      const TessMaterial *m = p->tilesets[t]->tiles[k].material ? tess_project_material(p, p->tilesets[t]->tiles[k].material) : NULL;
      if (m) used[m - p->materials] = true;
    }
  for (uint32_t i = 0; i < p->material_count; i++) {
    if (!used[i]) {
      printf("%s: material '%s' (id %u) is not used\n", path, tess_cmd_printable(p->materials[i].name, name, sizeof name),
             p->materials[i].id);
      problems++;
    }
  }
  free(used);
  tess_project_destroy(p);
  if (problems == 0) printf("%s: no problems\n", path);
  return tess_cmd_finish_stdout(problems ? TESS_EXIT_FAIL : TESS_EXIT_OK);
}
