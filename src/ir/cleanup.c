/*
 * Clean-up after a rewrite, shared by the passes (NIR's
 * nir_instr_free_and_dce and nir_phi_instr_remove_src, SPIRV-Tools'
 * KillInstIfDead): whether a result is still used, deleting what a rewrite
 * left unused together with the operands that only it used, and dropping
 * a phi's entries for a predecessor that no longer branches to it.  Each
 * was written out again in the passes that needed it (padding's dead
 * condition, private-arrays' dead casts, a phi loop with a fixed buffer),
 * with small differences in what counted as a use.
 *
 * Every edit goes through the edit functions, so the use lists stay
 * current.  xe_replace_all_uses, the other half of such a clean-up, is in
 * indexes.c, next to the other questions of the use lists.
 */
#include <stdlib.h>

#include "defuse.h"
#include "opinfo.h"

/* Is use u only a name or decoration of the id it uses: the target word
 * of an instruction in the debug-name or annotation section?  Other words
 * of those instructions (an OpDecorateId's operands, an OpGroupDecorate's
 * targets) are uses. */
static bool names_only(const xe_module *m, const xe_use *u)
{
   const xe_inst *i = u->inst;
   return (i->list == &m->sec[XE_SEC_DEBUG_NAME] || i->list == &m->sec[XE_SEC_ANNOTATION]) &&
          u->word == i->first_op;
}

bool xe_result_unused(xe_module *m, uint32_t id)
{
   uint32_t n;
   const xe_use *u = xe__uses_peek(m, id, &n, false);
   for (uint32_t k = 0; k < n; k++) {
      /* Debug info is no use (xe_uses): the repair after a pass fixes it. */
      if (!u[k].inst->debug_info && !names_only(m, &u[k]))
         return false;
   }
   return true;
}

/* May i go once its result is unused: a value computed in a function with
 * no effect but its result (pure, an address, or a Function variable,
 * whose opcode info is 0)?  Loads are kept: a volatile one is an access. */
static bool deletable(xe_module *m, const xe_inst *i)
{
   return i && i->block && i->result_id && i->opcode != SpvOpLabel &&
          !xe_inst_is_debug_info(m, i) &&
          !(xe_inst_info(m, i) & ~(unsigned)(XE_OPI_PURE | XE_OPI_ADDRESS));
}

bool xe_delete_if_dead(xe_module *m, xe_inst *i)
{
   if (!deletable(m, i) || !xe_result_unused(m, i->result_id))
      return false;
   /* A stack of ids, not instructions: an operand met twice is deleted
    * the first time, and its id then has no definition. */
   uint32_t *stack = NULL;
   size_t n = 0, cap = 0;
   for (;;) {
      size_t at = n;
      for (unsigned w = i->first_op; w < i->nwords; w++) {
         if (xe_kinds(i)[w] != XE_W_ID)
            continue;
         if (n == cap) {
            cap = cap ? 2 * cap : 16;
            stack = realloc(stack, cap * sizeof(uint32_t));
            if (!stack)
               xe_out_of_memory();
         }
         stack[n++] = i->words[w];
      }
      /* First operand on top: operands go in operand order. */
      for (size_t a = at, b = n; a + 1 < b; a++, b--) {
         uint32_t t = stack[a];
         stack[a] = stack[b - 1];
         stack[b - 1] = t;
      }
      xe_inst_kill(m, i);
      i = NULL;
      while (n && !i) {
         xe_inst *d = xe_def(m, stack[--n]);
         if (deletable(m, d) && xe_result_unused(m, d->result_id))
            i = d;
      }
      if (!i)
         break;
   }
   free(stack);
   return true;
}

void xe_phi_remove_pred(xe_module *m, xe_block *b, uint32_t pred)
{
   xe_foreach_phi(m, phi, b) {
      unsigned n = xe_nops(phi), w = 0;
      uint32_t *ops = NULL;
      for (unsigned k = 0; k + 1 < n; k += 2) {
         if (xe_op(phi, k + 1) != pred) {
            if (ops) {
               ops[w] = xe_op(phi, k);
               ops[w + 1] = xe_op(phi, k + 1);
            }
            w += 2;
            continue;
         }
         if (!ops) {
            /* The first entry to drop: copy the ones kept so far. */
            ops = malloc((n ? n : 1) * sizeof(uint32_t));
            if (!ops)
               xe_out_of_memory();
            for (unsigned j = 0; j < w; j++)
               ops[j] = xe_op(phi, j);
         }
      }
      if (ops)
         xe_set_ops(phi, ops, w, NULL);
      free(ops);
   }
}
