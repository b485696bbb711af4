/* What collides (DESIGN.md), computed in this one place: the topmost
 * non-empty tile among the layers flagged `collides` gives the shape; the
 * material layer's override, else that tile's default material, gives the
 * material; a cell whose effective material is solid is a full square even
 * without a colliding tile shape. */
#include "level_private.h"

void tess_level_cell_collision(const TessProject *p, const TessLevel *level, uint32_t x, uint32_t y,
                               TessCellCollision *out) {
  memset(out, 0, sizeof *out);
  if (x >= level->settings.width || y >= level->settings.height) return;
  TessId override = 0;
  bool have_tile = false;
  for (uint32_t i = level->layer_count; i-- > 0;) {
    const TessLayer *layer = level->layers[i];
    if (layer->props.kind == TESS_LAYER_MATERIAL) {
      override = tess_layer_cell(layer, x, y);
      continue;
    }
    if (have_tile || layer->props.kind != TESS_LAYER_TILES || !layer->props.collides) continue;
    TessCell cell = tess_layer_cell(layer, x, y);
    if (!cell) continue;
    const TessTileInfo *tile = tess_project_tile(p, cell);
    /* A cell naming no known tile has no shape to give: it counts as empty. */
    if (!tile) continue;
    have_tile = true;
    out->cell = cell;
    out->tile = tile;
    out->kind = tile->collision;
    out->one_way = tile->one_way;
    out->material = tile->material;
  }
  if (override) out->material = override;
  const TessMaterial *m = out->material ? tess_project_material(p, out->material) : NULL;
  if (!m) out->material = 0; /* a dangling id gives no material */
  /* A solid material makes a wall of a cell with no shape; a traced or full
   * tile keeps its own shape (a stone slope stays a slope). */
  if (m && m->kind == TESS_MATERIAL_SOLID && out->kind == TESS_TILE_COLLISION_NONE) {
    out->kind = TESS_TILE_COLLISION_FULL;
    out->one_way = 0;
  }
}
