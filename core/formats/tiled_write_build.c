/* One level of a project as a Tiled model (formats_tiled_write.h): the map's
 * settings as properties, the tilesets its cells and sprite bodies use plus
 * the generated materials tileset (firstgids in that order), every layer
 * bottom to top with Tessera's layer ids, and every object. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tessera/scene.h"
#include "formats_tiled_write_build.h"

#define GID_MAX 0x0FFFFFFFu /* Tiled keeps bits 28-31 for flips */

typedef TwUsed Used; /* short local name */

static void mark_chunk(Used *u, const TessChunk *c) {
  uint32_t last = UINT32_MAX;
  for (uint32_t j = 0; j < TESS_CHUNK_CELLS; j++) {
    if (!c->cells[j]) continue;
    uint32_t ts = TESS_CELL_TILESET(c->cells[j]);
    if (ts == last) continue;
    last = ts;
    u->tilesets[ts / 64] |= 1ull << (ts % 64);
  }
}

bool tiled_write_used_scan(const TessProject *p, const TessLevel *level, TwUsed *u) {
  memset(u, 0, sizeof *u);
  u->sprites = tess_calloc(p->sprite_count + 1, sizeof *u->sprites);
  if (!u->sprites) return false;
  for (uint32_t i = 0; i < level->layer_count; i++) {
    const TessLayer *layer = level->layers[i];
    if (layer->props.kind == TESS_LAYER_MATERIAL) u->materials = p->material_count > 0;
    if (layer->props.kind == TESS_LAYER_TILES && layer->chunks)
      for (size_t k = 0; k < (size_t)layer->chunks_x * layer->chunks_y; k++)
        if (layer->chunks[k]) mark_chunk(u, layer->chunks[k]);
    for (uint32_t k = 0; k < layer->object_count; k++) {
      const TessObject *o = &layer->objects[k];
      if (o->kind != TESS_OBJECT_BODY || o->u.body.shape != TESS_BODY_SPRITE) continue;
      for (uint32_t s = 0; s < p->sprite_count; s++)
        if (p->sprites[s]->id == o->u.body.sprite) u->sprites[s] = true;
    }
  }
  return true;
}

bool tiled_write_used_tileset(const TwUsed *u, TessId id) {
  return id <= TESS_TILESET_ID_MAX && (u->tilesets[id / 64] >> (id % 64) & 1);
}

uint64_t tiled_write_content_hash(const TessProject *p, const TessLevel *level, const TwNames *names, TwFlavor flavor) {
  TessHasher h;
  tess_hasher_init(&h);
  tess_hasher_u64(&h, tess_level_content_hash(p, level));
  tess_hasher_u32(&h, 0x54494C44u); /* 'TILD' */
  tess_hasher_u32(&h, (uint32_t)flavor);
  tess_hasher_u32(&h, TW_WRITER_VERSION);
  Used u;
  if (!tiled_write_used_scan(p, level, &u)) return 0; /* never matches a written map: it is rewritten */
  for (uint32_t i = 0; i < p->tileset_count; i++)
    if (tiled_write_used_tileset(&u, p->tilesets[i]->id)) tess_hasher_str(&h, tiled_write_names_tileset(names, p->tilesets[i]->id));
  for (uint32_t i = 0; i < p->sprite_count; i++)
    if (u.sprites[i]) tess_hasher_str(&h, tiled_write_names_sprite(names, p->sprites[i]->id));
  tess_hasher_u32(&h, u.materials);
  tess_free(u.sprites);
  return tess_hasher_finish(&h);
}

/* ---- Names must be text the formats can hold ----------------------------- */

static TessResult check_text(const char *s, const char *what, const char *name, TessError *err) {
  if (s && !tiled_write_utf8_valid(s))
    return tess_error_set(err, TESS_ERR_FORMAT, "export", "%s%s%s is not valid UTF-8 (Tiled maps hold UTF-8 text)", what,
                          name ? " " : "", name ? name : "");
  return TESS_OK;
}

static TessResult check_object(const TessObject *o, TessError *err) {
  char what[64];
  snprintf(what, sizeof what, "object %u", o->id);
  TessResult r = check_text(o->name, what, "name", err);
  for (uint32_t i = 0; r == TESS_OK && o->props && i < o->prop_count; i++) {
    r = check_text(o->props[i].name, what, "property name", err);
    if (r == TESS_OK && o->props[i].type == TESS_PROP_STRING)
      r = check_text(o->props[i].v.s, what, "property value", err);
  }
  return r;
}

static TessResult check_names(const TessProject *p, const TessLevel *level, const Used *u, TessError *err) {
  TessResult r = check_text(level->settings.name, "level name", NULL, err);
  for (uint32_t i = 0; r == TESS_OK && i < p->material_count; i++) r = check_text(p->materials[i].name, "material name", NULL, err);
  for (uint32_t i = 0; r == TESS_OK && i < p->tileset_count; i++) {
    if (!tiled_write_used_tileset(u, p->tilesets[i]->id)) continue;
    r = check_text(p->tilesets[i]->name, "tileset name", NULL, err);
    if (r == TESS_OK) r = check_text(p->tilesets[i]->source_path, "tileset source path of", p->tilesets[i]->name, err);
  }
  for (uint32_t i = 0; r == TESS_OK && i < p->sprite_count; i++) {
    if (!u->sprites[i]) continue;
    r = check_text(p->sprites[i]->name, "sprite name", NULL, err);
    if (r == TESS_OK) r = check_text(p->sprites[i]->source_path, "sprite source path of", p->sprites[i]->name, err);
  }
  for (uint32_t i = 0; r == TESS_OK && i < level->layer_count; i++) {
    const TessLayer *layer = level->layers[i];
    r = check_text(layer->props.name, "layer name", NULL, err);
    for (uint32_t k = 0; r == TESS_OK && k < layer->object_count; k++) r = check_object(&layer->objects[k], err);
  }
  return r;
}

/* ---- Tilesets and gids --------------------------------------------------- */

typedef struct Gids {
  uint32_t firstgid[TESS_TILESET_ID_MAX + 1], count[TESS_TILESET_ID_MAX + 1];
  uint32_t *sprite_firstgid; /* by sprite index */
  uint32_t materials_firstgid;
} Gids;

static TessResult add_tilesets(TwMap *m, const TessProject *p, const TessLevel *level, const TwNames *names,
                               const Used *u, Gids *g, TessError *err) {
  size_t n = u->materials;
  for (uint32_t i = 0; i < p->tileset_count; i++) n += tiled_write_used_tileset(u, p->tilesets[i]->id);
  for (uint32_t i = 0; i < p->sprite_count; i++) n += u->sprites[i];
  m->tilesets = tess_calloc(n ? n : 1, sizeof *m->tilesets);
  if (!m->tilesets) return tess_error_set(err, TESS_ERR_NOMEM, "export", "out of memory");
  uint64_t next = 1;
  for (uint32_t i = 0; i < p->tileset_count; i++) {
    const TessTileset *ts = p->tilesets[i];
    if (!tiled_write_used_tileset(u, ts->id)) continue;
    if (!ts->png || !ts->png_size)
      return tess_error_set(err, TESS_ERR_NOT_FOUND, "export", "tileset '%s' has no image bytes in the project", ts->name);
    TwTileset *t = &m->tilesets[m->tileset_count++];
    tiled_write_build_tileset(m, p, ts, tiled_write_names_tileset(names, ts->id), t);
    t->firstgid = (uint32_t)next;
    g->firstgid[ts->id] = (uint32_t)next;
    g->count[ts->id] = ts->tile_count;
    next += ts->tile_count ? ts->tile_count : 1;
  }
  for (uint32_t i = 0; i < p->sprite_count; i++) {
    const TessSprite *s = p->sprites[i];
    if (!u->sprites[i]) continue;
    if (!s->png || !s->png_size)
      return tess_error_set(err, TESS_ERR_NOT_FOUND, "export", "sprite '%s' has no image bytes in the project", s->name);
    TwTileset *t = &m->tilesets[m->tileset_count++];
    tiled_write_build_sprite(m, s, tiled_write_names_sprite(names, s->id), t);
    t->firstgid = (uint32_t)next;
    g->sprite_firstgid[i] = (uint32_t)next;
    next += t->tile_count;
  }
  if (u->materials) {
    char stem[64];
    tiled_write_names_materials(level->settings.tile_w, level->settings.tile_h, stem, sizeof stem);
    TwTileset *t = &m->tilesets[m->tileset_count++];
    TessResult r = tiled_write_build_materials(m, p, level->settings.tile_w, level->settings.tile_h, stem, t, err);
    if (r != TESS_OK) return r;
    t->firstgid = (uint32_t)next;
    g->materials_firstgid = (uint32_t)next;
    next += p->material_count;
  }
  if (next - 1 > GID_MAX)
    return tess_error_set(err, TESS_ERR_LIMIT, "export", "level '%s' uses %llu tiles: more than Tiled's gids can number",
                          level->settings.name, (unsigned long long)(next - 1));
  return TESS_OK;
}

static uint32_t tile_gid(const Gids *g, TessCell c) {
  if (!c) return 0;
  uint32_t ts = TESS_CELL_TILESET(c), tile = TESS_CELL_TILE(c);
  if (!g->firstgid[ts] || tile >= g->count[ts]) return 0; /* names no tile: an empty cell, as collision sees it */
  return (g->firstgid[ts] + tile) | (c & TESS_CELL_FLIPS);
}

static uint32_t material_gid(const TessProject *p, const Gids *g, uint32_t id) {
  if (!id) return 0;
  uint32_t lo = 0, hi = p->material_count; /* materials are sorted by id */
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    if (p->materials[mid].id < id) lo = mid + 1;
    else hi = mid;
  }
  return lo < p->material_count && p->materials[lo].id == id ? g->materials_firstgid + lo : 0;
}

static bool fill_gids(const TessProject *p, const TessLevel *level, const TessLayer *layer, const Gids *g, TwLayer *out) {
  uint32_t w = level->settings.width, h = level->settings.height;
  out->gids = tess_calloc((size_t)w * h, sizeof *out->gids);
  if (!out->gids) return false;
  bool materials = layer->props.kind == TESS_LAYER_MATERIAL;
  for (uint32_t cy = 0; layer->chunks && cy < layer->chunks_y; cy++)
    for (uint32_t cx = 0; cx < layer->chunks_x; cx++) {
      const TessChunk *c = tess_layer_chunk(layer, cx, cy);
      if (!c) continue;
      for (uint32_t y = 0; y < TESS_CHUNK_SIZE && cy * TESS_CHUNK_SIZE + y < h; y++)
        for (uint32_t x = 0; x < TESS_CHUNK_SIZE && cx * TESS_CHUNK_SIZE + x < w; x++) {
          uint32_t v = c->cells[y * TESS_CHUNK_SIZE + x];
          out->gids[(size_t)(cy * TESS_CHUNK_SIZE + y) * w + cx * TESS_CHUNK_SIZE + x] =
              materials ? material_gid(p, g, v) : tile_gid(g, v);
        }
    }
  return true;
}

/* ---- Layers and the map -------------------------------------------------- */

/* Mass, inertia and centre of every body from the physics world the level
 * builds (the preview's and the game's): what the simulation will use. */
static int by_object(const void *a, const void *b) {
  TessId x = ((const TwMass *)a)->object, y = ((const TwMass *)b)->object;
  return x < y ? -1 : x > y;
}

static TessResult body_masses(const TessScene *scene, TwMass **out, size_t *count, TessError *err) {
  *out = NULL;
  *count = 0;
  TessWorldDef def;
  tess_world_def_default(&def);
  TessWorld *world = NULL;
  TessBodyId *ids = tess_calloc(scene->body_count + 1, sizeof *ids);
  TwMass *masses = tess_calloc(scene->body_count + 1, sizeof *masses);
  TessResult r = ids && masses ? tess_world_create_from_scene(scene, &def, &world, ids, err)
                               : tess_error_set(err, TESS_ERR_NOMEM, "export", "out of memory");
  size_t n = 0;
  for (uint32_t i = 0; r == TESS_OK && i < scene->body_count; i++) {
    if (!scene->bodies[i].object) continue;
    masses[n].object = scene->bodies[i].object;
    masses[n].mass = tess_body_mass(world, ids[i]);
    masses[n].inertia = tess_body_inertia(world, ids[i]);
    masses[n].center = tess_body_local_center(world, ids[i]);
    n++;
  }
  if (world) tess_world_destroy(world);
  tess_free(ids);
  if (r != TESS_OK) {
    tess_free(masses);
    return r;
  }
  qsort(masses, n, sizeof *masses, by_object);
  *out = masses;
  *count = n;
  return TESS_OK;
}

static TessResult add_layers(TwMap *m, const TessProject *p, const TessLevel *level, const Gids *g,
                             const TwMass *masses, size_t mass_count, TessError *err) {
  m->layers = tess_calloc(level->layer_count ? level->layer_count : 1, sizeof *m->layers);
  if (!m->layers) return tess_error_set(err, TESS_ERR_NOMEM, "export", "out of memory");
  for (uint32_t i = 0; i < level->layer_count; i++) {
    const TessLayer *layer = level->layers[i];
    const TessLayerProps *lp = &layer->props;
    TwLayer *t = &m->layers[m->layer_count++];
    t->id = lp->id;
    t->name = lp->name;
    t->visible = lp->visible;
    t->locked = lp->locked;
    t->opacity = lp->opacity;
    if (lp->id >= m->next_layer_id) m->next_layer_id = lp->id + 1;
    if (lp->kind == TESS_LAYER_OBJECTS) {
      t->topdown = lp->y_sort;
      tiled_write_prop_bool(m, &t->props, "collides", lp->collides);
      for (uint32_t k = 0; k < layer->object_count; k++) {
        const TessObject *o = &layer->objects[k];
        if (o->id >= m->next_object_id) m->next_object_id = o->id + 1;
        tiled_write_build_object(m, p, masses, mass_count, o, g->sprite_firstgid, &t->objects);
      }
      continue;
    }
    t->tiles = true;
    if (lp->kind == TESS_LAYER_MATERIAL) {
      /* Data, not art: hidden in Tiled (as Tessera draws it only as an
       * overlay), with Tessera's own flag kept. */
      t->visible = false;
      tiled_write_prop_string(m, &t->props, "kind", "materials");
      tiled_write_prop_bool(m, &t->props, "tessera.visible", lp->visible);
    }
    tiled_write_prop_bool(m, &t->props, "collides", lp->collides);
    if (lp->collide_pixels) tiled_write_prop_bool(m, &t->props, "collide_pixels", true);
    if (!fill_gids(p, level, layer, g, t))
      return tess_error_set(err, TESS_ERR_NOMEM, "export", "out of memory for layer '%s' of %ux%u cells", lp->name,
                            level->settings.width, level->settings.height);
  }
  return TESS_OK;
}

static void map_props(TwMap *m, const TessLevel *level, uint64_t hash) {
  const TessLevelSettings *s = &level->settings;
  TwProps *pr = &m->props;
  /* First, so an incremental export finds it without parsing the map. */
  tiled_write_prop_string(m, pr, "tessera.content_hash", tiled_write_printf(m, "%016llx", (unsigned long long)hash));
  tiled_write_prop_int(m, pr, "tessera.writer", TW_WRITER_VERSION);
  tiled_write_prop_int(m, pr, "tessera.level_id", level->id);
  tiled_write_prop_string(m, pr, "name", s->name);
  tiled_write_prop_float(m, pr, "ppm", s->ppm);
  tiled_write_prop_float(m, pr, "gravity_x", s->gravity.x);
  tiled_write_prop_float(m, pr, "gravity_y", s->gravity.y);
  tiled_write_prop_string(m, pr, "view", s->view == TESS_VIEW_TOP_DOWN ? "top-down" : "side");
  tiled_write_prop_float(m, pr, "physics_hz", s->physics_hz);
  tiled_write_prop_int(m, pr, "substeps", s->substeps);
  tiled_write_prop_float(m, pr, "floor_drag", s->floor_drag);
}

TessResult tiled_write_map_build(const TessProject *p, const TessLevel *level, const TwNames *names, uint64_t hash, TwMap *out,
                                 TessError *err) {
  memset(out, 0, sizeof *out);
  Used u;
  Gids *g = tess_calloc(1, sizeof *g);
  if (!g || !tiled_write_used_scan(p, level, &u)) {
    tess_free(g);
    return tess_error_set(err, TESS_ERR_NOMEM, "export", "out of memory");
  }
  TessScene *scene = NULL;
  g->sprite_firstgid = tess_calloc(p->sprite_count + 1, sizeof *g->sprite_firstgid);
  TessResult r = g->sprite_firstgid ? TESS_OK : tess_error_set(err, TESS_ERR_NOMEM, "export", "out of memory");
  if (r == TESS_OK) r = check_names(p, level, &u, err);
  if (r == TESS_OK) r = tess_scene_from_level(p, level, &scene, err);
  TwMass *masses = NULL;
  size_t mass_count = 0;
  if (r == TESS_OK) r = body_masses(scene, &masses, &mass_count, err);
  TwMap *m = out;
  m->width = level->settings.width;
  m->height = level->settings.height;
  m->tile_w = level->settings.tile_w;
  m->tile_h = level->settings.tile_h;
  m->next_layer_id = m->next_object_id = 1;
  if (r == TESS_OK) {
    map_props(m, level, hash);
    r = add_tilesets(m, p, level, names, &u, g, err);
  }
  if (r == TESS_OK) r = add_layers(m, p, level, g, masses, mass_count, err);
  tess_free(masses);
  if (r == TESS_OK && m->failed) r = tess_error_set(err, TESS_ERR_NOMEM, "export", "out of memory");
  tess_scene_destroy(scene);
  tess_free(g->sprite_firstgid);
  tess_free(g);
  tess_free(u.sprites);
  if (r != TESS_OK) tiled_write_map_clear(m);
  return r;
}
