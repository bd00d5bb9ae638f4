/*
 * canonicalize, folds of values the front ends leave unfolded.
 *
 * The OpenCL work-item builtins are defined as "dim < 3 ? id[dim] : 0"
 * (OpenCL C 6.15.1: out-of-range dimensions answer 0).  clang 21 with
 * llvm-spirv 21, and Intel's ocloc 26 front end, inline that definition
 * and leave the select with its condition already known:
 *
 *    %call = OpSelect %ulong %true %id %ulong_0
 *
 * To the lane and affine analyses %call is an unknown value, not the
 * global id, so no guard, block access or versioning candidate is found.
 * clang 15 and ocloc 22 folded it.  An OpSelect whose condition is
 * OpConstantTrue or OpConstantFalse is replaced by the operand it
 * selects, as SPIR-V 3.52.7 defines it; nothing else is touched.  A
 * specialization constant condition is not known until the module is
 * specialized, so it stays.
 *
 * Why not SPIRV-Tools: spirv-opt --simplify-instructions folds this select
 * too, but applies its whole folding-rule set (it rewrites vector shuffles
 * and composite inserts too) and validates first, so it refuses the
 * llvm-spirv-15 modules whose blocks are out of dominance order.
 * docs/layers.md says what else we do ourselves.
 *
 * clang's own SPIR-V backend writes a 32-to-64-bit sign extension of an
 * index as LLVM's sext_inreg, a shift pair
 *
 *    %t = OpShiftLeftLogical %ulong %x %ulong_32
 *    %i = OpShiftRightArithmetic %ulong %t %ulong_32
 *
 * which is OpSConvert(OpUConvert %x to 32 bits) (SPIR-V 3.52.11 and
 * 3.52.14), the form clang 15 writes and the affine analysis reads.  The
 * pair becomes that form for 8-, 16- and 32-bit inner widths.
 */
#include "builder.h"
#include "canonicalize.h"

/* Is id OpConstantTrue (1), OpConstantFalse (0), or neither (-1)? */
static int known_bool(const xe_module *m, uint32_t id)
{
   const xe_inst *d = xe_def(m, id);
   if (!d)
      return -1;
   if (d->opcode == SpvOpConstantTrue)
      return 1;
   if (d->opcode == SpvOpConstantFalse)
      return 0;
   return -1;
}

/* OpUConvert of x to narrow, built before pos, or an equal one already
 * there: in pos's block before it, or in its function's entry block (which
 * dominates pos).  Reusing it lets the analyses see the guard's value and
 * the index as one id (a guard 'UConvert(id) < n' and an index
 * sext(UConvert(id)) name the same UConvert). */
uint32_t canon_uconvert(xe_module *m, xe_inst *pos, uint32_t x, uint32_t narrow)
{
   uint32_t n;
   const xe_use *u = xe_uses(m, x, &n);
   xe_block *entry = pos->block ? pos->block->fn->first : NULL;
   for (uint32_t k = 0; k < n; k++) {
      xe_inst *c = u[k].inst;
      if (c->opcode != SpvOpUConvert || c->type_id != narrow || !c->block)
         continue;
      if (c->block == entry && pos->block != entry)
         return c->result_id;
      if (c->block == pos->block && xe_layout_before(c, pos))
         return c->result_id;
   }
   xe_builder b = xe_builder_before(m, pos);
   return xe_build1(&b, SpvOpUConvert, narrow, x);
}

/* i is OpShiftRightArithmetic (OpShiftLeftLogical x c) c on a scalar
 * integer of width W with W - c in {8, 16, 32}: rewrites it as
 * OpSConvert(OpUConvert x to W - c bits).  Returns whether it did. */
bool canon_fold_sext_inreg(xe_module *m, xe_inst *i)
{
   if (i->opcode != SpvOpShiftRightArithmetic)
      return false;
   const xe_inst *type = xe_def(m, i->type_id);
   const xe_inst *shl = xe_def(m, xe_op(i, 0));
   if (!type || type->opcode != SpvOpTypeInt || !shl || shl->opcode != SpvOpShiftLeftLogical ||
       shl->type_id != i->type_id)
      return false;
   uint64_t c1, c2;
   if (!xe_const_uint(m, xe_op(i, 1), &c1) || !xe_const_uint(m, xe_op(shl, 1), &c2) || c1 != c2)
      return false;
   unsigned width = xe_op(type, 0);
   if (c1 >= width)
      return false;
   unsigned inner = width - (unsigned)c1;
   if (inner != 8 && inner != 16 && inner != 32)
      return false;
   /* A Kernel module may use 8- and 16-bit integers only with their
    * capabilities (SPIR-V 2.16.1); the shift pair needed neither. */
   if (inner == 8)
      xe_add_capability(m, SpvCapabilityInt8);
   if (inner == 16)
      xe_add_capability(m, SpvCapabilityInt16);
   uint32_t narrow = canon_uconvert(m, i, xe_op(shl, 0), xe_type_int(m, inner));
   xe_builder b = xe_builder_before(m, i);
   uint32_t wide = xe_build1(&b, SpvOpSConvert, i->type_id, narrow);
   uint32_t shl_id = shl->result_id;
   xe_replace_all_uses(m, i->result_id, wide);
   xe_inst_kill(m, i);
   if (!xe_use_count(m, shl_id))
      xe_inst_kill(m, xe_def(m, shl_id));
   return true;
}

/* i is OpSelect on OpConstantTrue or OpConstantFalse: replaced by the
 * operand it selects (SPIR-V 3.52.7).  Returns whether it did. */
bool canon_fold_select(xe_module *m, xe_inst *i)
{
   if (i->opcode != SpvOpSelect)
      return false;
   int c = known_bool(m, xe_op(i, 0));
   if (c < 0)
      return false;
   uint32_t chosen = xe_op(i, c ? 1 : 2);
   xe_replace_all_uses(m, i->result_id, chosen);
   xe_inst_kill(m, i);
   return true;
}
