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

#include "manifest.h"
#include "pass.h"

void xe_remark(xe_remarks *r, const char *kernel, enum xe_remark_kind kind, const char *fmt, ...)
{
   if (!r)
      return;
   if (r->n == r->cap) {
      r->cap = r->cap ? r->cap * 2 : 16;
      r->v = realloc(r->v, r->cap * sizeof(xe_remark_entry));
      if (!r->v)
         xe_out_of_memory();
   }
   va_list ap;
   va_start(ap, fmt);
   char *msg = NULL;
   if (vasprintf(&msg, fmt, ap) < 0)
      xe_out_of_memory();
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

/* The pass-facing writer: the document lives on the module, and the
 * manifest layer builds it (src/manifest/manifest.h). */
cJSON *xe_manifest_kernel(xe_module *m, const char *kernel)
{
   return xe_mf_kernel_json(&m->manifest, &m->manifest_index, kernel);
}

void xe_manifest_add(xe_module *m, const char *kernel, const char *section, cJSON *entry)
{
   xe_mf_add(&m->manifest, &m->manifest_index, kernel, section, entry);
}
