/* The slot arrays of bodies, shapes and joints: a slot is taken from the
 * free list or by growing the array, and given back to the free list. A slot
 * starts with its generation (uint32_t) and in-use flag (uint8_t), so a
 * handle (index + 1, generation) goes stale when its slot is given back and
 * taken again; a free slot links to the next free one through a uint32_t
 * field of the caller's choosing (one the free slot does not otherwise use). */
#include <stddef.h>
#include <string.h>

#include "physics_private.h"

typedef struct SlotHead {
  uint32_t generation;
  uint8_t in_use;
} SlotHead;

static inline uint32_t *slot_link(void *items, size_t elem, size_t link, uint32_t index) {
  return (uint32_t *)((char *)items + (size_t)index * elem + link);
}

bool physics_slot_take(void **items, uint32_t *cap, uint32_t *count, uint32_t *free_head, size_t elem, size_t link,
                       uint32_t *index_out) {
  uint32_t index;
  uint32_t generation = 0;
  if (*free_head != TESS_NULL_INDEX) {
    index = *free_head;
    *free_head = *slot_link(*items, elem, link, index);
    generation = ((SlotHead *)((char *)*items + (size_t)index * elem))->generation;
  } else {
    if (!physics_grow(items, cap, *count + 1, elem)) return false;
    index = (*count)++;
  }
  SlotHead *head = (SlotHead *)((char *)*items + (size_t)index * elem);
  memset(head, 0, elem);
  head->generation = generation + 1 == 0 ? 1 : generation + 1; /* 0 is never a live generation */
  head->in_use = 1;
  *index_out = index;
  return true;
}

void physics_slot_give_back(void *items, uint32_t *free_head, size_t elem, size_t link, uint32_t index) {
  ((SlotHead *)((char *)items + (size_t)index * elem))->in_use = 0;
  *slot_link(items, elem, link, index) = *free_head;
  *free_head = index;
}
