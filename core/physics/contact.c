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

static Constraint *constraint_push(TessWorld *w, uint32_t points, uint32_t *offset) {
  size_t need = w->cbuf_size + physics_constraint_size(points);
  if (need > UINT32_MAX) return NULL;
  if (!PHYS_GROW(w->coff, &w->coff_cap, w->coff_count + 1)) return NULL;
  if (need > w->cbuf_cap) {
    size_t cap = w->cbuf_cap ? w->cbuf_cap * 2 : 4096;
    while (cap < need) cap *= 2;
    /* a fresh block, aligned to a cache line, with this step's constraints so far */
    uint8_t *raw = tess_realloc(NULL, cap + 64);
    if (!raw) return NULL;
    uint8_t *base = (uint8_t *)(((uintptr_t)raw + 63u) & ~(uintptr_t)63u);
    if (w->cbuf_size) memcpy(base, w->cbuf, w->cbuf_size);
    tess_free(w->cbuf_raw);
    w->cbuf_raw = raw;
    w->cbuf = base;
    w->cbuf_cap = cap;
  }
  *offset = (uint32_t)w->cbuf_size;
  w->coff[w->coff_count++] = *offset;
  Constraint *c = (Constraint *)(w->cbuf + w->cbuf_size);
  w->cbuf_size = need;
  return c;
}

/* The contact's points and constraint from the manifold; impulses from
 * `prev` (matched by feature id) when given. */
static bool build(TessWorld *w, uint32_t index, const Manifold *m, float friction, float restitution,
                  float tangential, const uint32_t *prev_id, const float *prev_ni, const float *prev_ti,
                  uint32_t prev_count) {
  uint32_t offset;
  Constraint *k = constraint_push(w, m->count, &offset);
  if (!k) return false;
  Contact *c = &w->contacts[index];
  c->constraint = offset;
  c->point_count = m->count;
  k->contact = index;
  k->point_count = m->count;
  k->normal = m->normal;
  k->point = m->p[0].point;
  k->friction = friction;
  k->restitution = restitution;
  k->tangential = tangential;
  if (restitution != 0.0f || tangential != 1.0f) w->any_impact_material = true;
  k->state_a = c->body_a; /* body slots until physics_contact_prepare makes them solver states */
  k->state_b = c->body_b;
  k->solve = 0;
  k->gap_open[0] = k->gap_open[1] = 0;
  /* the step's compact copies (centres, world shapes), warm from the collision just made,
   * rather than the large Body and Shape structs in random order */
  bool a = c->body_a != TESS_NULL_INDEX, b = c->body_b != TESS_NULL_INDEX;
  TessVec2 ca = a ? w->centers[c->body_a] : tess_v2(0, 0), cb = b ? w->centers[c->body_b] : tess_v2(0, 0);
  float rad_a = c->shape_a == TESS_NULL_INDEX ? 0.0f : w->wpolys[c->shape_a].radius;
  float rad_b = c->shape_b == TESS_NULL_INDEX ? 0.0f : w->wpolys[c->shape_b].radius;
  TessVec2 n = m->normal;
  ContactPoint *pts = physics_constraint_points(k);
  float min_sep = FLT_MAX;
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
      if (prev_id[q] == m->p[i].id) {
        p->normal_impulse = prev_ni[q];
        p->tangent_impulse = prev_ti[q];
        break;
      }
    if (sep < min_sep) min_sep = sep;
  }
  if (m->count > 0 && min_sep <= w->def.linear_slop) c->flags |= CONTACT_TOUCHING;
  return true;
}

bool physics_contact_init(TessWorld *w, uint32_t index, const Manifold *m, float friction, float restitution,
                          float tangential) {
  Contact *c = &w->contacts[index];
  c->flags &= CONTACT_MAP;
  /* last step's contact with the same key: contacts come out in key order (the body pairs
   * sorted, then the map's by shape and cell), so the one after the last match is tried
   * first, then a few after it (contacts that ended), the key table only then */
  if (c->key <= w->last_key) w->contacts_in_order = false;
  w->last_key = c->key;
  uint32_t old = w->match_hint;
  for (uint32_t skip = 0; skip < 8 && old < w->contacts_old_count && w->contacts_old[old].key < c->key; skip++) old++;
  bool absent = w->old_in_order && w->old_kept == 0 && old >= w->match_hint &&
                (old >= w->contacts_old_count || w->contacts_old[old].key > c->key) &&
                (old == 0 || w->contacts_old[old - 1].key < c->key);
  if (absent) return build(w, index, m, friction, restitution, tangential, NULL, NULL, NULL, 0);
  if (old >= w->contacts_old_count || w->contacts_old[old].key != c->key) {
    if (!w->table_valid) {
      if (!physics_keytable_build(&w->contact_table, w->contacts_old, w->contacts_old_count)) return false;
      w->table_valid = true;
    }
    old = physics_keytable_find(&w->contact_table, c->key);
  }
  if (old != TESS_NULL_INDEX && old < w->contacts_old_count && w->contacts_old[old].key == c->key) {
    Contact *o = &w->contacts_old[old];
    w->match_hint = old + 1;
    if (o->flags & CONTACT_TOUCHING) c->flags |= CONTACT_WAS_TOUCHING;
    o->flags |= CONTACT_CONTINUED;
    return build(w, index, m, friction, restitution, tangential, o->id, o->normal_impulse, o->tangent_impulse,
                 o->point_count);
  }
  return build(w, index, m, friction, restitution, tangential, NULL, NULL, NULL, 0);
}

bool physics_contact_rebuild(TessWorld *w, uint32_t index, const Manifold *m, float friction, float restitution,
                             float tangential) {
  Contact *c = &w->contacts[index];
  uint32_t id[2] = {c->id[0], c->id[1]};
  float ni[2] = {c->normal_impulse[0], c->normal_impulse[1]}, ti[2] = {c->tangent_impulse[0], c->tangent_impulse[1]};
  uint32_t count = c->point_count;
  c->flags &= CONTACT_MAP | CONTACT_WAS_TOUCHING;
  return build(w, index, m, friction, restitution, tangential, id, ni, ti, count);
}
