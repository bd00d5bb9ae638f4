/*
 * Whether the interpreter may run a module, and --verify's entry, here
 * rather than in src/exec/ because deciding needs the repair passes.
 *
 * The interpreter's decoder trusts what spvValidate guarantees (composite
 * indices in range, operand types that fit), so a module is run only if it
 * validates once the two llvm-spirv-15 defects that xeopt repairs anyway
 * are repaired on a copy: blocks before their dominators and global
 * variables missing from entry-point interfaces.  Neither changes what a
 * kernel computes.  Nor does a third: ocloc's front end declares the
 * capability FPFastMathModeINTEL without the extension
 * SPV_INTEL_fp_fast_math_mode that enables it (fast-math flags on float
 * instructions, which the interpreter computes exactly anyway);
 * interface-vars declares it.  A fourth is llvm-spirv 21's printf format
 * given as a pointer to the whole char array, which canonicalize chains to
 * its first char (the interpreter does not run printf: such a kernel is
 * reported as not verified, not as an invalid module).  A fifth is DPC++'s
 * SPV_INTEL_memory_access_aliasing: SPIRV-Tools 2023.1 refuses its
 * declarations outside a block (2026.4 and IGC accept them); they are only
 * hints, so the copy drops them, their decorations and the memory-operand
 * bits that name them.
 *
 * The interpreter then runs the module itself, not the repaired copy: the
 * copy only decides, so `xeopt run`'s step counts and the instructions its
 * messages name are the module's own.
 */
#include <stdlib.h>
#include <string.h>

#include "io.h"
#include "passes.h"
#include "runnable.h"

/* Drops SPV_INTEL_memory_access_aliasing from c (a copy that is only
 * validated): OpAlias*DeclINTEL, OpDecorateId AliasScopeINTEL/NoAliasINTEL,
 * and the AliasScopeINTEL/NoAliasINTEL bits and ids of loads' and stores'
 * memory operands (SPIR-V 3.26: operands follow the mask in bit order). */
static void drop_aliasing(xe_module *c)
{
   if (!c->sec[XE_SEC_ALIAS_DECL].first)
      return;
   xe_foreach_inst_safe(i, n, &c->sec[XE_SEC_ANNOTATION]) {
      if (i->opcode == SpvOpDecorateId && xe_nops(i) >= 2 &&
          (xe_op(i, 1) == SpvDecorationAliasScopeINTEL || xe_op(i, 1) == SpvDecorationNoAliasINTEL))
         xe_inst_delete(c, i);
   }
   const uint32_t alias_bits = SpvMemoryAccessAliasScopeINTELMaskMask | SpvMemoryAccessNoAliasINTELMaskMask;
   xe_foreach_fn(f, c) {
      xe_foreach_block(b, f) {
         xe_foreach_inst(i, &b->insts) {
            unsigned k = xe_memory_operands_index(i);
            if (!k || xe_nops(i) <= k || !(xe_op(i, k) & alias_bits))
               continue;
            uint32_t mask = xe_op(i, k), ops[16];
            uint8_t kinds[16];
            unsigned n = 0, at = k + 1;
            if (xe_nops(i) > 16)
               continue;
            for (unsigned j = 0; j < k; j++) {
               kinds[n] = xe_op_kind(i, j);
               ops[n++] = xe_op(i, j);
            }
            kinds[n] = xe_op_kind(i, k);
            ops[n++] = mask & ~alias_bits;
            /* Aligned's literal, then one id per MakePointer*, AliasScope, NoAlias */
            static const uint32_t with_operand[] = {
               SpvMemoryAccessAlignedMask, SpvMemoryAccessMakePointerAvailableMask,
               SpvMemoryAccessMakePointerVisibleMask, SpvMemoryAccessAliasScopeINTELMaskMask,
               SpvMemoryAccessNoAliasINTELMaskMask };
            for (unsigned w = 0; w < 5 && at < xe_nops(i); w++) {
               if (!(mask & with_operand[w]))
                  continue;
               if (!(with_operand[w] & alias_bits)) {
                  kinds[n] = xe_op_kind(i, at);
                  ops[n++] = xe_op(i, at);
               }
               at++;
            }
            xe_set_ops(i, ops, n, kinds);
         }
      }
   }
   xe_foreach_inst_safe(i, n, &c->sec[XE_SEC_ALIAS_DECL])
      xe_inst_delete(c, i);
}

bool xe_check_runnable(const xe_module *m, char **err)
{
   size_t n;
   uint32_t *w = xe_write(m, &n, true);
   if (!w)
      xe_out_of_memory();
   xe_module *c = xe_read(w, n * 4, err);
   free(w);
   if (!c)
      return false;
   xe_options o;
   xe_options_init(&o);
   xe_ctx ctx = { .module = c, .options = &o, .remarks = NULL };
   drop_aliasing(c);
   xeopt_pass_canonicalize(&ctx);
   xe_module_invalidate(c);
   xeopt_pass_interface_vars(&ctx);
   xe_module_invalidate(c);
   xeopt_pass_block_order(&ctx);
   bool ok = xe_exec_check_module(c, err);
   xe_options_free(&o);
   xe_module_free(c);
   return ok;
}

bool xe_verify_modules(const xe_module *before, const xe_module *after, const xe_options *o,
                       FILE *log, char **report)
{
   int rc = 0;
   for (int side = 0; side < 2 && !rc; side++) {
      char *why = NULL;
      if (!xe_check_runnable(side ? after : before, &why)) {
         fprintf(log, "cannot run the %s module, it does not validate: %s\n",
                 side ? "optimized" : "input", why);
         free(why);
         rc = 2;
      }
   }
   if (!rc)
      rc = xe_exec_verify_ex((xe_module *)before, (xe_module *)after, (unsigned)o->verify,
                             o->verify_launches, o, false, log);
   if (!rc)
      return true;
   *report = strdup(rc == 2 ? "--verify could not run the modules (see above); no output written"
                            : "--verify: the optimized module computes different results (see "
                              "above); no output written");
   return false;
}
