/*
 * Sub-group block reads and writes (SPV_INTEL_subgroups): which per-lane
 * global loads and stores may become one, and the lane-0 address form that
 * lets consecutive loads merge into a vector block read.  The block-io pass
 * (src/passes/block_io/) rewrites what this proves; its pass.c header
 * lists the preconditions and the host contract.
 *
 * xe_block_access_decide checks, per access: not volatile; a scalar
 * integer or float element of 8, 16, 32 or 64 bits; a sub-group uniform
 * block (every lane executes it); a lane-affine address with stride equal
 * to the element size; and the cl_intel_subgroups alignment of the
 * sub-group base (4 bytes for reads, 16 for writes), from the access's
 * Aligned operand, the argument's Alignment decoration and the offset's
 * known trailing zeros, or assumed under --assume-aligned.
 */
#include <stdio.h>
#include <string.h>

#include "block_access.h"
#include "opinfo.h"

/* Alignment in bytes of the lane-0 address given its fact. */
static uint64_t base_alignment(xe_module *m, const xe_lane_fact *f, bool assume_arg)
{
   if (!f->root)
      return 1;
   uint32_t a = 0;
   xe_decoration(m, f->root, SpvDecorationAlignment, &a, 1);
   uint64_t arg = a ? xe_align_pow2(a) : 1;
   if (assume_arg && arg < 16)
      arg = 16;
   uint64_t off = f->tz >= 63 ? (1ull << 62) : 1ull << f->tz;
   return arg < off ? arg : off;
}

static bool mem_aligned(const xe_inst *i, unsigned first_mem_op, uint64_t *align)
{
   if (!first_mem_op || xe_nops(i) <= first_mem_op)
      return false;
   uint32_t mask = xe_op(i, first_mem_op);
   if (mask & SpvMemoryAccessVolatileMask)
      return false;
   if ((mask & SpvMemoryAccessAlignedMask) && xe_nops(i) > first_mem_op + 1) {
      *align = xe_align_pow2(xe_op(i, first_mem_op + 1));
      return true;
   }
   return false;
}

static bool has_nsw(const xe_module *m, uint32_t id)
{
   uint32_t v;
   return xe_decoration(m, id, SpvDecorationNoSignedWrap, &v, 0);
}

/* Decides one access; returns NULL when it converts, else the reason. */
const char *xe_block_access_decide(xe_module *m, bool assume_aligned, const xe_lanes *plain,
                                   const xe_lanes *assumed, xe_block_access *a, char *why,
                                   size_t n)
{
   xe_inst *t = xe_def(m, a->elem_type);
   unsigned first_mem = xe_memory_operands_index(a->inst);
   if (xe_access_is_volatile(a->inst))
      return "volatile access";
   if (!t || (t->opcode != SpvOpTypeInt && t->opcode != SpvOpTypeFloat)) {
      snprintf(why, n, "element type is not a scalar integer or float");
      return why;
   }
   unsigned width = xe_op(t, 0);
   if (width != 8 && width != 16 && width != 32 && width != 64) {
      snprintf(why, n, "%u-bit elements have no block read/write", width);
      return why;
   }
   if (!xe_lanes_block_uniform(plain, a->inst->block->label->result_id)) {
      uint32_t cause = xe_lanes_divergent_cause(plain, a->inst->block->label->result_id);
      char nb[64];
      if (cause)
         snprintf(why, n, "divergent block: lanes may disagree on the guard %s; removing it "
                  "(padding pass, --assume-padded) would allow a block access",
                  xe_id_text(m, cause, nb, sizeof(nb)));
      else
         snprintf(why, n, "divergent block: not every lane of the sub-group reaches it");
      return why;
   }
   /* cl_intel_subgroups(_char/_short/_long): reads 4-byte, writes
    * 16-byte aligned, whatever the element size. */
   const uint64_t size = width / 8, need = a->store ? 16 : 4;
   const xe_lane_fact *f = xe_lanes_fact(plain, a->ptr);
   bool stride_ok = f->kind == XE_LANE_AFFINE && f->stride == (int64_t)size;
   uint64_t memal = 0;
   bool have_memal = !a->store && mem_aligned(a->inst, first_mem, &memal);
   if (stride_ok && (base_alignment(m, f, false) >= need || (have_memal && memal >= need))) {
      a->root = f->root;
      return NULL;
   }
   if (assume_aligned) {
      if (stride_ok && base_alignment(m, f, true) >= need) {
         a->root = f->root;
         a->use_argalign = base_alignment(m, f, false) < need;
         return NULL;
      }
      const xe_lane_fact *g = xe_lanes_fact(assumed, a->ptr);
      bool g_ok = g->kind == XE_LANE_AFFINE && g->stride == (int64_t)size;
      if (g_ok && !(base_alignment(m, g, true) >= need || (have_memal && memal >= need))) {
         snprintf(why, n, "alignment unknown: a block %s needs a %u-byte aligned sub-group base, "
                  "proven only %u even with --assume-aligned", a->store ? "write" : "read",
                  (unsigned)need, (unsigned)base_alignment(m, g, true));
         return why;
      }
      if (g_ok) {
         a->root = g->root;
         a->use_offset = true;
         a->use_argalign = base_alignment(m, g, false) < need && !(have_memal && memal >= need);
         return NULL;
      }
   }
   if (stride_ok) {
      snprintf(why, n, "alignment unknown: a block %s needs a %u-byte aligned sub-group base, "
               "proven only %u (--assume-aligned opts in)", a->store ? "write" : "read",
               (unsigned)need, (unsigned)base_alignment(m, f, false));
      return why;
   }
   const xe_lane_fact *g = xe_lanes_fact(assumed, a->ptr);
   if (g->kind == XE_LANE_AFFINE && g->stride == (int64_t)size)
      return "a 32-bit index may wrap between lanes unless the global work offset is a "
             "multiple of the sub-group size (--assume-aligned opts in)";
   if (f->kind == XE_LANE_AFFINE) {
      snprintf(why, n, "stride %lld bytes across lanes (block access needs %u)",
               (long long)f->stride, (unsigned)size);
      return why;
   }
   if (f->kind == XE_LANE_UNIFORM)
      return "address is the same in every lane";
   return "address not provably lane-contiguous";
}

/* ---- wide form: lane 0's address as key + constant ---- */

static int64_t sext_const(uint64_t v, unsigned w)
{
   return w >= 64 ? (int64_t)v : (int64_t)(v << (64 - w)) >> (64 - w);
}

/* Splits id (width w) into a sum of leaves plus a constant, through
 * OpIAdd trees, modulo 2^w.  *nsw: every add carries NoSignedWrap. */
static bool lin_sum(xe_module *m, uint32_t id, unsigned w, xe_lane0_addr *r, unsigned *nleaf,
                    bool *nsw, unsigned depth)
{
   xe_inst *d = xe_def(m, id);
   uint64_t c;
   if (xe_const_uint(m, id, &c)) {
      r->off += sext_const(c, w);
      return true;
   }
   if (d && d->opcode == SpvOpIAdd && depth < 8) {
      *nsw &= has_nsw(m, id);
      return lin_sum(m, xe_op(d, 0), w, r, nleaf, nsw, depth + 1) &&
             lin_sum(m, xe_op(d, 1), w, r, nleaf, nsw, depth + 1);
   }
   if (*nleaf == XE_LANE0_ADDR_LEAVES)
      return false;
   unsigned k = (*nleaf)++;
   while (k > 0 && r->leaf[k - 1] > id) {   /* insertion sort */
      r->leaf[k] = r->leaf[k - 1];
      k--;
   }
   r->leaf[k] = id;
   return true;
}

xe_lane0_addr xe_lane0_addr_of(xe_module *m, const xe_lanes *l, uint32_t ptr)
{
   xe_lane0_addr r = { 0, { 0 }, false, false, 0 };
   xe_inst *d = xe_def(m, ptr);
   if (!d || (d->opcode != SpvOpPtrAccessChain && d->opcode != SpvOpInBoundsPtrAccessChain) ||
       xe_nops(d) != 2)
      return r;
   xe_inst *base = xe_def(m, xe_op(d, 0));
   xe_inst *bt = base ? xe_def(m, base->type_id) : NULL;
   if (!bt || bt->opcode != SpvOpTypePointer)
      return r;   /* invalid input the validator did not see */
   uint64_t esize = xe_type_size(m, xe_op(bt, 1));
   uint32_t idx = xe_op(d, 1);
   xe_inst *id = xe_def(m, idx);
   if (!esize || !id)
      return r;
   unsigned w = xe_type_width(m, id->type_id), nleaf = 0;
   bool nsw = true;
   r.base = xe_op(d, 0);
   if (w == 64 && id->opcode == SpvOpSConvert) {
      xe_inst *x = xe_def(m, xe_op(id, 0));
      unsigned xw = x ? xe_type_width(m, x->type_id) : 0;
      if (!xw || xw >= 64 || !lin_sum(m, x->result_id, xw, &r, &nleaf, &nsw, 0) || !nleaf)
         return r;
      /* sext(S + off) == sext(S) + off in lane 0 (S the wrapped sum of the
       * leaves) when lane 0's S is a multiple of 2^t with 0 <= off < 2^t,
       * t <= xw-1: the sum stays in one aligned window and cannot cross
       * the wrap point.  With a single leaf, NoSignedWrap on every add of
       * the chain also proves it (no partial sum overflows in lane 0). */
      unsigned t = xw - 1;
      for (unsigned k = 0; k < nleaf; k++) {
         unsigned tz = xe_lanes_fact(l, r.leaf[k])->tz;
         t = tz < t ? tz : t;
      }
      if (!(r.off >= 0 && r.off < ((int64_t)1 << t)) && !(nleaf == 1 && nsw))
         return r;
      r.sext = true;
   } else if (w == 64) {
      if (!lin_sum(m, idx, 64, &r, &nleaf, &nsw, 0) || !nleaf)
         return r;
   } else {
      return r;
   }
   r.off *= (int64_t)esize;
   r.ok = true;
   return r;
}

bool xe_lane0_addr_same_key(const xe_lane0_addr *a, const xe_lane0_addr *b)
{
   return a->base == b->base && a->sext == b->sext && !memcmp(a->leaf, b->leaf, sizeof(a->leaf));
}

/* Loads may merge across i: it writes no memory and orders none
 * (src/ir/opinfo.h). */
bool xe_inst_no_memory_write(const xe_module *m, const xe_inst *i)
{
   return !(xe_inst_info(m, i) & (XE_OPI_WRITES | XE_OPI_BARRIER | XE_OPI_EFFECT));
}
