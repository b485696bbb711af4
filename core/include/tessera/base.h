/* Tessera core: results and errors, the allocator, small vector math,
 * dynamic arrays and the content hash. Plain C11, no dependencies. */
#ifndef TESSERA_BASE_H
#define TESSERA_BASE_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Results and errors ------------------------------------------------ */

typedef enum TessResult {
  TESS_OK = 0,
  TESS_ERR_IO,        /* the operating system refused: open, read, write, rename */
  TESS_ERR_FORMAT,    /* bytes that are not what they claim to be */
  TESS_ERR_VERSION,   /* a file from a newer Tessera */
  TESS_ERR_LIMIT,     /* a size or count beyond what Tessera accepts */
  TESS_ERR_NOMEM,     /* an allocation failed */
  TESS_ERR_INVALID,   /* a value out of range: NaN, negative density, unknown id */
  TESS_ERR_NOT_FOUND, /* a named or numbered thing that does not exist */
  TESS_ERR_LOCKED,    /* the target (layer, file) refuses edits */
  TESS_ERR_READONLY,  /* the project was opened read-only */
  TESS_ERR_EMPTY,     /* nothing to work on (no opaque pixel, empty selection) */
  TESS_ERR_DATABASE,  /* SQLite reported an error */
  TESS_ERR_COUNT
} TessResult;

/* Caller-owned description of a failure. Core fills it and never prints.
 * `place` is a line number or byte offset in `file`; `place_kind` says which. */
typedef enum TessPlaceKind { TESS_PLACE_NONE,
                             TESS_PLACE_LINE,
                             TESS_PLACE_OFFSET } TessPlaceKind;

typedef struct TessError {
  TessResult code;
  TessPlaceKind place_kind;
  uint64_t place;
  char file[512];
  char detail[512];
} TessError;

/* Fills `err` (if not NULL) and returns `code`, so failing paths read
 * `return tess_error_set(err, TESS_ERR_FORMAT, path, "bad magic");`. */
TessResult tess_error_set(TessError *err, TessResult code, const char *file, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
TessResult tess_error_set_at(TessError *err, TessResult code, const char *file, TessPlaceKind kind,
                             uint64_t place, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
void tess_error_clear(TessError *err);
/* A stable English name of a code, e.g. "format error". */
const char *tess_result_string(TessResult code);
/* "file:place: detail" into buf (the pipeline's message form). */
void tess_error_format(const TessError *err, char *buf, size_t size);

/* ---- Outputs (core/base/output_guard.c) --------------------------------- */

/* Lets a command whose purpose is to write a project (with --force) replace one. */
#define TESS_OUTPUT_REPLACE_PROJECT 1u

/* May `output` be written? Refused (TESS_ERR_INVALID, naming both paths) when
 * it is the same file as one of `inputs` (device and inode: through symlinks,
 * "..", hard links), or when it exists and starts with the SQLite header
 * (unless flags has TESS_OUTPUT_REPLACE_PROJECT). Every command calls this
 * for every file it writes before it opens it; core's atomic writers call it
 * too. A project that is replaced must be replaced atomically (a temporary
 * file, then rename). */
TessResult tess_output_check(const char *output, const char *const *inputs, size_t input_count, unsigned flags,
                             TessError *err);
/* True when both paths exist and are the same file. */
bool tess_file_same(const char *a, const char *b);
/* True when path is a regular file that starts with SQLite's 16-byte header. */
bool tess_file_is_sqlite(const char *path);

/* ---- Text leaving the program (core/base/text.c) ------------------------ */

/* Length of the valid UTF-8 sequence at s (1..4), 0 at the end of the string
 * or when s does not start one (overlong, surrogate, beyond U+10FFFF). */
size_t tess_utf8_sequence(const char *s);
bool tess_utf8_valid(const char *s);
/* s as a JSON string, quotes included: valid UTF-8 always (a byte that is
 * not UTF-8 becomes U+FFFD), control characters (C0, DEL, C1) as \u00XX. Writes at most
 * size bytes (NUL-terminated) and returns the length it needed (at most
 * 6 * strlen(s) + 2). */
size_t tess_text_json_quote(const char *s, char *out, size_t size);
/* s safe for a terminal: control characters (C0, DEL, C1), bytes that are
 * not UTF-8 and the backslash become \xNN (\\); everything else stays.
 * Same contract as tess_text_json_quote (at most 8 * strlen(s)). */
size_t tess_text_printable(const char *s, char *out, size_t size);
/* name as a file name stem that is safe everywhere, into out (size bytes,
 * at least 8): ASCII letters, digits, '-', '_', '.' and whole UTF-8
 * sequences of printable characters stay; any other byte or sequence (/, \,
 * C0 and C1 controls, DEL, spaces, quotes, ':', bytes that are not UTF-8)
 * becomes '_'. So the stem is always valid UTF-8, has no leading '.' (no
 * "..", no hidden file) and no trailing '.', is cut between whole
 * sequences, is `fallback` when nothing is left, and a name Windows
 * reserves (con, nul, com1...) gets a leading '_'. */
void tess_text_file_stem(const char *name, char *out, size_t size, const char *fallback);

/* ---- Assertions ---------------------------------------------------------- */

/* Programmer mistakes assert; bad data returns a result (Box2D's B2_ASSERT).
 * On in debug and CI builds (meson's b_ndebug=false, the default here), off
 * when NDEBUG is defined (-Db_ndebug=true) unless TESS_ENABLE_ASSERT says
 * otherwise; off, the call goes on to return its documented error. A
 * failed assertion prints "file:line: assertion failed: expr" and aborts. */
#ifndef TESS_ENABLE_ASSERT
#ifdef NDEBUG
#define TESS_ENABLE_ASSERT 0
#else
#define TESS_ENABLE_ASSERT 1
#endif
#endif
void tess_assert_fail(const char *expr, const char *file, int line);
#if TESS_ENABLE_ASSERT
#define TESS_ASSERT(cond) ((cond) ? (void)0 : tess_assert_fail(#cond, __FILE__, __LINE__))
#else
#define TESS_ASSERT(cond) ((void)0)
#endif

/* ---- Allocator --------------------------------------------------------- */

/* Every core allocation goes through these; the live byte count is atomic and
 * is the one piece of global mutable state (tests assert it returns to zero). */
void *tess_alloc(size_t size);
void *tess_calloc(size_t count, size_t size); /* overflow-checked */
void *tess_realloc(void *ptr, size_t size);
void tess_free(void *ptr);
char *tess_strdup(const char *s);
int64_t tess_alloc_live_bytes(void);
/* The highest live byte count since the last tess_alloc_peak_reset (which
 * sets it to the current live count): a test's bound on the memory one call
 * takes. Shared by every thread, like the live count. */
int64_t tess_alloc_peak_bytes(void);
void tess_alloc_peak_reset(void);

/* Overflow-checked size arithmetic: false when the result would wrap. */
static inline bool tess_size_mul(size_t a, size_t b, size_t *out) {
  if (a != 0 && b > SIZE_MAX / a) return false;
  *out = a * b;
  return true;
}
static inline bool tess_size_add(size_t a, size_t b, size_t *out) {
  if (b > SIZE_MAX - a) return false;
  *out = a + b;
  return true;
}

/* ---- Dynamic array ----------------------------------------------------- */

/* Grows *data (element size `elem`) so that it holds at least `need`
 * elements; *cap is updated. Returns false on overflow or out of memory. */
bool tess_array_reserve(void **data, size_t *cap, size_t need, size_t elem);

/* Typed convenience: TESS_ARRAY(int) ints = {0}; TESS_ARRAY_PUSH(&ints, 5); */
#define TESS_ARRAY(T)  \
  struct {             \
    T *data;           \
    size_t count, cap; \
  }
#define TESS_ARRAY_RESERVE(a, n) \
  tess_array_reserve((void **)&(a)->data, &(a)->cap, (n), sizeof(*(a)->data))
#define TESS_ARRAY_PUSH(a, v) \
  (TESS_ARRAY_RESERVE((a), (a)->count + 1) ? ((a)->data[(a)->count++] = (v), true) : false)
#define TESS_ARRAY_FREE(a) (tess_free((a)->data), (a)->data = NULL, (a)->count = (a)->cap = 0)

/* ---- Vector math (float, physics units) -------------------------------- */

typedef struct TessVec2 {
  float x, y;
} TessVec2;

/* A rotation as cosine and sine (Box2D's b2Rot). */
typedef struct TessRot {
  float c, s;
} TessRot;

typedef struct TessTransform {
  TessVec2 p;
  TessRot q;
} TessTransform;

typedef struct TessAABB {
  TessVec2 lower, upper;
} TessAABB;

static inline TessVec2 tess_v2(float x, float y) {
  TessVec2 v = {x, y};
  return v;
}
static inline TessVec2 tess_v2_add(TessVec2 a, TessVec2 b) { return tess_v2(a.x + b.x, a.y + b.y); }
static inline TessVec2 tess_v2_sub(TessVec2 a, TessVec2 b) { return tess_v2(a.x - b.x, a.y - b.y); }
static inline TessVec2 tess_v2_scale(float s, TessVec2 a) { return tess_v2(s * a.x, s * a.y); }
static inline TessVec2 tess_v2_mul_add(TessVec2 a, float s, TessVec2 b) { return tess_v2(a.x + s * b.x, a.y + s * b.y); }
static inline TessVec2 tess_v2_neg(TessVec2 a) { return tess_v2(-a.x, -a.y); }
static inline float tess_v2_dot(TessVec2 a, TessVec2 b) { return a.x * b.x + a.y * b.y; }
static inline float tess_v2_cross(TessVec2 a, TessVec2 b) { return a.x * b.y - a.y * b.x; }
/* cross(v, s) = (s*v.y, -s*v.x); cross(s, v) = (-s*v.y, s*v.x) */
static inline TessVec2 tess_v2_cross_vs(TessVec2 v, float s) { return tess_v2(s * v.y, -s * v.x); }
static inline TessVec2 tess_v2_cross_sv(float s, TessVec2 v) { return tess_v2(-s * v.y, s * v.x); }
static inline TessVec2 tess_v2_perp(TessVec2 a) { return tess_v2(-a.y, a.x); } /* left perpendicular */
static inline float tess_v2_length_sq(TessVec2 a) { return a.x * a.x + a.y * a.y; }
static inline float tess_v2_length(TessVec2 a) { return sqrtf(a.x * a.x + a.y * a.y); }
static inline float tess_v2_distance(TessVec2 a, TessVec2 b) { return tess_v2_length(tess_v2_sub(a, b)); }
static inline TessVec2 tess_v2_min(TessVec2 a, TessVec2 b) { return tess_v2(fminf(a.x, b.x), fminf(a.y, b.y)); }
static inline TessVec2 tess_v2_max(TessVec2 a, TessVec2 b) { return tess_v2(fmaxf(a.x, b.x), fmaxf(a.y, b.y)); }
static inline TessVec2 tess_v2_lerp(TessVec2 a, TessVec2 b, float t) { return tess_v2(a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)); }
static inline bool tess_v2_is_finite(TessVec2 a) { return isfinite(a.x) && isfinite(a.y); }
/* Unit vector, or zero for a (near) zero vector. */
static inline TessVec2 tess_v2_normalize(TessVec2 a) {
  float len = tess_v2_length(a);
  if (len < 1e-12f) return tess_v2(0.0f, 0.0f);
  return tess_v2_scale(1.0f / len, a);
}

static inline TessRot tess_rot(float angle) {
  TessRot q = {cosf(angle), sinf(angle)};
  return q;
}
static inline TessRot tess_rot_identity(void) {
  TessRot q = {1.0f, 0.0f};
  return q;
}
static inline float tess_rot_angle(TessRot q) { return atan2f(q.s, q.c); }
static inline TessVec2 tess_rot_apply(TessRot q, TessVec2 v) { return tess_v2(q.c * v.x - q.s * v.y, q.s * v.x + q.c * v.y); }
static inline TessVec2 tess_rot_apply_inv(TessRot q, TessVec2 v) { return tess_v2(q.c * v.x + q.s * v.y, -q.s * v.x + q.c * v.y); }
static inline TessRot tess_rot_mul(TessRot a, TessRot b) {
  TessRot q = {a.c * b.c - a.s * b.s, a.s * b.c + a.c * b.s};
  return q;
}
/* Integrate a rotation by an angle increment and renormalise (Box2D's b2IntegrateRotation). */
static inline TessRot tess_rot_integrate(TessRot q, float dangle) {
  TessRot r = {q.c - dangle * q.s, q.s + dangle * q.c};
  float mag = sqrtf(r.c * r.c + r.s * r.s);
  float inv = mag > 0.0f ? 1.0f / mag : 0.0f;
  r.c *= inv;
  r.s *= inv;
  return r;
}
static inline TessRot tess_rot_nlerp(TessRot a, TessRot b, float t) {
  TessRot r = {a.c + t * (b.c - a.c), a.s + t * (b.s - a.s)};
  float mag = sqrtf(r.c * r.c + r.s * r.s);
  float inv = mag > 0.0f ? 1.0f / mag : 0.0f;
  r.c *= inv;
  r.s *= inv;
  return r;
}

static inline TessTransform tess_transform_identity(void) {
  TessTransform t = {{0.0f, 0.0f}, {1.0f, 0.0f}};
  return t;
}
static inline TessVec2 tess_transform_point(TessTransform t, TessVec2 p) { return tess_v2_add(tess_rot_apply(t.q, p), t.p); }
static inline TessVec2 tess_transform_point_inv(TessTransform t, TessVec2 p) { return tess_rot_apply_inv(t.q, tess_v2_sub(p, t.p)); }

static inline bool tess_aabb_overlaps(TessAABB a, TessAABB b) {
  return !(b.lower.x > a.upper.x || b.lower.y > a.upper.y || a.lower.x > b.upper.x || a.lower.y > b.upper.y);
}
static inline TessAABB tess_aabb_union(TessAABB a, TessAABB b) {
  TessAABB r = {tess_v2_min(a.lower, b.lower), tess_v2_max(a.upper, b.upper)};
  return r;
}

/* Double-precision point for mask analysis (sums of a 4096 x 4096 sprite overflow float). */
typedef struct TessDVec2 {
  double x, y;
} TessDVec2;

/* ---- Shared vocabulary ------------------------------------------------- */

/* The few words every module speaks (level, scene, physics, pack, editor),
 * kept here at the bottom so that no module reaches up for them. */

#define TESS_LEVEL_MAX_CELLS 16384 /* cells per side of a level and of a physics tile map */

#define TESS_NAME_MAX 64 /* bytes of a name, including the terminating NUL (UTF-8) */

/* Stable ids of a project's things: 1.., never reused within a project; 0 means none. */
typedef uint32_t TessId;

/* A level's view: side view has gravity, top-down has floor drag instead. */
typedef enum TessView { TESS_VIEW_SIDE = 0,
                        TESS_VIEW_TOP_DOWN = 1 } TessView;

/* Bodies placed overlapping with pin-on-overlap are pinned when the scene is built. */
typedef enum TessPinMode {
  TESS_PIN_NONE = 0,
  TESS_PIN_AT_SMALLER_CENTROID = 1, /* at the smaller body's centre of mass */
  TESS_PIN_AT_OVERLAP_CENTRE = 2,   /* at the centre of the overlap region */
} TessPinMode;

typedef enum TessJointKind {
  TESS_JOINT_PIN = 0,      /* revolute at the object's pos */
  TESS_JOINT_DISTANCE = 1, /* between pos (on body a) and anchor_b (on body b) */
} TessJointKind;

typedef enum TessZoneKind {
  TESS_ZONE_FORCE = 0,        /* constant force (N) on bodies inside the rectangle */
  TESS_ZONE_ACCELERATION = 1, /* constant acceleration (m/s^2) inside the rectangle (wind, currents) */
  TESS_ZONE_ATTRACTOR = 2,    /* point attractor at pos: a = strength / d^2 towards pos, within radius */
  TESS_ZONE_SPRING = 3,       /* harmonic well at pos: a = -strength (x - pos), within radius; strength is
                                 omega^2 (1/s^2), so a body released in it swings with period 2 pi / omega */
} TessZoneKind;

/* How a body moves. */
typedef enum TessBodyType {
  TESS_BODY_STATIC = 0,
  TESS_BODY_KINEMATIC = 1,
  TESS_BODY_DYNAMIC = 2,
} TessBodyType;

/* What a material does when painted on a cell (DESIGN.md). */
typedef enum TessMaterialKind {
  TESS_MATERIAL_SOLID = 0, /* a wall when painted on a cell */
  TESS_MATERIAL_FLOOR = 1, /* walkable; gives floor drag in top-down levels */
  TESS_MATERIAL_FLUID = 2, /* water: buoyancy and drag in side-view levels */
} TessMaterialKind;

/* The kinds of a body's collision shape. */
typedef enum TessShapeType { TESS_SHAPE_CIRCLE = 0,
                             TESS_SHAPE_CAPSULE = 1,
                             TESS_SHAPE_POLYGON = 2 } TessShapeType;

/* What a surface does at a contact (Box2D's b2SurfaceMaterial): Coulomb
 * friction, the normal efficiency (restitution: 0 = dead, 1 = perfect
 * bounce) and the tangential efficiency (speed kept along the surface at an
 * impact). Its defaults and ranges live here and nowhere else. */
typedef struct TessSurface {
  float friction;    /* >= 0, <= TESS_FRICTION_MAX */
  float restitution; /* 0..1 */
  float tangential;  /* 0..1 */
} TessSurface;

#define TESS_FRICTION_DEFAULT 0.6f /* stone on stone */
#define TESS_FRICTION_MAX 100.0f

/* friction 0.6, restitution 0 (dead), tangential 1 (no loss). */
static inline TessSurface tess_surface_default(void) {
  TessSurface s = {TESS_FRICTION_DEFAULT, 0.0f, 1.0f};
  return s;
}

/* Two surfaces in contact (DESIGN.md): friction is the geometric mean
 * (Box2D's rule), the efficiencies multiply. */
static inline TessSurface tess_surface_mix(TessSurface a, TessSurface b) {
  TessSurface m = {sqrtf(a.friction * b.friction), a.restitution * b.restitution, a.tangential * b.tangential};
  return m;
}

/* The numbers a field accepts: [lo, hi], or (lo, hi] when lo_open. Each
 * range has one home, the module that validates the field; the editor's
 * number fields ask that module for it, so a field refuses exactly what an
 * edit would (and says so). NaN is in no range. */
typedef struct TessRange {
  double lo, hi;
  bool lo_open;
} TessRange;

static inline bool tess_range_contains(TessRange r, double v) {
  return (r.lo_open ? v > r.lo : v >= r.lo) && v <= r.hi;
}

typedef enum TessSurfaceField {
  TESS_SURFACE_FRICTION = 0,
  TESS_SURFACE_RESTITUTION = 1,
  TESS_SURFACE_TANGENTIAL = 2,
} TessSurfaceField;

/* The range tess_surface_check holds the field to. */
TessRange tess_surface_range(TessSurfaceField field);

/* The name of the first field that is NaN, infinite or out of range
 * ("friction", "restitution", "tangential"), or NULL when all are fine. */
const char *tess_surface_bad_field(TessSurface s);
/* TESS_OK, or TESS_ERR_INVALID with "<what> <field> <value> is outside
 * [lo, hi]" (or "is NaN", "is infinite") in `err`, naming `file`. */
TessResult tess_surface_check(TessSurface s, const char *what, const char *file, TessError *err);

/* ---- Content hash ------------------------------------------------------ */

/* A streaming 64-bit hash for content hashes (project, level, world state).
 * Deterministic across machines: feed values through the typed helpers,
 * which hash little-endian bytes, never raw structs with padding. */
typedef struct TessHasher {
  uint64_t state;
  uint64_t length;
} TessHasher;

void tess_hasher_init(TessHasher *h);
void tess_hasher_bytes(TessHasher *h, const void *data, size_t size);
void tess_hasher_u32(TessHasher *h, uint32_t v);
void tess_hasher_u64(TessHasher *h, uint64_t v);
void tess_hasher_f32(TessHasher *h, float v); /* hashes the bit pattern; -0 and 0 differ */
void tess_hasher_f64(TessHasher *h, double v);
void tess_hasher_str(TessHasher *h, const char *s); /* length-prefixed; NULL hashes like "" */
uint64_t tess_hasher_finish(const TessHasher *h);
uint64_t tess_hash_bytes(const void *data, size_t size);

/* ---- Clock ------------------------------------------------------------- */

/* Monotonic seconds, for benchmarks and idle timers (never for physics). */
double tess_now_seconds(void);

#ifdef __cplusplus
}
#endif
#endif
