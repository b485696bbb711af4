/* Private side of the pixel-mask collider (pixel_mask.c): the masks a world
 * holds, and the one call the step makes. */
#ifndef TESS_PHYSICS_PIXEL_MASK_H
#define TESS_PHYSICS_PIXEL_MASK_H

#include "tessera/physics.h"

/* One mask: rows of 64-bit words, pixel x of row y in bit (x & 63) of word
 * y * words + (x >> 6); bits past the width are always 0, so a row's words
 * can be tested whole. */
typedef struct PixelMask {
  uint32_t width, height, words;
  float pixel_size, inv_pixel;
  TessVec2 origin; /* world position of pixel (0, 0)'s top-left corner */
  TessRot q;       /* the mask's x axis in the world (a static body's rotation) */
  float angle;     /* the same, radians in [-pi, pi]: added to a bucket's angle */
  TessAABB bounds; /* the world box of the pixels' rectangle, grown by a pixel: a circle off it skips the mask */
  /* A mask laid on a static body keeps its pose in the body's frame; origin, q, angle and bounds
   * are made from it and the body's transform (physics_pixel_masks_follow). */
  TessBodyId body; /* null: laid on the world */
  TessVec2 local_origin;
  float local_angle;
  /* Removed (tess_world_remove_pixel_mask, or its body destroyed): it collides no more, but keeps
   * its slot and its bits, so indices stay put and restoring a snapshot from before brings it
   * back. A removal asked for during a step waits for the step's end (remove_pending). */
  uint8_t removed, remove_pending;
  /* A mask on a kinematic body moves with it: each step lays it at the body's pose after the
   * solver (physics_pixel_masks_step), and `moving` says the body moved in this step. Then the
   * body's velocities give the surface's velocity at a contact (a ball resting on the mask is
   * carried), and prev_origin / prev_q, the pose before the step, let a fast circle's path be
   * swept in the mask's own frame (where the mask stood still). */
  uint8_t moving;
  float body_w;
  TessVec2 body_v, body_center;
  TessVec2 prev_origin;
  TessRot prev_q;
  TessSurface surface;
  uint64_t user_data;
  uint64_t *bits;
  /* Carving and snapshots (snapshot.c): the bits as created, kept from the first edit on, and
   * which blocks of BLOCK_ROWS rows x one word have been edited since (one bit each). A snapshot
   * holds only those blocks, so recording a carved world in Play costs the carved area, not the
   * mask. */
  uint64_t *orig;
  uint64_t *touched;
  uint64_t edits; /* changes of the bits so far (TessPixelMaskInfo.edits) */
  /* The coarse level: one bit per tile of 8 x 8 pixels, set where any of its pixels is solid, kept
   * with every change of the bits. A circle in open air (most of a rain or a pile) finds its reach
   * empty in a word or two of it, instead of a word per pixel row of the mask, and the scans skip
   * the rows and words of empty tiles. Tile (tx, ty) is bit tx & 63 of word
   * ty * coarse_words + (tx >> 6): word k of the 8 rows of tile row ty is its bits 8k..8k+7. */
  uint64_t *coarse;
  uint32_t coarse_words, coarse_rows;
} PixelMask;

#define PIXEL_MASK_TILE 8u /* pixels per side of a coarse tile: a byte of a word */

#define PIXEL_MASK_BLOCK_ROWS 64u
static inline uint32_t physics_pixel_mask_block_rows(const PixelMask *m) {
  return (m->height + PIXEL_MASK_BLOCK_ROWS - 1) / PIXEL_MASK_BLOCK_ROWS;
}
static inline uint32_t physics_pixel_mask_block_count(const PixelMask *m) { return physics_pixel_mask_block_rows(m) * m->words; }

/* A circle's room among the masks, kept between steps for its shape slot: no boundary pixel's disc of
 * any mask lies within `room` metres of (x, y), for as long as the masks stay as they were at pixel
 * mask epoch `epoch` (an epoch of 0 is never valid). A circle that stays well inside its room needs no
 * look at the pixels: the look would find none near (pixel_mask.c, circle_against_masks). */
typedef struct PixelMaskRoom {
  float x, y, room;
  uint32_t epoch;
} PixelMaskRoom;

/* Every change of the masks' bits, poses or set (add, remove, carve, move, restore) ends the rooms
 * worked out before it. */
void physics_pixel_masks_changed(TessWorld *w);

/* Makes the coarse bits of words k0..k1 of rows y0..y1 (every tile they touch) agree with the bits. */
void physics_pixel_mask_coarse_update(PixelMask *m, uint32_t k0, uint32_t k1, uint32_t y0, uint32_t y1);

/* After the solver has moved the bodies: every circle of an awake dynamic
 * body against the masks (push out, then the velocity response). */
void physics_pixel_masks_step(TessWorld *w, float dt);
/* Body `body` moved (tess_body_set_transform): its masks follow it, and the bodies asleep over their
 * old or new places wake. */
void physics_pixel_masks_body_moved(TessWorld *w, TessBodyId body);
/* Every mask laid on a body is laid where its body is now (after a restore). */
void physics_pixel_masks_follow_bodies(TessWorld *w);
/* Body `body` is being destroyed (at once, or at the end of the step that asked): its masks are
 * removed and the bodies asleep over them wake. */
void physics_pixel_masks_body_destroyed(TessWorld *w, TessBodyId body);
/* The step's end: removals asked for during it take effect. */
void physics_pixel_masks_end_step(TessWorld *w);
void physics_pixel_masks_free(TessWorld *w);
size_t physics_pixel_masks_bytes(const TessWorld *w);

/* Snapshot side (snapshot.c): bytes of the masks' edited blocks, writing them, reading them
 * back (every block edited in the world or the snapshot takes the snapshot's bits or the
 * original ones), and their share of the world hash (blocks that differ from the original). */
size_t physics_pixel_masks_snapshot_size(const TessWorld *w);
void physics_pixel_masks_snapshot(const TessWorld *w, char **p);
TessResult physics_pixel_masks_restore(TessWorld *w, const char **p, const char *end, TessError *err);
void physics_pixel_masks_hash(const TessWorld *w, TessHasher *h);

#endif
