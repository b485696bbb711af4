/* The hostile project corpus shared by the pipeline's torture test and the
 * editor's: real SQLite files made from a good project by SQL edits (bad
 * values of every kind) or by flipped bytes, and real PNGs through libpng. */
#ifndef TESS_HOSTILE_CORPUS_H
#define TESS_HOSTILE_CORPUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HOSTILE_FLIP_FILES 24u

bool hostile_copy(const char *from, const char *to);
uint8_t *hostile_read(const char *path, size_t *size); /* malloc'd */
bool hostile_write(const char *path, const uint8_t *data, size_t size);

/* A w x h RGBA PNG (tess_free it); with pad_to > 0, padded with a tEXt
 * chunk to exactly pad_to bytes (false when it cannot be). */
bool hostile_png(uint32_t w, uint32_t h, size_t pad_to, uint8_t **png, size_t *size);
/* Runs one statement on the file with the blob bound to ?1. */
bool hostile_sql_blob(const char *path, const char *sql, const uint8_t *blob, size_t size);

/* The SQL-edit mutants: how many, and the i-th made from `base` at `path`
 * (*what: a short description for messages). */
size_t hostile_sql_count(void);
bool hostile_make_sql(const char *base, const char *path, size_t i, const char **what);
/* `base` with a few bytes flipped at places chosen by `seed`. */
bool hostile_make_flipped(const char *base, const char *path, uint32_t seed);

#endif
