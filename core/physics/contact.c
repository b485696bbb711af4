/* Contacts: the key table that finds last step's contact for warm starting,
 * and turning a manifold into a contact with mixed material values. */
#include <string.h>

#include "physics_internal.h"

static uint32_t key_hash(uint64_t key, uint32_t mask) {
  return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & mask;
}

void phys_keytable_free(KeyTable *t) {
  tess_free(t->keys);
  tess_free(t->values);
  memset(t, 0, sizeof *t);
}

bool phys_keytable_build(KeyTable *t, const Contact *contacts, uint32_t count) {
  uint32_t need = 64;
  while (need < count * 2u + 1u) need *= 2;
  if (need != t->cap) {
    uint64_t *k = tess_realloc(t->keys, (size_t)need * sizeof *k);
    if (!k) return false;
    t->keys = k;
    uint32_t *v = tess_realloc(t->values, (size_t)need * sizeof *v);
    if (!v) return false;
    t->values = v;
    t->cap = need;
  }
  /* key 0 never occurs (body pair keys have distinct halves, map keys bit 63) */
  memset(t->keys, 0, (size_t)t->cap * sizeof *t->keys);
  uint32_t mask = t->cap - 1;
  for (uint32_t i = 0; i < count; i++) {
    uint64_t key = contacts[i].key;
    uint32_t h = key_hash(key, mask);
    while (t->keys[h] != 0 && t->keys[h] != key) h = (h + 1) & mask;
    t->keys[h] = key;
    t->values[h] = i;
  }
  t->count = count;
  return true;
}

uint32_t phys_keytable_find(const KeyTable *t, uint64_t key) {
  if (t->cap == 0) return TESS_NULL_INDEX;
  uint32_t mask = t->cap - 1;
  uint32_t h = key_hash(key, mask);
  while (t->keys[h] != 0) {
    if (t->keys[h] == key) return t->values[h];
    h = (h + 1) & mask;
  }
  return TESS_NULL_INDEX;
}

Contact *phys_contact_push(TessWorld *w) {
  if (!PHYS_GROW(w->contacts, &w->contact_cap, w->contact_count + 1)) return NULL;
  return &w->contacts[w->contact_count++];
}

void phys_contact_init(TessWorld *w, Contact *c, const Manifold *m, uint32_t shape_a, uint32_t shape_b, uint32_t cell,
                       float friction, float restitution, float tangential) {
  c->shape_a = shape_a;
  c->shape_b = shape_b;
  c->cell = cell;
  c->flags = 0;
  c->normal = m->normal;
  c->friction = friction;
  c->restitution = restitution;
  c->tangential = tangential;
  c->point_count = m->count;
  float min_sep = FLT_MAX;
  for (uint32_t i = 0; i < m->count; i++) {
    ContactPoint *p = &c->p[i];
    memset(p, 0, sizeof *p);
    p->point = m->p[i].point;
    p->separation = m->p[i].separation;
    p->id = m->p[i].id;
    if (p->separation < min_sep) min_sep = p->separation;
  }
  if (m->count > 0 && min_sep <= w->def.linear_slop) c->flags |= CONTACT_TOUCHING;
  /* warm start from last step's contact with the same key and feature: the
   * contact after the last one matched is tried first (pairs come out in
   * the same order from step to step), the key table only on a miss */
  uint32_t old = w->match_hint;
  if (old >= w->contacts_old_count || w->contacts_old[old].key != c->key) {
    if (!w->table_valid) {
      if (!phys_keytable_build(&w->contact_table, w->contacts_old, w->contacts_old_count)) return;
      w->table_valid = true;
    }
    old = phys_keytable_find(&w->contact_table, c->key);
  }
  if (old != TESS_NULL_INDEX && old < w->contacts_old_count) {
    Contact *o = &w->contacts_old[old];
    if (o->key == c->key) {
      w->match_hint = old + 1;
      for (uint32_t i = 0; i < c->point_count; i++)
        for (uint32_t k = 0; k < o->point_count; k++)
          if (o->p[k].id == c->p[i].id) {
            c->p[i].normal_impulse = o->p[k].normal_impulse;
            c->p[i].tangent_impulse = o->p[k].tangent_impulse;
            break;
          }
      if (o->flags & CONTACT_TOUCHING) c->flags |= CONTACT_WAS_TOUCHING;
      o->flags |= CONTACT_CONTINUED;
    }
  }
}
