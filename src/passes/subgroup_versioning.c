/*
 * subgroup-versioning: a fast copy of a guarded region (or of the kernel
 * body) with the guard gone and sub-group block reads/writes, chosen per
 * sub-group at run time; the original code stays for every other sub-group.
 *
 * Guide: "sub-group block load/store" and "pad the buffer to remove
 * condition checks" (shared/docs/REWRITES.md sections 1, 2 and 6).  Real
 * kernels declare no sub-group or local size and hosts promise no padding
 * or alignment, so padding and block-io rarely get to prove their
 * preconditions.  What they need holds for most sub-groups of most
 * launches, though, and a sub-group can check it for itself: this is loop
 * versioning at sub-group granularity.
 *
 * Shape.  B is a block every lane of the sub-group reaches together
 * (src/analysis/lanes.h) and H a successor of B whose only predecessor is
 * B (the guarded side of `if (cond)`); R is every block H dominates.
 * Without a guard B is the kernel body's entry block, split after its
 * variables, and R the rest of the body.  At the end of B every lane
 * computes
 *
 *    pred = cond-for-H
 *         && for each converted access with address a (hoisted to B):
 *              a - broadcast(a, lane 0) == lane * element size   (64-bit)
 *              && broadcast(a, lane 0) % (4 for reads, 16 for writes) == 0
 *
 * and the sub-group takes the fast copy R' when
 *
 *    OpGroupIAdd Subgroup Reduce (pred ? 1 : 0) == SubgroupMaxSize
 *
 * i.e. every lane of a full sub-group is active and passes (a partial
 * sub-group, at the end of a work-group, has fewer lanes than the maximum
 * and takes the original code).  The reduction is sub-group uniform, so
 * IGC branches once for the sub-group (a scalar jmpi, no goto/join).  In
 * R' the guard branch is gone (B branches to H' directly) and each tested
 * access is OpSubgroupBlockReadINTEL / WriteINTEL at the broadcast base:
 * the addresses are exactly the ones the lanes would use (the difference is
 * tested on the 64-bit addresses, so no index arithmetic can wrap between
 * lanes unnoticed), the base meets the cl_intel_subgroups alignment rule,
 * and every lane of the sub-group executes the access (the block is
 * uniform once the edge B -> H is: xe_lanes_analyze_edge).  Nothing assumes
 * a sub-group size: block reads move as many elements as the sub-group has
 * lanes, and the test compares with the size the device chose (8, 16 or
 * 32).
 *
 * An access converts only when its address can be computed at the end of
 * B: from values available there, through pure integer and pointer
 * operations (re-emitted at B; InBounds access chains lose InBounds since
 * lanes that fail the guard compute them too) and loads of built-ins.
 * Other accesses stay per-lane in both copies.
 *
 * Preconditions: the body is called only from its kernel's entry; R has no
 * barrier, no work-group collective and no call (sub-groups of one
 * work-group may take different copies, so a barrier would be two
 * barriers); R has at most MAX_REGION_INSTS instructions (the size rule:
 * the region is duplicated once; a remark names larger regions).  A loop in R is
 * duplicated even when no access inside it converts: the fast copy of the
 * loop runs without the guard's divergence (dg2: darktable's blur_line
 * loop body 51 -> 28 instructions), at the price of code size.
 *
 * Cost: the region is versioned only where the cost model
 * (src/analysis/cost.h) says the versioned kernel is not slower on any
 * device of --target (cost_allows; docs/cost-model.md): one or two block
 * accesses rarely pay for the sub-group test (the guide's copy kernel
 * would go 22 -> 50 ISA instructions on pvc).  --target=none versions
 * without asking.  Kernels on the --isa-check exclusion list are left
 * alone.
 *
 * Host contract: none; no manifest entry.  Output computes the input's
 * results for every launch.  Host promises (--assume-padded,
 * --assume-aligned, --subgroup-size/--local-size) mean the test always
 * passes: padding and block-io, which run first, then drop the guard and
 * convert the accesses themselves, and this pass finds nothing left to do.
 *
 * Loads in loops: an address not computable at B converts when it is
 * base[ext(u + i)] with u uniform in the fast copy (a loop counter times a
 * stride) and i computable at B; B tests i's contiguity and the program's
 * no-wrap promise on u + i carries it over (loop_form); lane 0's address
 * is broadcast at the access.
 *
 * Not done: stores in loops (their 16-byte alignment cannot be tested at
 * B); one versioned region per kernel.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builder.h"
#include "cfg.h"
#include "cost.h"
#include "lanes.h"
#include "passes.h"

#define SCOPE_SUBGROUP 3
#define SCOPE_WORKGROUP 2
/* The size rule: a region of more instructions is not duplicated. */
#define MAX_REGION_INSTS 2000
#define MAX_HOIST_DEPTH 32

enum { H_UNKNOWN = 0, H_AVAILABLE, H_REEMIT, H_NO };

typedef struct cand {
   xe_inst *inst;
   uint32_t ptr, elem_type;
   bool store;
   unsigned width;      /* bits */
   uint32_t base;       /* the tested sub-group base pointer, built at B */
   xe_inst *clone;
   /* Address not computable at B (in a loop: base[uniform + i]): the
    * index i tested at B (key, mode as in idx_test); base is then 0 and
    * the fast copy broadcasts lane 0's address at the access. */
   uint32_t loop_key;
   int loop_mode;
   uint32_t loop_u, loop_base;   /* the uniform term and the base parameter */
   uint32_t loop_x0;             /* lane 0's value of loop_key, built at B */
} cand;

typedef struct vctx {
   xe_module *m;
   xe_kernel *k;
   xe_function *f;
   const xe_cfg *cfg;
   xe_remarks *r;
   uint8_t *in_r;       /* by CFG index */
   uint32_t b;          /* CFG index of B */
   bool no_guard;       /* B is the entry, split after its variables */
   xe_idtab hmemo;      /* by id (sparse: tables of the module's bound per kernel
                           and candidate made the pass quadratic) */
   xe_idtab emitted;    /* by id: the id hoisted to B */
   xe_inst *at;         /* hoisted code goes before this */
   cand *c;
   unsigned nc;
   /* The lanes as in a typical launch (sub-group 16, local size 16x1x1,
    * offset a multiple of 16), where lane k's global id x is lane 0's plus
    * k: an access whose address is not one element per lane there fails the
    * run-time test in nearly every launch (in[i * 64 + k]), so a fast copy
    * for it would be dead code.  Used only to drop candidates; computed
    * when a candidate's own fact is not enough (lanes_typical). */
   xe_lanes *typical;
} vctx;

/* Pure operations a lane may compute although the original program would
 * not (a lane that fails the guard): no trap, no memory access. */
static bool reemit_opcode(const xe_module *m, const xe_inst *d)
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
static int hoistable(vctx *c, uint32_t id, unsigned depth)
{
   if (id >= c->m->bound)
      return H_NO;
   if (xe_idtab_get(&c->hmemo, id))
      return (int)xe_idtab_get(&c->hmemo, id);
   xe_inst *d = xe_def(c->m, id);
   int res = H_NO;
   if (!d) {
      res = H_NO;
   } else if (!d->block) {
      res = H_AVAILABLE;   /* constants, globals, parameters */
   } else {
      uint32_t bx = xe_cfg_block_index(c->cfg, xe_block_id(d->block));
      bool in_r = bx != XE_NONE && c->in_r[bx] && !(c->no_guard && d->opcode == SpvOpVariable);
      if (bx == XE_NONE || c->cfg->rpo_index[bx] == XE_NONE) {
         res = H_NO;
      } else if (!in_r && xe_dominates(c->cfg, bx, c->b)) {
         res = H_AVAILABLE;
      } else if (in_r && depth < MAX_HOIST_DEPTH && xe_nops(d) <= 32 && reemit_opcode(c->m, d)) {
         res = H_REEMIT;
         for (unsigned k = 0; k < xe_nops(d) && res == H_REEMIT; k++) {
            if (xe_op_kind(d, k) == XE_W_ID && hoistable(c, xe_op(d, k), depth + 1) == H_NO)
               res = H_NO;
         }
      }
   }
   xe_idtab_set(&c->hmemo, id, (uint32_t)res);
   return res;
}

/* The value of id at the end of B (hoistable(id) must hold). */
static uint32_t hoist(vctx *c, uint32_t id)
{
   if (xe_idtab_get(&c->hmemo, id) == H_AVAILABLE)
      return id;
   if (xe_idtab_get(&c->emitted, id))
      return xe_idtab_get(&c->emitted, id);
   xe_inst *d = xe_def(c->m, id);
   uint32_t ops[32];
   unsigned n = xe_nops(d);
   if (n > 32)
      abort();   /* hoistable() saw it; access chains of 30+ indices are not emitted */
   for (unsigned k = 0; k < n; k++)
      ops[k] = xe_op_kind(d, k) == XE_W_ID ? hoist(c, xe_op(d, k)) : xe_op(d, k);
   uint32_t r = xe_fresh_id(c->m);
   xe_inst *cl = xe_inst_clone(d);
   xe_set_result(cl, r);
   xe_set_ops(cl, ops, n, d->kinds + d->first_op);
   if (cl->opcode == SpvOpInBoundsPtrAccessChain)
      xe_set_opcode(cl, SpvOpPtrAccessChain);
   xe_list_insert_before(c->m, c->at, cl);
   xe_idtab_set(&c->emitted, id, r);
   return r;
}

static bool is_volatile(const xe_inst *i, unsigned first_mem_op)
{
   return xe_nops(i) > first_mem_op && (xe_op(i, first_mem_op) & SpvMemoryAccessVolatileMask);
}

/* Why the region cannot be duplicated, or NULL. */
static const char *region_why(vctx *c, char *why, size_t n)
{
   unsigned count = 0;
   for (uint32_t x = 0; x < c->cfg->n; x++) {
      if (!c->in_r[x])
         continue;
      xe_foreach_inst(i, &c->cfg->blocks[x]->insts) {
         count++;
         switch (i->opcode) {
         case SpvOpControlBarrier:
            return "the region has a barrier (sub-groups of one work-group could take different copies)";
         case SpvOpFunctionCall:
            return "the region calls a function";
         case SpvOpGroupAsyncCopy: case SpvOpGroupWaitEvents:
            return "the region has a work-group copy";
         default:
            break;
         }
         if ((i->opcode >= SpvOpGroupAll && i->opcode <= SpvOpGroupSMax) ||
             (i->opcode >= SpvOpGroupNonUniformElect && i->opcode <= SpvOpGroupNonUniformQuadSwap)) {
            uint64_t scope;
            if (!xe_const_uint(c->m, xe_op(i, 0), &scope) || scope != SCOPE_SUBGROUP)
               return "the region has a work-group collective";
         }
      }
   }
   if (count > MAX_REGION_INSTS) {
      snprintf(why, n, "the region has %u instructions; the size rule duplicates at most %u",
               count, MAX_REGION_INSTS);
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
static bool loop_form(vctx *c, const xe_lanes *l, const xe_inst *ld, uint32_t *key, int *mode,
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
      if (xe_lanes_fact(l, u)->kind == XE_LANE_UNIFORM && hoistable(c, i, 0) != H_NO) {
         *key = i;
         *uterm = u;
         *base = bd->result_id;
         return true;
      }
   }
   return false;
}

/* Collects the accesses of R that the fast copy can make block accesses;
 * remarks the others when report is set. */
static const xe_lanes *lanes_typical(vctx *c)
{
   static const uint32_t ls[3] = { 16, 1, 1 };
   if (!c->typical)
      c->typical = xe_lanes_analyze(c->m, c->f, 16, ls, XE_LANES_ASSUME_OFFSET);
   return c->typical;
}

static void collect(vctx *c, const xe_lanes *l, bool report)
{
   char nb[64];
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
         if (is_volatile(i, st ? 2 : 1))
            why = "volatile access";
         else if (width != 8 && width != 16 && width != 32 && width != 64)
            why = "element type is not an 8-, 16-, 32- or 64-bit integer or float";
         else if (!xe_lanes_block_uniform(l, xe_block_id(blk)))
            why = "divergent block even in the fast copy";
         /* Addresses the lane analysis knows are not one element per lane
          * would fail the contiguity test in every sub-group: a fast copy
          * for them never runs (darktable's 3x3 matrix loads). */
         const xe_lane_fact *pf = xe_lanes_fact(l, ptr);
         if (pf->kind != XE_LANE_UNIFORM && pf->kind != XE_LANE_AFFINE)
            pf = xe_lanes_fact(lanes_typical(c), ptr);
         if (!why && pf->kind == XE_LANE_UNIFORM)
            why = "its address is the same in every lane (the run-time test could never pass)";
         else if (!why && pf->kind == XE_LANE_AFFINE && pf->stride != (int64_t)(width / 8))
            why = "its address does not move by one element per lane (the run-time test could "
                  "never pass)";
         uint32_t lkey = 0, lu = 0, lbase = 0;
         int lmode = 0;
         if (!why && hoistable(c, ptr, 0) == H_NO && !loop_form(c, l, i, &lkey, &lmode, &lu, &lbase))
            why = st ? "its address cannot be computed where the test runs (a block write needs "
                       "its 16-byte alignment tested there)"
                     : "its address cannot be computed where the test runs, nor is it "
                       "base[uniform + i] with i computable there";
         if (why) {
            if (report)
               xe_remark(c->r, c->k->name, XE_REMARK_MISSED, "%s via %s stays per-lane: %s",
                         st ? "store" : "load", xe_id_text(c->m, ptr, nb, sizeof(nb)), why);
            continue;
         }
         c->c = realloc(c->c, (c->nc + 1) * sizeof(*c->c));
         c->c[c->nc++] = (cand){ i, ptr, elem, st, width, 0, NULL, lkey, lmode, lu, lbase, 0 };
      }
   }
}

static uint32_t builtin_var(xe_module *m, xe_kernel *k, SpvBuiltIn bi)
{
   uint32_t u32 = xe_type_int(m, 32), var = 0;
   xe_foreach_inst(i, &m->sec[XE_SEC_GLOBAL]) {
      if (i->opcode == SpvOpVariable && xe_builtin_of(m, i->result_id) == (int)bi) {
         xe_inst *t = xe_def(m, i->type_id);
         if (t && xe_op(t, 1) == u32)
            var = i->result_id;
      }
   }
   if (!var) {
      uint32_t sc = SpvStorageClassInput;
      uint8_t lit = XE_W_LIT;
      var = xe_global_append(m, SpvOpVariable, xe_type_pointer(m, SpvStorageClassInput, u32), 1, &sc,
                             &lit);
      uint32_t b = bi;
      xe_decorate(m, var, SpvDecorationBuiltIn, &b, 1);
   }
   /* Into the interface of every entry point of the kernel's function. */
   xe_foreach_inst(e, &m->sec[XE_SEC_ENTRY_POINT]) {
      if (e->opcode != SpvOpEntryPoint || xe_op(e, 1) != xe_function_id(k->fn))
         continue;
      unsigned n = xe_nops(e);
      bool have = false;
      for (unsigned q = 2; q < n; q++)
         have |= xe_op_kind(e, q) == XE_W_ID && xe_op(e, q) == var;
      if (have)
         continue;
      uint32_t *ops = malloc((n + 1) * sizeof(uint32_t));
      uint8_t *kinds = malloc(n + 1);
      for (unsigned q = 0; q < n; q++) {
         ops[q] = xe_op(e, q);
         kinds[q] = xe_op_kind(e, q);
      }
      ops[n] = var;
      kinds[n] = XE_W_ID;
      xe_set_ops(e, ops, n + 1, kinds);
      free(ops);
      free(kinds);
   }
   return var;
}

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

typedef struct idx_test {
   uint32_t key;     /* the tested index value (original id) */
   int mode;         /* 0: 64-bit index; 1: sign-, 2: zero-extended from 32 bits */
   uint32_t x0;      /* lane 0's value of key, built at B */
   uint32_t idx0;    /* lane 0's 64-bit index, built at B */
} idx_test;

/* Is a's address base[idx] (OpPtrAccessChain with one index) with base
 * the same in every lane and elements of the access's size?  Then *key is
 * the index to test: idx itself (64-bit) or the 32-bit value it extends. */
static bool index_form(vctx *c, const cand *a, uint32_t *base, uint32_t *key, int *mode)
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
      if (x && xe_type_width(m, x->type_id) == 32 && hoistable(c, x->result_id, 0) != H_NO) {
         *key = x->result_id;
         *mode = id->opcode == SpvOpSConvert ? 1 : 2;
      }
   }
   return true;
}

/* Candidate q shares the lane-0 base of an earlier candidate with the same
 * address and direction, when there is one. */
static bool reuse_base(vctx *c, unsigned q)
{
   cand *a = &c->c[q];
   for (unsigned p = 0; p < q && !a->base; p++) {
      if (c->c[p].ptr == a->ptr && c->c[p].store == a->store)
         a->base = c->c[p].base;
   }
   return a->base != 0;
}

/* Builds the test, the copy and the block accesses.  cond: the guard's
 * condition (0 without a guard), h_true: H is its true target. */
static void apply(vctx *c, xe_block **rb, unsigned nrb, uint32_t cond, bool h_true)
{
   xe_module *m = c->m;
   xe_block *bb = c->cfg->blocks[c->b];
   xe_block *head = rb[0];
   if (c->no_guard) {
      /* Split the entry after its variables: B keeps them and the test,
       * the new head H the rest. */
      xe_inst *first = bb->insts.first;
      while (first && (first->opcode == SpvOpVariable || first->opcode == SpvOpLine ||
                       first->opcode == SpvOpNoLine))
         first = first->next;
      head = xe_block_create(m, c->f, xe_fresh_id(m));
      xe_block_insert(c->f, bb, head);
      successors_relabel(m, xe_block_terminator(bb), xe_block_id(bb), xe_block_id(head));
      for (xe_inst *i = first, *n; i; i = n) {
         n = i->next;
         xe_inst_remove(m, i);
         xe_block_append(m, head, i);
      }
      uint32_t hid = xe_block_id(head);
      xe_block_append(m, bb, xe_inst_create(SpvOpBranch, 0, 0, &hid, 1, NULL));
      rb[0] = head;   /* B is rb[0] before the split */
   }
   xe_inst *term = xe_block_terminator(bb);
   c->at = term;
   xe_builder b = xe_builder_before(m, term);
   uint32_t u32 = xe_type_int(m, 32), u64 = xe_type_int(m, 64), bt = xe_type_bool(m);
   xe_add_capability(m, SpvCapabilityInt64);
   xe_add_capability(m, SpvCapabilityGroups);
   uint32_t scope = xe_const_int(m, u32, SCOPE_SUBGROUP), zero = xe_const_int(m, u32, 0);
   uint32_t lid = xe_build_load(&b, u32, builtin_var(m, c->k, SpvBuiltInSubgroupLocalInvocationId), 0, 0);
   uint32_t lid64 = xe_build1(&b, SpvOpUConvert, u64, lid);
   /* The guard enters the predicate through OpSelect at the end: IGC 22.43
    * fails without a message on an OpLogicalNot of the guard here. */
   uint32_t pred = 0;
   uint32_t maxsz = xe_build_load(&b, u32, builtin_var(m, c->k, SpvBuiltInSubgroupMaxSize), 0, 0);
   uint32_t upred = 0;   /* the sub-group-uniform part of the test */
   /* Addresses `base[idx]` with a uniform base: the index is tested once
    * for all the accesses that share it (lane k's index is lane 0's plus k,
    * with no wrap in the type the index is extended from), and the
    * alignment of each base once per sub-group. */
   idx_test *it = malloc((c->nc ? c->nc : 1) * sizeof(*it));   /* one index per access at most */
   unsigned nit = 0;
   for (unsigned q = 0; q < c->nc; q++) {
      cand *a = &c->c[q];
      uint32_t base = 0, key;
      int mode;
      if (a->loop_key) {
         key = a->loop_key, mode = a->loop_mode;
      } else if (!index_form(c, a, &base, &key, &mode)) {
         continue;
      }
      idx_test *t = NULL;
      for (unsigned p = 0; p < nit && !t; p++)
         t = it[p].key == key && it[p].mode == mode ? &it[p] : NULL;
      if (!t) {
         t = &it[nit++];
         t->key = key, t->mode = mode;
         uint32_t x = hoist(c, key);
         uint32_t xt = xe_def(m, key)->type_id;
         uint32_t x0 = xe_build3(&b, SpvOpGroupBroadcast, xt, scope, x, zero);
         t->x0 = x0;
         uint32_t d = xe_build2(&b, SpvOpISub, xt, x, x0);
         uint32_t ok = xe_build2(&b, SpvOpIEqual, bt, d, mode ? lid : lid64);
         pred = pred ? xe_build2(&b, SpvOpLogicalAnd, bt, pred, ok) : ok;
         if (mode) {
            /* lane 0 + (max - 1) must not pass the wrap point of the
             * extension: x0 <= 2^31 - max (signed) or 2^32 - max. */
            uint32_t lim = xe_build2(&b, SpvOpISub, u32,
                                     xe_const_int(m, u32, mode == 1 ? 0x80000000u : 0), maxsz);
            uint32_t nw = xe_build2(&b, mode == 1 ? SpvOpSLessThanEqual : SpvOpULessThanEqual, bt, x0, lim);
            upred = upred ? xe_build2(&b, SpvOpLogicalAnd, bt, upred, nw) : nw;
            t->idx0 = xe_build1(&b, mode == 1 ? SpvOpSConvert : SpvOpUConvert, u64, x0);
         } else {
            t->idx0 = x0;
         }
      }
      if (a->loop_key) {
         a->loop_x0 = t->x0;
         continue;
      }
      if (reuse_base(c, q))
         continue;
      xe_inst *pd = xe_def(m, a->ptr);
      uint32_t pops[2] = { hoist(c, base), t->idx0 };
      a->base = xe_build(&b, SpvOpPtrAccessChain, pd->type_id, 2, pops)->result_id;
      uint32_t a0 = xe_build1(&b, SpvOpConvertPtrToU, u64, a->base);
      uint32_t low = xe_build2(&b, SpvOpBitwiseAnd, u64, a0, xe_const_int(m, u64, a->store ? 15 : 3));
      uint32_t al = xe_build2(&b, SpvOpIEqual, bt, low, xe_const_int(m, u64, 0));
      upred = upred ? xe_build2(&b, SpvOpLogicalAnd, bt, upred, al) : al;
   }
   free(it);
   /* Any other address: compared as 64-bit addresses. */
   for (unsigned q = 0; q < c->nc; q++) {
      cand *a = &c->c[q];
      if (a->loop_key)
         continue;
      if (reuse_base(c, q))
         continue;
      xe_inst *pd = xe_def(m, a->ptr);
      uint32_t ph = hoist(c, a->ptr);
      uint32_t addr = xe_build1(&b, SpvOpConvertPtrToU, u64, ph);
      uint32_t addr0 = xe_build3(&b, SpvOpGroupBroadcast, u64, scope, addr, zero);
      uint32_t diff = xe_build2(&b, SpvOpISub, u64, addr, addr0);
      uint32_t want = xe_build2(&b, SpvOpIMul, u64, lid64, xe_const_int(m, u64, a->width / 8));
      uint32_t ok = xe_build2(&b, SpvOpIEqual, bt, diff, want);
      pred = pred ? xe_build2(&b, SpvOpLogicalAnd, bt, pred, ok) : ok;
      uint32_t low = xe_build2(&b, SpvOpBitwiseAnd, u64, addr0, xe_const_int(m, u64, a->store ? 15 : 3));
      uint32_t al = xe_build2(&b, SpvOpIEqual, bt, low, xe_const_int(m, u64, 0));
      upred = upred ? xe_build2(&b, SpvOpLogicalAnd, bt, upred, al) : al;
      a->base = xe_build1(&b, SpvOpConvertUToPtr, pd->type_id, addr0);
   }
   uint32_t c1 = xe_const_int(m, u32, 1);
   uint32_t one = pred ? xe_build3(&b, SpvOpSelect, u32, pred, c1, zero) : c1;
   if (cond)
      one = h_true ? xe_build3(&b, SpvOpSelect, u32, cond, one, zero)
                   : xe_build3(&b, SpvOpSelect, u32, cond, zero, one);
   uint32_t rops[3] = { scope, SpvGroupOperationReduce, one };
   uint8_t rkinds[3] = { XE_W_ID, XE_W_LIT, XE_W_ID };
   uint32_t count = xe_fresh_id(m);
   xe_build_inst(&b, xe_inst_create(SpvOpGroupIAdd, u32, count, rops, 3, rkinds));
   uint32_t fast = xe_build2(&b, SpvOpIEqual, bt, count, maxsz);
   if (upred)
      fast = xe_build2(&b, SpvOpLogicalAnd, bt, fast, upred);

   /* The copy R': fresh ids for labels and results. */
   uint32_t bound0 = m->bound;
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
   /* Decorations of the copied results (NoSignedWrap, FPFastMathMode...). */
   xe_foreach_inst_safe(i, n, &m->sec[XE_SEC_ANNOTATION]) {
      if (i->opcode == SpvOpDecorate && xe_op(i, 0) < bound0 && map[xe_op(i, 0)] &&
          xe_def(m, xe_op(i, 0)) && xe_def(m, xe_op(i, 0))->opcode != SpvOpLabel) {
         xe_inst *cl = xe_inst_clone(i);
         xe_set_op(cl, 0, map[xe_op(i, 0)]);
         xe_list_insert_after(m, i, cl);
      }
   }
   /* Phis outside R that R's blocks reach get the same values from R'. */
   uint8_t *is_r = calloc(bound0, 1);
   for (unsigned q = 0; q < nrb; q++)
      is_r[xe_block_id(rb[q])] = 1;
   xe_foreach_block(blk, c->f) {
      if (xe_block_id(blk) >= bound0 || is_r[xe_block_id(blk)])
         continue;   /* a copy, or in R */
      xe_foreach_inst(i, &blk->insts) {
         if (i->opcode != SpvOpPhi)
            continue;
         unsigned n = xe_nops(i), add = 0;
         for (unsigned k = 1; k < n; k += 2)
            add += xe_op(i, k) < bound0 && is_r[xe_op(i, k)];
         if (!add)
            continue;
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
   }
   free(is_r);

   /* B -> H' when fast, else the original branch (from a new block when
    * there is a guard). */
   uint32_t hcopy = map[xe_block_id(head)];
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
   uint32_t bops[3] = { fast, hcopy, slow };
   xe_block_append(m, bb, xe_inst_create(SpvOpBranchConditional, 0, 0, bops, 3, NULL));

   /* The block accesses of R'. */
   xe_add_capability(m, SpvCapabilitySubgroupBufferBlockIOINTEL);
   if (!xe_has_extension(m, "SPV_INTEL_subgroups"))
      xe_add_extension(m, "SPV_INTEL_subgroups");
   for (unsigned q = 0; q < c->nc; q++) {
      cand *a = &c->c[q];
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
   free(map);
}

/* The cost model's say (src/analysis/cost.h, docs/cost-model.md): the
 * kernel as is against the versioned kernel, on every device of --target.
 * The versioned estimate is the kernel outside R, then the test and one of
 * the copies: xe_cost_versioned(fast, slow, XE_COST_FULL_SUBGROUPS), with
 * fast = R with the candidates as block accesses and no guard (the
 * addresses only they used are dead: B computes them for the test, whose
 * cost the `reduce` weight measures), slow = R and the guard's divergent
 * branch as they are.  Estimated before anything is built, so a refusal
 * leaves the kernel untouched.  Returns true when not slower anywhere;
 * otherwise remarks both estimates. */
static bool cost_allows(xe_ctx *ctx, vctx *c, uint32_t gb, uint32_t gcond, char *est, size_t nest)
{
   xe_module *m = c->m;
   unsigned devs = xe_options_target(ctx->options);
   est[0] = 0;
   if (!devs)
      return true;   /* --target=none: the model is not asked */
   xe_inst **conv = malloc(c->nc * sizeof(*conv));
   for (unsigned q = 0; q < c->nc; q++)
      conv[q] = c->c[q].inst;
   xe_cost_change ch = { .block = conv, .nblock = c->nc };
   uint32_t b = c->no_guard ? 0 : gb;
   double fb = xe_cost_block_frequency(m, c->f, b);
   double before[XE_DEV_COUNT] = { 0 }, after[XE_DEV_COUNT] = { 0 };
   enum xe_device worst = XE_DEV_DG2;
   bool ok = true;
   for (int d = 0; d < XE_DEV_COUNT; d++) {
      if (!(devs & (1u << d)))
         continue;
      double total = xe_cost_function(m, c->k->fn, (enum xe_device)d, NULL).cycles;
      double slow = xe_cost_blocks(m, c->f, (enum xe_device)d, NULL, c->in_r);
      double fast = xe_cost_blocks(m, c->f, (enum xe_device)d, &ch, c->in_r);
      double guard = c->no_guard ? 0 : xe_cost_weights_of((enum xe_device)d)->branch * fb;
      double outside = total - slow - guard;
      before[d] = total;
      after[d] = outside + fb * xe_cost_versioned((enum xe_device)d, fast / fb, (slow + guard) / fb,
                                                  XE_COST_FULL_SUBGROUPS);
      if (after[d] > before[d] * (1 + 1e-9) && ok) {
         ok = false;
         worst = (enum xe_device)d;
      }
   }
   free(conv);
   char nb[64];
   xe_cost_format(est, nest, devs, before, after);
   if (ok)
      return true;
   if (c->no_guard)
      xe_remark(c->r, c->k->name, XE_REMARK_MISSED,
                "no fast copy of the kernel body: the cost model says slower on %s (estimate %s "
                "cycles; %u block access(es) do not pay for the sub-group test)",
                xe_device_name(worst), est, c->nc);
   else
      xe_remark(c->r, c->k->name, XE_REMARK_MISSED,
                "no fast copy of the region guarded by %s: the cost model says slower on %s "
                "(estimate %s cycles; %u block access(es) and the guard do not pay for the "
                "sub-group test)", xe_id_text(m, gcond, nb, sizeof(nb)), xe_device_name(worst), est,
                c->nc);
   return false;
}

static bool run_kernel(xe_ctx *ctx, xe_kernel *k)
{
   xe_module *m = ctx->module;
   xe_remarks *r = ctx->remarks;
   xe_function *f = k->body;
   if (!f || !f->first || (k->body != k->fn && k->body_callers != 1))
      return false;
   /* Only kernels with a global load or store left per-lane. */
   bool any = false;
   xe_foreach_block(blk, f) {
      xe_foreach_inst(i, &blk->insts) {
         if (i->opcode != SpvOpLoad && i->opcode != SpvOpStore)
            continue;
         uint32_t sc = 0;
         xe_inst *pd = xe_def(m, xe_op(i, 0));
         xe_inst *pt = pd ? xe_def(m, pd->type_id) : NULL;
         if (pt && pt->opcode == SpvOpTypePointer)
            sc = xe_op(pt, 0);
         any |= sc == SpvStorageClassCrossWorkgroup;
      }
   }
   if (!any)
      return false;
   const xe_cfg *cfg = xe_function_cfg(f);
   vctx c = { .m = m, .k = k, .f = f, .cfg = cfg, .r = r };
   c.in_r = calloc(cfg->n ? cfg->n : 1, 1);
   const uint32_t *ls = k->local_size[0] ? k->local_size : NULL;
   xe_lanes *l0 = xe_lanes_analyze(m, f, k->subgroup_size, ls, 0);
   char why[200], nb[64], nb2[64];
   bool done = false, progress = false;
   uint32_t gb = XE_NONE, gh = XE_NONE, gcond = 0;
   bool gtrue = false;
   /* Guards first: a uniform block whose branch the lanes may disagree on. */
   for (uint32_t q = 0; q < cfg->nrpo && !done; q++) {
      uint32_t bi = cfg->rpo[q];
      xe_inst *t = xe_block_terminator(cfg->blocks[bi]);
      if (!t || t->opcode != SpvOpBranchConditional || !l0->uniform_block[bi] ||
          xe_lanes_fact(l0, xe_op(t, 0))->kind == XE_LANE_UNIFORM || xe_op(t, 1) == xe_op(t, 2))
         continue;
      for (int side = 0; side < 2 && !done; side++) {
         uint32_t hi = xe_cfg_block_index(cfg, xe_op(t, 1 + side));
         if (hi == XE_NONE || hi == 0 || cfg->pred_start[hi + 1] - cfg->pred_start[hi] != 1)
            continue;
         memset(c.in_r, 0, cfg->n);
         bool ok = true;
         for (uint32_t x = 0; x < cfg->n; x++)
            c.in_r[x] = cfg->rpo_index[x] != XE_NONE && xe_dominates(cfg, hi, x);
         for (uint32_t x = 0; x < cfg->n && ok; x++) {
            for (uint32_t e = cfg->pred_start[x]; c.in_r[x] && x != hi && e < cfg->pred_start[x + 1]; e++)
               ok &= c.in_r[cfg->pred[e]] || cfg->rpo_index[cfg->pred[e]] == XE_NONE;
         }
         if (!ok)
            continue;
         c.b = bi;
         c.no_guard = false;
         xe_idtab_free(&c.hmemo);
         xe_lanes *le = xe_lanes_analyze_edge(m, f, k->subgroup_size, ls, 0,
                                              xe_block_id(cfg->blocks[bi]), xe_block_id(cfg->blocks[hi]));
         c.nc = 0;
         collect(&c, le, false);
         xe_lanes_free(le);
         if (!c.nc)
            continue;
         const char *rw = region_why(&c, why, sizeof(why));
         if (rw) {
            xe_remark(r, k->name, XE_REMARK_MISSED, "no fast copy of the region guarded by %s: %s",
                      xe_id_text(m, xe_op(t, 0), nb, sizeof(nb)), rw);
            c.nc = 0;
            continue;
         }
         gb = bi, gh = hi, gcond = xe_op(t, 0), gtrue = side == 0;
         done = true;
      }
   }
   if (!done) {
      /* No guard: the whole body after the entry's variables. */
      for (uint32_t x = 0; x < cfg->n; x++)
         c.in_r[x] = cfg->rpo_index[x] != XE_NONE;
      c.b = 0;
      c.no_guard = true;
      xe_idtab_free(&c.hmemo);
      c.nc = 0;
      collect(&c, l0, false);
      const char *rw = c.nc ? region_why(&c, why, sizeof(why)) : NULL;
      if (rw) {
         xe_remark(r, k->name, XE_REMARK_MISSED, "no fast copy of the kernel body: %s", rw);
         c.nc = 0;
      }
      done = c.nc > 0;
      gh = 0;
   }
   char est[160];
   if (done && !cost_allows(ctx, &c, gb, gcond, est, sizeof(est))) {
      done = false;
      c.nc = 0;
   }
   if (done) {
      /* Remarks for the accesses that stay per-lane, then the change. */
      unsigned keep = c.nc;
      cand *saved = c.c;
      c.c = NULL;
      c.nc = 0;
      if (!c.no_guard) {
         xe_lanes *le = xe_lanes_analyze_edge(m, f, k->subgroup_size, ls, 0,
                                              xe_block_id(cfg->blocks[gb]), xe_block_id(cfg->blocks[gh]));
         collect(&c, le, true);
         xe_lanes_free(le);
      } else {
         collect(&c, l0, true);
      }
      free(c.c);
      c.c = saved;
      c.nc = keep;
      if (!c.no_guard)
         c.b = gb;
      xe_block **rb = malloc(cfg->n * sizeof(*rb));
      unsigned nrb = 0;
      /* H first, then R in function order. */
      rb[nrb++] = cfg->blocks[gh];
      xe_foreach_block(blk, f) {
         uint32_t x = xe_cfg_block_index(cfg, xe_block_id(blk));
         if (x != gh && c.in_r[x])
            rb[nrb++] = blk;
      }
      unsigned reads = 0, writes = 0;
      for (unsigned q = 0; q < c.nc; q++) {
         reads += !c.c[q].store;
         writes += c.c[q].store;
         if (c.c[q].loop_key)
            xe_remark(r, k->name, XE_REMARK_APPLIED,
                      "load via %s: sub-group block read in the fast copy (tested: %s contiguous "
                      "without wrap; the index adds a uniform value without wrap; base aligned as "
                      "the load says)", xe_id_text(m, c.c[q].ptr, nb, sizeof(nb)),
                      xe_id_text(m, c.c[q].loop_key, nb2, sizeof(nb2)));
         else
            xe_remark(r, k->name, XE_REMARK_APPLIED,
                      "%s via %s: sub-group block %s in the fast copy (tested: contiguous, %u-byte "
                      "aligned base)", c.c[q].store ? "store" : "load",
                      xe_id_text(m, c.c[q].ptr, nb, sizeof(nb)), c.c[q].store ? "write" : "read",
                      c.c[q].store ? 16 : 4);
      }
      if (c.no_guard) {
         xe_remark(r, k->name, XE_REMARK_APPLIED,
                   "versioned the kernel body: a fast copy with %u block read(s) and %u block "
                   "write(s) runs when the sub-group is full and every address is contiguous and "
                   "aligned (test: sub-group add-reduction of the per-lane predicate == "
                   "SubgroupMaxSize); otherwise the original code%s%s%s", reads, writes,
                   est[0] ? " (cost model: " : "", est, est[0] ? " cycles)" : "");
         apply(&c, rb, nrb, 0, true);
      } else {
         xe_remark(r, k->name, XE_REMARK_APPLIED,
                   "versioned the region guarded by %s: a fast copy without the guard, with %u "
                   "block read(s) and %u block write(s), runs when the sub-group is full, the guard "
                   "holds in every lane and every address is contiguous and aligned (test: "
                   "sub-group add-reduction of the per-lane predicate == SubgroupMaxSize); "
                   "otherwise the original code%s%s%s", xe_id_text(m, gcond, nb, sizeof(nb)), reads, writes,
                   est[0] ? " (cost model: " : "", est, est[0] ? " cycles)" : "");
         apply(&c, rb, nrb, gcond, gtrue);
      }
      free(rb);
      xe_idtab_free(&c.emitted);
      progress = true;
   }
   xe_lanes_free(l0);
   if (c.typical)
      xe_lanes_free(c.typical);
   free(c.c);
   free(c.in_r);
   xe_idtab_free(&c.hmemo);
   return progress;
}

bool xeopt_pass_subgroup_versioning(xe_ctx *ctx)
{
   xe_module *m = ctx->module;
   unsigned n;
   xe_kernel *ks = xe_kernels_all(m, &n);
   bool progress = false;
   for (unsigned k = 0; k < n; k++) {
      if (ks[k].body && xe_kernel_rewritable(ctx->options, ks[k].name) && run_kernel(ctx, &ks[k]))
         progress = true;
   }
   free(ks);
   return progress;
}
