/* Contact begin and end events, after the solve: a contact touches when a point is within the
 * slop or carried an impulse this step, so a fast body stopped by a speculative contact reports
 * its impact speed. The contacts are scanned in blocks (on the workers, side by side) once: each
 * block lists its few contacts with an event (about 2% of them in a pile); then, from the blocks'
 * counts, each block's events are written where the blocks before it leave off, so the events
 * come out in contact order however the blocks were shared. (A second scan of every contact to
 * write the events cost as much again as the first: 4 times the single thread's scan at 5,000
 * circles.) */
#include <string.h>

#include "physics_private.h"

#define EVENT_BLOCK 2048u

/* The blocks: those of the old contacts (their ends), then those of the new ones (their ends and
 * begins, from one look at each contact's flags). */
typedef struct EventJob {
  TessWorld *w;
  uint32_t old_blocks, blocks;
} EventJob;

static TessShapeId shape_id(const TessWorld *w, uint32_t s) {
  TessShapeId id = {0, 0};
  if (s != TESS_NULL_INDEX) {
    id.index1 = s + 1;
    id.generation = w->shapes[s].generation;
  }
  return id;
}

static TessBodyId body_id(const TessWorld *w, uint32_t b) {
  TessBodyId id = {0, 0};
  if (b != TESS_NULL_INDEX) {
    id.index1 = b + 1;
    id.generation = w->bodies[b].generation;
  }
  return id;
}

/* Impulses of constraints [begin, end) of coff back into their contacts (the warm start of the
 * next step), and touching; the wide solver stored its own (PHYS_STAGE_RELAX_STORE). */
static void store_impulses(void *ctx, uint32_t begin, uint32_t end) {
  TessWorld *w = ctx;
  for (uint32_t ci = begin; ci < end; ci++) {
    if (physics_wide_stored(w, ci)) continue;
    Constraint *k = (Constraint *)(w->cbuf + w->coff[ci]);
    Contact *c = &w->contacts[k->contact];
    ContactPoint *pts = physics_constraint_points(k);
    for (uint32_t i = 0; i < k->point_count; i++) {
      c->normal_impulse[i] = pts[i].normal_impulse;
      c->tangent_impulse[i] = pts[i].tangent_impulse;
      if (k->solve && pts[i].max_normal_impulse > 0.0f) c->flags |= CONTACT_TOUCHING;
    }
  }
}

/* Item i of the end scan (old contacts, then new ones): an old touching contact nobody took
 * over, or a new one that stopped touching. Writes the event when `ev` is given. */
static bool end_event(const TessWorld *w, uint32_t i, TessContactEndEvent *ev) {
  bool from_old = i < w->contacts_old_count;
  const Contact *o = from_old ? &w->contacts_old[i] : &w->contacts[i - w->contacts_old_count];
  if (from_old && (!(o->flags & CONTACT_TOUCHING) || (o->flags & CONTACT_CONTINUED))) return false;
  if (!from_old && (!(o->flags & CONTACT_WAS_TOUCHING) || (o->flags & CONTACT_TOUCHING))) return false;
  if (!ev) return true;
  memset(ev, 0, sizeof *ev);
  ev->with_map = (o->flags & CONTACT_MAP) != 0;
  uint32_t sa = ev->with_map ? o->shape_b : o->shape_a;
  ev->a.index1 = sa + 1;
  ev->a.generation = w->shapes[sa].generation;
  if (!ev->with_map) {
    ev->b.index1 = o->shape_b + 1;
    ev->b.generation = w->shapes[o->shape_b].generation;
  } else if (w->has_map) {
    ev->cell_x = o->cell % w->map.width;
    ev->cell_y = o->cell / w->map.width;
  }
  return true;
}

/* New contact i if it began to touch this step. */
static bool begin_event(const TessWorld *w, uint32_t i, TessContactEvent *ev) {
  const Contact *c = &w->contacts[i];
  if (!(c->flags & CONTACT_TOUCHING) || (c->flags & CONTACT_WAS_TOUCHING)) return false;
  if (!ev) return true;
  memset(ev, 0, sizeof *ev);
  ev->with_map = (c->flags & CONTACT_MAP) != 0;
  if (ev->with_map) {
    ev->a = shape_id(w, c->shape_b);
    ev->body_a = body_id(w, c->body_b);
    ev->cell_x = c->cell % w->map.width;
    ev->cell_y = c->cell / w->map.width;
  } else {
    ev->a = shape_id(w, c->shape_a);
    ev->b = shape_id(w, c->shape_b);
    ev->body_a = body_id(w, c->body_a);
    ev->body_b = body_id(w, c->body_b);
  }
  float vn = 0.0f;
  TessVec2 normal = {0.0f, 0.0f};
  if (c->constraint != TESS_NULL_INDEX) {
    const Constraint *k = (const Constraint *)(w->cbuf + c->constraint);
    ev->point = k->point;
    normal = k->normal;
    const ContactPoint *pts = physics_constraint_points((Constraint *)k);
    for (uint32_t q = 0; q < k->point_count; q++)
      if (pts[q].relative_velocity < vn) vn = pts[q].relative_velocity;
  }
  /* public convention: from the event's a to b; for the map a is the body's shape and the
   * cell is b, the reverse of the solver's map contacts (cell first) */
  ev->normal = ev->with_map ? tess_v2_neg(normal) : normal;
  ev->approach_speed = -vn;
  return true;
}

/* Block b's list of its contacts with an end event (begins: a begin event) in w->event_items:
 * EVENT_BLOCK items each, an old block's one list, then a new block's two. */
static uint32_t *event_list(const EventJob *j, uint32_t b, bool begins) {
  size_t list = b < j->old_blocks ? b : j->old_blocks + 2u * (b - j->old_blocks) + begins;
  return j->w->event_items + list * EVENT_BLOCK;
}

/* Blocks [begin, end): each block's contacts with an event, listed, and counted into
 * w->blocks[2 b] (ends) and w->blocks[2 b + 1] (begins). */
static void find_events(void *ctx, uint32_t begin, uint32_t end) {
  const EventJob *j = ctx;
  TessWorld *w = j->w;
  for (uint32_t b = begin; b < end; b++) {
    bool old = b < j->old_blocks;
    uint32_t first = (old ? b : b - j->old_blocks) * EVENT_BLOCK, items = old ? w->contacts_old_count : w->contact_count;
    uint32_t last = first + EVENT_BLOCK < items ? first + EVENT_BLOCK : items, ends = 0, begins = 0;
    uint32_t *end_list = event_list(j, b, false);
    if (old) {
      for (uint32_t i = first; i < last; i++)
        if (end_event(w, i, NULL)) end_list[ends++] = i;
    } else {
      uint32_t *begin_list = event_list(j, b, true);
      for (uint32_t i = first; i < last; i++) {
        uint32_t f = w->contacts[i].flags & (CONTACT_TOUCHING | CONTACT_WAS_TOUCHING);
        if (f == CONTACT_WAS_TOUCHING) end_list[ends++] = w->contacts_old_count + i; /* end_event's numbering */
        else if (f == CONTACT_TOUCHING) begin_list[begins++] = i;
      }
    }
    w->blocks[2u * b] = ends;
    w->blocks[2u * b + 1u] = begins;
  }
}

/* Blocks [begin, end): their listed events, from where w->blocks now says they start. */
static void write_events(void *ctx, uint32_t begin, uint32_t end) {
  const EventJob *j = ctx;
  TessWorld *w = j->w;
  for (uint32_t b = begin; b < end; b++) {
    uint32_t ends = (b + 1u < j->blocks ? w->blocks[2u * b + 2u] : w->ev_end_count) - w->blocks[2u * b];
    const uint32_t *list = event_list(j, b, false);
    for (uint32_t k = 0; k < ends; k++) end_event(w, list[k], &w->ev_end[w->blocks[2u * b] + k]);
    if (b < j->old_blocks) continue;
    uint32_t begins = (b + 1u < j->blocks ? w->blocks[2u * b + 3u] : w->ev_begin_count) - w->blocks[2u * b + 1u];
    list = event_list(j, b, true);
    for (uint32_t k = 0; k < begins; k++) begin_event(w, list[k], &w->ev_begin[w->blocks[2u * b + 1u] + k]);
  }
}

bool physics_contact_events(TessWorld *w) {
  physics_parallel_for(w->tasks, w->coff_count, 1024, store_impulses, w);
  uint32_t old_blocks = (w->contacts_old_count + EVENT_BLOCK - 1) / EVENT_BLOCK;
  uint32_t blocks = old_blocks + (w->contact_count + EVENT_BLOCK - 1) / EVENT_BLOCK;
  if (blocks == 0) return true;
  size_t items = ((size_t)2u * blocks - old_blocks) * EVENT_BLOCK;
  if (items > UINT32_MAX || !PHYS_GROW(w->blocks, &w->blocks_cap, 2u * blocks) ||
      !physics_grow_scratch(&w->event_items_raw, (void **)&w->event_items, &w->event_items_cap, (uint32_t)items,
                            sizeof *w->event_items))
    return false;
  EventJob job = {w, old_blocks, blocks};
  physics_parallel_for(w->tasks, blocks, 2, find_events, &job);
  /* each block's first event: ends (old blocks', then new blocks') and begins counted apart */
  uint32_t ends = w->ev_end_count, begins = w->ev_begin_count;
  for (uint32_t b = 0; b < blocks; b++) {
    uint32_t e = w->blocks[2u * b], g = w->blocks[2u * b + 1u];
    w->blocks[2u * b] = ends;
    w->blocks[2u * b + 1u] = begins;
    ends += e;
    begins += g;
  }
  if ((ends > 0 && !physics_grow((void **)&w->ev_end, &w->ev_end_cap, ends, sizeof *w->ev_end)) ||
      (begins > 0 && !physics_grow((void **)&w->ev_begin, &w->ev_begin_cap, begins, sizeof *w->ev_begin)))
    return false;
  w->ev_end_count = ends;
  w->ev_begin_count = begins;
  physics_parallel_for(w->tasks, blocks, 2, write_events, &job);
  return true;
}
