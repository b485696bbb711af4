/* Contact begin and end events, after the solve: a contact touches when a point is within the
 * slop or carried an impulse this step, so a fast body stopped by a speculative contact reports
 * its impact speed. The contacts are scanned on the workers in blocks, twice: the first pass
 * counts each block's events, the second writes them where the counts of the blocks before put
 * them, so the events come out in contact order however the blocks were shared. */
#include <string.h>

#include "physics_private.h"

#define EVENT_BLOCK 2048u

typedef struct EventJob {
  TessWorld *w;
  uint32_t end_blocks;   /* blocks of old + new contacts (ends), then blocks of new ones (begins) */
  bool write;            /* the second pass */
  uint32_t blocks;       /* in all */
  uint32_t ends, begins; /* the events in all (the second pass) */
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

/* Blocks [begin, end): the first pass counts each block's events into w->blocks, the second
 * writes them from there on. */
static void event_task(void *ctx, uint32_t begin, uint32_t end) {
  const EventJob *j = ctx;
  TessWorld *w = j->w;
  for (uint32_t b = begin; b < end; b++) {
    bool ends = b < j->end_blocks;
    uint32_t first = (ends ? b : b - j->end_blocks) * EVENT_BLOCK;
    uint32_t items = ends ? w->contacts_old_count + w->contact_count : w->contact_count;
    uint32_t last = first + EVENT_BLOCK < items ? first + EVENT_BLOCK : items, n = 0;
    uint32_t at = 0, count = UINT32_MAX;
    if (j->write) { /* the block's events end where the next block's begin: a block with none, or
                       whose last event is written, scans no further */
      at = w->blocks[b];
      bool last_of_kind = b + 1 == (ends ? j->end_blocks : j->blocks);
      count = (last_of_kind ? (ends ? j->ends : j->begins) : w->blocks[b + 1]) - at;
    }
    for (uint32_t i = first; i < last && n < count; i++) {
      if (ends)
        n += end_event(w, i, j->write ? &w->ev_end[at + n] : NULL);
      else
        n += begin_event(w, i, j->write ? &w->ev_begin[at + n] : NULL);
    }
    if (!j->write) w->blocks[b] = n;
  }
}

/* One thread: one scan, each event appended as it is found (the same events in the same order
 * as the two passes, without the second scan). */
static bool events_alone(TessWorld *w) {
  uint32_t n = w->contacts_old_count + w->contact_count;
  for (uint32_t i = 0; i < n; i++) {
    if (!end_event(w, i, NULL)) continue;
    if (!PHYS_GROW(w->ev_end, &w->ev_end_cap, w->ev_end_count + 1)) return false;
    end_event(w, i, &w->ev_end[w->ev_end_count++]);
  }
  for (uint32_t i = 0; i < w->contact_count; i++) {
    if (!begin_event(w, i, NULL)) continue;
    if (!PHYS_GROW(w->ev_begin, &w->ev_begin_cap, w->ev_begin_count + 1)) return false;
    begin_event(w, i, &w->ev_begin[w->ev_begin_count++]);
  }
  return true;
}

bool physics_contact_events(TessWorld *w) {
  physics_parallel_for(w->tasks, w->coff_count, 1024, store_impulses, w);
  /* one thread (or a step the pool runs on the caller); a profile counts the passes the workers share */
  if (!physics_tasks_step_shared(w->tasks) && !w->profile) return events_alone(w);
  uint32_t end_blocks = (w->contacts_old_count + w->contact_count + EVENT_BLOCK - 1) / EVENT_BLOCK;
  uint32_t blocks = end_blocks + (w->contact_count + EVENT_BLOCK - 1) / EVENT_BLOCK;
  if (!PHYS_GROW(w->blocks, &w->blocks_cap, blocks + 1)) return false;
  EventJob job = {w, end_blocks, false, blocks, 0, 0};
  physics_parallel_for(w->tasks, blocks, 2, event_task, &job);
  /* each block's first event; ends and begins counted apart */
  uint32_t ends = w->ev_end_count, begins = w->ev_begin_count;
  for (uint32_t b = 0; b < blocks; b++) {
    uint32_t *count = b < end_blocks ? &ends : &begins, n = w->blocks[b];
    w->blocks[b] = *count;
    *count += n;
  }
  if ((ends > 0 && !physics_grow((void **)&w->ev_end, &w->ev_end_cap, ends, sizeof *w->ev_end)) ||
      (begins > 0 && !physics_grow((void **)&w->ev_begin, &w->ev_begin_cap, begins, sizeof *w->ev_begin)))
    return false;
  job.write = true;
  job.ends = ends;
  job.begins = begins;
  physics_parallel_for(w->tasks, blocks, 2, event_task, &job);
  w->ev_end_count = ends;
  w->ev_begin_count = begins;
  return true;
}
