/* Sprites and their masks: defaults, validation, deep copies. */
#include "level_private.h"

void tess_sprite_mask_default(TessSpriteMask *mask) {
  memset(mask, 0, sizeof *mask);
  mask->threshold = 1;
  mask->mode = TESS_MASK_SIMPLIFIED;
  mask->max_vertices = 8;
  mask->tolerance = 1.0f;
}

void tess_sprite_mask_clear(TessSpriteMask *mask) {
  if (!mask) return;
  tess_free(mask->hull);
  tess_free(mask->pieces);
  mask->hull = NULL;
  mask->pieces = NULL;
  mask->hull_count = 0;
  mask->piece_count = 0;
}

TessResult tess_sprite_mask_copy(TessSpriteMask *dst, const TessSpriteMask *src) {
  TessSpriteMask m = *src;
  m.hull = NULL;
  m.pieces = NULL;
  if (src->hull_count && src->hull) {
    m.hull = tess_calloc(src->hull_count, sizeof *m.hull);
    if (!m.hull) return TESS_ERR_NOMEM;
    memcpy(m.hull, src->hull, src->hull_count * sizeof *m.hull);
  } else {
    m.hull_count = 0;
  }
  if (src->piece_count && src->pieces) {
    m.pieces = tess_calloc(src->piece_count, sizeof *m.pieces);
    if (!m.pieces) {
      tess_free(m.hull);
      return TESS_ERR_NOMEM;
    }
    memcpy(m.pieces, src->pieces, src->piece_count * sizeof *m.pieces);
  } else {
    m.piece_count = 0;
  }
  *dst = m;
  return TESS_OK;
}

void tess_sprite_clear(TessSprite *s) {
  if (!s) return;
  tess_free(s->source_path);
  tess_free(s->png);
  tess_sprite_mask_clear(&s->mask);
  memset(s, 0, sizeof *s);
}

TessResult tess_sprite_copy(TessSprite *dst, const TessSprite *src) {
  TessSprite s = *src;
  s.source_path = NULL;
  s.png = NULL;
  memset(&s.mask, 0, sizeof s.mask);
  if (src->source_path && !(s.source_path = tess_strdup(src->source_path))) return TESS_ERR_NOMEM;
  if (src->png_size) {
    s.png = tess_alloc(src->png_size);
    if (!s.png) {
      tess_sprite_clear(&s);
      return TESS_ERR_NOMEM;
    }
    memcpy(s.png, src->png, src->png_size);
  }
  if (tess_sprite_mask_copy(&s.mask, &src->mask) != TESS_OK) {
    tess_sprite_clear(&s);
    return TESS_ERR_NOMEM;
  }
  *dst = s;
  return TESS_OK;
}

static bool finite_d(double v) { return isfinite(v); }

TessResult level_sprite_validate(const TessSprite *s, TessError *err) {
  TessResult nr = level_name_check(s->name, false, "sprite", err);
  if (nr != TESS_OK) return nr;
  if (s->png_size && !s->png)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "sprite %s: png_size without bytes", s->name);
  if (s->frame_count < 1)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "sprite %s frame_count is 0", s->name);
  if (s->image_w && s->frame_count > s->image_w)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "sprite %s frame_count %u exceeds its width %u",
                          s->name, s->frame_count, s->image_w);
  if (!isfinite(s->frame_rate) || s->frame_rate < 0)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "sprite %s frame_rate %g is not finite and >= 0",
                          s->name, (double)s->frame_rate);
  if (!tess_v2_is_finite(s->anchor))
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "sprite %s anchor is not finite", s->name);
  if (fabsf(s->anchor.x) > TESS_OBJECT_MAX_PX || fabsf(s->anchor.y) > TESS_OBJECT_MAX_PX)
    return tess_error_set(err, TESS_ERR_LIMIT, LEVEL_FILE, "sprite %s anchor is beyond %g px", s->name,
                          (double)TESS_OBJECT_MAX_PX);
  const TessSpriteMask *m = &s->mask;
  if (m->mode > TESS_MASK_BOX)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "sprite %s mask mode %u is unknown", s->name, m->mode);
  if (!isfinite(m->tolerance) || m->tolerance < 0)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "sprite %s mask tolerance is not finite and >= 0",
                          s->name);
  if (!tess_v2_is_finite(m->circle_center) || !isfinite(m->circle_radius) || m->circle_radius < 0)
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "sprite %s mask circle is not finite", s->name);
  if ((m->hull_count && !m->hull) || (m->piece_count && !m->pieces))
    return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "sprite %s mask counts without data", s->name);
  if (!(m->circle_radius <= TESS_OBJECT_MAX_PX) || !(fabsf(m->circle_center.x) <= TESS_OBJECT_MAX_PX) ||
      !(fabsf(m->circle_center.y) <= TESS_OBJECT_MAX_PX))
    return tess_error_set(err, TESS_ERR_LIMIT, LEVEL_FILE, "sprite %s mask circle is beyond %g px", s->name,
                          (double)TESS_OBJECT_MAX_PX);
  for (uint32_t i = 0; i < m->hull_count; i++)
    if (!tess_v2_is_finite(m->hull[i]) || fabsf(m->hull[i].x) > TESS_OBJECT_MAX_PX ||
        fabsf(m->hull[i].y) > TESS_OBJECT_MAX_PX)
      return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "sprite %s hull vertex %u is not finite or beyond %g px",
                            s->name, i, (double)TESS_OBJECT_MAX_PX);
  for (uint32_t i = 0; i < m->piece_count; i++) {
    TessResult r = level_polygon_validate(&m->pieces[i], "sprite mask piece", err);
    if (r) return r;
  }
  TessResult ir = level_image_bytes_check(s->png, s->png_size, s->image_w, s->image_h, "sprite", s->name, err);
  if (ir != TESS_OK) return ir;
  double sums[] = {m->area, m->centroid_x, m->centroid_y, m->inertia, m->shape_area, m->shape_centroid_x,
                   m->shape_centroid_y, m->shape_inertia, m->added_area, m->uncovered_area};
  for (size_t i = 0; i < sizeof sums / sizeof sums[0]; i++)
    if (!finite_d(sums[i]))
      return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "sprite %s mass property %zu is not finite",
                            s->name, i);
  return TESS_OK;
}
