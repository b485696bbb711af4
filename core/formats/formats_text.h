/* core/formats' text form: what its files share (the JSON writer, the
 * C numeric locale for the duration of a dump or load, names of things in
 * words). Never included outside core/formats. */
#ifndef TESS_TEXT_PRIVATE_H
#define TESS_TEXT_PRIVATE_H

#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tessera/textform.h"

/* A growing text buffer that writes JSON the way the text form wants it:
 * keys in the order the caller gives them, one per line inside objects that
 * are written "tall", everything on one line inside "flat" ones. */
typedef struct TextBuf {
  char *data;
  size_t len, cap;
  bool failed; /* out of memory */
  int depth;
  bool first[32];  /* no member yet at this depth */
  bool flat[32];   /* this object or array is on one line */
  char closer[32]; /* '}' or ']' */
} TextBuf;

void text_write_free(TextBuf *b);
void text_write_raw(TextBuf *b, const char *s, size_t n);
void text_write_str(TextBuf *b, const char *s); /* raw, NUL-terminated */
void text_write_printf(TextBuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* JSON pieces. A key is written before each member of an object (NULL for array items). */
void text_write_open(TextBuf *b, const char *key, char bracket, bool flat); /* '{' or '[' */
void text_write_close(TextBuf *b);
void text_write_key_str(TextBuf *b, const char *key, const char *value); /* value NULL = null */
void text_write_key_int(TextBuf *b, const char *key, int64_t value);
void text_write_key_u32(TextBuf *b, const char *key, uint32_t value);
void text_write_key_bool(TextBuf *b, const char *key, bool value);
void text_write_key_f32(TextBuf *b, const char *key, float value);
void text_write_key_f64(TextBuf *b, const char *key, double value);
void text_write_key_vec(TextBuf *b, const char *key, TessVec2 v);      /* [x, y] on one line */
void text_write_key_color(TextBuf *b, const char *key, uint32_t rgba); /* "#rrggbbaa" */

/* Switches the calling thread to the C numeric locale (so "%g" and strtod
 * use '.') until text_locale_pop; the editor runs with the user's locale. */
typedef struct TextLocale {
  locale_t c, old;
} TextLocale;
void text_locale_push(TextLocale *l);
void text_locale_pop(TextLocale *l);

/* Words for enum values, shared by dump, load and diff (index = value). */
extern const char *const TEXT_MATERIAL_KINDS[3];
extern const char *const TEXT_TILE_COLLISIONS[3];
extern const char *const TEXT_MASK_MODES[5];
extern const char *const TEXT_OBJECT_KINDS[5];
extern const char *const TEXT_BODY_SHAPES[4];
extern const char *const TEXT_BODY_TYPES[3];
extern const char *const TEXT_PIN_MODES[3];
extern const char *const TEXT_JOINT_KINDS[2];
extern const char *const TEXT_ZONE_KINDS[4];
extern const char *const TEXT_INTEGRATORS[2];
extern const char *const TEXT_PROP_TYPES[5];
extern const char *const TEXT_LAYER_KINDS[3];
extern const char *const TEXT_VIEWS[2];
/* The word for v, or "?" when out of range. */
const char *text_word(const char *const *words, size_t count, unsigned v);
/* A tileset's "terrains" list (text_terrain.c), nothing when it has none. */
void text_dump_terrains(TextBuf *b, const TessTileset *ts);
#define TEXT_WORD(table, v) text_word(table, sizeof table / sizeof table[0], (unsigned)(v))

/* File names inside a dump (relative to it). */
void text_path_material(char *buf, size_t size, TessId id);
void text_path_tileset(char *buf, size_t size, TessId id, const char *ext);
void text_path_sprite(char *buf, size_t size, TessId id, const char *ext);
void text_path_level_dir(char *buf, size_t size, TessId level);
void text_path_level(char *buf, size_t size, TessId level);
void text_path_rows(char *buf, size_t size, TessId level, TessId layer);
void text_path_objects_dir(char *buf, size_t size, TessId level);
void text_path_object(char *buf, size_t size, TessId level, TessId object);

/* A cell as a row token: "." empty, "S:T" plus flips "h", "v", "d"; a
 * material cell is its id. Returns the length written (buf >= 32). */
int text_cell_token(uint32_t cell, bool material, char *buf);

#endif
