/*
 * A sparse map from ids to dense indexes 0, 1, 2, ... in the order they
 * were added: what a per-function analysis uses instead of a table sized
 * by the module's id bound.
 *
 * Why: a table of m->bound entries per function costs O(bound) to
 * allocate and initialise, so an analysis run on each of n kernels costs
 * O(n * bound) = O(n^2) in all, even when each kernel is small.  With this
 * map an analysis sizes its tables by the ids it touches.
 *
 * Open addressing with linear probing on a power-of-two table, at most
 * half full; id 0 (never a valid SPIR-V id) marks an empty slot.
 * Ownership: the map owns its arrays (xe_idmap_free).  Allocation failure
 * aborts, as elsewhere in the IR.
 */
#ifndef XEOPT_IDMAP_H
#define XEOPT_IDMAP_H

#include <stdint.h>

#include "ir.h"

#define XE_IDMAP_NONE UINT32_MAX

typedef struct xe_idmap {
   uint32_t *keys;   /* ids; 0 = empty slot */
   uint32_t *vals;   /* dense index of keys[k]; in the keys' allocation */
   uint32_t mask;    /* capacity - 1 */
   uint32_t n;       /* ids added; the next index */
} xe_idmap;

/* An empty map with room for about `expected` ids before it grows. */
void xe_idmap_init(xe_idmap *map, uint32_t expected);
void xe_idmap_free(xe_idmap *map);
/* The index of id, adding it with the next index when missing.  id != 0. */
uint32_t xe_idmap_add(xe_idmap *map, uint32_t id);

static inline uint32_t xe_idmap_hash(uint32_t id)
{
   return id * 0x9e3779b1u;   /* Fibonacci hashing: ids are dense, spread them */
}

/* The index of id, or XE_IDMAP_NONE. */
static inline uint32_t xe_idmap_find(const xe_idmap *map, uint32_t id)
{
   if (!id || !map->keys)
      return XE_IDMAP_NONE;
   for (uint32_t k = xe_idmap_hash(id) & map->mask;; k = (k + 1) & map->mask) {
      if (map->keys[k] == id)
         return map->vals[k];
      if (!map->keys[k])
         return XE_IDMAP_NONE;
   }
}

/* Adds the ids f defines in layout order: its OpFunctionParameters, then
 * the result of every instruction in its blocks (not the block labels). */
void xe_idmap_add_function(xe_idmap *map, const xe_function *f);

/* A value per id, 0 until set: a memo table over whatever ids a walk
 * meets (a function's values and the globals they use), in space for those
 * ids only.  A zeroed struct is an empty table; xe_idtab_free empties it. */
typedef struct xe_idtab {
   xe_idmap map;
   uint32_t *v;      /* by index in map */
   uint32_t cap;
} xe_idtab;

static inline uint32_t xe_idtab_get(const xe_idtab *t, uint32_t id)
{
   uint32_t k = xe_idmap_find(&t->map, id);
   return k == XE_IDMAP_NONE ? 0 : t->v[k];
}
void xe_idtab_set(xe_idtab *t, uint32_t id, uint32_t value);
void xe_idtab_free(xe_idtab *t);

#endif
