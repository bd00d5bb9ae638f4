/*
 * The module's lifetime: create, free, recycle into a new one, and drop
 * every cached analysis at once (xe_module_invalidate).  Freeing is the
 * one place that knows every part a module holds (instructions, kernel
 * memo, use lists and indexes, manifest), so it sits above them all.
 */
#include <stddef.h>
#include <stdlib.h>

#include "ir_internal.h"
#include "manifest.h"

xe_module *xe_module_create(void)
{
   xe_module *m = xe_calloc(1, sizeof(*m));
   m->version = 0x10000;
   m->bound = 1;
   for (int s = 0; s < XE_SEC_COUNT; s++)
      m->sec[s].m = m;
   return m;
}

static void free_list(xe_list *l)
{
   for (xe_inst *i = l->first, *n; i; i = n) {
      n = i->next;
      xe_inst_free(i);
   }
   l->first = l->last = NULL;
}

extern void cJSON_Delete(struct cJSON *item);

static void function_free(xe_function *f)
{
   xe_function_invalidate(f);
   xe_inst_free(f->def);
   free_list(&f->params);
   for (xe_block *b = f->first, *n; b; b = n) {
      n = b->next;
      xe_inst_free(b->label);
      free_list(&b->insts);
      xe__pool_release(b, sizeof(*b));
   }
   xe_inst_free(f->end);
   xe__pool_release(f, sizeof(*f));
}

/* Frees everything m holds but its pools and m itself. */
static void module_release(xe_module *m)
{
   for (int s = 0; s < XE_SEC_COUNT; s++)
      free_list(&m->sec[s]);
   for (xe_function *f = m->first_fn, *n; f; f = n) {
      n = f->next;
      function_free(f);
   }
   xe__kernel_memo_free(m);
   xe__defuse_free(m->defuse);
   xe__uses_hint_free(m);
   xe__stale_free(m);
   if (m->manifest)
      cJSON_Delete(m->manifest);
   xe_mf_index_free(m->manifest_index);
   free(m->defs);
}

void xe_module_free(xe_module *m)
{
   if (!m)
      return;
   module_release(m);
   xe__pool_free(m);   /* last: the instructions released were carved from it */
   free(m);
}

void xe__module_recycle(xe_module *old, xe_module *to)
{
   if (!old)
      return;
   module_release(old);
   xe__pool_hand_on(to, old);
   free(old);
}

void xe_module_invalidate(xe_module *m)
{
   m->epoch++;
   xe_uses_release(m);
}
