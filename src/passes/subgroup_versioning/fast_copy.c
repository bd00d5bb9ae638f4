/*
 * subgroup-versioning: the rewrite.  At the end of B the test (test.c)
 * selects per sub-group between R and its fast copy R': R is cloned into
 * R', where the tested accesses become OpSubgroupBlockReadINTEL /
 * WriteINTEL at the base the test built, and the copies join at R's
 * exits.  pass.c's header comment says why this is sound.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builder.h"
#include "cfg.h"
#include "lanes.h"
#include "subgroup_versioning.h"


/* Rewrites labels in the phis of block s: from -> to. */
static void phi_relabel(xe_block *s, uint32_t from, uint32_t to)
{
   xe_foreach_inst(i, &s->insts) {
      if (i->opcode != SpvOpPhi)
         continue;
      for (unsigned k = 1; k < xe_nops(i); k += 2) {
         if (xe_op(i, k) == from)
            xe_set_op(i, k, to);
      }
   }
}

static void successors_relabel(xe_module *m, xe_inst *term, uint32_t from, uint32_t to)
{
   for (unsigned k = 0; k < xe_nops(term); k++) {
      xe_inst *d = xe_op_kind(term, k) == XE_W_ID ? xe_def(m, xe_op(term, k)) : NULL;
      if (d && d->opcode == SpvOpLabel && d->block)
         phi_relabel(d->block, from, to);
   }
}

static uint32_t mapped(const uint32_t *map, uint32_t bound, uint32_t id)
{
   return id < bound && map[id] ? map[id] : id;
}


/* Without a guard: splits the entry after its variables, B keeping them
 * and the test, the new head H the rest; returns H. */
static xe_block *split_entry(vctx *c, xe_block *bb)
{
   xe_module *m = c->m;
   xe_inst *first = bb->insts.first;
   while (first && (first->opcode == SpvOpVariable || xe_inst_is_source_info(m, first)))
      first = first->next;
   xe_block *head = xe_block_create(m, c->f, xe_fresh_id(m));
   xe_block_insert(c->f, bb, head);
   successors_relabel(m, xe_block_terminator(bb), xe_block_id(bb), xe_block_id(head));
   for (xe_inst *i = first, *n; i; i = n) {
      n = i->next;
      xe_inst_remove(m, i);
      xe_block_append(m, head, i);
   }
   uint32_t hid = xe_block_id(head);
   xe_block_append(m, bb, xe_inst_create(SpvOpBranch, 0, 0, &hid, 1, NULL));
   return head;
}

/* The copy R' of the region (rb, nrb): fresh ids for labels and results
 * (map, bound0 entries, calloc'd), blocks appended to the function; each
 * candidate's clone recorded. */
static uint32_t *copy_region(vctx *c, xe_block **rb, unsigned nrb, uint32_t bound0)
{
   xe_module *m = c->m;
   uint32_t *map = calloc(bound0, sizeof(uint32_t));
   for (unsigned q = 0; q < nrb; q++) {
      map[xe_block_id(rb[q])] = xe_fresh_id(m);
      xe_foreach_inst(i, &rb[q]->insts) {
         if (i->result_id)
            map[i->result_id] = xe_fresh_id(m);
      }
   }
   for (unsigned q = 0; q < c->nc; q++)
      c->c[q].inst->aux = q + 1;
   xe_block *after = c->f->last;
   for (unsigned q = 0; q < nrb; q++) {
      xe_block *nb = xe_block_create(m, c->f, map[xe_block_id(rb[q])]);
      xe_block_insert(c->f, after, nb);
      after = nb;
      xe_foreach_inst(i, &rb[q]->insts) {
         xe_inst *cl = xe_inst_clone(i);
         cl->aux = 0;
         if (cl->result_id)
            xe_set_result(cl, map[i->result_id]);
         for (unsigned k = 0; k < xe_nops(cl); k++) {
            if (xe_op_kind(cl, k) == XE_W_ID)
               xe_set_op(cl, k, mapped(map, bound0, xe_op(cl, k)));
         }
         xe_block_append(m, nb, cl);
         if (i->aux)
            c->c[i->aux - 1].clone = cl;
      }
   }
   for (unsigned q = 0; q < c->nc; q++)
      c->c[q].inst->aux = 0;
   return map;
}

/* Decorations of the copied results (NoSignedWrap, FPFastMathMode...). */
static void copy_decorations(xe_module *m, const uint32_t *map, uint32_t bound0)
{
   xe_foreach_inst_safe(i, n, &m->sec[XE_SEC_ANNOTATION]) {
      if (i->opcode == SpvOpDecorate && xe_op(i, 0) < bound0 && map[xe_op(i, 0)] &&
          xe_def(m, xe_op(i, 0)) && xe_def(m, xe_op(i, 0))->opcode != SpvOpLabel) {
         xe_inst *cl = xe_inst_clone(i);
         xe_set_op(cl, 0, map[xe_op(i, 0)]);
         xe_list_insert_after(m, i, cl);
      }
   }
}

/* The phi i outside R gets, after each incoming pair from a block of R
 * (is_r), the same value from its copy. */
static void phi_add_copies(xe_inst *i, const uint32_t *map, uint32_t bound0, const uint8_t *is_r)
{
   unsigned n = xe_nops(i), add = 0;
   for (unsigned k = 1; k < n; k += 2)
      add += xe_op(i, k) < bound0 && is_r[xe_op(i, k)];
   if (!add)
      return;
   uint32_t *ops = malloc((n + 2 * add) * sizeof(uint32_t));
   uint8_t *kinds = malloc(n + 2 * add);
   unsigned o = 0;
   for (unsigned k = 0; k + 1 < n; k += 2) {
      ops[o] = xe_op(i, k), ops[o + 1] = xe_op(i, k + 1);
      kinds[o] = kinds[o + 1] = XE_W_ID;
      o += 2;
      if (xe_op(i, k + 1) < bound0 && is_r[xe_op(i, k + 1)]) {
         ops[o] = mapped(map, bound0, xe_op(i, k));
         ops[o + 1] = map[xe_op(i, k + 1)];
         kinds[o] = kinds[o + 1] = XE_W_ID;
         o += 2;
      }
   }
   xe_set_ops(i, ops, o, kinds);
   free(ops);
   free(kinds);
}

/* Phis outside R that R's blocks reach get the same values from R'. */
static void join_copies(vctx *c, xe_block **rb, unsigned nrb, const uint32_t *map, uint32_t bound0)
{
   uint8_t *is_r = calloc(bound0, 1);
   for (unsigned q = 0; q < nrb; q++)
      is_r[xe_block_id(rb[q])] = 1;
   xe_foreach_block(blk, c->f) {
      if (xe_block_id(blk) >= bound0 || is_r[xe_block_id(blk)])
         continue;   /* a copy, or in R */
      xe_foreach_inst(i, &blk->insts) {
         if (i->opcode == SpvOpPhi)
            phi_add_copies(i, map, bound0, is_r);
      }
   }
   free(is_r);
}

/* B -> H' (hcopy) when fast, else the original branch term (from a new
 * block when there is a guard) or H.  measure: as for sgv_apply. */
static void branch_to_copies(vctx *c, xe_block *bb, xe_inst *term, xe_block *head, uint32_t fast,
                             uint32_t hcopy, int measure)
{
   xe_module *m = c->m;
   uint32_t slow;
   if (c->no_guard) {
      slow = xe_block_id(head);
   } else {
      xe_block *bs = xe_block_create(m, c->f, xe_fresh_id(m));
      xe_block_insert(c->f, bb, bs);
      slow = xe_block_id(bs);
      successors_relabel(m, term, xe_block_id(bb), slow);
      xe_inst_remove(m, term);
      xe_block_append(m, bs, term);
   }
   if (c->no_guard)
      xe_inst_delete(m, term);
   if (measure != XE_MEASURE_NONE) {
      /* --measure-path (pass.h): the test stays, the sub-groups that would
       * take the other copy return, so IGC's code for one path can be
       * counted.  The other copy is left unreachable. */
      xe_block *ret = xe_block_create(m, c->f, xe_fresh_id(m));
      xe_block_insert(c->f, bb, ret);
      uint32_t rt = c->f->def->type_id;
      if (rt == xe_type_void(m)) {
         xe_block_append(m, ret, xe_inst_create(SpvOpReturn, 0, 0, NULL, 0, NULL));
      } else {
         uint32_t u = xe_global_append(m, SpvOpUndef, rt, 0, NULL, NULL);
         xe_block_append(m, ret, xe_inst_create(SpvOpReturnValue, 0, 0, &u, 1, NULL));
      }
      if (measure == XE_MEASURE_FAST)
         slow = xe_block_id(ret);
      else
         hcopy = xe_block_id(ret);
   }
   uint32_t bops[3] = { fast, hcopy, slow };
   xe_block_append(m, bb, xe_inst_create(SpvOpBranchConditional, 0, 0, bops, 3, NULL));
}

/* The block access of candidate a in R' (a->clone replaced). */
static void block_access(vctx *c, cand *a, const uint32_t *map, uint32_t bound0)
{
   xe_module *m = c->m;
   xe_inst *ci = a->clone;
   xe_inst *et = xe_def(m, a->elem_type);
   static const SpvCapability int_cap[] = { [8] = SpvCapabilityInt8, [16] = SpvCapabilityInt16,
                                            [64] = SpvCapabilityInt64 };
   if (a->width != 32)
      xe_add_capability(m, int_cap[a->width]);
   uint32_t it = xe_type_int(m, a->width);
   bool is_float = et->opcode == SpvOpTypeFloat;
   xe_builder cb = xe_builder_before(m, ci);
   uint32_t base = a->base;
   if (a->loop_key) {
      /* Lane 0's address from uniform values only: base[ext(u + i0)]
       * (IGC computes it with scalar instructions). */
      uint32_t u64 = xe_type_int(m, 64);
      uint32_t ut = mapped(map, bound0, a->loop_u);
      uint32_t s0 = xe_build2(&cb, SpvOpIAdd, xe_def(m, a->loop_key)->type_id, ut, a->loop_x0);
      if (a->loop_mode)
         s0 = xe_build1(&cb, a->loop_mode == 1 ? SpvOpSConvert : SpvOpUConvert, u64, s0);
      uint32_t pops[2] = { a->loop_base, s0 };
      base = xe_build(&cb, SpvOpPtrAccessChain, xe_def(m, xe_op(ci, 0))->type_id, 2, pops)->result_id;
   }
   if (is_float)
      base = xe_build1(&cb, SpvOpBitcast, xe_type_pointer(m, SpvStorageClassCrossWorkgroup, it), base);
   if (a->store) {
      uint32_t v = xe_op(ci, 1);
      if (is_float)
         v = xe_build1(&cb, SpvOpBitcast, it, v);
      uint32_t ops[2] = { base, v };
      xe_build(&cb, SpvOpSubgroupBlockWriteINTEL, 0, 2, ops);
   } else if (is_float) {
      uint32_t v = xe_build1(&cb, SpvOpSubgroupBlockReadINTEL, it, base);
      xe_build_inst(&cb, xe_inst_create(SpvOpBitcast, a->elem_type, ci->result_id, &v, 1, NULL));
   } else {
      xe_build_inst(&cb, xe_inst_create(SpvOpSubgroupBlockReadINTEL, a->elem_type, ci->result_id,
                                        &base, 1, NULL));
   }
   /* The new definition is in place: removing the copy forgets only
    * its own instruction. */
   xe_inst_delete(m, ci);
}

/* Builds the test, the copy and the block accesses.  cond: the guard's
 * condition (0 without a guard), h_true: H is its true target. */
void sgv_apply(vctx *c, xe_block **rb, unsigned nrb, uint32_t cond, bool h_true, int measure)
{
   xe_module *m = c->m;
   xe_block *bb = c->cfg->blocks[c->b];
   xe_block *head = rb[0];
   if (c->no_guard) {
      head = split_entry(c, bb);
      rb[0] = head;   /* B is rb[0] before the split */
   }
   xe_inst *term = xe_block_terminator(bb);
   c->at = term;
   uint32_t fast = sgv_build_test(c, cond, h_true);

   uint32_t bound0 = m->bound;
   uint32_t *map = copy_region(c, rb, nrb, bound0);
   copy_decorations(m, map, bound0);
   join_copies(c, rb, nrb, map, bound0);
   branch_to_copies(c, bb, term, head, fast, map[xe_block_id(head)], measure);

   /* The block accesses of R'. */
   xe_add_capability(m, SpvCapabilitySubgroupBufferBlockIOINTEL);
   if (!xe_has_extension(m, "SPV_INTEL_subgroups"))
      xe_add_extension(m, "SPV_INTEL_subgroups");
   for (unsigned q = 0; q < c->nc; q++)
      block_access(c, &c->c[q], map, bound0);
   free(map);
}
