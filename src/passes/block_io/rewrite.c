/*
 * block-io: the rewrite.  Each access's base is lane 0's address: the
 * lane-varying built-in ids it derives from are broadcast once
 * (OpGroupBroadcast Subgroup, 0) and the index arithmetic is re-emitted on
 * them, so IGC computes it with scalar instructions and emits one
 * transposed block message.
 */
#include "block_io.h"
#include "builder.h"
#include "cfg.h"

/* Lane-0 values.  The sub-group base is the access's address in lane 0.
 * Rather than computing the address in every lane and broadcasting it,
 * we broadcast the lane-varying leaves (built-in ids) once, right after
 * their definition, and re-emit the pure integer/pointer operations on
 * them: lane0(op(a, b)) = op(lane0(a), lane0(b)) holds for any lane-wise
 * operation, and IGC then computes the base with scalar instructions.
 * Uniform values are their own lane-0 value.  A broadcast needs every lane
 * of the sub-group to execute it, so leaves must be in uniform blocks;
 * otherwise we broadcast the final index at the access (uniform block by
 * the transform's precondition). */
typedef struct lane0_ctx {
   xe_module *m;
   const xe_lanes *l;
   xe_idtab memo;     /* by original id; 0 = not built, UINT32_MAX = failed (sparse:
                         one table of the module's bound per kernel was quadratic) */
   uint32_t bound;
} lane0_ctx;

/* The last of the phis and source info from phi i on: code goes after it. */
static xe_inst *after_phis(const xe_module *m, xe_inst *i)
{
   while (i->next && (i->next->opcode == SpvOpPhi || xe_inst_is_source_info(m, i->next)))
      i = i->next;
   return i;
}

static uint32_t broadcast_after(lane0_ctx *c, xe_inst *def)
{
   xe_module *m = c->m;
   xe_inst *t = xe_def(m, def->type_id);
   if (!t || !def->block || !xe_lanes_block_uniform(c->l, def->block->label->result_id))
      return 0;
   xe_inst *pos = def->opcode == SpvOpPhi ? after_phis(m, def) : def;
   uint32_t u32 = xe_type_int(m, 32);
   uint32_t ops[3] = { xe_const_int(m, u32, SCOPE_SUBGROUP), def->result_id, xe_const_int(m, u32, 0) };
   xe_inst *last;
   uint32_t r;
   if (t->opcode == SpvOpTypeInt) {
      r = xe_fresh_id(m);
      last = xe_inst_create(SpvOpGroupBroadcast, def->type_id, r, ops, 3, NULL);
      xe_list_insert_after(m, pos, last);
      return r;
   }
   if (t->opcode != SpvOpTypePointer)
      return 0;
   uint32_t u64 = xe_type_int(m, 64), a = xe_fresh_id(m), b = xe_fresh_id(m);
   r = xe_fresh_id(m);
   xe_inst *i1 = xe_inst_create(SpvOpConvertPtrToU, u64, a, &def->result_id, 1, NULL);
   ops[1] = a;
   xe_inst *i2 = xe_inst_create(SpvOpGroupBroadcast, u64, b, ops, 3, NULL);
   xe_inst *i3 = xe_inst_create(SpvOpConvertUToPtr, def->type_id, r, &b, 1, NULL);
   xe_list_insert_after(m, pos, i1);
   xe_list_insert_after(m, i1, i2);
   xe_list_insert_after(m, i2, i3);
   return r;
}

static uint32_t lane0(lane0_ctx *c, uint32_t id, unsigned depth)
{
   if (id >= c->bound)
      return 0;
   uint32_t mv = xe_idtab_get(&c->memo, id);
   if (mv)
      return mv == UINT32_MAX ? 0 : mv;
   const xe_lane_fact *f = xe_lanes_fact(c->l, id);
   xe_inst *d = xe_def(c->m, id);
   uint32_t r = 0;
   if (f->kind == XE_LANE_UNIFORM) {
      r = id;
   } else if (d && d->block && depth < 64) {
      switch (d->opcode) {
      case SpvOpIAdd: case SpvOpISub: case SpvOpIMul: case SpvOpShiftLeftLogical:
      case SpvOpSConvert: case SpvOpUConvert: case SpvOpBitcast: case SpvOpCopyObject:
      case SpvOpConvertPtrToU: case SpvOpConvertUToPtr:
      case SpvOpPtrAccessChain: case SpvOpInBoundsPtrAccessChain: {
         uint32_t ops[16];
         unsigned n = xe_nops(d);
         bool ok = n <= 16;
         for (unsigned k = 0; ok && k < n; k++) {
            ops[k] = xe_op_kind(d, k) == XE_W_ID ? lane0(c, xe_op(d, k), depth + 1) : xe_op(d, k);
            ok = ops[k] != 0;
         }
         if (ok) {
            r = xe_fresh_id(c->m);
            xe_inst *cl = xe_inst_clone(d);
            xe_set_result(cl, r);
            xe_set_ops(cl, ops, n, xe_kinds(d) + d->first_op);
            xe_list_insert_after(c->m, d, cl);
            /* Wrap flags stay true: lane 0's operation is one the original
             * program performs in lane 0. */
            break;
         }
      }
      /* fall through */
      default:
         r = broadcast_after(c, d);
         break;
      }
   }
   xe_idtab_set(&c->memo, id, r ? r : UINT32_MAX);
   return r;
}

/* The lane-0 (sub-group base) pointer of ptr, built before the access. */
static uint32_t build_base(lane0_ctx *c, xe_builder *b, uint32_t ptr)
{
   xe_module *m = c->m;
   uint32_t r = lane0(c, ptr, 0);
   if (r)
      return r;
   uint32_t u32 = xe_type_int(m, 32), zero = xe_const_int(m, u32, 0);
   uint32_t scope = xe_const_int(m, u32, SCOPE_SUBGROUP);
   xe_inst *d = xe_def(m, ptr);
   uint32_t u64 = xe_type_int(m, 64);
   uint32_t addr = xe_build1(b, SpvOpConvertPtrToU, u64, ptr);
   uint32_t addr0 = xe_build3(b, SpvOpGroupBroadcast, u64, scope, addr, zero);
   return xe_build1(b, SpvOpConvertUToPtr, d->type_id, addr0);
}

static void rewrite(lane0_ctx *c, access *a)
{
   xe_module *m = c->m;
   xe_builder b = xe_builder_before(m, a->inst);
   uint32_t base = build_base(c, &b, a->ptr);
   xe_inst *t = xe_def(m, a->elem_type);
   unsigned width = xe_op(t, 0);
   /* Block I/O takes integers: floats are moved as same-width integers
    * (the module may use half or double without 16/64-bit integers). */
   static const SpvCapability int_cap[] = { [8] = SpvCapabilityInt8, [16] = SpvCapabilityInt16,
                                            [64] = SpvCapabilityInt64 };
   if (width != 32)
      xe_add_capability(m, int_cap[width]);
   uint32_t u32 = xe_type_int(m, width);
   bool is_float = t->opcode == SpvOpTypeFloat;
   if (is_float)
      base = xe_build1(&b, SpvOpBitcast, xe_type_pointer(m, SpvStorageClassCrossWorkgroup, u32), base);
   xe_inst *next = a->inst->next;
   if (a->store) {
      uint32_t v = xe_op(a->inst, 1);
      if (is_float)
         v = xe_build1(&b, SpvOpBitcast, u32, v);
      uint32_t ops[2] = { base, v };
      xe_build(&b, SpvOpSubgroupBlockWriteINTEL, 0, 2, ops);
      xe_inst_delete(m, a->inst);
      return;
   }
   if (a->width > 1) {
      /* Component k of the vector is the k-th load of the group; each
       * extract takes over its load's result id (inserting the new
       * definition before deleting the old one keeps the id table right:
       * a removal forgets only its own definition). */
      if (a->width >= 8)
         xe_add_capability(m, SpvCapabilityVector16);   /* 8- and 16-component vectors */
      uint32_t vt = xe_type_vector(m, u32, a->width);
      uint32_t vec = xe_build1(&b, SpvOpSubgroupBlockReadINTEL, vt, base);
      unsigned k = 0;
      for (access *g = a; g; g = g->next_in_group, k++) {
         uint32_t ops[2] = { vec, k }, result = g->inst->result_id;
         uint8_t kinds[2] = { XE_W_ID, XE_W_LIT };
         uint32_t val = vec;
         if (is_float) {
            val = xe_fresh_id(m);
            xe_build_inst(&b, xe_inst_create(SpvOpCompositeExtract, u32, val, ops, 2, kinds));
         }
         xe_build_inst(&b, is_float ? xe_inst_create(SpvOpBitcast, g->elem_type, result, &val, 1, NULL)
                                    : xe_inst_create(SpvOpCompositeExtract, g->elem_type, result, ops,
                                                     2, kinds));
      }
      for (access *g = a, *n; g; g = n) {
         n = g->next_in_group;
         xe_inst_delete(m, g->inst);
      }
      return;
   }
   /* The last instruction takes the load's result id: no use rewriting. */
   uint32_t result = a->inst->result_id;
   xe_inst *fin;
   if (is_float) {
      uint32_t val = xe_build1(&b, SpvOpSubgroupBlockReadINTEL, u32, base);
      fin = xe_inst_create(SpvOpBitcast, a->elem_type, result, &val, 1, NULL);
   } else {
      fin = xe_inst_create(SpvOpSubgroupBlockReadINTEL, a->elem_type, result, &base, 1, NULL);
   }
   xe_inst_delete(m, a->inst);
   xe_list_insert_before(m, next, fin);
}

void bio_rewrite_accesses(xe_module *m, const xe_lanes *plain, access *acc, unsigned nacc)
{
   /* Lane-0 values do not depend on which facts proved the access;
    * the plain facts only decide what is already uniform. */
   lane0_ctx lc = { m, plain, { { 0 }, 0, 0 }, plain->bound };
   for (unsigned n = 0; n < nacc; n++) {
      if (acc[n].inst && !acc[n].merged)
         rewrite(&lc, &acc[n]);
   }
   xe_idtab_free(&lc.memo);
}
