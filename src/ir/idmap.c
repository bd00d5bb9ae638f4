/* Sparse id -> dense index map (see idmap.h). */
#include <stdlib.h>
#include <string.h>

#include "idmap.h"

/* Keys and values share one allocation (keys first): one malloc and one
 * free per table, as most maps are made and dropped per function. */
static void alloc_table(xe_idmap *map, uint32_t cap)
{
   map->keys = malloc(2 * (size_t)cap * sizeof(uint32_t));
   if (!map->keys)
      xe_out_of_memory();
   memset(map->keys, 0, cap * sizeof(uint32_t));
   map->vals = map->keys + cap;
   map->mask = cap - 1;
}

void xe_idmap_init(xe_idmap *map, uint32_t expected)
{
   uint32_t cap = 16;
   while (cap < 2 * (uint64_t)expected + 2)
      cap *= 2;
   map->n = 0;
   alloc_table(map, cap);
}

void xe_idmap_free(xe_idmap *map)
{
   free(map->keys);
   map->keys = map->vals = NULL;
   map->mask = map->n = 0;
}

static void put(xe_idmap *map, uint32_t id, uint32_t val)
{
   uint32_t k = xe_idmap_hash(id) & map->mask;
   while (map->keys[k])
      k = (k + 1) & map->mask;
   map->keys[k] = id;
   map->vals[k] = val;
}

uint32_t xe_idmap_add(xe_idmap *map, uint32_t id)
{
   if (!map->keys)
      xe_idmap_init(map, 8);
   uint32_t v = xe_idmap_find(map, id);
   if (v != XE_IDMAP_NONE)
      return v;
   if (2 * (uint64_t)(map->n + 1) > map->mask + 1) {
      uint32_t *keys = map->keys, *vals = map->vals, cap = map->mask + 1;
      alloc_table(map, cap * 2);
      for (uint32_t k = 0; k < cap; k++)
         if (keys[k])
            put(map, keys[k], vals[k]);
      free(keys);
   }
   put(map, id, map->n);
   return map->n++;
}

void xe_idmap_add_function(xe_idmap *map, const xe_function *f)
{
   xe_foreach_inst(p, &f->params)
      if (p->result_id)
         xe_idmap_add(map, p->result_id);
   xe_foreach_block(b, f)
      xe_foreach_inst(i, &b->insts)
         if (i->result_id)
            xe_idmap_add(map, i->result_id);
}

void xe_idtab_set(xe_idtab *t, uint32_t id, uint32_t value)
{
   uint32_t k = xe_idmap_add(&t->map, id);
   if (k >= t->cap) {
      uint32_t cap = t->cap ? 2 * t->cap : 64;
      while (cap <= k)
         cap *= 2;
      t->v = realloc(t->v, cap * sizeof(uint32_t));
      if (!t->v)
         xe_out_of_memory();
      memset(t->v + t->cap, 0, (cap - t->cap) * sizeof(uint32_t));
      t->cap = cap;
   }
   t->v[k] = value;
}

void xe_idtab_free(xe_idtab *t)
{
   xe_idmap_free(&t->map);
   free(t->v);
   t->v = NULL;
   t->cap = 0;
}
