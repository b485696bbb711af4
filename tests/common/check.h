/* The tests' tiny harness: CHECK macros that report file:line and keep
 * going, a temporary directory per test, and the leak check every test ends
 * with (the allocator's live byte count back at zero). */
#ifndef TESS_TEST_CHECK_H
#define TESS_TEST_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tessera/base.h"

extern int tess_test_failures;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      tess_test_failures++;                                                    \
    }                                                                          \
  } while (0)

#define CHECK_MSG(cond, ...)                                                   \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                            \
      fputc('\n', stderr);                                                     \
      tess_test_failures++;                                                    \
    }                                                                          \
  } while (0)

/* |a - b| <= tol */
#define CHECK_NEAR(a, b, tol)                                                        \
  do {                                                                               \
    double check_a_ = (double)(a), check_b_ = (double)(b), check_t_ = (double)(tol); \
    if (!(fabs(check_a_ - check_b_) <= check_t_)) {                                  \
      fprintf(stderr, "%s:%d: CHECK_NEAR failed: %s = %.9g, %s = %.9g, tol %.3g\n",  \
              __FILE__, __LINE__, #a, check_a_, #b, check_b_, check_t_);             \
      tess_test_failures++;                                                          \
    }                                                                                \
  } while (0)

/* |a - b| <= rel * |b| */
#define CHECK_REL(a, b, rel) CHECK_NEAR(a, b, fabs((double)(b)) * (double)(rel))

/* A call returning TessResult that must succeed; prints the error otherwise. */
#define CHECK_OK(call, errp)                                                    \
  do {                                                                          \
    TessResult check_r_ = (call);                                               \
    if (check_r_ != TESS_OK) {                                                  \
      char check_buf_[1200];                                                    \
      tess_error_format((errp), check_buf_, sizeof check_buf_);                 \
      fprintf(stderr, "%s:%d: %s returned %s: %s\n", __FILE__, __LINE__, #call, \
              tess_result_string(check_r_), check_buf_);                        \
      tess_test_failures++;                                                     \
    }                                                                           \
  } while (0)

typedef void (*TessTestFn)(void);

typedef struct TessTestCase {
  const char *name;
  TessTestFn fn;
} TessTestCase;

/* Runs every case (or only the one named in argv[1]), checks for leaks after
 * each, and returns the process exit status. */
int tess_test_run(int argc, char **argv, const TessTestCase *cases, size_t count);

/* A fresh directory under $TMPDIR for this process; removed at exit when all passed. */
const char *tess_test_tmpdir(void);
/* tmpdir/name into buf. */
const char *tess_test_path(char *buf, size_t size, const char *name);

/* The tessera-pipeline under test: $TESS_PIPELINE, else the one on PATH. */
const char *tess_test_pipeline(void);
/* Runs a shell command formatted as printf does; its exit status, or -1 if it
 * did not exit (killed by a signal). */
int tess_test_system(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Deterministic PRNG for tests (xorshift64*). */
typedef struct TessTestRng {
  uint64_t s;
} TessTestRng;
static inline uint64_t tess_rng_next(TessTestRng *r) {
  r->s ^= r->s >> 12;
  r->s ^= r->s << 25;
  r->s ^= r->s >> 27;
  return r->s * 0x2545F4914F6CDD1Dull;
}
static inline uint32_t tess_rng_below(TessTestRng *r, uint32_t n) { return n ? (uint32_t)(tess_rng_next(r) % n) : 0; }
static inline double tess_rng_unit(TessTestRng *r) { return (double)(tess_rng_next(r) >> 11) * (1.0 / 9007199254740992.0); }

#define TESS_TEST_MAIN(...)                                                  \
  int main(int argc, char **argv) {                                          \
    static const TessTestCase cases[] = {__VA_ARGS__};                       \
    return tess_test_run(argc, argv, cases, sizeof cases / sizeof cases[0]); \
  }
#define TEST(fn) \
  { #fn, fn }

#endif
