/*
 * generic-address: which kernel runs a function, for the remarks on a
 * helper (they name the kernel that runs it, when only one does).
 */
#include <stdlib.h>

#include "generic_address.h"

/* owner[function id]: the one kernel whose work-items run the function:
 * its entry point or body, or a helper that only that kernel's body
 * reaches through calls; NULL for a helper two kernels reach.  A helper's
 * remarks name that kernel, as they would had the front end inlined the
 * helper (clang 15 inlines where ocloc keeps the call): the kernel's code
 * is what changed. */
const char **ga_kernel_owners(xe_module *m, const xe_kernel *ks, unsigned nk)
{
   uint32_t n = m->bound;
   const char **own = calloc(n, sizeof(char *));
   uint8_t *shared = calloc(n, 1);
   unsigned *seen = calloc(n, sizeof(unsigned));
   xe_function **stack = NULL;
   unsigned depth = 0, cap = 0;
   if (!own || !shared || !seen)
      xe_out_of_memory();
   for (unsigned k = 0; k < nk; k++) {
      xe_function *roots[2] = { ks[k].body, ks[k].fn };
      for (unsigned q = 0; q < 2; q++) {
         if (!roots[q])
            continue;
         if (depth == cap) {
            cap = cap ? 2 * cap : 16;
            stack = realloc(stack, cap * sizeof(*stack));
         }
         stack[depth++] = roots[q];
      }
      while (depth) {
         xe_function *f = stack[--depth];
         uint32_t id = xe_function_id(f);
         if (id >= n || seen[id] == k + 1)
            continue;
         seen[id] = k + 1;
         if (own[id] && own[id] != ks[k].name)
            shared[id] = 1;
         own[id] = ks[k].name;
         xe_foreach_block(b, f) {
            xe_foreach_inst(i, &b->insts) {
               if (i->opcode != SpvOpFunctionCall)
                  continue;
               xe_function *g = xe_function_by_id(m, xe_op(i, 0));
               if (!g || !g->first)
                  continue;
               if (depth == cap) {
                  cap = cap ? 2 * cap : 16;
                  stack = realloc(stack, cap * sizeof(*stack));
               }
               stack[depth++] = g;
            }
         }
      }
   }
   for (uint32_t id = 0; id < n; id++)
      if (shared[id])
         own[id] = NULL;
   /* A kernel's own functions are its own, even when another kernel
    * calls its entry point. */
   for (unsigned k = nk; k-- > 0;) {
      if (ks[k].body)
         own[xe_function_id(ks[k].body)] = ks[k].name;
      if (ks[k].fn)
         own[xe_function_id(ks[k].fn)] = ks[k].name;
   }
   free(stack);
   free(seen);
   free(shared);
   return own;
}
