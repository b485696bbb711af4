/* Simplified hull: at most N vertices, still containing the exact hull.
 *
 * Removing edge (a, b) of a convex polygon means extending the edges that
 * arrive at a and leave b until they meet at p; a and b become p and the
 * triangle (a, p, b) is added. Only converging neighbours meet beyond the
 * edge (parallel or diverging ones never do: such an edge is not
 * removable). A heap with lazy invalidation picks the cheapest edge each
 * time, so the whole reduction is O(n log n) in the hull's vertex count. */
#include <string.h>

#include "mask_private.h"

typedef struct HeapItem {
  double cost;
  uint32_t edge;    /* the edge starting at this vertex */
  uint32_t version; /* the vertex's version when computed */
} HeapItem;

typedef struct Chain {
  TessDVec2 *v;
  uint32_t *prev, *next, *version;
  uint8_t *alive;
  HeapItem *heap;
  uint32_t heap_count;
} Chain;

static void heap_push(Chain *c, HeapItem it) {
  uint32_t i = c->heap_count++;
  while (i > 0) {
    uint32_t parent = (i - 1) / 2;
    if (c->heap[parent].cost <= it.cost) break;
    c->heap[i] = c->heap[parent];
    i = parent;
  }
  c->heap[i] = it;
}

static HeapItem heap_pop(Chain *c) {
  HeapItem top = c->heap[0];
  HeapItem last = c->heap[--c->heap_count];
  uint32_t i = 0, n = c->heap_count;
  for (;;) {
    uint32_t l = 2 * i + 1, r = l + 1, m = i;
    double mc = last.cost;
    if (l < n && c->heap[l].cost < mc) {
      m = l;
      mc = c->heap[l].cost;
    }
    if (r < n && c->heap[r].cost < mc) m = r;
    if (m == i) break;
    c->heap[i] = c->heap[m];
    i = m;
  }
  if (n) c->heap[i] = last;
  return top;
}

/* Cost of removing the edge starting at vertex a; false when not removable. */
static bool edge_cost(const Chain *c, uint32_t a, double *cost, TessDVec2 *p) {
  uint32_t pa = c->prev[a], b = c->next[a], nb = c->next[b];
  TessDVec2 d1 = tess_d2_sub(c->v[a], c->v[pa]);
  TessDVec2 d2 = tess_d2_sub(c->v[nb], c->v[b]);
  double cr = tess_d2_cross(d1, d2);
  if (!(cr > 1e-12 * sqrt(tess_d2_dot(d1, d1) * tess_d2_dot(d2, d2)))) return false;
  TessDVec2 q;
  if (!tess_line_intersect(c->v[pa], c->v[a], c->v[b], c->v[nb], &q)) return false;
  *p = q;
  *cost = 0.5 * fabs(tess_d2_orient(c->v[a], q, c->v[b]));
  return isfinite(*cost);
}

static void push_edge(Chain *c, uint32_t a) {
  double cost;
  TessDVec2 p;
  if (edge_cost(c, a, &cost, &p)) {
    HeapItem it = {cost, a, c->version[a]};
    heap_push(c, it);
  }
}

TessResult tess_mask_simplify_hull(const TessDVec2 *hull, uint32_t count, uint32_t max_vertices, TessDVec2 *out,
                                   uint32_t *out_count, double *added_area, TessError *err) {
  if (max_vertices < 3)
    return tess_error_set(err, TESS_ERR_INVALID, "", "max vertices %u is below 3", max_vertices);
  if (count < 3) return tess_error_set(err, TESS_ERR_INVALID, "", "a hull needs 3 vertices, got %u", count);
  double hull_area = tess_poly_signed_area(hull, count);
  if (!(hull_area > 0.0))
    return tess_error_set(err, TESS_ERR_INVALID, "", "the hull is not counter-clockwise");
  if (count <= max_vertices) {
    memmove(out, hull, sizeof *out * count);
    *out_count = count;
    if (added_area) *added_area = 0.0;
    return TESS_OK;
  }
  Chain c;
  memset(&c, 0, sizeof c);
  c.v = tess_alloc(sizeof *c.v * count);
  c.prev = tess_alloc(sizeof *c.prev * count);
  c.next = tess_alloc(sizeof *c.next * count);
  c.version = tess_calloc(count, sizeof *c.version);
  c.alive = tess_alloc(count);
  /* Each removal pushes at most four items; the heap never holds more than
   * the initial edges plus those. */
  c.heap = tess_alloc(sizeof *c.heap * (size_t)count * 5);
  TessResult r = TESS_OK;
  if (!c.v || !c.prev || !c.next || !c.version || !c.alive || !c.heap) {
    r = tess_error_set(err, TESS_ERR_NOMEM, "", "out of memory simplifying a hull of %u vertices", count);
    goto done;
  }
  memcpy(c.v, hull, sizeof *c.v * count);
  memset(c.alive, 1, count);
  for (uint32_t i = 0; i < count; i++) {
    c.prev[i] = i ? i - 1 : count - 1;
    c.next[i] = i + 1 < count ? i + 1 : 0;
  }
  for (uint32_t i = 0; i < count; i++) push_edge(&c, i);
  uint32_t n = count;
  uint32_t head = 0;
  while (n > max_vertices && c.heap_count > 0) {
    HeapItem it = heap_pop(&c);
    uint32_t a = it.edge;
    if (!c.alive[a] || c.version[a] != it.version) continue;
    double cost;
    TessDVec2 p;
    if (!edge_cost(&c, a, &cost, &p)) continue;
    uint32_t b = c.next[a];
    /* a becomes p, b disappears */
    c.v[a] = p;
    c.alive[b] = 0;
    c.next[a] = c.next[b];
    c.prev[c.next[b]] = a;
    if (head == b) head = a;
    n--;
    uint32_t pa = c.prev[a], ppa = c.prev[pa], na = c.next[a];
    uint32_t touched[4] = {ppa, pa, a, na};
    for (int k = 0; k < 4; k++) {
      c.version[touched[k]]++;
      push_edge(&c, touched[k]);
    }
  }
  uint32_t k = 0, i = head;
  do {
    out[k++] = c.v[i];
    i = c.next[i];
  } while (i != head && k < n);
  if (k > max_vertices && k == 4 && max_vertices == 3) {
    /* A parallelogram has no removable edge: enclose it in the triangle
     * a, a + 2(b - a), a + 2(d - a), twice its area. */
    TessDVec2 a = out[0], b = out[1], d = out[3];
    out[1] = tess_d2(a.x + 2 * (b.x - a.x), a.y + 2 * (b.y - a.y));
    out[2] = tess_d2(a.x + 2 * (d.x - a.x), a.y + 2 * (d.y - a.y));
    k = 3;
  }
  if (k > max_vertices) {
    r = tess_error_set(err, TESS_ERR_LIMIT, "", "cannot simplify the hull below %u vertices", k);
    goto done;
  }
  *out_count = k;
  if (added_area) *added_area = tess_poly_signed_area(out, k) - hull_area;
done:
  tess_free(c.v);
  tess_free(c.prev);
  tess_free(c.next);
  tess_free(c.version);
  tess_free(c.alive);
  tess_free(c.heap);
  return r;
}
