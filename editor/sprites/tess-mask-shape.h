/* Hand edits of a sprite's collision shape (the mask's pieces), as
 * PhysicsEditor users expect: move, insert or remove a vertex. After each
 * edit the mask is marked manual and its shape readouts are recomputed:
 * shape mass properties (area, centroid, inertia of the union of pieces),
 * added area (shape area outside the exact hull) and uncovered area
 * (opaque pixel area outside every piece, exact: pixel squares clipped
 * against the pieces). Plain C over core types, no GTK. */
#pragma once

#include <stdbool.h>

#include "tessera/image.h"
#include "tessera/level.h"

/* Moves vertex `vertex` of piece `piece` to (x, y) (frame pixels); false
 * (nothing moved) when the piece would stop being convex. */
bool tess_mask_shape_move_vertex(TessSpriteMask *mask, uint32_t piece, uint32_t vertex, float x, float y);
/* Inserts (x, y) after vertex `after` of piece `piece`; false when the piece
 * already has TESS_POLY_MAX vertices. */
bool tess_mask_shape_insert_vertex(TessSpriteMask *mask, uint32_t piece, uint32_t after, float x, float y);
/* Removes a vertex; false when the piece would keep fewer than 3. */
bool tess_mask_shape_remove_vertex(TessSpriteMask *mask, uint32_t piece, uint32_t vertex);

/* Recomputes shape_area/centroid/inertia, added_area and uncovered_area from
 * the pieces (or the circle in circle mode), with `frame` the sprite's first
 * frame and mask->threshold. Sets manual = 1. */
void tess_mask_shape_update(TessSpriteMask *mask, TessImageView frame);

/* Nearest vertex to (x, y) within `radius` (frame pixels); false if none. */
bool tess_mask_shape_pick_vertex(const TessSpriteMask *mask, float x, float y, float radius, uint32_t *piece,
                                 uint32_t *vertex);
/* Nearest edge to (x, y) within `radius`: the edge from `vertex` to the next. */
bool tess_mask_shape_pick_edge(const TessSpriteMask *mask, float x, float y, float radius, uint32_t *piece,
                               uint32_t *vertex);
