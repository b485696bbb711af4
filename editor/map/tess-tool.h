/* The map view's tools (the shell's window actions select them). */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef enum {
  TESS_TOOL_BRUSH = 0,      /* B: paints the stamp (one or many tiles) */
  TESS_TOOL_ERASER,         /* E: erases a brush-size square */
  TESS_TOOL_RECTANGLE,      /* R: fills a dragged rectangle with the stamp, tiled */
  TESS_TOOL_BUCKET,         /* G: flood fill with the stamp's first tile */
  TESS_TOOL_PICKER,         /* I: picks a tile (or a dragged rectangle of tiles) as the stamp */
  TESS_TOOL_MATERIAL_BRUSH, /* M: paints the selected material, brush-size square */
  TESS_TOOL_SELECT,         /* S: rectangular selection; move, cut, copy, paste */
  TESS_TOOL_OBJECT,         /* O: place, select, move, rotate, delete objects; join bodies */
  TESS_TOOL_COUNT
} TessTool;

GType tess_tool_get_type(void);
#define TESS_TYPE_TOOL (tess_tool_get_type())

G_END_DECLS
