/* Contacts: the key table that finds last step's contact for warm starting,
 * and turning a manifold into a contact with mixed material values. */
#include <string.h>

#include "physics_private.h"

static uint32_t key_hash(uint64_t key, uint32_t mask) {
  return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & mask;
}

void physics_keytable_free(KeyTable *t) {
  tess_free(t->slots);
  memset(t, 0, sizeof *t);
}

bool physics_keytable_build(KeyTable *t, const Contact *contacts, uint32_t count) {
  uint32_t need = 64;
  while (need < count * 2u + 1u) need *= 2;
  if (need != t->cap) {
    KeySlot *k = tess_realloc(t->slots, (size_t)need * sizeof *k);
    if (!k) return false;
    t->slots = k;
    t->cap = need;
  }
  /* key 0 never occurs (body pair keys have distinct halves, map keys bit 63) */
  memset(t->slots, 0, (size_t)t->cap * sizeof *t->slots);
  uint32_t mask = t->cap - 1;
  for (uint32_t i = 0; i < count; i++) {
    uint64_t key = contacts[i].key;
    uint32_t h = key_hash(key, mask);
    while (t->slots[h].key != 0 && t->slots[h].key != key) h = (h + 1) & mask;
    t->slots[h].key = key;
    t->slots[h].value = i;
  }
  t->count = count;
  return true;
}

uint32_t physics_keytable_find(const KeyTable *t, uint64_t key) {
  if (t->cap == 0) return TESS_NULL_INDEX;
  uint32_t mask = t->cap - 1;
  uint32_t h = key_hash(key, mask);
  while (t->slots[h].key != 0) {
    if (t->slots[h].key == key) return (uint32_t)t->slots[h].value;
    h = (h + 1) & mask;
  }
  return TESS_NULL_INDEX;
}

Contact *physics_contact_push(TessWorld *w) {
  if (!PHYS_GROW(w->contacts, &w->contact_cap, w->contact_count + 1)) return NULL;
  return &w->contacts[w->contact_count++];
}

/* Room in cbuf for `need` bytes in all: a fresh block, aligned to a cache line, with this
 * step's constraints so far. */
static bool cbuf_reserve(TessWorld *w, size_t need) {
  if (need > UINT32_MAX) return false;
  if (need <= w->cbuf_cap) return true;
  size_t cap = w->cbuf_cap ? w->cbuf_cap * 2 : 4096;
  while (cap < need) cap *= 2;
  uint8_t *raw = tess_realloc(NULL, cap + 64);
  if (!raw) return false;
  uint8_t *base = (uint8_t *)(((uintptr_t)raw + 63u) & ~(uintptr_t)63u);
  if (w->cbuf_size) memcpy(base, w->cbuf, w->cbuf_size);
  tess_free(w->cbuf_raw);
  w->cbuf_raw = raw;
  w->cbuf = base;
  w->cbuf_cap = cap;
  return true;
}

/* The radii of the two shapes' rounded cores (0 for the map's side). */
typedef struct Radii {
  float a, b;
} Radii;

/* Contact `index`'s points and its constraint at cbuf offset `offset` from the manifold;
 * impulses from `prev` (matched by feature id) when given. Touches nothing but the contact and
 * its constraint, so the workers fill contacts side by side. The radii come from the caller:
 * the world polygons were last read in the collision pass, and by now reading them again
 * missed the cache for most contacts (contact making spent 58% of its time waiting there at
 * 20,000 circles). True when the constraint has an impact material (restitution, or
 * tangential efficiency below 1). */
static bool fill(const TessWorld *w, Contact *c, uint32_t index, uint32_t offset, const Manifold *m, Radii rad,
                 float friction, float restitution, float tangential, const Contact *prev) {
  Constraint *k = (Constraint *)(w->cbuf + offset);
  c->constraint = offset;
  c->point_count = m->count;
  k->contact = index;
  k->point_count = m->count;
  k->normal = m->normal;
  k->point = m->p[0].point;
  k->friction = friction;
  k->restitution = restitution;
  k->tangential = tangential;
  k->state_a = c->body_a; /* body slots until physics_contact_prepare makes them solver states */
  k->state_b = c->body_b;
  k->solve = 0;
  k->gap_open[0] = k->gap_open[1] = 0;
  /* the step's compact copies (centres, world shapes), warm from the collision just made,
   * rather than the large Body and Shape structs in random order */
  bool a = c->body_a != TESS_NULL_INDEX, b = c->body_b != TESS_NULL_INDEX;
  TessVec2 ca = a ? w->centers[c->body_a] : tess_v2(0, 0), cb = b ? w->centers[c->body_b] : tess_v2(0, 0);
  float rad_a = rad.a, rad_b = rad.b;
  TessVec2 n = m->normal;
  ContactPoint *pts = physics_constraint_points(k);
  float min_sep = FLT_MAX;
  uint32_t prev_count = prev ? prev->point_count : 0;
  for (uint32_t i = 0; i < m->count; i++) {
    ContactPoint *p = &pts[i];
    memset(p, 0, sizeof *p);
    TessVec2 point = m->p[i].point;
    float sep = m->p[i].separation;
    k->gap_open[i] = sep > 0.0f;
    p->ra = a ? tess_v2_sub(point, ca) : tess_v2(0, 0);
    p->rb = b ? tess_v2_sub(point, cb) : tess_v2(0, 0);
    TessVec2 surf_a = tess_v2_mul_add(point, -0.5f * sep, n);
    TessVec2 surf_b = tess_v2_mul_add(point, 0.5f * sep, n);
    p->sa = a ? tess_v2_sub(tess_v2_mul_add(surf_a, -rad_a, n), ca) : tess_v2(0, 0);
    p->sb = b ? tess_v2_sub(tess_v2_mul_add(surf_b, rad_b, n), cb) : tess_v2(0, 0);
    p->base_separation = sep - tess_v2_dot(tess_v2_sub(p->sb, p->sa), n);
    c->id[i] = m->p[i].id;
    c->normal_impulse[i] = c->tangent_impulse[i] = 0.0f;
    for (uint32_t q = 0; q < prev_count; q++)
      if (prev->id[q] == m->p[i].id) {
        p->normal_impulse = prev->normal_impulse[q];
        p->tangent_impulse = prev->tangent_impulse[q];
        break;
      }
    if (sep < min_sep) min_sep = sep;
  }
  if (m->count > 0 && min_sep <= w->def.linear_slop) c->flags |= CONTACT_TOUCHING;
  return restitution != 0.0f || tangential != 1.0f;
}

bool physics_contact_rebuild(TessWorld *w, uint32_t index, const Manifold *m, float friction, float restitution,
                             float tangential) {
  Contact *c = &w->contacts[index];
  Contact prev = *c;
  c->flags &= CONTACT_MAP | CONTACT_WAS_TOUCHING;
  size_t at = w->cbuf_size, need = at + physics_constraint_size(m->count);
  if (!cbuf_reserve(w, need) || !PHYS_GROW(w->coff, &w->coff_cap, w->coff_count + 1)) return false;
  w->cbuf_size = need;
  w->coff[w->coff_count++] = (uint32_t)at;
  Radii rad = {c->shape_a == TESS_NULL_INDEX ? 0.0f : w->wpolys[c->shape_a].radius,
               c->shape_b == TESS_NULL_INDEX ? 0.0f : w->wpolys[c->shape_b].radius};
  if (fill(w, c, index, (uint32_t)at, m, rad, friction, restitution, tangential, &prev)) w->any_impact_material = true;
  return true;
}

/* ---- The narrow phase's contacts, run by run on the workers -------------- */

typedef struct MakeJob {
  TessWorld *w;
  uint32_t pair_runs, map_runs;
  uint32_t parts; /* the threads that share the loop (physics_run_of_item) */
  uint32_t first; /* the first contact made here (after the kept ones), the first constraint's */
  bool sorted;    /* the old list is in key order: binary search and walk, else the key table */
} MakeJob;

/* The first old contact whose key is not below `key` (the old list in order). */
static uint32_t old_lower_bound(const TessWorld *w, uint64_t key) {
  uint32_t lo = 0, hi = w->contacts_old_count;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (w->contacts_old[mid].key < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* Last step's contact with c's key, or NULL; *walk is where the walk through an ordered old list
 * stands (the keys of one run increase). */
static Contact *old_match(const MakeJob *j, uint64_t key, uint32_t *walk) {
  TessWorld *w = j->w;
  uint32_t old;
  if (j->sorted) {
    if (*walk == TESS_NULL_INDEX) *walk = old_lower_bound(w, key);
    while (*walk < w->contacts_old_count && w->contacts_old[*walk].key < key) (*walk)++;
    old = *walk;
  } else {
    old = physics_keytable_find(&w->contact_table, key);
  }
  if (old == TESS_NULL_INDEX || old >= w->contacts_old_count || w->contacts_old[old].key != key) return NULL;
  return &w->contacts_old[old];
}

/* Contact `index` (key, shapes, bodies, cell and flags set) from its manifold: warm-started from
 * last step's contact with the key, which is marked taken over (each old contact has one key, so
 * no two runs mark the same one). */
static void make_one(const MakeJob *j, ContactRun *run, uint32_t index, size_t *byte, const Manifold *m, Radii rad,
                     TessMaterialMix mix, uint32_t *walk) {
  TessWorld *w = j->w;
  Contact *c = &w->contacts[index];
  if (run->contacts == 0) run->first_key = c->key;
  else if (c->key <= run->last_key) run->in_order = false;
  run->last_key = c->key;
  run->contacts++;
  Contact *o = old_match(j, c->key, walk);
  if (o) {
    if (o->flags & CONTACT_TOUCHING) c->flags |= CONTACT_WAS_TOUCHING;
    o->flags |= CONTACT_CONTINUED;
  }
  w->coff[index - j->first] = (uint32_t)*byte;
  if (fill(w, c, index, (uint32_t)*byte, m, rad, mix.friction, mix.restitution, mix.tangential, o)) run->impact = true;
  *byte += physics_constraint_size(m->count);
}

/* How many pairs ahead make_pair_run asks for a proxy. */
#define PREFETCH_PAIRS 8u

static void make_pair_run(const MakeJob *j, ContactRun *run, uint32_t r) {
  TessWorld *w = j->w;
  const Proxy *proxies = w->bp_scratch;
  uint32_t begin = r * PHYS_PAIR_BLOCK, end = begin + PHYS_PAIR_BLOCK;
  if (end > w->pair_count) end = w->pair_count;
  uint32_t index = run->contact_at, sensor = run->sensor_at, walk = TESS_NULL_INDEX;
  size_t byte = run->byte_at;
  for (uint32_t i = begin; i < end; i++) {
    /* b's proxy is a cache miss in random order (a's follow the sorted keys): asked for ahead */
    if (i + PREFETCH_PAIRS < w->pair_count) __builtin_prefetch(&proxies[(uint32_t)w->pairs[i + PREFETCH_PAIRS]]);
    const Manifold *mp = &w->pair_manifolds[i];
    if (mp->count == 0) continue;
    uint32_t ia = (uint32_t)(w->pairs[i] >> 32), ib = (uint32_t)w->pairs[i];
    const Proxy *sa = &proxies[ia], *sb = &proxies[ib];
    if (mp->count == PHYS_SENSOR_OVERLAP) {
      uint32_t s = sa->sensor ? ia : ib, visitor = sa->sensor ? ib : ia;
      SensorOverlap *o = &w->sensors_new[sensor++];
      o->key = ((uint64_t)s << 32) | visitor;
      o->sensor_gen = w->shapes[s].generation;
      o->visitor_gen = w->shapes[visitor].generation;
      continue;
    }
    Contact *c = &w->contacts[index];
    c->key = w->pairs[i];
    c->shape_a = ia;
    c->shape_b = ib;
    c->body_a = sa->body;
    c->body_b = sb->body;
    c->cell = 0;
    c->flags = 0;
    /* tess_material_mix's own inline body: the call was 1% of the 5k rain */
    TessSurface ma = {sa->friction, sa->restitution, sa->tangential}, mb = {sb->friction, sb->restitution, sb->tangential};
    TessMaterialMix mix = tess_surface_mix(ma, mb);
    Radii rad = {sa->radius, sb->radius};
    make_one(j, run, index++, &byte, mp, rad, mix, &walk);
  }
}

static void make_map_run(const MakeJob *j, ContactRun *run, const MapHits *hits) {
  const Proxy *proxies = j->w->bp_scratch;
  uint32_t index = run->contact_at, walk = TESS_NULL_INDEX;
  size_t byte = run->byte_at;
  for (uint32_t i = 0; i < hits->count; i++) {
    const MapHit *h = &hits->hits[i];
    Contact *c = &j->w->contacts[index];
    TessMaterialMix mix = physics_map_hit_contact(j->w, h, c);
    Radii rad = {0.0f, proxies[h->shape].radius}; /* the map side (a) has no radius */
    make_one(j, run, index++, &byte, &h->manifold, rad, mix, &walk);
  }
}

/* The loop hands each thread a part of its items (the pool's parts, in item order), and the runs
 * are dealt the same way (physics_run_of_item). So a thread makes the contacts whose manifolds it
 * collided (the collisions' loop deals its runs alike), from its own cache, and every part gets
 * its share of the map's runs (listed after all the pair runs, they all fell into the last part:
 * at 5,000 circles the last of the 8 chunks was the costliest, twice the mean). Which run is made
 * where leaves no trace: each has its place. */
uint32_t physics_run_of_item(uint32_t pair_runs, uint32_t map_runs, uint32_t parts, uint32_t k) {
  uint32_t p = pair_runs, m = map_runs, t = parts;
  for (uint32_t g = 0;; g++) {
    uint32_t p0 = (uint32_t)((uint64_t)p * g / t), p1 = (uint32_t)((uint64_t)p * (g + 1u) / t);
    uint32_t m0 = (uint32_t)((uint64_t)m * g / t), m1 = (uint32_t)((uint64_t)m * (g + 1u) / t);
    uint32_t size = (p1 - p0) + (m1 - m0);
    if (k < size || g + 1u >= t) return k < p1 - p0 ? p0 + k : p + m0 + (k - (p1 - p0));
    k -= size;
  }
}

static void make_task(void *ctx, uint32_t begin, uint32_t end) {
  const MakeJob *j = ctx;
  for (uint32_t k = begin; k < end; k++) {
    uint32_t r = physics_run_of_item(j->pair_runs, j->map_runs, j->parts, k);
    ContactRun *run = &j->w->contact_runs[r];
    uint32_t counted = run->contacts;
    run->contacts = 0; /* counted again as they are made, with their keys */
    run->in_order = true;
    run->impact = false;
    if (r < j->pair_runs)
      make_pair_run(j, run, r);
    else
      make_map_run(j, run, &j->w->map_pieces[r - j->pair_runs]);
    TESS_ASSERT(run->contacts == counted);
    (void)counted;
  }
}

bool physics_contacts_make(TessWorld *w, uint32_t pair_runs, uint32_t map_runs) {
  uint32_t runs = pair_runs + map_runs;
  /* where each run's contacts, constraints and overlaps go: after the kept contacts (which have
   * no constraint yet) and the carried sensor overlaps */
  uint32_t contacts = w->contact_count, sensors = w->sensors_new_count;
  size_t bytes = w->cbuf_size;
  for (uint32_t r = 0; r < runs; r++) {
    ContactRun *run = &w->contact_runs[r];
    run->contact_at = contacts;
    run->sensor_at = sensors;
    run->byte_at = bytes;
    contacts += run->contacts;
    sensors += run->sensors;
    bytes += (size_t)run->contacts * sizeof(Constraint) + (size_t)run->points * sizeof(ContactPoint);
  }
  uint32_t made = contacts - w->contact_count;
  TESS_ASSERT(w->coff_count == 0 && w->cbuf_size == 0);
  if (!PHYS_GROW(w->contacts, &w->contact_cap, contacts) || !PHYS_GROW(w->coff, &w->coff_cap, made + 1) ||
      !cbuf_reserve(w, bytes) || (sensors > 0 && !PHYS_GROW(w->sensors_new, &w->sensors_new_cap, sensors)))
    return false;
  MakeJob job = {w, pair_runs, map_runs, physics_tasks_threads(w->tasks), w->contact_count,
                 w->old_in_order && w->old_kept == 0};
  if (!job.sorted && !physics_keytable_build(&w->contact_table, w->contacts_old, w->contacts_old_count)) return false;
  physics_parallel_for(w->tasks, runs, 2, make_task, &job);
  /* the order and the impact materials over all runs, in run order */
  uint64_t last = 0;
  for (uint32_t r = 0; r < runs; r++) {
    const ContactRun *run = &w->contact_runs[r];
    if (run->impact) w->any_impact_material = true;
    if (run->contacts == 0) continue;
    if (!run->in_order || run->first_key <= last) w->contacts_in_order = false;
    last = run->last_key;
  }
  w->contact_count = contacts;
  w->coff_count = made;
  w->cbuf_size = bytes;
  w->sensors_new_count = sensors;
  return true;
}
