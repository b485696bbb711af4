/* core/level: undo and redo of long random edit sequences, merged drags,
 * the history's memory bound, and the flood fill against a reference. */
#include "random_edit.h"

void random_edit_sequences_undo_to_start(void) {
  for (uint64_t seed = 1; seed <= 3; seed++) {
    Fixture f;
    TessError err;
    fixture_make(&f);
    TessProject *p = f.p;
    TessTestRng rng = {seed * 0x9E3779B97F4A7C15ull};
    uint64_t start = tess_project_hash(p);
    uint32_t key = tess_project_new_merge_key(p);
    int ok = 0, undo_checks = 0;
    int kinds_ok[EDIT_KINDS] = {0};
    for (int i = 0; i < 2500; i++) {
      uint64_t before = tess_project_hash(p);
      uint32_t pick = tess_rng_below(&rng, 40);
      if (pick == 0 && tess_project_can_undo(p)) {
        CHECK_OK(tess_project_undo(p, &err), &err);
        continue;
      }
      if (pick == 1 && tess_project_can_redo(p)) {
        CHECK_OK(tess_project_redo(p, &err), &err);
        continue;
      }
      TessResult r = random_edit(p, &rng, &key, &err);
      uint64_t after = tess_project_hash(p);
      if (r != TESS_OK) {
        CHECK_MSG(after == before, "step %d: a failed edit (%s: %s) changed the project", i, tess_result_string(r),
                  err.detail);
        continue;
      }
      ok++;
      kinds_ok[edit_kind]++;
      /* Every edit undoes to exactly where it started when it is its own step:
       * check that on a sample (undo then redo must give the edit back). */
      if (after != before && i % 7 == 0 && tess_project_can_undo(p)) {
        CHECK_OK(tess_project_undo(p, &err), &err);
        CHECK_OK(tess_project_redo(p, &err), &err);
        CHECK_MSG(tess_project_hash(p) == after, "step %d: undo + redo changed the project", i);
        undo_checks++;
      }
    }
    check_layer_invariants(p);
    for (int k = 0; k < EDIT_KINDS; k++) CHECK_MSG(kinds_ok[k] > 0, "seed %llu: edit kind %d never succeeded", (unsigned long long)seed, k);
    CHECK_MSG(ok > 1500, "seed %llu: only %d edits succeeded", (unsigned long long)seed, ok);
    uint64_t end = tess_project_hash(p);
    int undone = 0;
    while (tess_project_can_redo(p)) CHECK_OK(tess_project_redo(p, &err), &err);
    end = tess_project_hash(p);
    while (tess_project_can_undo(p)) {
      TessResult r = tess_project_undo(p, &err);
      CHECK_OK(r, &err);
      if (r) break;
      undone++;
    }
    CHECK_MSG(tess_project_hash(p) == start, "seed %llu: undo of %d steps does not return to the start",
              (unsigned long long)seed, undone);
    check_layer_invariants(p);
    while (tess_project_can_redo(p)) {
      TessResult r = tess_project_redo(p, &err);
      CHECK_OK(r, &err);
      if (r) break;
    }
    CHECK_MSG(tess_project_hash(p) == end, "seed %llu: redo of everything does not reach the end", (unsigned long long)seed);
    check_layer_invariants(p);
    CHECK(undone > 500);
    fixture_free(&f);
  }
}

/* The same random edits under a tight history bound: steps drop out from the
 * bottom while undo and redo keep working; undoing all that is left lands on
 * a state the sequence went through, and redoing it all reaches the end. */
void random_edits_under_a_tight_history_bound(void) {
  Fixture f;
  TessError err;
  fixture_make(&f);
  TessProject *p = f.p;
  const size_t limit = 96 * 1024;
  tess_project_set_history_limit(p, limit);
  TessTestRng rng = {0xC0FFEEull};
  enum { N = 1500 };
  static uint64_t seen[N + 1];
  size_t seen_count = 0;
  seen[seen_count++] = tess_project_hash(p);
  uint32_t key = tess_project_new_merge_key(p);
  for (int i = 0; i < N; i++) {
    uint32_t pick = tess_rng_below(&rng, 30);
    if (pick == 0 && tess_project_can_undo(p)) CHECK_OK(tess_project_undo(p, &err), &err);
    else if (pick == 1 && tess_project_can_redo(p)) CHECK_OK(tess_project_redo(p, &err), &err);
    else random_edit(p, &rng, &key, &err);
    seen[seen_count++] = tess_project_hash(p);
    CHECK(tess_project_history_bytes(p) <= limit);
  }
  while (tess_project_can_redo(p)) CHECK_OK(tess_project_redo(p, &err), &err);
  uint64_t end = tess_project_hash(p);
  int undone = 0;
  while (tess_project_can_undo(p)) {
    if (tess_project_undo(p, &err) != TESS_OK) break;
    undone++;
  }
  uint64_t bottom = tess_project_hash(p);
  bool found = false;
  for (size_t i = 0; i < seen_count && !found; i++) found = seen[i] == bottom;
  CHECK_MSG(found, "after %d undos the project is in a state the sequence never had", undone);
  CHECK(undone > 0);
  check_layer_invariants(p);
  while (tess_project_can_redo(p)) CHECK_OK(tess_project_redo(p, &err), &err);
  CHECK(tess_project_hash(p) == end);
  fixture_free(&f);
}

void merged_drag_undoes_as_one_step(void) {
  Fixture f;
  TessError err;
  fixture_make(&f);
  TessProject *p = f.p;
  TessCell a = TESS_CELL_MAKE(f.tileset, 3, 0);
  CHECK_OK(tess_edit_fill_rect(p, f.level, f.ground, 0, 0, 100, 80, a, 0, &err), &err);
  uint64_t before = tess_project_hash(p);
  size_t bytes_before = tess_project_history_bytes(p);
  /* A drag: 200 brush strokes of 2 x 2 back and forth across chunk borders. */
  uint32_t key = tess_project_new_merge_key(p);
  TessCell stamp[4];
  for (int i = 0; i < 200; i++) {
    for (int k = 0; k < 4; k++) stamp[k] = TESS_CELL_MAKE(f.tileset, (uint32_t)(i + k) % 16, 0);
    int x = 20 + (i % 40), y = 25 + (i / 40);
    CHECK_OK(tess_edit_paint(p, f.level, f.ground, x, y, 2, 2, stamp, key, &err), &err);
  }
  uint64_t after = tess_project_hash(p);
  CHECK(after != before);
  CHECK(strcmp(tess_project_undo_label(p), "Paint tiles") == 0);
  /* The merged record holds one before/after per cell touched, not per stroke. */
  size_t step_bytes = tess_project_history_bytes(p) - bytes_before;
  CHECK_MSG(step_bytes < 8 * 1024, "merged drag holds %zu bytes", step_bytes);
  CHECK_OK(tess_project_undo(p, &err), &err);
  CHECK(tess_project_hash(p) == before);
  CHECK_OK(tess_project_redo(p, &err), &err);
  CHECK(tess_project_hash(p) == after);
  CHECK_OK(tess_project_undo(p, &err), &err);
  CHECK_OK(tess_project_undo(p, &err), &err); /* the fill before the drag */
  CHECK(!tess_project_can_undo(p));
  CHECK_OK(tess_project_redo(p, &err), &err);
  CHECK(tess_project_hash(p) == before);

  /* Moving an object in a drag: one step; a new key starts a new step. */
  TessObject o;
  tess_object_default(&o, TESS_OBJECT_BODY);
  TessId id;
  CHECK_OK(tess_edit_object_add(p, f.level, f.objects, &o, &id, &err), &err);
  uint64_t placed = tess_project_hash(p);
  o.id = id;
  key = tess_project_new_merge_key(p);
  for (int i = 0; i < 50; i++) {
    o.pos = tess_v2((float)i, (float)(2 * i));
    CHECK_OK(tess_edit_object_set(p, f.level, &o, key, &err), &err);
  }
  uint64_t moved = tess_project_hash(p);
  uint32_t key2 = tess_project_new_merge_key(p);
  o.angle = 1.0f;
  CHECK_OK(tess_edit_object_set(p, f.level, &o, key2, &err), &err);
  CHECK_OK(tess_project_undo(p, &err), &err);
  CHECK(tess_project_hash(p) == moved);
  CHECK_OK(tess_project_undo(p, &err), &err);
  CHECK(tess_project_hash(p) == placed);
  /* After an undo the same key does not merge into an older step. */
  o.angle = 0;
  o.pos = tess_v2(5, 5);
  CHECK_OK(tess_edit_object_set(p, f.level, &o, key, &err), &err);
  CHECK_OK(tess_project_undo(p, &err), &err);
  CHECK(tess_project_hash(p) == placed);
  fixture_free(&f);
}

void history_bound_drops_oldest_steps(void) {
  Fixture f;
  TessError err;
  fixture_make(&f);
  TessProject *p = f.p;
  const size_t limit = 48 * 1024;
  tess_project_set_history_limit(p, limit);
  enum { STEPS = 120 };
  uint64_t hash_after[STEPS + 1];
  hash_after[0] = tess_project_hash(p);
  for (int i = 0; i < STEPS; i++) {
    /* Each step rewrites 16 x 16 cells with a new value. */
    TessCell c = TESS_CELL_MAKE(f.tileset, (uint32_t)(i % 15) + 1, 0);
    CHECK_OK(tess_edit_fill_rect(p, f.level, f.ground, (i * 16) % 96, ((i / 6) * 16) % 64, 16, 16, c, 0, &err), &err);
    hash_after[i + 1] = tess_project_hash(p);
    CHECK_MSG(tess_project_history_bytes(p) <= limit, "history %zu bytes over %zu", tess_project_history_bytes(p), limit);
  }
  int undone = 0;
  while (tess_project_can_undo(p)) {
    CHECK_OK(tess_project_undo(p, &err), &err);
    undone++;
  }
  CHECK_MSG(undone > 5 && undone < STEPS, "%d steps kept", undone);
  /* What is left is the newest steps: undoing them all lands on the state after the dropped ones. */
  CHECK(tess_project_hash(p) == hash_after[STEPS - undone]);
  while (tess_project_can_redo(p)) CHECK_OK(tess_project_redo(p, &err), &err);
  CHECK(tess_project_hash(p) == hash_after[STEPS]);
  /* A step bigger than the whole bound is not kept; lowering the bound trims at once. */
  tess_project_set_history_limit(p, 2048);
  CHECK(tess_project_history_bytes(p) <= 2048);
  CHECK_OK(tess_edit_fill_rect(p, f.level, f.ground, 0, 0, 100, 80, TESS_CELL_MAKE(f.tileset, 0, 0), 0, &err), &err);
  CHECK(!tess_project_can_undo(p) && tess_project_history_bytes(p) == 0);
  tess_project_set_history_limit(p, TESS_HISTORY_DEFAULT_BYTES);
  fixture_free(&f);
}

void flood_fill_matches_reference(void) {
  Fixture f;
  TessError err;
  fixture_make(&f);
  TessProject *p = f.p;
  TessLayer *ground = tess_level_layer(tess_project_level(p, f.level), f.ground);
  enum { W = 100,
         H = 80 };
  TessTestRng rng = {77};
  static TessCell map[W * H];
  TessCell wall = TESS_CELL_MAKE(f.tileset, 1, 0), fill = TESS_CELL_MAKE(f.tileset, 2, 0);
  for (int i = 0; i < W * H; i++) map[i] = tess_rng_below(&rng, 100) < 38 ? wall : 0;
  for (int d = -2; d <= 2; d++) map[40 * W + 50 + d] = 0; /* the seed sits in open space */
  CHECK_OK(tess_edit_set_cells(p, f.level, f.ground, 0, 0, W, H, map, 0, &err), &err);
  uint64_t before = tess_project_hash(p);
  /* Reference: breadth-first over 4-neighbours. */
  uint32_t sx = 50, sy = 40;
  static uint8_t expect[W * H];
  static uint32_t queue[W * H];
  memset(expect, 0, sizeof expect);
  TessCell target = map[sy * W + sx];
  size_t head = 0, tail = 0, filled = 0;
  expect[sy * W + sx] = 1;
  queue[tail++] = sy * W + sx;
  while (head < tail) {
    uint32_t c = queue[head++], x = c % W, y = c / W;
    filled++;
    int nx[4] = {(int)x - 1, (int)x + 1, (int)x, (int)x}, ny[4] = {(int)y, (int)y, (int)y - 1, (int)y + 1};
    for (int k = 0; k < 4; k++) {
      if (nx[k] < 0 || ny[k] < 0 || nx[k] >= W || ny[k] >= H) continue;
      uint32_t n = (uint32_t)ny[k] * W + (uint32_t)nx[k];
      if (!expect[n] && map[n] == target) {
        expect[n] = 1;
        queue[tail++] = n;
      }
    }
  }
  CHECK_OK(tess_edit_flood_fill(p, f.level, f.ground, sx, sy, fill, 0, &err), &err);
  size_t mismatches = 0;
  for (uint32_t y = 0; y < H; y++)
    for (uint32_t x = 0; x < W; x++) {
      TessCell want = expect[y * W + x] ? fill : map[y * W + x];
      mismatches += tess_layer_cell(ground, x, y) != want;
    }
  CHECK_MSG(mismatches == 0, "%zu cells differ from the reference fill of %zu", mismatches, filled);
  CHECK(filled > 1);
  check_layer_invariants(p);
  CHECK_OK(tess_project_undo(p, &err), &err);
  CHECK(tess_project_hash(p) == before);
  /* An empty level fills whole, bounded by the level. */
  CHECK_OK(tess_edit_erase(p, f.level, f.ground, 0, 0, W, H, 0, &err), &err);
  CHECK_OK(tess_edit_flood_fill(p, f.level, f.ground, 0, 0, fill, 0, &err), &err);
  size_t count = 0;
  for (uint32_t y = 0; y < H; y++)
    for (uint32_t x = 0; x < W; x++) count += tess_layer_cell(ground, x, y) == fill;
  CHECK(count == W * H);
  fixture_free(&f);
}
