/* Private to core/image: what libpng's callbacks need, shared by the decoder
 * and the encoder. libpng allocates through tess_alloc (so its memory is
 * counted and a leak is caught by the tests), and its errors and warnings go
 * into this record instead of stderr. */
#ifndef TESS_PNG_GLUE_H
#define TESS_PNG_GLUE_H

#include <png.h>
#include <stdbool.h>

#include "tessera/image.h"

typedef struct TessPngGlue {
  char message[256]; /* libpng's last error */
  char warning[256]; /* libpng's first warning (kept for diagnosis, never printed) */
  bool out_of_memory;
} TessPngGlue;

/* Callbacks for png_create_*_struct_2: error_ptr and mem_ptr are the glue. */
PNG_NORETURN void image_png_glue_error(png_structp png, png_const_charp message);
void image_png_glue_warning(png_structp png, png_const_charp message);
png_voidp image_png_glue_malloc(png_structp png, png_alloc_size_t size);
void image_png_glue_free(png_structp png, png_voidp ptr);

#endif
