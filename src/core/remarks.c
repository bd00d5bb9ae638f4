#define _GNU_SOURCE
/*
 * Remarks (what each pass did, and why it skipped each candidate) and the
 * manifest entries that record host-contract changes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>

#include "pass.h"

void xe_remark(xe_remarks *r, const char *kernel, enum xe_remark_kind kind, const char *fmt, ...)
{
   if (!r)
      return;
   if (r->n == r->cap) {
      r->cap = r->cap ? r->cap * 2 : 16;
      r->v = realloc(r->v, r->cap * sizeof(xe_remark_entry));
      if (!r->v)
         abort();
   }
   va_list ap;
   va_start(ap, fmt);
   char *msg = NULL;
   if (vasprintf(&msg, fmt, ap) < 0)
      abort();
   va_end(ap);
   xe_remark_entry *x = &r->v[r->n++];
   x->pass = r->pass ? r->pass : "xeopt";
   x->kernel = kernel ? strdup(kernel) : NULL;
   x->kind = kind;
   x->message = msg;
}

void xe_remarks_free(xe_remarks *r)
{
   for (unsigned k = 0; k < r->n; k++) {
      free(r->v[k].kernel);
      free(r->v[k].message);
   }
   free(r->v);
   memset(r, 0, sizeof(*r));
}

cJSON *xe_manifest_kernel(xe_module *m, const char *kernel)
{
   if (!m->manifest) {
      m->manifest = cJSON_CreateObject();
      cJSON_AddNumberToObject(m->manifest, "xeopt_manifest", 1);
      cJSON_AddObjectToObject(m->manifest, "kernels");
   }
   cJSON *kernels = cJSON_GetObjectItem(m->manifest, "kernels");
   /* Passes go kernel by kernel, so the kernel asked for is nearly always
    * the last one added: try it before cJSON's linear search, which made
    * a manifest of n kernels cost O(n^2).  Kernels are only added here,
    * after a failed search, so no two keys are equal ignoring case and the
    * last one, if it matches, is the one the search would return. */
   cJSON *tail = kernels && kernels->child ? kernels->child->prev : NULL;
   cJSON *k = tail && !tail->next && tail->string && !strcasecmp(tail->string, kernel)
                 ? tail : cJSON_GetObjectItem(kernels, kernel);
   if (!k)
      k = cJSON_AddObjectToObject(kernels, kernel);
   return k;
}

void xe_manifest_add(xe_module *m, const char *kernel, const char *section, cJSON *entry)
{
   cJSON *k = xe_manifest_kernel(m, kernel);
   cJSON *arr = cJSON_GetObjectItem(k, section);
   if (!arr)
      arr = cJSON_AddArrayToObject(k, section);
   cJSON_AddItemToArray(arr, entry);
}
