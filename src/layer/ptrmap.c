/* A pointer-keyed map (ptrmap.h). */
#include "ptrmap.h"

#include <stdint.h>
#include <stdlib.h>

static size_t slot(const void *key, size_t n)
{
   uint64_t h = (uint64_t)(uintptr_t)key * 0x9e3779b97f4a7c15ull;
   return (size_t)(h >> 32) & (n - 1);
}

void *xl_ptrmap_get(const xl_ptrmap *m, const void *key)
{
   if (!m->nbuckets)
      return NULL;
   for (xl_ptrmap_node *n = m->buckets[slot(key, m->nbuckets)]; n; n = n->next)
      if (n->key == key)
         return n->value;
   return NULL;
}

static bool grow(xl_ptrmap *m)
{
   size_t nb = m->nbuckets ? m->nbuckets * 2 : 64;
   xl_ptrmap_node **b = calloc(nb, sizeof *b);
   if (!b)
      return false;
   for (size_t i = 0; i < m->nbuckets; i++)
      for (xl_ptrmap_node *n = m->buckets[i], *next; n; n = next) {
         next = n->next;
         size_t s = slot(n->key, nb);
         n->next = b[s];
         b[s] = n;
      }
   free(m->buckets);
   m->buckets = b;
   m->nbuckets = nb;
   return true;
}

bool xl_ptrmap_put(xl_ptrmap *m, const void *key, void *value)
{
   if (m->nbuckets) {
      for (xl_ptrmap_node *n = m->buckets[slot(key, m->nbuckets)]; n; n = n->next)
         if (n->key == key) {
            n->value = value;
            return true;
         }
   }
   if ((m->count + 1 > m->nbuckets * 2 || !m->nbuckets) && !grow(m))
      return false;
   xl_ptrmap_node *n = malloc(sizeof *n);
   if (!n)
      return false;
   size_t s = slot(key, m->nbuckets);
   *n = (xl_ptrmap_node){ key, value, m->buckets[s] };
   m->buckets[s] = n;
   m->count++;
   return true;
}

void *xl_ptrmap_take(xl_ptrmap *m, const void *key)
{
   if (!m->nbuckets)
      return NULL;
   for (xl_ptrmap_node **p = &m->buckets[slot(key, m->nbuckets)]; *p; p = &(*p)->next)
      if ((*p)->key == key) {
         xl_ptrmap_node *n = *p;
         void *v = n->value;
         *p = n->next;
         free(n);
         m->count--;
         return v;
      }
   return NULL;
}
