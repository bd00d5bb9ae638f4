/*
 * Sub-group versioning's recognition: what the fast copy of a region R
 * entered from B may contain (src/analysis/subgroup_region.h).
 *
 * Hoisting: the run-time test at the end of B needs each converted
 * access's address there.  A value is available when its definition
 * dominates B from outside R; inside R it is re-emitted at B when it is a
 * pure operation that cannot trap and touches no memory (reemit_opcode),
 * since lanes that fail the guard compute it too, on available operands.
 *
 * Candidates: CrossWorkgroup loads and stores of 8- to 64-bit scalars,
 * not volatile, in a block every lane reaches in the fast copy, whose
 * address can move by one element per lane (in the analysed launch or a
 * typical one) and can be computed at B, or, for loads in loops, is
 * base[ext(u + i)] with u uniform and i computable at B (loop_form).
 */
#include <stdio.h>
#include <stdlib.h>

#include <spirv/unified1/OpenCL.std.h>

#include "subgroup_region.h"

#define SCOPE_SUBGROUP 3

/* Pure operations a lane may compute although the original program would
 * not (a lane that fails the guard): no trap, no memory access. */
static bool reemit_opcode(xe_module *m, const xe_inst *d)
{
   switch (d->opcode) {
   case SpvOpIAdd: case SpvOpISub: case SpvOpIMul:
   case SpvOpShiftLeftLogical: case SpvOpShiftRightLogical: case SpvOpShiftRightArithmetic:
   case SpvOpBitwiseAnd: case SpvOpBitwiseOr: case SpvOpBitwiseXor: case SpvOpNot:
   case SpvOpSConvert: case SpvOpUConvert: case SpvOpBitcast: case SpvOpCopyObject:
   case SpvOpConvertPtrToU: case SpvOpConvertUToPtr:
   case SpvOpPtrAccessChain: case SpvOpInBoundsPtrAccessChain:
   case SpvOpCompositeExtract: case SpvOpSelect:
   case SpvOpIEqual: case SpvOpINotEqual:
   case SpvOpSLessThan: case SpvOpULessThan: case SpvOpSGreaterThan: case SpvOpUGreaterThan:
   case SpvOpSLessThanEqual: case SpvOpULessThanEqual:
   case SpvOpSGreaterThanEqual: case SpvOpUGreaterThanEqual:
   case SpvOpLogicalAnd: case SpvOpLogicalOr: case SpvOpLogicalNot:
      return true;
   case SpvOpExtInst:
      /* OpenCL.std's integer min, max, clamp and 24-bit multiplies:
       * pure, and defined (if unspecified) for any operands. */
      if (xe_nops(d) < 2 || xe_op(d, 0) != xe_opencl_std(m, false))
         return false;
      switch (xe_op(d, 1)) {
      case OpenCLstd_SMin: case OpenCLstd_UMin: case OpenCLstd_SMax: case OpenCLstd_UMax:
      case OpenCLstd_SClamp: case OpenCLstd_UClamp:
      case OpenCLstd_SMad24: case OpenCLstd_UMad24: case OpenCLstd_SMul24: case OpenCLstd_UMul24:
         return true;
      default:
         return false;
      }
   case SpvOpLoad: {
      /* Built-in inputs only. */
      xe_inst *v = xe_def(m, xe_op(d, 0));
      return v && v->opcode == SpvOpVariable && !v->block && xe_op(v, 0) == SpvStorageClassInput;
   }
   default:
      return false;
   }
}

/* Can id be computed at the end of B? */
int xe_sgv_hoistable(xe_sgv *c, uint32_t id, unsigned depth)
{
   if (id >= c->m->bound)
      return XE_SGV_H_NO;
   if (xe_idtab_get(&c->hmemo, id))
      return (int)xe_idtab_get(&c->hmemo, id);
   xe_inst *d = xe_def(c->m, id);
   int res = XE_SGV_H_NO;
   if (!d) {
      res = XE_SGV_H_NO;
   } else if (!d->block) {
      res = XE_SGV_H_AVAILABLE;   /* constants, globals, parameters */
   } else {
      uint32_t bx = xe_cfg_block_index(c->cfg, xe_block_id(d->block));
      bool in_r = bx != XE_NONE && c->in_r[bx] && !(c->no_guard && d->opcode == SpvOpVariable);
      if (bx == XE_NONE || c->cfg->rpo_index[bx] == XE_NONE) {
         res = XE_SGV_H_NO;
      } else if (!in_r && xe_dominates(c->cfg, bx, c->b)) {
         res = XE_SGV_H_AVAILABLE;
      } else if (in_r && depth < XE_SGV_MAX_HOIST_DEPTH && xe_nops(d) <= 32 && reemit_opcode(c->m, d)) {
         res = XE_SGV_H_REEMIT;
         for (unsigned k = 0; k < xe_nops(d) && res == XE_SGV_H_REEMIT; k++) {
            if (xe_op_kind(d, k) == XE_W_ID && xe_sgv_hoistable(c, xe_op(d, k), depth + 1) == XE_SGV_H_NO)
               res = XE_SGV_H_NO;
         }
      }
   }
   xe_idtab_set(&c->hmemo, id, (uint32_t)res);
   return res;
}

/* Why an instruction of the region, or of a function it calls, keeps the
 * region from being duplicated (sub-groups of one work-group may take
 * different copies), or NULL.  A call is duplicated as a call: it is
 * refused only for what the callee, or a function it calls, does.  seen:
 * the functions already looked at (each once, however often called). */
static const char *inst_why(xe_module *m, const xe_inst *i, unsigned depth, xe_idtab *seen)
{
   switch (i->opcode) {
   case SpvOpControlBarrier:
      return depth ? "a function the region calls has a barrier"
                   : "the region has a barrier (sub-groups of one work-group could take different copies)";
   case SpvOpGroupAsyncCopy: case SpvOpGroupWaitEvents:
      return depth ? "a function the region calls has a work-group copy" : "the region has a work-group copy";
   case SpvOpFunctionCall: {
      xe_function *f = xe_function_by_id(m, xe_op(i, 0));
      if (!f || !f->first)
         return "the region calls a function without a body";
      if (xe_idtab_get(seen, xe_op(i, 0)))
         return NULL;
      xe_idtab_set(seen, xe_op(i, 0), 1);
      xe_foreach_block(blk, f) {
         xe_foreach_inst(ci, &blk->insts) {
            const char *w = inst_why(m, ci, depth + 1, seen);
            if (w)
               return w;
         }
      }
      return NULL;
   }
   default:
      break;
   }
   if ((i->opcode >= SpvOpGroupAll && i->opcode <= SpvOpGroupSMax) ||
       (i->opcode >= SpvOpGroupNonUniformElect && i->opcode <= SpvOpGroupNonUniformQuadSwap) ||
       (i->opcode >= SpvOpGroupIMulKHR && i->opcode <= SpvOpGroupLogicalXorKHR)) {
      uint64_t scope;
      if (!xe_const_uint(m, xe_op(i, 0), &scope) || scope != SCOPE_SUBGROUP)
         return depth ? "a function the region calls has a work-group collective"
                      : "the region has a work-group collective";
   }
   return NULL;
}

/* Why the region cannot be duplicated, or NULL. */
const char *xe_sgv_region_why(xe_sgv *c, char *why, size_t n)
{
   unsigned count = 0;
   xe_idtab seen = { 0 };
   const char *w = NULL;
   for (uint32_t x = 0; x < c->cfg->n && !w; x++) {
      if (!c->in_r[x])
         continue;
      xe_foreach_inst(i, &c->cfg->blocks[x]->insts) {
         count += !xe_inst_is_source_info(c->m, i);   /* -g adds no code */
         if ((w = inst_why(c->m, i, 0, &seen)))
            break;
      }
   }
   xe_idtab_free(&seen);
   if (w)
      return w;
   if (count > XE_SGV_MAX_REGION_INSTS) {
      snprintf(why, n, "the region has %u instructions; the size rule duplicates at most %u",
               count, XE_SGV_MAX_REGION_INSTS);
      return why;
   }
   return NULL;
}

static bool has_dec(const xe_module *m, uint32_t id, SpvDecoration d)
{
   uint32_t v;
   return xe_decoration(m, id, d, &v, 0);
}

/* A load whose address cannot be computed at B but is base[ext(u + i)] or
 * base[u + i] (64-bit) with base a parameter, u the same in every lane of
 * the fast copy and i computable at B: if B tests that lane k's i is lane
 * 0's plus k without wrapping in i's type, the program's own promise that
 * u + i does not wrap (NoSignedWrap for a sign extension, NoUnsignedWrap
 * for a zero extension) makes lane k's element index lane 0's plus k.  The
 * base alignment a block read needs (4 bytes) comes from the load's own
 * Aligned operand: lane 0's address is one the load reads.  Writes need
 * 16 bytes, which only a test shows: they stay per-lane. */
static bool loop_form(xe_sgv *c, const xe_lanes *l, const xe_inst *ld, uint32_t *key, int *mode,
                      uint32_t *uterm, uint32_t *base)
{
   xe_module *m = c->m;
   if (ld->opcode != SpvOpLoad || xe_nops(ld) < 3 || !(xe_op(ld, 1) & SpvMemoryAccessAlignedMask) ||
       xe_op(ld, 2) < 4)
      return false;
   xe_inst *d = xe_def(m, xe_op(ld, 0));
   if (!d || (d->opcode != SpvOpPtrAccessChain && d->opcode != SpvOpInBoundsPtrAccessChain) ||
       xe_nops(d) != 2)
      return false;
   xe_inst *bd = xe_def(m, xe_op(d, 0));
   xe_inst *bt = bd ? xe_def(m, bd->type_id) : NULL;
   xe_inst *lt = xe_def(m, ld->type_id);
   if (!bd || bd->block || !bt || bt->opcode != SpvOpTypePointer || !lt ||
       xe_type_size(m, xe_op(bt, 1)) != xe_op(lt, 0) / 8)
      return false;
   xe_inst *id = xe_def(m, xe_op(d, 1));
   if (!id || xe_type_width(m, id->type_id) != 64)
      return false;
   xe_inst *sum = id;
   *mode = 0;
   if (id->opcode == SpvOpSConvert || id->opcode == SpvOpUConvert) {
      sum = xe_def(m, xe_op(id, 0));
      *mode = id->opcode == SpvOpSConvert ? 1 : 2;
      if (!sum || xe_type_width(m, sum->type_id) != 32 ||
          !has_dec(m, sum->result_id, *mode == 1 ? SpvDecorationNoSignedWrap : SpvDecorationNoUnsignedWrap))
         return false;
   }
   if (sum->opcode != SpvOpIAdd)
      return false;
   for (int side = 0; side < 2; side++) {
      uint32_t u = xe_op(sum, side), i = xe_op(sum, 1 - side);
      if (xe_lanes_fact(l, u)->kind == XE_LANE_UNIFORM && xe_sgv_hoistable(c, i, 0) != XE_SGV_H_NO) {
         *key = i;
         *uterm = u;
         *base = bd->result_id;
         return true;
      }
   }
   return false;
}

static const xe_lanes *lanes_typical(xe_sgv *c)
{
   static const uint32_t ls[3] = { 16, 1, 1 };
   if (!c->typical)
      c->typical = xe_lanes_analyze(c->m, c->f, 16, ls, XE_LANES_ASSUME_OFFSET);
   return c->typical;
}

/* How an integer index typically moves per lane: its lane fact (in the
 * analysed launch or a typical one) where that is affine or uniform, else
 * through the operations real kernels put around a lane-indexed value:
 * conversions and low masks, + and - (strides add), * by a constant, mad24, and min,
 * max or clamp against uniform bounds (a clamped border index moves by
 * one element except at the border: darktable's min(x, width - 1)).
 * INT64_MIN when unknown (a[i * n]: the stride is the argument n). */
#define STRIDE_UNKNOWN INT64_MIN
static int64_t likely_stride(xe_sgv *c, const xe_lanes *l, uint32_t id, unsigned depth)
{
   const xe_lane_fact *f = xe_lanes_fact(l, id);
   if (f->kind != XE_LANE_AFFINE && f->kind != XE_LANE_UNIFORM)
      f = xe_lanes_fact(lanes_typical(c), id);
   if (f->kind == XE_LANE_AFFINE)
      return f->stride;
   if (f->kind == XE_LANE_UNIFORM)
      return 0;
   xe_inst *d = xe_def(c->m, id);
   if (!d || depth > 8)
      return STRIDE_UNKNOWN;
   int64_t a, b;
   uint64_t k;
   switch (d->opcode) {
   case SpvOpSConvert: case SpvOpUConvert: case SpvOpBitcast: case SpvOpCopyObject:
      return likely_stride(c, l, xe_op(d, 0), depth + 1);
   case SpvOpBitwiseAnd:
      /* (ulong)(uint)x as x & 0xffffffff: a low mask of 16 bits or more
       * changes the stride only where the index wraps. */
      for (int q = 0; q < 2; q++) {
         if (xe_const_uint(c->m, xe_op(d, q), &k) && k >= 0xffff && !(k & (k + 1)))
            return likely_stride(c, l, xe_op(d, 1 - q), depth + 1);
      }
      return STRIDE_UNKNOWN;
   case SpvOpIAdd: case SpvOpISub:
      a = likely_stride(c, l, xe_op(d, 0), depth + 1);
      b = likely_stride(c, l, xe_op(d, 1), depth + 1);
      if (a == STRIDE_UNKNOWN || b == STRIDE_UNKNOWN)
         return STRIDE_UNKNOWN;
      return d->opcode == SpvOpIAdd ? a + b : a - b;
   case SpvOpIMul:
      for (int q = 0; q < 2; q++) {
         if (xe_const_uint(c->m, xe_op(d, q), &k) && k < (1u << 20)) {
            a = likely_stride(c, l, xe_op(d, 1 - q), depth + 1);
            return a == STRIDE_UNKNOWN ? a : a * (int64_t)k;
         }
      }
      a = likely_stride(c, l, xe_op(d, 0), depth + 1);
      b = likely_stride(c, l, xe_op(d, 1), depth + 1);
      return a == 0 && b == 0 ? 0 : STRIDE_UNKNOWN;
   case SpvOpExtInst:
      break;
   default:
      return STRIDE_UNKNOWN;
   }
   if (xe_op(d, 0) != xe_opencl_std(c->m, false))
      return STRIDE_UNKNOWN;
   unsigned n = xe_nops(d);
   switch (xe_op(d, 1)) {
   case OpenCLstd_SMin: case OpenCLstd_UMin: case OpenCLstd_SMax: case OpenCLstd_UMax:
      if (n != 4)
         return STRIDE_UNKNOWN;
      a = likely_stride(c, l, xe_op(d, 2), depth + 1);
      b = likely_stride(c, l, xe_op(d, 3), depth + 1);
      return a == 0 ? b : b == 0 ? a : STRIDE_UNKNOWN;
   case OpenCLstd_SClamp: case OpenCLstd_UClamp:
      if (n != 5 || likely_stride(c, l, xe_op(d, 3), depth + 1) != 0 ||
          likely_stride(c, l, xe_op(d, 4), depth + 1) != 0)
         return STRIDE_UNKNOWN;
      return likely_stride(c, l, xe_op(d, 2), depth + 1);
   case OpenCLstd_SMad24: case OpenCLstd_UMad24:
      if (n != 5)
         return STRIDE_UNKNOWN;
      a = likely_stride(c, l, xe_op(d, 2), depth + 1);
      b = likely_stride(c, l, xe_op(d, 3), depth + 1);
      if (a != 0 || b != 0)
         return STRIDE_UNKNOWN;   /* a lane-varying factor times an argument */
      return likely_stride(c, l, xe_op(d, 4), depth + 1);
   default:
      return STRIDE_UNKNOWN;
   }
}

/* Does the index of access i (base[idx], or the 32-bit value idx extends;
 * for a load in a loop, the key loop_form tests) typically move by one
 * element per lane (likely_stride)? */
static bool index_moves_by_one(xe_sgv *c, const xe_lanes *l, xe_inst *i, uint32_t ptr,
                               unsigned width, uint32_t lkey)
{
   uint32_t key = lkey;
   if (!key) {
      uint32_t base;
      int mode;
      xe_sgv_cand a = { .inst = i, .ptr = ptr, .width = width };
      if (!xe_sgv_index_form(c, &a, &base, &key, &mode))
         return false;
   }
   return likely_stride(c, l, key, 0) == 1;
}

/* Peels uniform terms off the index a's test would compare lane by lane
 * (xe_sgv_cand.lane_key): key = x + u, u + x or x - u with u uniform under
 * l, down to an x that is not such a sum.  Exact modulo 2^width, so lane
 * k's key is lane 0's plus k exactly when lane k's x is lane 0's plus k. */
static void split_key(xe_sgv *c, const xe_lanes *l, xe_sgv_cand *a)
{
   uint32_t base, key;
   int mode;
   if (!xe_sgv_index_form(c, a, &base, &key, &mode))
      return;
   uint32_t x = key;
   a->nuterm = 0;
   a->terms_nowrap = mode != 0;
   while (a->nuterm < XE_SGV_MAX_UTERMS) {
      xe_inst *d = xe_def(c->m, x);
      if (!d || (d->opcode != SpvOpIAdd && d->opcode != SpvOpISub))
         break;
      int side = -1;
      if (xe_lanes_fact(l, xe_op(d, 1))->kind == XE_LANE_UNIFORM)
         side = 1;
      else if (d->opcode == SpvOpIAdd && xe_lanes_fact(l, xe_op(d, 0))->kind == XE_LANE_UNIFORM)
         side = 0;
      if (side < 0)
         break;
      a->uterm[a->nuterm] = xe_op(d, side);
      a->uneg[a->nuterm++] = d->opcode == SpvOpISub;
      a->terms_nowrap &= has_dec(c->m, x, mode == 1 ? SpvDecorationNoSignedWrap : SpvDecorationNoUnsignedWrap);
      x = xe_op(d, 1 - side);
   }
   a->lane_key = a->nuterm ? x : 0;
}

bool xe_sgv_tested_key(xe_sgv *c, const xe_sgv_cand *a, uint32_t *base, uint32_t *key, int *mode,
                       uint32_t *lane_key)
{
   if (a->loop_key) {
      *base = 0, *key = a->loop_key, *mode = a->loop_mode;
   } else if (!xe_sgv_index_form(c, a, base, key, mode)) {
      return false;
   }
   *lane_key = a->lane_key ? a->lane_key : *key;
   return true;
}

unsigned xe_sgv_lane_tests(xe_sgv *c, unsigned *shared, unsigned *wraps)
{
   unsigned lanes = 0;
   *shared = *wraps = 0;
   for (unsigned q = 0; q < c->nc; q++) {
      const xe_sgv_cand *a = &c->c[q];
      uint32_t base, key, lk, bkey, blk;
      int mode, bmode;
      if (!xe_sgv_tested_key(c, a, &base, &key, &mode, &lk)) {
         lanes++;
         continue;
      }
      /* Accesses with the same key count one each, as in the fit of
       * version_access (docs/cost-model.md); a key that only shares its
       * lane key with an earlier one is a shared access. */
      bool seen = false;
      for (unsigned p = 0; p < q && !seen; p++) {
         if (xe_sgv_tested_key(c, &c->c[p], &base, &bkey, &bmode, &blk))
            seen = bkey != key && blk == lk;
      }
      if (!seen) {
         lanes++;
      } else {
         ++*shared;
         /* A loop form's wrap is its loop test's. */
         *wraps += mode && !a->loop_key && !a->terms_nowrap;
      }
   }
   return lanes;
}

/* Collects the accesses of R that the fast copy can make block accesses;
 * tells missed about the others when it is set. */
void xe_sgv_collect(xe_sgv *c, const xe_lanes *l, xe_sgv_missed_fn missed, void *arg)
{
   for (uint32_t x = 0; x < c->cfg->n; x++) {
      if (!c->in_r[x])
         continue;
      xe_block *blk = c->cfg->blocks[x];
      xe_foreach_inst(i, &blk->insts) {
         bool st = i->opcode == SpvOpStore;
         if (i->opcode != SpvOpLoad && !st)
            continue;
         uint32_t ptr = xe_op(i, 0), sc = 0;
         xe_inst *pd = xe_def(c->m, ptr);
         xe_inst *pt = pd ? xe_def(c->m, pd->type_id) : NULL;
         if (!pt || pt->opcode != SpvOpTypePointer)
            continue;
         sc = xe_op(pt, 0);
         if (sc != SpvStorageClassCrossWorkgroup)
            continue;
         uint32_t elem = xe_op(pt, 1);
         xe_inst *et = xe_def(c->m, elem);
         const char *why = NULL;
         unsigned width = et && (et->opcode == SpvOpTypeInt || et->opcode == SpvOpTypeFloat) ?
                          xe_op(et, 0) : 0;
         if (xe_access_is_volatile(i))
            why = "volatile access";
         else if (width != 8 && width != 16 && width != 32 && width != 64)
            why = "element type is not an 8-, 16-, 32- or 64-bit integer or float";
         else if (!xe_lanes_block_uniform(l, xe_block_id(blk)))
            why = "divergent block even in the fast copy";
         /* Addresses the lane analysis knows are not one element per lane
          * would fail the contiguity test in every sub-group: a fast copy
          * for them never runs (darktable's 3x3 matrix loads). */
         const xe_lane_fact *pf = xe_lanes_fact(l, ptr);
         /* Under the declared sizes this fact holds in every full
          * sub-group of a work-group of the declared width (lanes.h's
          * sources); the typical launch's below only guesses. */
         bool proved = c->declared && l->sg && pf->kind == XE_LANE_AFFINE &&
                       pf->stride == (int64_t)(width / 8);
         if (pf->kind != XE_LANE_UNIFORM && pf->kind != XE_LANE_AFFINE)
            pf = xe_lanes_fact(lanes_typical(c), ptr);
         if (!why && pf->kind == XE_LANE_UNIFORM)
            why = "its address is the same in every lane (the run-time test could never pass)";
         else if (!why && pf->kind == XE_LANE_AFFINE && pf->stride != (int64_t)(width / 8))
            why = "its address does not move by one element per lane (the run-time test could "
                  "never pass)";
         uint32_t lkey = 0, lu = 0, lbase = 0;
         int lmode = 0;
         if (!why && xe_sgv_hoistable(c, ptr, 0) == XE_SGV_H_NO && !loop_form(c, l, i, &lkey, &lmode, &lu, &lbase))
            why = st ? "its address cannot be computed where the test runs (a block write needs "
                       "its 16-byte alignment tested there)"
                     : "its address cannot be computed where the test runs, nor is it "
                       "base[uniform + i] with i computable there";
         /* Nor when the analysis cannot tell that it moves by one element:
          * a[i * n + j] passes the test only if n happens to be 1, and one
          * access that fails sends the whole sub-group to the original
          * code, which the cost model (the fast copy for 0.9 of the
          * sub-groups) would not see.  The index before its extension to
          * 64 bits counts (its wrap is what the test checks). */
         if (!why && pf->kind != XE_LANE_AFFINE && !index_moves_by_one(c, l, i, ptr, width, lkey))
            why = "the lane analysis cannot tell that its address moves by one element per lane "
                  "(the run-time test would pass only by chance)";
         if (why) {
            if (missed)
               missed(arg, st, ptr, why);
            continue;
         }
         c->c = realloc(c->c, (c->nc + 1) * sizeof(*c->c));
         xe_sgv_cand cd = { .inst = i, .ptr = ptr, .elem_type = elem, .store = st, .width = width,
                            .loop_key = lkey, .loop_mode = lmode, .loop_u = lu, .loop_base = lbase,
                            .proved = proved && !lkey };
         if (!lkey)
            split_key(c, l, &cd);
         uint32_t ib, ik;
         int im;
         if (!cd.proved && c->declared && l->sg && !lkey && xe_sgv_index_form(c, &cd, &ib, &ik, &im) &&
             im) {
            /* base[ext(i)]: i itself moves by one element per lane (modulo
             * 2^32) in every full sub-group; the extension is the test's. */
            const xe_lane_fact *kf = xe_lanes_fact(l, ik);
            if (kf->kind == XE_LANE_AFFINE && kf->stride == 1)
               cd.proved = true, cd.wrap_mode = (im == 1 && !kf->nowrap_s) || (im == 2 && !kf->nowrap_u) ? im : 0;
         }
         c->c[c->nc++] = cd;
      }
   }
}

/* Is a's address base[idx] (OpPtrAccessChain with one index) with base
 * the same in every lane and elements of the access's size?  Then *key is
 * the index to test: idx itself (64-bit) or the 32-bit value it extends. */
bool xe_sgv_index_form(xe_sgv *c, const xe_sgv_cand *a, uint32_t *base, uint32_t *key,
                       int *mode)
{
   xe_module *m = c->m;
   xe_inst *d = xe_def(m, a->ptr);
   if (!d || (d->opcode != SpvOpPtrAccessChain && d->opcode != SpvOpInBoundsPtrAccessChain) ||
       xe_nops(d) != 2)
      return false;
   *base = xe_op(d, 0);
   xe_inst *bd = xe_def(m, *base);
   xe_inst *bt = bd ? xe_def(m, bd->type_id) : NULL;
   /* Parameters and values computed from them and constants only. */
   if (!bd || bd->block || !bt || bt->opcode != SpvOpTypePointer ||
       xe_type_size(m, xe_op(bt, 1)) != a->width / 8)
      return false;
   uint32_t idx = xe_op(d, 1);
   xe_inst *id = xe_def(m, idx);
   if (!id || xe_type_width(m, id->type_id) != 64)
      return false;
   *key = idx;
   *mode = 0;
   if (id->opcode == SpvOpSConvert || id->opcode == SpvOpUConvert) {
      xe_inst *x = xe_def(m, xe_op(id, 0));
      if (x && xe_type_width(m, x->type_id) == 32 && xe_sgv_hoistable(c, x->result_id, 0) != XE_SGV_H_NO) {
         *key = x->result_id;
         *mode = id->opcode == SpvOpSConvert ? 1 : 2;
      }
   }
   return true;
}

bool xe_sgv_uniform_test(const xe_sgv *c)
{
   if (!c->declared || !c->nc)
      return false;
   for (unsigned q = 0; q < c->nc; q++) {
      if (!c->c[q].proved)
         return false;
   }
   return true;
}

bool xe_sgv_align_known(const xe_sgv_cand *a)
{
   unsigned first = a->store ? 2 : 1;
   const xe_inst *i = a->inst;
   if (xe_nops(i) <= first + 1)
      return false;
   uint32_t mask = xe_op(i, first);
   /* Aligned is the lowest memory-access bit with an operand: its literal
    * comes first. */
   return (mask & SpvMemoryAccessAlignedMask) &&
          xe_align_pow2(xe_op(i, first + 1)) >= (a->store ? 16u : 4u);
}

unsigned xe_sgv_uniform_checks(const xe_sgv *c)
{
   unsigned n = 0;
   for (unsigned q = 0; q < c->nc; q++) {
      n += !xe_sgv_align_known(&c->c[q]);
      /* One wrap check per index (test.c shares it). */
      bool first = c->c[q].wrap_mode != 0;
      uint32_t ix = first ? xe_op(xe_def(c->m, c->c[q].ptr), 1) : 0;
      for (unsigned p = 0; p < q && first; p++)
         first = !c->c[p].wrap_mode || xe_op(xe_def(c->m, c->c[p].ptr), 1) != ix;
      n += first;
   }
   return n;
}

/* Candidate q shares the lane-0 base of an earlier candidate with the same
 * address and direction, when there is one. */
bool xe_sgv_reuse_base(xe_sgv *c, unsigned q)
{
   xe_sgv_cand *a = &c->c[q];
   for (unsigned p = 0; p < q && !a->base; p++) {
      if (c->c[p].ptr == a->ptr && c->c[p].store == a->store)
         a->base = c->c[p].base;
   }
   return a->base != 0;
}
