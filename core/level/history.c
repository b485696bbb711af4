/* The undo history: a stack of steps, each a list of ops applied in order
 * (undo applies them backwards). Consecutive steps with the same non-zero
 * merge key become one; the whole history is bounded in bytes and the
 * oldest steps are dropped first. */
#include <stdio.h>

#include "level_private.h"

#define STEP_LABEL_MAX 48
#define BLOCK_OVERHEAD 16u

struct TessStep {
  char label[STEP_LABEL_MAX];
  uint32_t merge;
  size_t bytes;
  TessOp **ops;
  size_t count, cap;
};

struct TessHistory {
  TessStep **undo;
  size_t undo_count, undo_cap;
  TessStep **redo;
  size_t redo_count, redo_cap;
  size_t bytes, limit;
  uint32_t next_merge;
  bool sealed;     /* an undo or redo happened: the next step never merges into the top */
  TessStep *group; /* open group: committed steps gather here (an import is one undo step) */
};

void *level_op_new(size_t size, const TessOpClass *cls) {
  TessOp *op = tess_calloc(1, size);
  if (!op) return NULL;
  op->cls = cls;
  op->bytes = size + BLOCK_OVERHEAD;
  return op;
}

static void step_free(TessStep *step, bool undone) {
  if (!step) return;
  for (size_t i = 0; i < step->count; i++) step->ops[i]->cls->destroy(step->ops[i], undone);
  tess_free(step->ops);
  tess_free(step);
}

static size_t step_measure(TessStep *step) {
  size_t bytes = sizeof *step + BLOCK_OVERHEAD + step->cap * sizeof *step->ops + BLOCK_OVERHEAD;
  for (size_t i = 0; i < step->count; i++) bytes += step->ops[i]->bytes;
  step->bytes = bytes;
  return bytes;
}

TessStep *level_step_begin(const char *label, uint32_t merge) {
  TessStep *step = tess_calloc(1, sizeof *step);
  if (!step) return NULL;
  snprintf(step->label, sizeof step->label, "%s", label ? label : "");
  step->merge = merge;
  return step;
}

bool level_step_empty(const TessStep *step) { return step->count == 0; }

TessResult level_step_apply(TessProject *p, TessStep *step, TessOp *op, TessError *err) {
  if (!op) return tess_error_set(err, TESS_ERR_NOMEM, LEVEL_FILE, "out of memory");
  if (!tess_array_reserve((void **)&step->ops, &step->cap, step->count + 1, sizeof *step->ops)) {
    op->cls->destroy(op, true);
    return tess_error_set(err, TESS_ERR_NOMEM, LEVEL_FILE, "out of memory");
  }
  TessResult r = op->cls->apply(p, op, true);
  if (r != TESS_OK) {
    op->cls->destroy(op, true);
    return tess_error_set(err, r, LEVEL_FILE, "%s: %s", op->cls->name, tess_result_string(r));
  }
  step->ops[step->count++] = op;
  return TESS_OK;
}

bool level_step_add_applied(TessStep *step, TessOp *op) {
  if (!tess_array_reserve((void **)&step->ops, &step->cap, step->count + 1, sizeof *step->ops)) return false;
  step->ops[step->count++] = op;
  return true;
}

void level_step_abort(TessProject *p, TessStep *step) {
  if (!step) return;
  for (size_t i = step->count; i-- > 0;) {
    step->ops[i]->cls->apply(p, step->ops[i], false);
    step->ops[i]->cls->destroy(step->ops[i], true);
  }
  tess_free(step->ops);
  tess_free(step);
}

TessHistory *level_history_create(void) {
  TessHistory *h = tess_calloc(1, sizeof *h);
  if (h) h->limit = TESS_HISTORY_DEFAULT_BYTES;
  return h;
}

static void clear_redo(TessHistory *h) {
  for (size_t i = 0; i < h->redo_count; i++) {
    h->bytes -= h->redo[i]->bytes;
    step_free(h->redo[i], true);
  }
  h->redo_count = 0;
}

static void clear_undo(TessHistory *h) {
  for (size_t i = 0; i < h->undo_count; i++) {
    h->bytes -= h->undo[i]->bytes;
    step_free(h->undo[i], false);
  }
  h->undo_count = 0;
}

void level_history_destroy(TessHistory *h) {
  if (!h) return;
  step_free(h->group, false);
  clear_redo(h);
  clear_undo(h);
  tess_free(h->undo);
  tess_free(h->redo);
  tess_free(h);
}

/* Drops the oldest steps until the history fits its limit. The bound is
 * strict: a single step larger than the limit is not kept either. Redo
 * steps (the newest future) go before undo steps. */
static void trim(TessHistory *h) {
  while (h->bytes > h->limit && h->redo_count) {
    TessStep *s = h->redo[0]; /* the bottom of the redo stack is the furthest future */
    h->bytes -= s->bytes;
    step_free(s, true);
    memmove(&h->redo[0], &h->redo[1], (h->redo_count - 1) * sizeof *h->redo);
    h->redo_count--;
  }
  size_t drop = 0, bytes = h->bytes;
  while (bytes > h->limit && drop < h->undo_count) bytes -= h->undo[drop++]->bytes;
  if (!drop) return;
  for (size_t i = 0; i < drop; i++) step_free(h->undo[i], false);
  memmove(&h->undo[0], &h->undo[drop], (h->undo_count - drop) * sizeof *h->undo);
  h->undo_count -= drop;
  h->bytes = bytes;
}

/* Inside a group the ops join the group's step, in order, unmerged. */
static bool group_absorb(TessHistory *h, TessStep *step) {
  TessStep *g = h->group;
  if (!tess_array_reserve((void **)&g->ops, &g->cap, g->count + step->count, sizeof *g->ops)) return false;
  memcpy(&g->ops[g->count], step->ops, step->count * sizeof *step->ops);
  g->count += step->count;
  tess_free(step->ops);
  tess_free(step);
  return true;
}

void level_step_commit(TessProject *p, TessStep *step) {
  TessHistory *h = p->history;
  if (!step) return;
  if (h->group && step->count && group_absorb(h, step)) return;
  if (step->count == 0) {
    step_free(step, false);
    return;
  }
  clear_redo(h);
  TessStep *top = h->undo_count ? h->undo[h->undo_count - 1] : NULL;
  if (top && !h->sealed && step->merge && top->merge == step->merge) {
    size_t i = 0;
    for (; i < step->count; i++) {
      TessOp *op = step->ops[i];
      TessOp *last = top->count ? top->ops[top->count - 1] : NULL;
      if (last && last->cls == op->cls && op->cls->merge && op->cls->merge(last, op)) {
        op->cls->destroy(op, false);
        continue;
      }
      if (!tess_array_reserve((void **)&top->ops, &top->cap, top->count + 1, sizeof *top->ops)) break;
      top->ops[top->count++] = op;
    }
    h->bytes -= top->bytes;
    h->bytes += step_measure(top);
    if (i == step->count) {
      tess_free(step->ops);
      tess_free(step);
      trim(h);
      return;
    }
    /* Out of memory while merging: the rest becomes a step of its own. */
    memmove(&step->ops[0], &step->ops[i], (step->count - i) * sizeof *step->ops);
    step->count -= i;
  }
  if (!tess_array_reserve((void **)&h->undo, &h->undo_cap, h->undo_count + 1, sizeof *h->undo)) {
    /* Cannot remember it: the edit stays, without undo. */
    step_free(step, false);
    return;
  }
  h->undo[h->undo_count++] = step;
  h->bytes += step_measure(step);
  h->sealed = false;
  trim(h);
}

uint32_t tess_project_new_merge_key(TessProject *p) {
  if (++p->history->next_merge == 0) p->history->next_merge = 1;
  return p->history->next_merge;
}

bool tess_project_can_undo(const TessProject *p) { return p->history->undo_count > 0; }
bool tess_project_can_redo(const TessProject *p) { return p->history->redo_count > 0; }

const char *tess_project_undo_label(const TessProject *p) {
  const TessHistory *h = p->history;
  return h->undo_count ? h->undo[h->undo_count - 1]->label : NULL;
}

const char *tess_project_redo_label(const TessProject *p) {
  const TessHistory *h = p->history;
  return h->redo_count ? h->redo[h->redo_count - 1]->label : NULL;
}

/* An op may hold more or fewer bytes after it applied (a cell record holds
 * whatever the layer held, compressed or not): recount and keep the bound,
 * dropping the oldest undo steps first, then the furthest redo steps. The
 * step that just moved (`keep`) stays even if it alone exceeds the bound. */
static void remeasure(TessHistory *h, TessStep *keep) {
  h->bytes -= keep->bytes;
  h->bytes += step_measure(keep);
  size_t drop = 0;
  while (h->bytes > h->limit && drop < h->undo_count && h->undo[drop] != keep) {
    h->bytes -= h->undo[drop]->bytes;
    step_free(h->undo[drop], false);
    drop++;
  }
  if (drop) {
    memmove(&h->undo[0], &h->undo[drop], (h->undo_count - drop) * sizeof *h->undo);
    h->undo_count -= drop;
  }
  drop = 0;
  while (h->bytes > h->limit && drop < h->redo_count && h->redo[drop] != keep) {
    h->bytes -= h->redo[drop]->bytes;
    step_free(h->redo[drop], true);
    drop++;
  }
  if (drop) {
    memmove(&h->redo[0], &h->redo[drop], (h->redo_count - drop) * sizeof *h->redo);
    h->redo_count -= drop;
  }
}

/* Applies a step's ops backwards (undo) or forwards (redo); when one fails,
 * those already applied are put back, so the step is all or nothing. */
static TessResult step_run(TessProject *p, TessStep *step, bool forward) {
  size_t n = step->count;
  for (size_t k = 0; k < n; k++) {
    size_t i = forward ? k : n - 1 - k;
    TessResult r = step->ops[i]->cls->apply(p, step->ops[i], forward);
    if (r != TESS_OK) {
      while (k-- > 0) {
        size_t j = forward ? k : n - 1 - k;
        step->ops[j]->cls->apply(p, step->ops[j], !forward);
      }
      return r;
    }
  }
  return TESS_OK;
}

TessResult tess_project_undo(TessProject *p, TessError *err) {
  TessHistory *h = p->history;
  if (h->group) return tess_error_set(err, TESS_ERR_LOCKED, LEVEL_FILE, "cannot undo inside a group of edits");
  if (!h->undo_count) return tess_error_set(err, TESS_ERR_EMPTY, LEVEL_FILE, "nothing to undo");
  if (!tess_array_reserve((void **)&h->redo, &h->redo_cap, h->redo_count + 1, sizeof *h->redo))
    return tess_error_set(err, TESS_ERR_NOMEM, LEVEL_FILE, "out of memory");
  TessStep *step = h->undo[h->undo_count - 1];
  TessResult r = step_run(p, step, false);
  if (r != TESS_OK) return tess_error_set(err, r, LEVEL_FILE, "cannot undo %s: %s", step->label, tess_result_string(r));
  h->undo_count--;
  h->redo[h->redo_count++] = step;
  h->sealed = true;
  remeasure(h, step);
  return TESS_OK;
}

TessResult tess_project_redo(TessProject *p, TessError *err) {
  TessHistory *h = p->history;
  if (h->group) return tess_error_set(err, TESS_ERR_LOCKED, LEVEL_FILE, "cannot redo inside a group of edits");
  if (!h->redo_count) return tess_error_set(err, TESS_ERR_EMPTY, LEVEL_FILE, "nothing to redo");
  if (!tess_array_reserve((void **)&h->undo, &h->undo_cap, h->undo_count + 1, sizeof *h->undo))
    return tess_error_set(err, TESS_ERR_NOMEM, LEVEL_FILE, "out of memory");
  TessStep *step = h->redo[h->redo_count - 1];
  TessResult r = step_run(p, step, true);
  if (r != TESS_OK) return tess_error_set(err, r, LEVEL_FILE, "cannot redo %s: %s", step->label, tess_result_string(r));
  h->redo_count--;
  h->undo[h->undo_count++] = step;
  h->sealed = true;
  remeasure(h, step);
  return TESS_OK;
}

void tess_project_set_history_limit(TessProject *p, size_t bytes) {
  p->history->limit = bytes;
  trim(p->history);
}

size_t tess_project_history_bytes(const TessProject *p) { return p->history->bytes; }

void tess_project_clear_history(TessProject *p) {
  clear_redo(p->history);
  clear_undo(p->history);
  p->history->sealed = true;
}

TessResult tess_project_group_begin(TessProject *p, const char *label, TessError *err) {
  TessHistory *h = p->history;
  if (h->group) return tess_error_set(err, TESS_ERR_INVALID, LEVEL_FILE, "a group of edits is already open");
  if (!(h->group = level_step_begin(label, 0))) return tess_error_set(err, TESS_ERR_NOMEM, LEVEL_FILE, "out of memory");
  return TESS_OK;
}

void tess_project_group_end(TessProject *p) {
  TessStep *g = p->history->group;
  p->history->group = NULL;
  level_step_commit(p, g);
}

void tess_project_group_cancel(TessProject *p) {
  TessStep *g = p->history->group;
  p->history->group = NULL;
  level_step_abort(p, g);
}
