/*
 * generic-address: the cost question.  Where IGC keeps no call (no called
 * function is DontInline) and generic pointers are only loaded or stored
 * through, IGC inlines every call and resolves each space itself; pass.c
 * then leaves a kernel whose model is asked to IGC.
 */
#include "generic_address.h"

/* clang -O0 marks every function DontInline (its optnone needs noinline),
 * so in such a module the hint is not the author's: the copies, each
 * called from one combination of spaces, are left to IGC to inline.  Where
 * only some functions are DontInline, the copies keep the request. */
bool ga_all_dont_inline(xe_module *m)
{
   xe_foreach_fn(f, m)
      if (f->first && !(xe_op(f->def, 0) & SpvFunctionControlDontInlineMask))
         return false;
   return true;
}

/* Does IGC keep a call here: is a called function DontInline?  Without
 * one, IGC inlines every call and resolves each space this pass can prove
 * itself. */
bool ga_calls_kept(xe_module *m)
{
   xe_foreach_fn(f, m)
      if (f->first && (xe_op(f->def, 0) & SpvFunctionControlDontInlineMask) &&
          xe_function_callers(m, f))
         return true;
   return false;
}

/* Is every Generic pointer here only loaded or stored through, offset,
 * cast, merged (OpPhi, OpSelect) or passed to a function of the module?
 * Then IGC, once it has inlined the calls, resolves each space itself
 * (measured: testdata's generic_address_O2).  Past that (copies, atomics,
 * built-ins, a pointer stored as a value) the pass runs as before the
 * gate: a kernel that copies a SYCL range out of its Generic `this`
 * (OpCopyMemorySized) and loads through it compiles shorter when retyped
 * (without it IGC keeps an empty loop of divergent branches). */
bool ga_igc_resolves_all(xe_module *m)
{
   xe_foreach_fn(f, m) {
      xe_foreach_block(b, f) {
         xe_foreach_inst(i, &b->insts) {
            /* A DebugValue of a pointer is no use of it; an OpLine's
             * column is no id (-g, column 23 and %23 Generic, made the
             * gate miss). */
            if (xe_inst_is_source_info(m, i))
               continue;
            for (unsigned k = 0; k < xe_nops(i); k++) {
               if (xe_op_kind(i, k) != XE_W_ID)
                  continue;
               xe_inst *d = xe_def(m, xe_op(i, k));
               if (!d || !d->type_id || !xe_is_generic_ptr_type(m, d->type_id))
                  continue;
               switch (i->opcode) {
               case SpvOpStore:
                  if (k != 0)
                     return false; /* the pointer itself is stored */
                  break;
               case SpvOpFunctionCall: {
                  xe_function *callee = xe_function_by_id(m, xe_op(i, 0));
                  if (!callee || !callee->first)
                     return false; /* an import */
                  break;
               }
               case SpvOpLoad: case SpvOpAccessChain: case SpvOpInBoundsAccessChain:
               case SpvOpPtrAccessChain: case SpvOpInBoundsPtrAccessChain: case SpvOpBitcast:
               case SpvOpCopyObject: case SpvOpPhi: case SpvOpSelect:
               case SpvOpGenericCastToPtr: case SpvOpGenericCastToPtrExplicit:
               case SpvOpReturnValue: case SpvOpLifetimeStart: case SpvOpLifetimeStop:
               case SpvOpConvertPtrToU: case SpvOpPtrEqual: case SpvOpPtrNotEqual:
               case SpvOpPtrDiff:
                  break;
               default:
                  return false;
               }
            }
         }
      }
   }
   return true;
}
