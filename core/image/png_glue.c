/* libpng callbacks: errors and warnings into a TessPngGlue, memory through tess_alloc. */
#include <stdio.h>

#include "image_png_glue.h"

void image_png_glue_error(png_structp png, png_const_charp message) {
  TessPngGlue *glue = png_get_error_ptr(png);
  if (glue) snprintf(glue->message, sizeof glue->message, "%s", message ? message : "libpng error");
  /* libpng requires that the error callback never returns. */
  png_longjmp(png, 1);
}

void image_png_glue_warning(png_structp png, png_const_charp message) {
  TessPngGlue *glue = png_get_error_ptr(png);
  if (glue && glue->warning[0] == '\0') snprintf(glue->warning, sizeof glue->warning, "%s", message ? message : "");
}

png_voidp image_png_glue_malloc(png_structp png, png_alloc_size_t size) {
  void *p = tess_alloc((size_t)size);
  if (!p) {
    TessPngGlue *glue = png_get_mem_ptr(png);
    if (glue) glue->out_of_memory = true;
  }
  return p;
}

void image_png_glue_free(png_structp png, png_voidp ptr) {
  (void)png;
  tess_free(ptr);
}
