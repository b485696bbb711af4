/* Assemblies: bodies joined by pins made on overlap (the SLRBS ragdoll and
 * car) are one thing built from parts. The parts overlap where they are
 * pinned and lie close everywhere else (a forearm folds over the upper arm,
 * a head rolls against a shoulder), so contacts between two parts of one
 * assembly would only fight the pins: they never collide with each other.
 * A pin's own pair never collides anyway (collide_connected is off); this
 * extends that to every pair of the same assembly, through the physics'
 * shape groups. Only dynamic bodies join: a ragdoll pinned to a static
 * beam still collides with another ragdoll pinned to the same beam. */
#include <string.h>

#include "scene_private.h"

static uint32_t root_of(uint32_t *parent, uint32_t i) {
  while (parent[i] != i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

TessResult scene_assembly_groups(const TessScene *s, uint16_t *groups, TessError *err) {
  if (s->body_count == 0) return TESS_OK;
  memset(groups, 0, (size_t)s->body_count * sizeof *groups);
  uint32_t *parent = tess_alloc((size_t)s->body_count * sizeof *parent);
  uint16_t *numbers = tess_calloc(s->body_count, sizeof *numbers);
  if (!parent || !numbers) {
    tess_free(parent);
    tess_free(numbers);
    return tess_error_set(err, TESS_ERR_NOMEM, "scene", "out of memory");
  }
  for (uint32_t i = 0; i < s->body_count; i++) parent[i] = i;
  bool any = false;
  for (uint32_t k = 0; k < s->joint_count; k++) {
    const TessSceneJoint *j = &s->joints[k];
    if (!j->from_overlap || j->body_a < 0 || j->body_b < 0) continue;
    if ((uint32_t)j->body_a >= s->body_count || (uint32_t)j->body_b >= s->body_count) continue;
    if (s->bodies[j->body_a].type != TESS_BODY_DYNAMIC || s->bodies[j->body_b].type != TESS_BODY_DYNAMIC) continue;
    uint32_t ra = root_of(parent, (uint32_t)j->body_a), rb = root_of(parent, (uint32_t)j->body_b);
    if (ra != rb) parent[ra > rb ? ra : rb] = ra < rb ? ra : rb; /* the lower index leads: order-free */
    any = true;
  }
  /* Numbered 1.. in body order, so a scene gives the same groups wherever it
   * was made (preview or game). A body alone keeps 0. Past 65535 assemblies
   * the rest get none (their pinned pairs still never collide). */
  uint32_t *size = tess_calloc(s->body_count, sizeof *size);
  if (!size) any = false;
  for (uint32_t i = 0; any && i < s->body_count; i++) size[root_of(parent, i)]++;
  uint32_t next = 1;
  for (uint32_t i = 0; any && i < s->body_count; i++) {
    uint32_t r = root_of(parent, i);
    if (size[r] < 2) continue;
    if (numbers[r] == 0 && next <= 0xFFFFu) numbers[r] = (uint16_t)next++;
    groups[i] = numbers[r];
  }
  bool failed = size == NULL && any;
  tess_free(size);
  if (failed) {
    tess_free(parent);
    tess_free(numbers);
    return tess_error_set(err, TESS_ERR_NOMEM, "scene", "out of memory");
  }
  tess_free(parent);
  tess_free(numbers);
  return TESS_OK;
}
