/*
 * A map from OpenCL handles (pointers) to the layer's records: chained
 * buckets that double when full.  Not synchronized: the caller holds its
 * lock.
 */
#ifndef XEOPT_LAYER_PTRMAP_H
#define XEOPT_LAYER_PTRMAP_H

#include <stdbool.h>
#include <stddef.h>

typedef struct xl_ptrmap_node {
   const void *key;
   void *value;
   struct xl_ptrmap_node *next;
} xl_ptrmap_node;

typedef struct xl_ptrmap {
   xl_ptrmap_node **buckets;
   size_t nbuckets, count;
} xl_ptrmap;

void *xl_ptrmap_get(const xl_ptrmap *m, const void *key);
/* Adds or replaces; false when out of memory (the map is unchanged). */
bool xl_ptrmap_put(xl_ptrmap *m, const void *key, void *value);
/* Removes key and returns its value (NULL when absent). */
void *xl_ptrmap_take(xl_ptrmap *m, const void *key);

#endif
