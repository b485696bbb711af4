/* The change log: what edits and undo/redo touched since the store last
 * flushed, each change at most once (a chunk painted 1000 times in one drag
 * is one entry), plus the listener called as each change happens. */
#include "level_private.h"

struct TessChangeLog {
  TessChange *items;
  size_t count, cap;
  uint32_t *slots; /* open addressing: index + 1 into items, 0 = free */
  size_t slot_count;
};

TessChangeLog *level_change_log_create(void) { return tess_calloc(1, sizeof(TessChangeLog)); }

void level_change_log_destroy(TessChangeLog *log) {
  if (!log) return;
  tess_free(log->items);
  tess_free(log->slots);
  tess_free(log);
}

static bool same_change(const TessChange *a, const TessChange *b) {
  return a->kind == b->kind && a->id == b->id && a->level == b->level && a->layer == b->layer &&
         a->chunk_x == b->chunk_x && a->chunk_y == b->chunk_y;
}

static uint64_t change_hash(const TessChange *c) {
  uint64_t h = c->kind;
  h = h * 0x9E3779B97F4A7C15ull ^ c->id;
  h = h * 0x9E3779B97F4A7C15ull ^ c->level;
  h = h * 0x9E3779B97F4A7C15ull ^ c->layer;
  h = h * 0x9E3779B97F4A7C15ull ^ c->chunk_x;
  h = h * 0x9E3779B97F4A7C15ull ^ c->chunk_y;
  h ^= h >> 31;
  return h * 0xBF58476D1CE4E5B9ull;
}

static bool rehash(TessChangeLog *log, size_t slot_count) {
  uint32_t *slots = tess_calloc(slot_count, sizeof *slots);
  if (!slots) return false;
  for (size_t i = 0; i < log->count; i++) {
    size_t s = change_hash(&log->items[i]) & (slot_count - 1);
    while (slots[s]) s = (s + 1) & (slot_count - 1);
    slots[s] = (uint32_t)i + 1;
  }
  tess_free(log->slots);
  log->slots = slots;
  log->slot_count = slot_count;
  return true;
}

/* Adds a change unless present. When memory runs out the change is still
 * appended if possible (a duplicate costs a store write; a lost change loses data). */
static void log_add(TessChangeLog *log, const TessChange *c) {
  if ((log->count + 1) * 2 > log->slot_count) rehash(log, log->slot_count ? log->slot_count * 2 : 64);
  size_t s = 0;
  if (log->slot_count) {
    s = change_hash(c) & (log->slot_count - 1);
    while (log->slots[s]) {
      if (same_change(&log->items[log->slots[s] - 1], c)) return;
      s = (s + 1) & (log->slot_count - 1);
    }
  }
  if (!tess_array_reserve((void **)&log->items, &log->cap, log->count + 1, sizeof *log->items)) return;
  log->items[log->count] = *c;
  if (log->slot_count && (log->count + 1) * 2 <= log->slot_count) log->slots[s] = (uint32_t)log->count + 1;
  log->count++;
}

void level_project_note_change(TessProject *p, TessChangeKind kind, TessId id, TessId level, TessId layer,
                               uint32_t cx, uint32_t cy) {
  TessChange c;
  memset(&c, 0, sizeof c);
  c.kind = (uint8_t)kind;
  c.id = id;
  c.level = level;
  c.layer = layer;
  c.chunk_x = cx;
  c.chunk_y = cy;
  if (p->changes) log_add(p->changes, &c);
  if (p->listener) p->listener(&c, p->listener_user);
}

void level_project_note_layer_content(TessProject *p, TessId level, const TessLayer *layer) {
  level_project_note_change(p, TESS_CHANGE_LAYER, layer->props.id, level, layer->props.id, 0, 0);
  if (layer->chunks)
    for (uint32_t cy = 0; cy < layer->chunks_y; cy++)
      for (uint32_t cx = 0; cx < layer->chunks_x; cx++)
        if (layer->chunks[(size_t)cy * layer->chunks_x + cx])
          level_project_note_change(p, TESS_CHANGE_CHUNK, 0, level, layer->props.id, cx, cy);
  for (uint32_t i = 0; i < layer->object_count; i++)
    level_project_note_change(p, TESS_CHANGE_OBJECT, layer->objects[i].id, level, layer->props.id, 0, 0);
}

void level_project_note_level_content(TessProject *p, const TessLevel *level) {
  level_project_note_change(p, TESS_CHANGE_LEVEL, level->id, level->id, 0, 0, 0);
  for (uint32_t i = 0; i < level->layer_count; i++) level_project_note_layer_content(p, level->id, level->layers[i]);
}

size_t tess_project_changes(const TessProject *p, const TessChange **out) {
  if (out) *out = p->changes ? p->changes->items : NULL;
  return p->changes ? p->changes->count : 0;
}

void tess_project_clear_changes(TessProject *p) {
  if (!p->changes) return;
  p->changes->count = 0;
  if (p->changes->slots) memset(p->changes->slots, 0, p->changes->slot_count * sizeof *p->changes->slots);
}

void tess_project_set_listener(TessProject *p, TessChangeFn fn, void *user) {
  p->listener = fn;
  p->listener_user = user;
}
