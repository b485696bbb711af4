/* World state hash, and snapshot / restore of the whole mutable state.
 * Every struct copied is plain data (indices, no pointers); the tile map,
 * the definition's callbacks and scratch memory are not part of it. */
#include <string.h>

#include "physics_private.h"
#include "physics_pixel_mask.h"

#define SNAP_MAGIC 0x54505753u /* "SWPT" */
#define SNAP_VERSION 2u        /* 2: the carved blocks of the pixel masks at the end */

uint64_t tess_world_hash(const TessWorld *w) {
  TessHasher h;
  tess_hasher_init(&h);
  for (uint32_t i = 0; i < w->body_count; i++) {
    const Body *b = &w->bodies[i];
    if (!b->in_use) continue;
    tess_hasher_u32(&h, i);
    tess_hasher_u32(&h, b->generation);
    tess_hasher_f32(&h, b->xf.p.x);
    tess_hasher_f32(&h, b->xf.p.y);
    tess_hasher_f32(&h, b->xf.q.c);
    tess_hasher_f32(&h, b->xf.q.s);
    tess_hasher_f32(&h, b->v.x);
    tess_hasher_f32(&h, b->v.y);
    tess_hasher_f32(&h, b->w);
    tess_hasher_u32(&h, b->awake);
  }
  physics_pixel_masks_hash(w, &h); /* carved terrain is state too; uncarved masks add nothing */
  return tess_hasher_finish(&h);
}

typedef struct SnapHeader {
  uint32_t magic, version;
  uint64_t step_count;
  TessVec2 gravity;
  uint32_t body_count, body_free, body_live;
  uint32_t shape_count, shape_free, shape_live;
  uint32_t joint_count, joint_free, joint_live;
  uint32_t contact_count, sensor_count, zone_count;
  uint32_t ev_counts[4];
  uint32_t map_cells;
  uint32_t pmask_count;
} SnapHeader;

static size_t snap_size(const TessWorld *w) {
  return sizeof(SnapHeader) + (size_t)w->body_count * sizeof(Body) + (size_t)w->shape_count * sizeof(Shape) +
         (size_t)w->joint_count * sizeof(Joint) + (size_t)w->contact_count * sizeof(Contact) +
         (size_t)w->sensor_count * sizeof(SensorOverlap) + (size_t)w->zone_count * sizeof(Zone) +
         (size_t)w->ev_begin_count * sizeof(TessContactEvent) + (size_t)w->ev_end_count * sizeof(TessContactEndEvent) +
         ((size_t)w->ev_sbegin_count + w->ev_send_count) * sizeof(TessSensorEvent) +
         physics_pixel_masks_snapshot_size(w);
}

size_t tess_world_snapshot_size(const TessWorld *w) { return snap_size(w); }

static void put(char **p, const void *src, size_t n) {
  if (n) memcpy(*p, src, n);
  *p += n;
}

TessResult tess_world_snapshot(const TessWorld *w, void *buffer, size_t size, TessError *err) {
  TESS_ASSERT(!w->locked && "tess_world_snapshot called during a step");
  if (w->locked) return tess_error_set(err, TESS_ERR_LOCKED, "snapshot", "cannot snapshot during a step");
  size_t need = snap_size(w);
  if (!buffer || size < need)
    return tess_error_set(err, TESS_ERR_LIMIT, "snapshot", "buffer of %zu bytes, %zu needed", size, need);
  SnapHeader hd;
  memset(&hd, 0, sizeof hd);
  hd.magic = SNAP_MAGIC;
  hd.version = SNAP_VERSION;
  hd.step_count = w->step_count;
  hd.gravity = w->def.gravity;
  hd.body_count = w->body_count;
  hd.body_free = w->body_free;
  hd.body_live = w->body_live;
  hd.shape_count = w->shape_count;
  hd.shape_free = w->shape_free;
  hd.shape_live = w->shape_live;
  hd.joint_count = w->joint_count;
  hd.joint_free = w->joint_free;
  hd.joint_live = w->joint_live;
  hd.contact_count = w->contact_count;
  hd.sensor_count = w->sensor_count;
  hd.zone_count = w->zone_count;
  hd.ev_counts[0] = w->ev_begin_count;
  hd.ev_counts[1] = w->ev_end_count;
  hd.ev_counts[2] = w->ev_sbegin_count;
  hd.ev_counts[3] = w->ev_send_count;
  hd.map_cells = w->has_map ? w->map.width * w->map.height : 0;
  hd.pmask_count = w->pmask_count;
  char *p = buffer;
  put(&p, &hd, sizeof hd);
  put(&p, w->bodies, (size_t)w->body_count * sizeof(Body));
  put(&p, w->shapes, (size_t)w->shape_count * sizeof(Shape));
  put(&p, w->joints, (size_t)w->joint_count * sizeof(Joint));
  put(&p, w->contacts, (size_t)w->contact_count * sizeof(Contact));
  put(&p, w->sensors, (size_t)w->sensor_count * sizeof(SensorOverlap));
  put(&p, w->zones, (size_t)w->zone_count * sizeof(Zone));
  put(&p, w->ev_begin, (size_t)w->ev_begin_count * sizeof(TessContactEvent));
  put(&p, w->ev_end, (size_t)w->ev_end_count * sizeof(TessContactEndEvent));
  put(&p, w->ev_sbegin, (size_t)w->ev_sbegin_count * sizeof(TessSensorEvent));
  put(&p, w->ev_send, (size_t)w->ev_send_count * sizeof(TessSensorEvent));
  physics_pixel_masks_snapshot(w, &p);
  return TESS_OK;
}

static bool take(void **dst, uint32_t *cap, uint32_t count, size_t elem, const char **p) {
  if (!physics_grow(dst, cap, count ? count : 1, elem)) return false;
  if (count) memcpy(*dst, *p, (size_t)count * elem);
  *p += (size_t)count * elem;
  return true;
}

TessResult tess_world_restore(TessWorld *w, const void *buffer, size_t size, TessError *err) {
  TESS_ASSERT(!w->locked && "tess_world_restore called during a step");
  if (w->locked) return tess_error_set(err, TESS_ERR_LOCKED, "snapshot", "cannot restore during a step");
  SnapHeader hd;
  if (!buffer || size < sizeof hd) return tess_error_set(err, TESS_ERR_FORMAT, "snapshot", "buffer too small");
  memcpy(&hd, buffer, sizeof hd);
  if (hd.magic != SNAP_MAGIC || hd.version != SNAP_VERSION)
    return tess_error_set(err, TESS_ERR_FORMAT, "snapshot", "not a snapshot of this build");
  if (hd.map_cells != (w->has_map ? w->map.width * w->map.height : 0))
    return tess_error_set(err, TESS_ERR_INVALID, "snapshot", "the world's tile map differs from the snapshot's");
  size_t need = sizeof hd;
  const size_t sizes[] = {(size_t)hd.body_count * sizeof(Body), (size_t)hd.shape_count * sizeof(Shape),
                          (size_t)hd.joint_count * sizeof(Joint), (size_t)hd.contact_count * sizeof(Contact),
                          (size_t)hd.sensor_count * sizeof(SensorOverlap), (size_t)hd.zone_count * sizeof(Zone),
                          (size_t)hd.ev_counts[0] * sizeof(TessContactEvent),
                          (size_t)hd.ev_counts[1] * sizeof(TessContactEndEvent),
                          ((size_t)hd.ev_counts[2] + hd.ev_counts[3]) * sizeof(TessSensorEvent)};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    if (!tess_size_add(need, sizes[i], &need)) return tess_error_set(err, TESS_ERR_FORMAT, "snapshot", "bad sizes");
  if (size < need) return tess_error_set(err, TESS_ERR_FORMAT, "snapshot", "buffer truncated");
  if (hd.pmask_count != w->pmask_count)
    return tess_error_set(err, TESS_ERR_INVALID, "snapshot", "the world has %u pixel masks, the snapshot %u",
                          w->pmask_count, hd.pmask_count);
  /* the masks' part, after the rest, goes first: it is checked whole before anything changes */
  const char *pm = (const char *)buffer + need;
  TessResult r = physics_pixel_masks_restore(w, &pm, (const char *)buffer + size, err);
  if (r != TESS_OK) return r;
  const char *p = (const char *)buffer + sizeof hd;
  if (!take((void **)&w->bodies, &w->body_cap, hd.body_count, sizeof(Body), &p) ||
      !take((void **)&w->shapes, &w->shape_cap, hd.shape_count, sizeof(Shape), &p) ||
      !take((void **)&w->joints, &w->joint_cap, hd.joint_count, sizeof(Joint), &p) ||
      !take((void **)&w->contacts, &w->contact_cap, hd.contact_count, sizeof(Contact), &p) ||
      !take((void **)&w->sensors, &w->sensor_cap, hd.sensor_count, sizeof(SensorOverlap), &p) ||
      !take((void **)&w->zones, &w->zone_cap, hd.zone_count, sizeof(Zone), &p) ||
      !take((void **)&w->ev_begin, &w->ev_begin_cap, hd.ev_counts[0], sizeof(TessContactEvent), &p) ||
      !take((void **)&w->ev_end, &w->ev_end_cap, hd.ev_counts[1], sizeof(TessContactEndEvent), &p) ||
      !take((void **)&w->ev_sbegin, &w->ev_sbegin_cap, hd.ev_counts[2], sizeof(TessSensorEvent), &p) ||
      !take((void **)&w->ev_send, &w->ev_send_cap, hd.ev_counts[3], sizeof(TessSensorEvent), &p))
    return tess_error_set(err, TESS_ERR_NOMEM, "snapshot", "out of memory");
  w->step_count = hd.step_count;
  w->def.gravity = hd.gravity;
  w->body_count = hd.body_count;
  w->body_free = hd.body_free;
  w->body_live = hd.body_live;
  w->shape_count = hd.shape_count;
  w->shape_free = hd.shape_free;
  w->shape_live = hd.shape_live;
  w->joint_count = hd.joint_count;
  w->joint_free = hd.joint_free;
  w->joint_live = hd.joint_live;
  w->contact_count = hd.contact_count;
  w->sensor_count = hd.sensor_count;
  w->zone_count = hd.zone_count;
  w->ev_begin_count = hd.ev_counts[0];
  w->ev_end_count = hd.ev_counts[1];
  w->ev_sbegin_count = hd.ev_counts[2];
  w->ev_send_count = hd.ev_counts[3];
  w->pending_count = 0;
  w->maybe_asleep = true;       /* the restored bodies may sleep */
  w->contacts_in_order = false; /* and the restored contacts be in any order */
  /* a mask laid on a body lies where the restored body is */
  physics_pixel_masks_follow_bodies(w);
  return TESS_OK;
}
