/*
 * dce: delete the values nothing uses.
 *
 * A value computed in a function with no effect but its result (an
 * arithmetic, logical or address instruction, a phi, a Function variable
 * nothing references) whose result only names and decorations mention is
 * deleted, with the operands that only it used (xe_delete_if_dead, NIR's
 * nir_opt_dce, SPIRV-Tools' dead-code elimination).  Loads stay (a
 * volatile one is an access), and so do calls, stores, barriers and
 * everything else with an effect.
 *
 * Not in -O1 or -O2: the rewriting passes clean up after themselves, and
 * the values a front end leaves unused are IGC's to drop; so plain -O2's
 * output stays what it was.  `--passes=dce` runs it.
 *
 * Host contract: none.  Semantics: unchanged for every launch.
 */
#include <stdlib.h>

#include "passes.h"

/* The result ids of f's instructions, last first: a value is met before
 * the operands it may leave unused. */
static uint32_t *results(xe_function *f, size_t *n)
{
   size_t cap = 64;
   uint32_t *v = malloc(cap * sizeof(uint32_t));
   if (!v)
      xe_out_of_memory();
   *n = 0;
   xe_foreach_block(b, f) {
      xe_foreach_inst(i, &b->insts) {
         if (!i->result_id)
            continue;
         if (*n == cap && !(v = realloc(v, (cap *= 2) * sizeof(uint32_t))))
            xe_out_of_memory();
         v[(*n)++] = i->result_id;
      }
   }
   for (size_t k = 0; k < *n / 2; k++) {
      uint32_t t = v[k];
      v[k] = v[*n - 1 - k];
      v[*n - 1 - k] = t;
   }
   return v;
}

/* How many of f's instructions have a result. */
static size_t count_results(xe_function *f)
{
   size_t n = 0;
   xe_foreach_block(b, f) {
      xe_foreach_inst(i, &b->insts)
         n += i->result_id != 0;
   }
   return n;
}

bool xeopt_pass_dce(xe_ctx *ctx)
{
   xe_module *m = ctx->module;
   unsigned deleted = 0;
   xe_foreach_fn(f, m) {
      size_t n;
      uint32_t *ids = results(f, &n);
      bool any = false;
      /* An id deleted as another's operand has no definition any more. */
      for (size_t k = 0; k < n; k++)
         any |= xe_delete_if_dead(m, xe_def(m, ids[k]));
      free(ids);
      if (!any)
         continue;
      /* xe_delete_if_dead deletes operands too: count what is left. */
      size_t gone = n - count_results(f);
      deleted += (unsigned)gone;
      xe_remark(ctx->remarks, xe_name(m, xe_function_id(f)), XE_REMARK_APPLIED,
                "deleted %zu unused value%s", gone, gone == 1 ? "" : "s");
   }
   return deleted > 0;
}
