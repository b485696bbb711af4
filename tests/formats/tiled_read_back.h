/* The tests' own reading of exported Tiled files: TMJ/TSJ through jansson
 * and TMX/TSX through expat into one plain structure, so the two formats
 * can be compared with each other and with the project they came from.
 * Values keep their text form canonically (numbers as %.17g of the double
 * read), so "equal" means equal to the last bit. */
#ifndef TESS_TESTS_TILED_READ_BACK_H
#define TESS_TESTS_TILED_READ_BACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct RbProp {
  char name[128], type[16];
  char *value; /* malloc'd */
} RbProp;

typedef struct RbProps {
  size_t n;
  RbProp v[64];
} RbProps;

enum { RB_RECT,
       RB_ELLIPSE,
       RB_POINT,
       RB_POLYGON,
       RB_POLYLINE };

typedef struct RbObject {
  uint32_t id, gid;
  char name[256], type[64];
  double x, y, w, h, rotation;
  int shape;
  size_t point_count;
  double points[16][2];
  RbProps props;
} RbObject;

typedef struct RbLayer {
  uint32_t id;
  char name[256];
  bool tiles, visible, locked;
  double opacity;
  RbProps props;
  uint32_t *gids;
  size_t gid_count;
  size_t object_count;
  RbObject *objects;
} RbLayer;

typedef struct RbTile {
  uint32_t id;
  RbProps props;
  size_t object_count;
  RbObject *objects;
  size_t frame_count;
} RbTile;

/* A map or a tileset (whichever the file is). */
typedef struct RbFile {
  uint32_t width, height, tile_w, tile_h, tile_count, columns;
  char name[256], image[256];
  RbProps props;
  size_t tileset_count;
  uint32_t firstgid[64];
  char source[64][256];
  size_t layer_count;
  RbLayer layers[32];
  size_t tile_n;
  RbTile *tiles;
} RbFile;

/* By extension (.tmj/.tsj: jansson; .tmx/.tsx: expat). False with a line
 * on stderr when the file does not parse. A file is large: keep it on the
 * heap (rb_new). */
bool rb_read(const char *path, RbFile *out);
RbFile *rb_new(void);
void rb_delete(RbFile *f);
void rb_free(RbFile *f);
const RbProp *rb_prop(const RbProps *props, const char *name);
/* Every field, layer, object and property equal; the first difference on stderr. */
bool rb_equal(const RbFile *a, const RbFile *b);

#endif
