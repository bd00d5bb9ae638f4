/*
 * Options and the helpers passes use to read per-kernel option values.
 */
#include <stdlib.h>
#include <string.h>

#include "pass.h"

void xe_strlist_add(xe_strlist *l, const char *s)
{
   l->v = realloc(l->v, (l->n + 1) * sizeof(char *));
   if (!l->v)
      abort();
   l->v[l->n++] = strdup(s);
}

void xe_strlist_free(xe_strlist *l)
{
   for (unsigned k = 0; k < l->n; k++)
      free(l->v[k]);
   free(l->v);
   l->v = NULL;
   l->n = 0;
}

void xe_options_init(xe_options *o)
{
   memset(o, 0, sizeof(*o));
   o->level = 2;
}

void xe_options_free(xe_options *o)
{
   xe_strlist_free(&o->passes);
   xe_strlist_free(&o->assume_padded);
   xe_strlist_free(&o->subgroup_size);
   xe_strlist_free(&o->local_size);
   xe_strlist_free(&o->specialize);
}

/* Entries are "" (every kernel) or comma-separated kernel names. */
bool xe_options_kernel_listed(const xe_strlist *l, const char *kernel)
{
   size_t klen = strlen(kernel);
   for (unsigned k = 0; k < l->n; k++) {
      const char *s = l->v[k];
      if (!*s)
         return true;
      while (*s) {
         const char *e = strchr(s, ',');
         size_t n = e ? (size_t)(e - s) : strlen(s);
         if (n == klen && !strncmp(s, kernel, n))
            return true;
         s += n + (e != NULL);
      }
   }
   return false;
}

/* Entries are "VALUE" or "KERNEL:VALUE"; the last matching entry for the
 * kernel wins over general ones. */
const char *xe_options_kernel_value(const xe_strlist *l, const char *kernel)
{
   const char *general = NULL, *specific = NULL;
   size_t klen = strlen(kernel);
   for (unsigned k = 0; k < l->n; k++) {
      const char *s = l->v[k];
      const char *colon = strchr(s, ':');
      if (!colon)
         general = s;
      else if ((size_t)(colon - s) == klen && !strncmp(s, kernel, klen))
         specific = colon + 1;
   }
   return specific ? specific : general;
}
