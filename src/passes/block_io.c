/*
 * block-io: per-lane global loads and stores of contiguous addresses
 * become sub-group block reads and writes (SPV_INTEL_subgroups).
 *
 * Guide: "sub-group block load/store" (shared/docs/REWRITES.md section 2).
 * `data[i]` with i = get_global_id(0) makes every lane send its own 64-bit
 * address (a scattered message); a block read needs only the sub-group's
 * base address.  The base is lane 0's address: the lane-varying built-in
 * ids it derives from are broadcast once (OpGroupBroadcast Subgroup, 0)
 * and the index arithmetic is re-emitted on them, so IGC computes it
 * with scalar instructions and emits one transposed block message.
 *
 * Preconditions proved per access (lanes.h does the analysis):
 *  - the kernel has SubgroupSize SG and LocalSize.x % SG == 0 (from the
 *    module, or added by --subgroup-size / --local-size);
 *  - the address is CrossWorkgroup and lane-affine with stride equal to
 *    the element size; elements of 8, 16, 32 or 64 bits (integers, or
 *    floats moved through OpBitcast to the integer of the same width);
 *  - the access is in a sub-group uniform block: every lane of the
 *    sub-group executes it, which block reads require and which makes the
 *    broadcast from lane 0 well defined (lane 0 exists in a full
 *    sub-group: partial sub-groups are excluded by the host contract);
 *  - alignment (cl_intel_subgroups, "Restrictions"): the sub-group's base
 *    pointer 4-byte aligned for reads and 16-byte aligned for writes (the
 *    same for the _char, _short and _long variants).
 *    Reads: the access's own Aligned operand (lane 0's address is one of
 *    the addresses it covers) or the kernel argument's Alignment
 *    decoration plus the known alignment of the offset.  Writes: the
 *    argument alignment and the offset; with --assume-aligned the
 *    argument is taken as 16-byte aligned and the global work offset x as
 *    a multiple of SG (this also makes 32-bit indices such as
 *    `int i = get_global_id(0)` provably non-wrapping across lanes).
 *  - the kernel body is called only from its entry wrapper.
 *
 * Host contract (manifest, see docs/manifest.md): every changed kernel
 * must be launched with a global size that is a multiple of the local size
 * (no partial work-groups, hence no partial sub-groups); modes added by
 * --subgroup-size / --local-size; argument alignment and global offset
 * assumed under --assume-aligned.  Execution modes are added only when
 * the kernel actually changes.  SubgroupSize needs SubgroupDispatch, a
 * SPIR-V 1.1 capability: adding it raises a 1.0 module to 1.1
 * (xe_require_version; llvm-spirv-15 writes 1.0 for most kernels).
 *
 * Wide form: loads of `p[base + k*SG + lane]`, k = 0..n-1 (n = 2, 4, 8),
 * in one block with no memory write between them, become one vector
 * block read (component k = p[k*SG + lane]).  Lane 0's addresses are
 * compared as key + constant (merge_loads).
 *
 * Not done: merging stores; vector elements; reconvergence after a
 * divergent region (the join is treated as divergent).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "builder.h"
#include "cfg.h"
#include "cost.h"
#include "lanes.h"
#include "opinfo.h"
#include "passes.h"

#define SCOPE_SUBGROUP 3

typedef struct access {
   xe_inst *inst;
   uint32_t ptr, elem_type;
   bool store;
   bool use_offset;   /* needs the assumed-offset facts */
   bool use_argalign; /* needs --assume-aligned for the argument */
   uint32_t root;
   unsigned width;    /* > 1: first load of a merged group of width loads */
   struct access *next_in_group;
   bool merged;       /* a later member of a group: rewritten with the first */
} access;

static uint32_t pointer_storage(xe_module *m, uint32_t ptr, uint32_t *pointee)
{
   xe_inst *d = xe_def(m, ptr);
   xe_inst *t = d ? xe_def(m, d->type_id) : NULL;
   if (!t || t->opcode != SpvOpTypePointer)
      return UINT32_MAX;
   *pointee = xe_op(t, 1);
   return xe_op(t, 0);
}

/* Alignment in bytes of the lane-0 address given its fact. */
static uint64_t base_alignment(xe_module *m, const xe_lane_fact *f, bool assume_arg)
{
   if (!f->root)
      return 1;
   uint32_t a = 0;
   xe_decoration(m, f->root, SpvDecorationAlignment, &a, 1);
   uint64_t arg = a ? a : 1;
   if (assume_arg && arg < 16)
      arg = 16;
   uint64_t off = f->tz >= 63 ? (1ull << 62) : 1ull << f->tz;
   return arg < off ? arg : off;
}

static bool mem_aligned(const xe_inst *i, unsigned first_mem_op, uint64_t *align)
{
   if (xe_nops(i) <= first_mem_op)
      return false;
   uint32_t mask = xe_op(i, first_mem_op);
   if (mask & SpvMemoryAccessVolatileMask)
      return false;
   if ((mask & SpvMemoryAccessAlignedMask) && xe_nops(i) > first_mem_op + 1) {
      *align = xe_op(i, first_mem_op + 1);
      return true;
   }
   return false;
}

static bool has_nsw(const xe_module *m, uint32_t id)
{
   uint32_t v;
   return xe_decoration(m, id, SpvDecorationNoSignedWrap, &v, 0);
}

static bool is_volatile(const xe_inst *i, unsigned first_mem_op)
{
   return xe_nops(i) > first_mem_op && (xe_op(i, first_mem_op) & SpvMemoryAccessVolatileMask);
}

/* Decides one access; returns NULL when it converts, else the reason. */
static const char *decide(xe_module *m, const xe_options *opt, const xe_lanes *plain,
                          const xe_lanes *assumed, access *a, char *why, size_t n)
{
   xe_inst *t = xe_def(m, a->elem_type);
   unsigned first_mem = a->store ? 2 : 1;
   if (is_volatile(a->inst, first_mem))
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
   if (opt->assume_aligned) {
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

/* ---- wide form: k = 0..n-1 loads of p[base + k*SG + lane] ----
 * Lane 0's address of each load is written as key + offset, where key is
 * (base pointer, the index's non-constant terms, sign-extended?) and
 * offset a constant number of bytes.  Loads with the same key whose offsets step by SG elements
 * read one vector block (component k of lane i = p[k*SG + i], the
 * cl_intel_subgroups layout). */
#define LIN_LEAVES 4

typedef struct lin {
   uint32_t base;
   uint32_t leaf[LIN_LEAVES];   /* sorted, 0-padded: the sum's non-constant terms */
   bool sext, ok;
   int64_t off;                 /* bytes */
} lin;

static int64_t sext_const(uint64_t v, unsigned w)
{
   return w >= 64 ? (int64_t)v : (int64_t)(v << (64 - w)) >> (64 - w);
}

/* Splits id (width w) into a sum of leaves plus a constant, through
 * OpIAdd trees, modulo 2^w.  *nsw: every add carries NoSignedWrap. */
static bool lin_sum(xe_module *m, uint32_t id, unsigned w, lin *r, unsigned *nleaf, bool *nsw,
                    unsigned depth)
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
   if (*nleaf == LIN_LEAVES)
      return false;
   unsigned k = (*nleaf)++;
   while (k > 0 && r->leaf[k - 1] > id) {   /* insertion sort */
      r->leaf[k] = r->leaf[k - 1];
      k--;
   }
   r->leaf[k] = id;
   return true;
}

static lin lin_addr(xe_module *m, const xe_lanes *l, uint32_t ptr)
{
   lin r = { 0, { 0 }, false, false, 0 };
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

static bool lin_same_key(const lin *a, const lin *b)
{
   return a->base == b->base && a->sext == b->sext && !memcmp(a->leaf, b->leaf, sizeof(a->leaf));
}

/* Instructions a load may be moved across: they do not write memory. */
/* Loads may merge across i: it writes no memory and orders none
 * (src/ir/opinfo.h). */
static bool no_write(const xe_module *m, const xe_inst *i)
{
   return !(xe_inst_info(m, i) & (XE_OPI_WRITES | XE_OPI_BARRIER | XE_OPI_EFFECT));
}

static unsigned merge_loads(xe_module *m, xe_remarks *r, const char *kernel, access *acc,
                            unsigned nacc, const xe_lanes *plain, const xe_lanes *assumed, uint32_t sg)
{
   unsigned groups = 0;
   for (unsigned a = 0; a < nacc; a++) {
      access *first = &acc[a];
      if (!first->inst || first->store || first->merged)
         continue;
      lin la = lin_addr(m, first->use_offset ? assumed : plain, first->ptr);
      if (!la.ok)
         continue;
      uint64_t step = (uint64_t)sg * (xe_type_width(m, first->elem_type) / 8);
      access *members[8] = { first };
      unsigned n = 1;
      unsigned b = a + 1;
      /* Scan forward in the block while nothing writes memory. */
      for (xe_inst *i = first->inst->next; i && n < 8; i = i->next) {
         /* Accesses the pass leaves alone (inst cleared) are judged by
          * no_write below like any other instruction. */
         while (b < nacc && !acc[b].inst)
            b++;
         if (b < nacc && acc[b].inst == i) {
            access *c = &acc[b++];
            if (c->store)
               break;
            if (!c->merged && c->elem_type == first->elem_type) {
               lin lc = lin_addr(m, c->use_offset ? assumed : plain, c->ptr);
               if (lc.ok && lin_same_key(&la, &lc) && lc.off == la.off + (int64_t)(n * step))
                  members[n++] = c;
            }
            continue;
         }
         if (!no_write(m, i))
            break;
      }
      unsigned width = n >= 8 ? 8 : n >= 4 ? 4 : n >= 2 ? 2 : 1;
      if (width < 2)
         continue;
      first->width = width;
      for (unsigned k = 1; k < width; k++) {
         members[k]->merged = true;
         members[k - 1]->next_in_group = members[k];
      }
      char n0[64], n1[64];
      xe_remark(r, kernel, XE_REMARK_APPLIED, "loads via %s .. %s: merged into one %u-wide block read",
                xe_id_text(m, first->ptr, n0, sizeof(n0)), xe_id_text(m, members[width - 1]->ptr, n1, sizeof(n1)),
                width);
      groups++;
   }
   return groups;
}

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

static xe_inst *after_phis(xe_inst *i)
{
   while (i->next && (i->next->opcode == SpvOpPhi || i->next->opcode == SpvOpLine ||
                      i->next->opcode == SpvOpNoLine))
      i = i->next;
   return i;
}

static uint32_t broadcast_after(lane0_ctx *c, xe_inst *def)
{
   xe_module *m = c->m;
   xe_inst *t = xe_def(m, def->type_id);
   if (!t || !def->block || !xe_lanes_block_uniform(c->l, def->block->label->result_id))
      return 0;
   xe_inst *pos = def->opcode == SpvOpPhi ? after_phis(def) : def;
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
            xe_set_ops(cl, ops, n, d->kinds + d->first_op);
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

static cJSON *entry(const char *requirement)
{
   cJSON *e = cJSON_CreateObject();
   cJSON_AddStringToObject(e, "pass", "block-io");
   cJSON_AddStringToObject(e, "requirement", requirement);
   return e;
}

static bool run_kernel(xe_module *m, const xe_options *opt, xe_remarks *r, xe_kernel *k)
{
   xe_function *f = k->body;
   access *acc = NULL;
   unsigned nacc = 0;
   xe_foreach_block(b, f) {
      xe_foreach_inst(i, &b->insts) {
         bool st = i->opcode == SpvOpStore;
         if (i->opcode != SpvOpLoad && !st)
            continue;
         uint32_t pointee;
         if (pointer_storage(m, xe_op(i, 0), &pointee) != SpvStorageClassCrossWorkgroup)
            continue;
         acc = realloc(acc, (nacc + 1) * sizeof(*acc));
         acc[nacc++] = (access){ i, xe_op(i, 0), pointee, st, false, false, 0, 1, NULL, false };
      }
   }
   if (!nacc)
      return false;

   uint32_t sg = k->subgroup_size, ls[3] = { k->local_size[0], k->local_size[1], k->local_size[2] };
   bool add_sg = false, add_ls = false;
   /* The option layer checked the values (8, 16 or 32; 1..1024). */
   const xe_kernel_launch_opt *osg = xe_options_subgroup_size(opt, k->name);
   const xe_kernel_launch_opt *ols = xe_options_local_size(opt, k->name);
   if (osg) {
      unsigned v = osg->v[0];
      if (sg && v != sg)
         xe_remark(r, k->name, XE_REMARK_NOTE, "--subgroup-size=%u ignored: the kernel requires %u", v, sg);
      else if (!sg && (v == 8 || v == 16 || v == 32))
         sg = v, add_sg = true;
      else if (!sg)
         sg = v, add_sg = true;
   }
   if (ols) {
      const uint32_t *v = ols->v;
      if (ls[0] && memcmp(v, ls, sizeof(ls)))
         xe_remark(r, k->name, XE_REMARK_NOTE, "--local-size=%s ignored: the kernel requires %u,%u,%u",
                   ols->text, ls[0], ls[1], ls[2]);
      else if (!ls[0])
         memcpy(ls, v, sizeof(ls)), add_ls = true;
   }

   const char *kernel_why = NULL;
   char kwhy[160];
   if (k->body != k->fn && k->body_callers != 1) {
      snprintf(kwhy, sizeof(kwhy), "the kernel body is called from %u places", k->body_callers);
      kernel_why = kwhy;
   } else if (!sg) {
      kernel_why = "unknown sub-group size (no SubgroupSize; --subgroup-size=N opts in)";
   } else if (!ls[0]) {
      kernel_why = "unknown local size (no LocalSize; --local-size=X[,Y,Z] opts in)";
   } else if (ls[0] % sg) {
      snprintf(kwhy, sizeof(kwhy), "LocalSize.x %u is not a multiple of the sub-group size %u",
               ls[0], sg);
      kernel_why = kwhy;
   }
   char nb[64], why[256];
   if (kernel_why) {
      for (unsigned n = 0; n < nacc; n++)
         xe_remark(r, k->name, XE_REMARK_MISSED, "%s via %s: %s", acc[n].store ? "store" : "load",
                   xe_id_text(m, acc[n].ptr, nb, sizeof(nb)), kernel_why);
      free(acc);
      return false;
   }

   xe_lanes *plain = xe_lanes_analyze(m, f, sg, ls, 0);
   xe_lanes *assumed = xe_lanes_analyze(m, f, sg, ls, XE_LANES_ASSUME_OFFSET);
   unsigned nconv = 0;
   bool need_offset = false;
   char **no = calloc(nacc, sizeof(char *));
   xe_inst **conv = calloc(nacc, sizeof(xe_inst *));
   for (unsigned n = 0; n < nacc; n++) {
      const char *w = decide(m, opt, plain, assumed, &acc[n], why, sizeof(why));
      if (w)
         no[n] = strdup(w);
      else
         conv[nconv++] = acc[n].inst;
   }
   /* The cost model's say (src/analysis/cost.h): converting a load whose
    * per-lane address another access still needs (a load-only
    * conversion) makes IGC keep both address forms, which is slower on
    * pvc (sg_copy: 22 -> 31 instructions). */
   double before[XE_DEV_COUNT], after[XE_DEV_COUNT];
   enum xe_device worst = XE_DEV_DG2;
   unsigned devs = xe_options_target(opt);
   xe_cost_change ch = { .block = conv, .nblock = nconv };
   if (nconv && !xe_cost_compare(m, k->fn, devs, &ch, before, after, &worst)) {
      char est[160], msg[320];
      xe_cost_format(est, sizeof(est), devs, before, after);
      snprintf(msg, sizeof(msg), "not converted: the cost model says slower on %s (estimate %s cycles)",
               xe_device_name(worst), est);
      for (unsigned n = 0; n < nacc; n++)
         if (!no[n])
            no[n] = strdup(msg);
      nconv = 0;
   }
   for (unsigned n = 0; n < nacc; n++) {
      if (no[n]) {
         xe_remark(r, k->name, XE_REMARK_MISSED, "%s via %s: %s", acc[n].store ? "store" : "load",
                   xe_id_text(m, acc[n].ptr, nb, sizeof(nb)), no[n]);
         acc[n].inst = NULL;
         free(no[n]);
         continue;
      }
      need_offset |= acc[n].use_offset;
      xe_remark(r, k->name, XE_REMARK_APPLIED, "%s via %s: sub-group block %s (SG %u)%s%s",
                acc[n].store ? "store" : "load", xe_id_text(m, acc[n].ptr, nb, sizeof(nb)),
                acc[n].store ? "write" : "read", sg,
                acc[n].use_argalign ? ", argument alignment assumed" : "",
                acc[n].use_offset ? ", global offset assumed" : "");
   }
   free(no);
   free(conv);
   if (nconv) {
      /* Lane-0 values do not depend on which facts proved the access;
       * the plain facts only decide what is already uniform. */
      lane0_ctx lc = { m, plain, { { 0 }, 0, 0 }, plain->bound };
      merge_loads(m, r, k->name, acc, nacc, plain, assumed, sg);
      for (unsigned n = 0; n < nacc; n++) {
         if (acc[n].inst && !acc[n].merged)
            rewrite(&lc, &acc[n]);
      }
      xe_idtab_free(&lc.memo);
      xe_add_capability(m, SpvCapabilityGroups);
      xe_add_capability(m, SpvCapabilitySubgroupBufferBlockIOINTEL);
      if (!xe_has_extension(m, "SPV_INTEL_subgroups"))
         xe_add_extension(m, "SPV_INTEL_subgroups");
      uint32_t fid = xe_function_id(k->fn);
      if (add_sg) {
         xe_add_capability(m, SpvCapabilitySubgroupDispatch);
         xe_set_execution_mode(m, fid, SpvExecutionModeSubgroupSize, &sg, 1);
         cJSON *e = entry("subgroup_size");
         cJSON_AddNumberToObject(e, "value", sg);
         cJSON_AddStringToObject(e, "origin", "--subgroup-size");
         xe_manifest_add(m, k->name, "launch", e);
      }
      if (add_ls) {
         xe_set_execution_mode(m, fid, SpvExecutionModeLocalSize, ls, 3);
         cJSON *e = entry("local_size");
         cJSON_AddItemToObject(e, "value", cJSON_CreateIntArray((const int[]){ (int)ls[0], (int)ls[1], (int)ls[2] }, 3));
         cJSON_AddStringToObject(e, "origin", "--local-size");
         xe_manifest_add(m, k->name, "launch", e);
      }
      cJSON *e = entry("uniform_work_groups");
      cJSON_AddStringToObject(e, "text", "global size must be a multiple of the local size "
                              "(no partial work-groups or sub-groups)");
      xe_manifest_add(m, k->name, "launch", e);
      uint32_t done[64];
      unsigned ndone = 0;
      for (unsigned n = 0; n < nacc; n++) {
         if (!acc[n].inst || !acc[n].use_argalign)
            continue;
         bool seen = false;
         for (unsigned d = 0; d < ndone; d++)
            seen |= done[d] == acc[n].root;
         if (seen || ndone == 64)
            continue;
         done[ndone++] = acc[n].root;
         e = entry("argument_alignment");
         cJSON_AddNumberToObject(e, "argument", xe_param_index(f, acc[n].root));
         const char *an = xe_name(m, acc[n].root);
         cJSON_AddStringToObject(e, "name", an ? an : "");
         cJSON_AddNumberToObject(e, "bytes", 16);
         cJSON_AddStringToObject(e, "origin", "--assume-aligned");
         xe_manifest_add(m, k->name, "alignment", e);
      }
      if (need_offset) {
         e = entry("global_offset");
         cJSON_AddNumberToObject(e, "dimension", 0);
         cJSON_AddNumberToObject(e, "multiple_of", sg);
         cJSON_AddStringToObject(e, "origin", "--assume-aligned");
         xe_manifest_add(m, k->name, "alignment", e);
      }
   }
   xe_lanes_free(plain);
   xe_lanes_free(assumed);
   free(acc);
   return nconv > 0;
}

bool xeopt_pass_block_io(xe_ctx *ctx)
{
   xe_module *m = ctx->module;
   const xe_options *opt = ctx->options;
   xe_remarks *r = ctx->remarks;
   unsigned n;
   xe_kernel *ks = xe_kernels_all(m, &n);
   bool progress = false;
   for (unsigned k = 0; k < n; k++) {
      if (ks[k].body && xe_kernel_rewritable(opt, ks[k].name))
         progress |= run_kernel(m, opt, r, &ks[k]);
   }
   free(ks);
   return progress;
}
