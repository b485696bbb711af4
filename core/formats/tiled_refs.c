/* Object references in a map: Tiled's `object` properties and Tessera's
 * joints name other objects by the map's object id. The plan keeps those
 * ids and lists where the properties are; a reference to an object the map
 * does not have (or that was not imported) is warned about and cleared
 * here, and apply rewrites the rest to the ids the objects received. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats_tiled.h"

static TessResult nomem(const char *file, TessError *err) { return tess_error_set(err, TESS_ERR_NOMEM, file, "out of memory"); }

TessResult tiled_note_refs(TessMapImport *plan, uint32_t layer, uint32_t object, const TiledObject *ob, TessError *err) {
  const TessObject *o = &plan->layers[layer].objects[object];
  for (uint32_t i = 0; i < ob->props.count; i++) {
    const TiledProp *tp = &ob->props.items[i];
    if (strcmp(tp->type, "object") != 0) continue;
    /* The name as the object holds it (cut like tiled_name_copy does, without a second warning). */
    char name[TESS_NAME_MAX];
    size_t n = strlen(tp->name);
    if (n >= TESS_NAME_MAX) {
      n = TESS_NAME_MAX - 1;
      while (n > 0 && ((unsigned char)tp->name[n] & 0xC0) == 0x80) n--;
    }
    memcpy(name, tp->name, n);
    name[n] = 0;
    const TessProperty *p = tess_object_property(o, name);
    if (!p || p->type != TESS_PROP_INT) continue; /* consumed by Tessera's vocabulary (a joint's body_a) */
    bool seen = false;
    for (uint32_t k = 0; k < plan->ref_count && !seen; k++)
      seen = plan->refs[k].layer == layer && plan->refs[k].object == object && strcmp(plan->refs[k].name, name) == 0;
    if (seen) continue;
    TessImportRef *refs = tess_realloc(plan->refs, ((size_t)plan->ref_count + 1) * sizeof *refs);
    if (!refs) return nomem(plan->source, err);
    plan->refs = refs;
    TessImportRef *r = &refs[plan->ref_count++];
    r->layer = layer;
    r->object = object;
    memcpy(r->name, name, sizeof name);
  }
  return TESS_OK;
}

static int cmp_id(const void *a, const void *b) {
  TessId x = *(const TessId *)a, y = *(const TessId *)b;
  return x < y ? -1 : x > y;
}

static bool known(const TessId *ids, size_t n, TessId id) { return bsearch(&id, ids, n, sizeof *ids, cmp_id) != NULL; }

static void check(TessMapImport *plan, const TessId *ids, size_t n, const TessObject *o, const char *what, TessId *id) {
  if (!*id || known(ids, n, *id)) return;
  tess_map_import_warn(plan,
                       "object %u '%s': %s names object %u, which the map does not have or which was not imported%s "
                       "(cleared)",
                       o->id, o->name, what, *id, o->kind == TESS_OBJECT_JOINT ? " as a body" : "");
  *id = 0;
}

TessResult tiled_resolve_refs(TessMapImport *plan, TessError *err) {
  size_t n = 0;
  for (uint32_t l = 0; l < plan->layer_count; l++) n += plan->layers[l].object_count;
  TessId *ids = tess_alloc((n ? 2 * n : 1) * sizeof *ids), *bodies = ids ? ids + n : NULL;
  if (!ids) return nomem(plan->source, err);
  size_t b = 0;
  n = 0;
  for (uint32_t l = 0; l < plan->layer_count; l++)
    for (uint32_t k = 0; k < plan->layers[l].object_count; k++) {
      const TessObject *o = &plan->layers[l].objects[k];
      if (o->id) ids[n++] = o->id;
      if (o->id && o->kind == TESS_OBJECT_BODY) bodies[b++] = o->id;
    }
  qsort(ids, n, sizeof *ids, cmp_id);
  qsort(bodies, b, sizeof *bodies, cmp_id);
  for (uint32_t l = 0; l < plan->layer_count; l++)
    for (uint32_t k = 0; k < plan->layers[l].object_count; k++) {
      TessObject *o = &plan->layers[l].objects[k];
      if (o->kind != TESS_OBJECT_JOINT) continue;
      /* A joint joins bodies: a reference to a zone or a spawn is as unknown as a missing one. */
      check(plan, bodies, b, o, "body_a", &o->u.joint.body_a);
      check(plan, bodies, b, o, "body_b", &o->u.joint.body_b);
    }
  for (uint32_t i = 0; i < plan->ref_count; i++) {
    const TessImportRef *r = &plan->refs[i];
    TessObject *o = &plan->layers[r->layer].objects[r->object];
    for (uint32_t k = 0; k < o->prop_count; k++) {
      TessProperty *p = &o->props[k];
      if (strcmp(p->name, r->name) || p->type != TESS_PROP_INT) continue;
      TessId id = p->v.i > 0 && p->v.i <= UINT32_MAX ? (TessId)p->v.i : 0;
      char what[TESS_NAME_MAX + 16];
      snprintf(what, sizeof what, "property '%s'", p->name);
      if (p->v.i && !id) tess_map_import_warn(plan, "object %u '%s': %s is not an object id (cleared)", o->id, o->name, what);
      else check(plan, ids, n, o, what, &id);
      p->v.i = id;
    }
  }
  tess_free(ids);
  return TESS_OK;
}
