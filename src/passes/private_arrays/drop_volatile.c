/*
 * private-arrays, rewrite "volatile": Function-storage loads and stores lose
 * Volatile; private memory is visible to no one else (REWRITES.md §3,
 * "never make private variables volatile").
 */
#include "passes.h"
#include "private_arrays.h"

static bool is_function_ptr(xe_module *m, uint32_t type)
{
   xe_inst *t = xe_def(m, type);
   return t && t->opcode == SpvOpTypePointer && xe_op(t, 0) == SpvStorageClassFunction;
}

xe_inst *pa_root_var(xe_module *m, uint32_t ptr)
{
   for (int guard = 0; guard < 16; guard++) {
      xe_inst *d = xe_def(m, ptr);
      if (!d)
         return NULL;
      switch (d->opcode) {
      case SpvOpVariable:
         return xe_op(d, 0) == SpvStorageClassFunction ? d : NULL;
      case SpvOpAccessChain: case SpvOpInBoundsAccessChain: case SpvOpPtrAccessChain:
      case SpvOpInBoundsPtrAccessChain: case SpvOpBitcast: case SpvOpCopyObject:
         ptr = xe_op(d, 0);
         break;
      default:
         return NULL;
      }
   }
   return NULL;
}

/* ---- rewrite 5: volatile ---- */
bool pa_drop_volatile(xe_module *m, xe_function *f, const char *kn, xe_remarks *r,
                      const uint32_t *keep, unsigned nkeep)
{
   unsigned n = 0;
   xe_foreach_block(b, f) {
      xe_foreach_inst(i, &b->insts) {
         if (!xe_access_is_volatile(i))
            continue;
         unsigned mop = xe_memory_operands_index(i);
         xe_inst *p = xe_def(m, xe_op(i, 0));
         if (!p || !is_function_ptr(m, p->type_id))
            continue;
         if (nkeep) {
            xe_inst *v = pa_root_var(m, xe_op(i, 0));
            bool kept = false;
            for (unsigned k = 0; v && k < nkeep && !kept; k++)
               kept = keep[k] == v->result_id;
            if (kept)
               continue;
         }
         xe_set_op(i, mop, xe_op(i, mop) & ~(uint32_t)SpvMemoryAccessVolatileMask);
         n++;
      }
   }
   if (n)
      xe_remark_decision(r, kn, XE_REMARK_APPLIED, XE_DECISION_VOLATILE_DROP,
                "volatile: dropped Volatile from %u Function-storage loads/stores (private "
                "memory is visible to no one else)", n);
   return n > 0;
}
