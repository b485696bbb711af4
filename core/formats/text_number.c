/* Shortest round-trip printing of floats and doubles for the text form.
 *
 * jansson prints reals with "%.17g" (JSON_REAL_PRECISION at most 17), which
 * is exact but not short: 0.1f becomes 0.10000000149011612 and a one-digit
 * edit shows as a seventeen-digit one. Here we try each precision from 1 up
 * and keep the first whose text reads back as the same bits, reading it the
 * way the loader does (strtod, then a cast to float for f32), so what we
 * print is by construction what load gets back. */
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

#include "tessera/textform.h"

/* Makes sure a JSON reader sees a real: "1" becomes "1.0", "-0" "-0.0". */
static int as_real(char *buf, int n) {
  if (strpbrk(buf, ".eEn")) return n; /* has a fraction or exponent ("nan"/"inf" never get here) */
  buf[n++] = '.';
  buf[n++] = '0';
  buf[n] = '\0';
  return n;
}

static bool same_f32(const char *s, float v) {
  float back = (float)strtod(s, NULL);
  return memcmp(&back, &v, sizeof v) == 0; /* bits, so -0.0 stays -0.0 */
}

static bool same_f64(const char *s, double v) {
  double back = strtod(s, NULL);
  return memcmp(&back, &v, sizeof v) == 0;
}

/* "%g" picks an exponent for 20 ("2e+01") and 1020 ("1.02e+03"): for
 * magnitudes a person writes plainly (1e-5 up to 1e16) the same digits go
 * in fixed notation, kept only if they read back the same. */
static int plain(char *buf, int n, int prec, double v, bool f32) {
  char *e = strchr(buf, 'e');
  if (!e) return n;
  int ex = atoi(e + 1);
  if (ex < -5 || ex >= 16) return n;
  int decimals = prec - 1 - ex;
  char tmp[TESS_NUMBER_BUF * 2];
  int m = snprintf(tmp, sizeof tmp, "%.*f", decimals > 0 ? decimals : 0, v);
  if (m <= 0 || m >= TESS_NUMBER_BUF - 3 || !(f32 ? same_f32(tmp, (float)v) : same_f64(tmp, v))) return n;
  memcpy(buf, tmp, (size_t)m + 1);
  return m;
}

int tess_format_f32(float v, char buf[TESS_NUMBER_BUF]) {
  if (!isfinite(v)) return snprintf(buf, TESS_NUMBER_BUF, "null");
  int n = 0, prec = 1;
  for (; prec <= 9; prec++) {
    n = snprintf(buf, TESS_NUMBER_BUF, "%.*g", prec, (double)v);
    if (same_f32(buf, v)) break;
  }
  return as_real(buf, plain(buf, n, prec, (double)v, true));
}

int tess_format_f64(double v, char buf[TESS_NUMBER_BUF]) {
  if (!isfinite(v)) return snprintf(buf, TESS_NUMBER_BUF, "null");
  int n = 0, prec = 1;
  for (; prec <= 17; prec++) {
    n = snprintf(buf, TESS_NUMBER_BUF, "%.*g", prec, v);
    if (same_f64(buf, v)) break;
  }
  return as_real(buf, plain(buf, n, prec, v, false));
}
