/*
 * simplify-cfg: fold branches whose outcome is known, drop the blocks that
 * no longer run, and thread empty forwarding blocks into their successor.
 *
 * Why: Intel's OpenCL front end (`ocloc compile -spv_only`, the SPIR-V the
 * Intel runtime hands to IGC) compiles `if (x >= w || y >= h) return;` to
 *
 *      entry:   OpBranchConditional %x_ge_w %then %lor
 *      lor:     OpBranchConditional %y_ge_h %then %body
 *      then:    OpBranch %cleanup                        ; empty trampoline
 *      body:    ... OpBranch %cleanup
 *      cleanup: %slot = OpPhi %uint %uint_1 %then %uint_0 %body
 *               OpSwitch %slot %unreachable 0 %cont 1 %cont
 *      cont:    OpReturn
 *
 * (clang's "cleanup destination slot", after mem2reg).  The guarded region
 * %body leaves to %cleanup, which the guard's other side reaches only
 * through %then, so the region analyses (src/analysis/region.c) see a
 * region with another exit and keep the guard.  clang + llvm-spirv emit the
 * same source as a guard whose out-of-bounds side is the block that returns.
 * After this pass the ocloc form is that shape too: the switch becomes
 * `OpBranch %cont` (every value the slot can hold selects %cont), %cleanup
 * and %then are empty forwarding blocks, and the guards branch to %cont.
 *
 * Rewrites, repeated until nothing changes:
 *  - fold: an OpSwitch whose selector can take only known values (below)
 *    that all select one target, and an OpBranchConditional on a constant
 *    or with both targets equal, become OpBranch; the successors left lose
 *    their OpPhi entries for the block.  The selector's phis, when nothing
 *    else uses them, are deleted.
 *    Known values: an integer constant (OpConstantNull is 0; OpUndef may be
 *    any value, so it constrains nothing); an OpPhi, the union of its
 *    incoming values' sets (phi cycles add nothing); an OpSelect, the union
 *    of its two operands' sets; an OpLoad of a
 *    Function-storage OpVariable used only by non-volatile loads and stores
 *    (the cleanup slot before mem2reg): the values stored and the
 *    initializer.  A load before any store reads an undefined value, so
 *    any target is right for it.  Anything else is unknown, and the switch
 *    stays (remark).
 *  - unreachable blocks (no path from the entry) are deleted, with their
 *    entries in the phis of reachable blocks, when no reachable instruction
 *    other than such a phi entry uses what they define.
 *  - threading: a block B other than the entry holding only OpBranch S
 *    (OpLine aside) is bypassed: each predecessor P branches to S instead,
 *    and each phi of S gets B's value for P.  That value's definition
 *    strictly dominates B, so it dominates every predecessor of B too.
 *    Bypassing B keeps the dominance among the other blocks.
 *    Not threaded: a B named by OpSelectionMerge/OpLoopMerge (merge blocks
 *    and continue targets belong to the structure); a P with a merge
 *    instruction (its branch is a header's); B -> S a back edge (S
 *    dominates B: the loop keeps its single latch, which the loop analysis
 *    wants); S a loop header (B is its preheader, which the loop analysis
 *    and a guarded region's single entry need); a P already branching to
 *    S when a phi of S would need two values from P; an OpSwitch P that
 *    would reach S, a block with phis, by several cases (IGC aborts).
 *  - short-circuit chains: P: c1 ? T : L, L (only P's) computing c2 with
 *    a few side-effect-free instructions and branching c2 ? T : O, becomes
 *    P: (c1 || c2) ? T : L, L: br O (and the && form): ocloc keeps
 *    `x >= w || y >= h` as two branches where clang emits one condition,
 *    and the guard analyses take one branch as one guard.  L stays as the
 *    empty entry of the guarded region (threading removes it unless O is
 *    a loop header).
 *  - two-way phis: X: c ? A : B where each side is the join J or a block
 *    of a few side-effect-free instructions reached only from X and going
 *    only to J, J reached only that way: the instructions move to X, each
 *    phi of J (scalar or vector) becomes OpSelect c, and X branches to J.
 *    clang does the same at -O2 for `a && b` used as a value; with the
 *    branches left in, the guarded body is several blocks, and
 *    subgroup-versioning refuses accesses after a divergent branch.
 *    Moved instructions lose NoSignedWrap/NoUnsignedWrap: they now run on
 *    paths where they may wrap.
 *
 * Which rewrites are made (issue 30).  The cost model cannot price these
 * rewrites (it charges a branch more than a compare, so it calls every
 * merge cheaper), so each was switched off in turn and IGC 22.43 asked
 * (darktable's 289 kernels through Intel's front end, dg2 and pvc):
 *  - folding and deleting unreachable blocks never made a kernel longer
 *    on their own, under IGC 2.40 either: always made.  Bypassing empty
 *    blocks never did under IGC 22.43; under 2.40 it does (below).
 *  - merging a chain into an early return (T only returns) whose branches
 *    test more than 2 compares in all: on dg2 IGC compiles the chain as
 *    predicated compares and one guard of 4 compares as flag moves and
 *    selects (markesteijn_zero 77 -> 89, borders_fill 77 -> 88,
 *    rcd_write_output 114 -> 126 instructions; 11 kernels 11-12 longer,
 *    14 others 1-12 shorter, net -89 over the 289 when such chains are
 *    kept); on pvc the merge never cost (15 kernels 1-13 shorter, net 41).
 *    So such a chain is kept (remark "missed") where the model is asked
 *    for a device other than pvc (dg2 is in the default), unless --assume-padded
 *    lets padding remove the guard the merge builds; under --target=none
 *    and --isa-check's first try (IGC judges the kernel and keeps the
 *    better) it is merged.
 *  - other merges (2-compare early returns, chains inside the body) and
 *    two-way phis to selects gained more than they cost under IGC 22.43
 *    (overexposed dg2 1340 -> 1230, tonecurve 1396 -> 1385, the rcd steps
 *    2 fewer on pvc); they still cost on some kernels (guide_laplacians dg2
 *    582 -> 621).
 * Under IGC 2.40 (ocloc 26's modules of darktable, bmg) the bypasses,
 * merges and selects made 49 of 289 kernels longer and 16 shorter: they
 * are rewrites for the passes after this one, not for IGC.  So where the
 * model is asked, the driver runs the pipeline twice when needed
 * (driver.c): a kernel that no guard or loop pass rewrote in the first
 * run carries the judge's XE_PLAIN_CFG, and in the second run this pass makes only
 * folds and deletions in it (remark "made none of ...").  With that, 0 of
 * the 289 are longer on bmg, lnl and ptl, 1 on dg2 (through
 * private-arrays), and 0 of ocloc 22's 289 under IGC 22.43 on dg2 and pvc
 * (bench/README, "IGC 2.40 as the judge").  A kernel only
 * loop-spec-constants rewrote carries XE_PLAIN_MERGE instead: it reads the
 * bypasses (a loop's single entry) and not the merges or selects, so the
 * second run makes the bypasses and folds alone there (clang's backend's
 * generic_address_memcpy: a merge kept for it made the loop one
 * instruction longer, pvc 70.1 -> 72.1 cycles per work-item by IGC 2.40).
 *
 * Semantics: unchanged for every launch (no host contract).  Only the
 * values a selector can hold at run time decide a fold; only instructions
 * without side effects or undefined behaviour run speculatively.  Merge
 * and continue targets stay.  A folded branch can change a block's
 * dominator and so break the rule that blocks follow their dominators;
 * block-order, last in the pipeline, restores it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builder.h"
#include "cfg.h"
#include "cost.h"
#include "opinfo.h"
#include "passes.h"

/* xe_function.mark during the pass: leave the function alone (a kernel the
 * driver keeps, and what it calls), or make the enabling rewrites in it
 * (the judge's XE_PLAIN_CFG); the two low bits, set by mark_reachable.
 * MARK_KERNEL and MARK_FREE are the shape gate's (shape_marks), added
 * after those walks. */
enum { MARK_KEEP = 1, MARK_ENABLE = 2, MARK_BYPASS = 3, MARK_REACH = 3, MARK_KERNEL = 4, MARK_FREE = 8 };

/* A switch that can take more values than this is left alone. */
#define MAX_VALUES 16
/* Phis and variables followed for one selector. */
#define MAX_SEEN 64

typedef struct valset {
   unsigned n;
   uint64_t v[MAX_VALUES];
   unsigned nseen;
   uint32_t seen[MAX_SEEN];   /* phis and variables already followed */
} valset;

typedef struct simplify {
   xe_module *m;
   xe_function *f;
   xe_remarks *r;
   /* The function's name for remarks, looked up on the first remark
    * (fname_of): most functions get none, and the lookup is a cache miss
    * per function at a few thousand kernels. */
   const char *fname;
   char fname_buf[64];
   unsigned folded, threaded, deleted, merged, selects;
   /* May every chain be merged (see the top)?  When not, merge_block
    * counts the chains into a many-compare early return it leaves
    * (kept_merges) instead of merging them. */
   bool shape;
   unsigned kept_merges;
   /* May the enabling rewrites (bypass, merge, phi-to-select) be made?
    * When not (the judge's XE_PLAIN_CFG), the function gets folds and
    * deletions only, and dry counts the enabling candidates left
    * (plain_candidates) for the remark: the rewrites then stop where they
    * would edit. */
   bool enable, dry;
   /* Without enable: may the bypasses be made (the judge's XE_PLAIN_MERGE)? */
   bool bypass;
   unsigned plain_candidates;
} simplify;

static const char *fname_of(simplify *c)
{
   if (!c->fname) {
      uint32_t id = xe_function_id(c->f);
      c->fname = xe_name(c->m, id);
      if (!c->fname)
         c->fname = xe_id_text(c->m, id, c->fname_buf, sizeof c->fname_buf);
   }
   return c->fname;
}

static bool add_value(valset *s, uint64_t v)
{
   for (unsigned k = 0; k < s->n; k++) {
      if (s->v[k] == v)
         return true;
   }
   if (s->n == MAX_VALUES)
      return false;
   s->v[s->n++] = v;
   return true;
}

/* Marks id as followed; false when it was already (or the table is full:
 * then *full is set). */
static bool first_visit(valset *s, uint32_t id, bool *full)
{
   for (unsigned k = 0; k < s->nseen; k++) {
      if (s->seen[k] == id)
         return false;
   }
   if (s->nseen == MAX_SEEN) {
      *full = true;
      return false;
   }
   s->seen[s->nseen++] = id;
   return true;
}

static bool values_of(xe_module *m, uint32_t id, valset *s);

static bool volatile_access(const xe_inst *i, unsigned mask_op)
{
   return xe_nops(i) > mask_op && (xe_op(i, mask_op) & SpvMemoryAccessVolatileMask);
}

/* The values a load of a private slot variable can return. */
static bool slot_values(xe_module *m, const xe_inst *load, valset *s)
{
   if (volatile_access(load, 1))
      return false;
   uint32_t var = xe_op(load, 0);
   const xe_inst *v = xe_def(m, var);
   if (!v || v->opcode != SpvOpVariable || !v->block || xe_op(v, 0) != SpvStorageClassFunction)
      return false;
   bool full = false;
   if (!first_visit(s, var, &full))
      return !full;
   if (xe_nops(v) > 1 && !values_of(m, xe_op(v, 1), s))
      return false;
   uint32_t n = 0;
   const xe_use *u = xe_uses(m, var, &n);
   for (uint32_t k = 0; k < n; k++) {
      const xe_inst *i = u[k].inst;
      if (!i->block)
         continue; /* OpName, decorations */
      bool ptr = u[k].word == i->first_op;
      if (i->opcode == SpvOpLoad && ptr && !volatile_access(i, 1))
         continue;
      if (i->opcode == SpvOpLifetimeStart || i->opcode == SpvOpLifetimeStop)
         continue;
      if (i->opcode == SpvOpStore && ptr && !volatile_access(i, 2)) {
         if (!values_of(m, xe_op(i, 1), s))
            return false;
         continue;
      }
      return false; /* the address escapes, or something else writes it */
   }
   return true;
}

/* Adds every value id can hold at run time to s; false when unknown. */
static bool values_of(xe_module *m, uint32_t id, valset *s)
{
   uint64_t v;
   if (xe_const_uint(m, id, &v))
      return add_value(s, v);
   const xe_inst *d = xe_def(m, id);
   if (!d)
      return false;
   if (d->opcode == SpvOpConstantNull)
      return add_value(s, 0);
   if (d->opcode == SpvOpUndef)
      return true;
   if (d->opcode == SpvOpPhi) {
      bool full = false;
      if (!first_visit(s, id, &full))
         return !full;
      for (unsigned k = 0; k + 1 < xe_nops(d); k += 2) {
         if (!values_of(m, xe_op(d, k), s))
            return false;
      }
      return true;
   }
   if (d->opcode == SpvOpSelect)
      return values_of(m, xe_op(d, 1), s) && values_of(m, xe_op(d, 2), s);
   if (d->opcode == SpvOpLoad)
      return slot_values(m, d, s);
   return false;
}

/* The label an OpSwitch selects for selector value v. */
static uint32_t switch_target(xe_module *m, const xe_inst *t, uint64_t v)
{
   const xe_inst *sel = xe_def(m, xe_op(t, 0));
   unsigned w = sel ? xe_type_width(m, sel->type_id) : 32;
   unsigned lw = w > 32 ? 2 : 1;
   uint64_t mask = w >= 64 || w == 0 ? ~0ull : (1ull << w) - 1;
   for (unsigned k = 2; k + lw < xe_nops(t); k += lw + 1) {
      uint64_t lit = xe_op(t, k);
      if (lw == 2)
         lit |= (uint64_t)xe_op(t, k + 1) << 32;
      if ((lit & mask) == (v & mask))
         return xe_op(t, k + lw);
   }
   return xe_op(t, 1);
}

static xe_block *block_of_label(xe_module *m, uint32_t id)
{
   const xe_inst *l = xe_def(m, id);
   return l && l->opcode == SpvOpLabel ? l->block : NULL;
}

/* Drops the entries of blk's phis whose parent is from. */
static void remove_phi_entries(xe_module *m, xe_block *blk, uint32_t from)
{
   xe_foreach_phi(m, i, blk) {
      unsigned n = xe_nops(i), w = 0;
      uint32_t *ops = malloc((n + 1) * sizeof(uint32_t));
      uint8_t *kinds = malloc(n + 1);
      bool changed = false;
      for (unsigned k = 0; k + 1 < n; k += 2) {
         if (xe_op(i, k + 1) == from) {
            changed = true;
            continue;
         }
         ops[w] = xe_op(i, k);
         ops[w + 1] = xe_op(i, k + 1);
         kinds[w] = kinds[w + 1] = XE_W_ID;
         w += 2;
      }
      if (changed)
         xe_set_ops(i, ops, w, kinds);
      free(ops);
      free(kinds);
   }
}

/* Appends the entry (value, parent) to phi. */
static void add_phi_entry(xe_inst *phi, uint32_t value, uint32_t parent)
{
   unsigned n = xe_nops(phi);
   uint32_t *ops = malloc((n + 2) * sizeof(uint32_t));
   uint8_t *kinds = malloc(n + 2);
   for (unsigned k = 0; k < n; k++) {
      ops[k] = xe_op(phi, k);
      kinds[k] = XE_W_ID;
   }
   ops[n] = value;
   ops[n + 1] = parent;
   kinds[n] = kinds[n + 1] = XE_W_ID;
   xe_set_ops(phi, ops, n + 2, kinds);
   free(ops);
   free(kinds);
}

/* The value phi takes from parent, 0 if it has no entry for it. */
static uint32_t phi_value(const xe_inst *phi, uint32_t parent)
{
   for (unsigned k = 0; k + 1 < xe_nops(phi); k += 2) {
      if (xe_op(phi, k + 1) == parent)
         return xe_op(phi, k);
   }
   return 0;
}

static bool is_meta(const xe_inst *i)
{
   return !i->block && !i->function;
}

/* Deletes the phi web of id (below) when nothing outside it uses it. */
static void delete_dead_phis(xe_module *m, uint32_t id)
{
   xe_inst *web[MAX_SEEN];
   unsigned n = 0;
   xe_inst *d = xe_def(m, id);
   if (!d || d->opcode != SpvOpPhi)
      return;
   web[n++] = d;
   for (unsigned k = 0; k < n; k++) {
      for (unsigned o = 0; o + 1 < xe_nops(web[k]); o += 2) {
         xe_inst *p = xe_def(m, xe_op(web[k], o));
         if (!p || p->opcode != SpvOpPhi)
            continue;
         bool have = false;
         for (unsigned q = 0; q < n; q++)
            have |= web[q] == p;
         if (!have) {
            if (n == MAX_SEEN)
               return;
            web[n++] = p;
         }
      }
   }
   for (unsigned k = 0; k < n; k++) {
      uint32_t nu = 0;
      const xe_use *u = xe_uses(m, web[k]->result_id, &nu);
      for (uint32_t j = 0; j < nu; j++) {
         if (is_meta(u[j].inst))
            continue;
         bool inside = false;
         for (unsigned q = 0; q < n; q++)
            inside |= web[q] == u[j].inst;
         if (!inside)
            return;
      }
   }
   for (unsigned k = 0; k < n; k++)
      xe_inst_kill(m, web[k]);
}

/* Deletes a Function variable nothing reads any more, with its stores. */
static void delete_dead_slot(xe_module *m, uint32_t var)
{
   xe_inst *v = xe_def(m, var);
   if (!v || v->opcode != SpvOpVariable || !v->block || xe_op(v, 0) != SpvStorageClassFunction)
      return;
   uint32_t n = 0;
   const xe_use *u = xe_uses(m, var, &n);
   for (uint32_t k = 0; k < n; k++) {
      const xe_inst *i = u[k].inst;
      bool store = i->opcode == SpvOpStore && u[k].word == i->first_op &&
                   !volatile_access(i, 2);
      if (!is_meta(i) && !store && i->opcode != SpvOpLifetimeStart &&
          i->opcode != SpvOpLifetimeStop)
         return;
   }
   for (uint32_t k = 0; k < n; k++) {
      if (!is_meta(u[k].inst))
         xe_inst_delete(m, u[k].inst);
   }
   xe_inst_kill(m, v);
}

/* Deletes what computed a folded selector once nothing else uses it: the
 * web of phis reached through phi operands (all or nothing: a loop-carried
 * slot is a cycle of phis using each other), or the load of a slot
 * variable and then the variable. */
static void delete_dead_selector(xe_module *m, uint32_t id)
{
   xe_inst *d = xe_def(m, id);
   if (d && d->opcode == SpvOpLoad && d->block) {
      uint32_t n = 0;
      const xe_use *u = xe_uses(m, id, &n);
      for (uint32_t k = 0; k < n; k++) {
         if (!is_meta(u[k].inst))
            return;
      }
      uint32_t var = xe_op(d, 0);
      xe_inst_kill(m, d);
      delete_dead_slot(m, var);
      return;
   }
   delete_dead_phis(m, id);
}

/* Replaces b's terminator t by OpBranch target. */
static void fold_to(simplify *c, xe_block *b, xe_inst *t, uint32_t target)
{
   uint32_t labels[64], nl = 0;
   for (unsigned k = 0; k < xe_nops(t) && nl < 64; k++) {
      uint32_t v = xe_op(t, k);
      if (xe_op_kind(t, k) != XE_W_ID || v == target || !block_of_label(c->m, v))
         continue;
      bool have = false;
      for (unsigned q = 0; q < nl; q++)
         have |= labels[q] == v;
      if (!have)
         labels[nl++] = v;
   }
   uint32_t sel = xe_op(t, 0);
   xe_terminator_to_branch(c->m, t, target);
   for (unsigned q = 0; q < nl; q++)
      remove_phi_entries(c->m, block_of_label(c->m, labels[q]), xe_block_id(b));
   delete_dead_selector(c->m, sel);
   c->folded++;
}

static const char *label_text(xe_module *m, uint32_t id, char *buf, size_t n)
{
   return xe_id_text(m, id, buf, n);
}

static bool has_merge(const xe_inst *t)
{
   const xe_inst *p = t->prev;
   while (p && (p->opcode == SpvOpLine || p->opcode == SpvOpNoLine))
      p = p->prev;
   return p && (p->opcode == SpvOpSelectionMerge || p->opcode == SpvOpLoopMerge);
}

static bool fold_block(simplify *c, xe_block *b)
{
   xe_inst *t = xe_block_terminator(b);
   if (!t || has_merge(t))
      return false;
   if (t->opcode == SpvOpBranchConditional) {
      const xe_inst *cd = xe_def(c->m, xe_op(t, 0));
      if (xe_op(t, 1) == xe_op(t, 2)) {
         fold_to(c, b, t, xe_op(t, 1));
         return true;
      }
      if (cd && (cd->opcode == SpvOpConstantTrue || cd->opcode == SpvOpConstantFalse)) {
         fold_to(c, b, t, xe_op(t, cd->opcode == SpvOpConstantTrue ? 1 : 2));
         return true;
      }
      return false;
   }
   if (t->opcode != SpvOpSwitch)
      return false;
   valset s;
   s.n = s.nseen = 0;
   char bb[64], sb[64];
   uint32_t target = 0;
   if (values_of(c->m, xe_op(t, 0), &s)) {
      for (unsigned k = 0; k < s.n && target != UINT32_MAX; k++) {
         uint32_t tk = switch_target(c->m, t, s.v[k]);
         target = target == 0 || target == tk ? tk : UINT32_MAX;
      }
      if (target == 0)
         target = xe_op(t, 1); /* only undefined values: any target is right */
      if (target != UINT32_MAX) {
         fold_to(c, b, t, target);
         return true;
      }
      xe_remark(c->r, fname_of(c), XE_REMARK_MISSED,
                "switch on %s in block %s stays: its %u possible values select different blocks",
                xe_id_text(c->m, xe_op(t, 0), sb, sizeof sb),
                label_text(c->m, xe_block_id(b), bb, sizeof bb), s.n);
      return false;
   }
   xe_remark(c->r, fname_of(c), XE_REMARK_MISSED,
             "switch on %s in block %s stays: the selector is not a known constant",
             xe_id_text(c->m, xe_op(t, 0), sb, sizeof sb),
             label_text(c->m, xe_block_id(b), bb, sizeof bb));
   return false;
}

/* Pass over every block once; a switch that stays says so only the first
 * time (quiet afterwards). */
static bool fold_all(simplify *c, bool quiet)
{
   xe_remarks *r = c->r;
   if (quiet)
      c->r = NULL;
   bool changed = false;
   xe_foreach_block(b, c->f)
      changed |= fold_block(c, b);
   c->r = r;
   return changed;
}

/* ---- unreachable blocks ---- */

static bool delete_unreachable(simplify *c)
{
   const xe_cfg *cfg = xe_function_cfg(c->f);
   if (cfg->nrpo == cfg->n)
      return false;
   xe_module *m = c->m;
   uint8_t *dead = calloc(cfg->n, 1);
   for (uint32_t b = 0; b < cfg->n; b++)
      dead[b] = cfg->rpo_index[b] == XE_NONE;
   /* Anything a dead block defines may be used only by dead blocks, names
    * and decorations, or as a phi entry whose parent is dead. */
   bool ok = true;
   for (uint32_t b = 0; b < cfg->n && ok; b++) {
      if (!dead[b])
         continue;
      xe_block *blk = cfg->blocks[b];
      for (xe_inst *i = blk->label; i && ok; i = i == blk->label ? blk->insts.first : i->next) {
         if (!i->result_id)
            continue;
         uint32_t n = 0;
         const xe_use *u = xe_uses(m, i->result_id, &n);
         for (uint32_t k = 0; k < n && ok; k++) {
            const xe_inst *ui = u[k].inst;
            if (is_meta(ui))
               continue;
            if (!ui->block || ui->block->fn != c->f) {
               ok = false;
               break;
            }
            uint32_t ub = xe_cfg_block_index(cfg, xe_block_id(ui->block));
            if (ub != XE_NONE && dead[ub])
               continue;
            if (ui->opcode == SpvOpPhi) {
               unsigned op = u[k].word - ui->first_op;
               uint32_t parent = xe_op(ui, op % 2 ? op : op + 1);
               uint32_t pb = xe_cfg_block_index(cfg, parent);
               if (pb != XE_NONE && dead[pb])
                  continue;
            }
            ok = false;
         }
      }
   }
   if (!ok) {
      free(dead);
      return false;
   }
   /* Phi entries from dead blocks in live successors. */
   for (uint32_t b = 0; b < cfg->n; b++) {
      if (!dead[b])
         continue;
      for (uint32_t e = cfg->succ_start[b]; e < cfg->succ_start[b + 1]; e++) {
         uint32_t s = cfg->succ[e];
         if (!dead[s])
            remove_phi_entries(m, cfg->blocks[s], xe_block_id(cfg->blocks[b]));
      }
   }
   for (uint32_t b = 0; b < cfg->n; b++) {
      if (!dead[b])
         continue;
      xe_block_delete(m, c->f, cfg->blocks[b]);
      c->deleted++;
   }
   free(dead);
   return true;
}

/* ---- threading ---- */

/* Is b a forwarding block (only OpBranch, source info aside: OpLine,
 * DebugScope, DebugValue)?  *succ gets the target. */
static bool forwarding(const xe_module *m, const xe_block *b, uint32_t *succ)
{
   const xe_inst *t = NULL;
   xe_foreach_inst(i, &b->insts) {
      if (xe_inst_is_source_info(m, i))
         continue;
      if (t)
         return false;
      t = i;
   }
   if (!t || t->opcode != SpvOpBranch)
      return false;
   *succ = xe_op(t, 0);
   return true;
}

/* Is blk the entry or the target of some branch? */
static bool has_preds(xe_module *m, const xe_function *f, const xe_block *blk)
{
   if (blk == f->first)
      return true;
   uint32_t n = 0;
   const xe_use *u = xe_uses(m, xe_block_id(blk), &n);
   for (uint32_t k = 0; k < n; k++) {
      if (!is_meta(u[k].inst) && u[k].inst->opcode != SpvOpPhi)
         return true;
   }
   return false;
}

/* Bypasses forwarding block b (to s) for every predecessor that allows it. */
static bool thread_block(simplify *c, const xe_cfg *cfg, xe_block *b, xe_block *s)
{
   xe_module *m = c->m;
   uint32_t bid = xe_block_id(b), sid = xe_block_id(s);
   uint32_t bi = xe_cfg_block_index(cfg, bid), si = xe_cfg_block_index(cfg, sid);
   if (bi == XE_NONE || si == XE_NONE || cfg->rpo_index[bi] == XE_NONE ||
       xe_dominates(cfg, si, bi))
      return false;
   /* A loop's preheader stays: a guard's region must have one entry, and
    * the loop analysis wants one outside predecessor. */
   for (uint32_t e = cfg->pred_start[si]; e < cfg->pred_start[si + 1]; e++) {
      if (cfg->rpo_index[cfg->pred[e]] != XE_NONE && xe_dominates(cfg, si, cfg->pred[e]))
         return false;
   }
   /* b's label may be used only by branches into it, s's phis and names. */
   uint32_t n = 0;
   const xe_use *u = xe_uses(m, bid, &n);
   for (uint32_t k = 0; k < n; k++) {
      const xe_inst *i = u[k].inst;
      if (is_meta(i))
         continue;
      if (i->opcode == SpvOpPhi && i->block == s)
         continue;
      if (i->opcode == SpvOpBranch || i->opcode == SpvOpBranchConditional ||
          i->opcode == SpvOpSwitch)
         continue;
      return false;
   }
   if (c->dry) {
      c->plain_candidates++;
      return false;
   }
   /* The predecessors, each once (u is a copy: edits below are safe). */
   xe_inst **preds = malloc((n + 1) * sizeof(xe_inst *));
   unsigned np = 0;
   for (uint32_t k = 0; k < n; k++) {
      xe_inst *i = u[k].inst;
      if (is_meta(i) || i->opcode == SpvOpPhi)
         continue;
      bool have = false;
      for (unsigned q = 0; q < np; q++)
         have |= preds[q] == i;
      if (!have)
         preds[np++] = i;
   }
   bool changed = false;
   for (unsigned q = 0; q < np; q++) {
      xe_inst *t = preds[q];
      /* A predecessor bypassed itself earlier in the walk is dead: leave
       * it to the deletion. */
      if (has_merge(t) || t->block == b || !has_preds(m, c->f, t->block))
         continue;
      uint32_t pid = xe_block_id(t->block);
      bool to_s = false;
      unsigned to_b = 0;
      for (unsigned k = 0; k < xe_nops(t); k++) {
         to_s |= xe_op_kind(t, k) == XE_W_ID && xe_op(t, k) == sid;
         to_b += xe_op_kind(t, k) == XE_W_ID && xe_op(t, k) == bid;
      }
      /* An OpSwitch with several cases to a block with phis: LLVM wants
       * one phi entry per edge, SPIR-V has one per block, and IGC 22.43
       * aborts translating that (found on darktable's blendop.cl). */
      if (t->opcode == SpvOpSwitch && (to_s || to_b > 1) && xe_phi_at(m, s->insts.first))
         continue;
      if (to_s) {
         /* p already branches to s: fine when s's phis agree. */
         bool agree = true;
         xe_foreach_phi(m, i, s)
            agree &= phi_value(i, pid) == phi_value(i, bid);
         if (!agree)
            continue;
      } else {
         xe_foreach_phi(m, i, s)
            add_phi_entry(i, phi_value(i, bid), pid);
      }
      for (unsigned k = 0; k < xe_nops(t); k++) {
         if (xe_op_kind(t, k) == XE_W_ID && xe_op(t, k) == bid)
            xe_set_op(t, k, sid);
      }
      changed = true;
   }
   free(preds);
   if (changed)
      c->threaded++;
   return changed;
}

/* Dominance among the blocks other than the bypassed one stays as it was,
 * so one CFG serves the whole walk (blocks are deleted only afterwards). */
static bool thread_all(simplify *c)
{
   const xe_cfg *cfg = xe_function_cfg(c->f);
   bool changed = false;
   for (uint32_t b = 1; b < cfg->n; b++) {
      uint32_t sid;
      xe_block *blk = cfg->blocks[b];
      if (blk == c->f->first || !forwarding(c->m, blk, &sid) || sid == xe_block_id(blk))
         continue;
      xe_block *s = block_of_label(c->m, sid);
      if (s && s->fn == c->f)
         changed |= thread_block(c, cfg, blk, s);
   }
   return changed;
}

/* ---- short-circuit chains ---- */

/* Can i run where it did not before?  Pure, no address arithmetic (a
 * pointer may be valid only on the path), no integer division (undefined
 * for a zero divisor), no decoration but NoSignedWrap / NoUnsignedWrap and
 * FPFastMathMode: promises that hold only on the path (a wrap, a NaN or
 * infinite operand elsewhere gives an undefined result), which go when i
 * moves (drop_wrap_decorations), so the moved i computes a defined value
 * where its result is not used.  llvm-spirv 21 and ocloc 26 put
 * FPFastMathMode on the arithmetic of a `?:` side. */
static bool speculatable(xe_module *m, const xe_inst *i)
{
   unsigned f = xe_inst_info(m, i);
   if (!(f & XE_OPI_PURE) || (f & XE_OPI_ADDRESS) || i->opcode == SpvOpPhi)
      return false;
   if (i->opcode == SpvOpUDiv || i->opcode == SpvOpSDiv || i->opcode == SpvOpUMod ||
       i->opcode == SpvOpSRem || i->opcode == SpvOpSMod)
      return false;
   if (i->result_id) {
      uint32_t n = 0;
      const xe_use *u = xe_uses(m, i->result_id, &n);
      for (uint32_t k = 0; k < n; k++) {
         const xe_inst *d = u[k].inst;
         if ((d->opcode == SpvOpDecorate || d->opcode == SpvOpDecorateId) &&
             !(d->opcode == SpvOpDecorate && (xe_op(d, 1) == SpvDecorationNoSignedWrap ||
                                              xe_op(d, 1) == SpvDecorationNoUnsignedWrap ||
                                              xe_op(d, 1) == SpvDecorationFPFastMathMode)))
            return false;
      }
   }
   return true;
}

/* Drops i's NoSignedWrap / NoUnsignedWrap / FPFastMathMode: run on every
 * path, i may wrap (or see a NaN) where the original never ran, where the
 * promise would make its result undefined. */
static void drop_wrap_decorations(xe_module *m, const xe_inst *i)
{
   if (!i->result_id)
      return;
   uint32_t n = 0;
   const xe_use *u = xe_uses(m, i->result_id, &n);
   for (uint32_t k = 0; k < n; k++) {
      if (u[k].inst->opcode == SpvOpDecorate)
         xe_inst_delete(m, u[k].inst);
   }
}

/* Moves i, of a block whose code runs on one path, before pos, where it
 * runs on every path (merge_block, select_block).  Debug info goes
 * instead: a DebugValue there would say a variable holds a value on paths
 * where the source never set it. */
static void hoist(xe_module *m, xe_inst *i, xe_inst *pos)
{
   if (xe_inst_is_debug_info(m, i)) {
      xe_inst_kill(m, i);
      return;
   }
   drop_wrap_decorations(m, i);
   xe_inst_remove(m, i);
   xe_list_insert_before(m, pos, i);
}

/* Compares joined into one condition (OpLogicalOr/And, or the OpSelect
 * forms clang writes for || and &&). */
static unsigned cond_compares(xe_module *m, uint32_t id, int depth)
{
   const xe_inst *i = xe_def(m, id);
   if (!i || depth > 8)
      return 1;
   if (i->opcode == SpvOpLogicalOr || i->opcode == SpvOpLogicalAnd)
      return cond_compares(m, xe_op(i, 0), depth + 1) + cond_compares(m, xe_op(i, 1), depth + 1);
   if (i->opcode == SpvOpSelect && i->type_id == xe_type_bool(m)) {
      const xe_inst *a = xe_def(m, xe_op(i, 1)), *b = xe_def(m, xe_op(i, 2));
      if (a && a->opcode == SpvOpConstantTrue)
         return cond_compares(m, xe_op(i, 0), depth + 1) + cond_compares(m, xe_op(i, 2), depth + 1);
      if (b && b->opcode == SpvOpConstantFalse)
         return cond_compares(m, xe_op(i, 0), depth + 1) + cond_compares(m, xe_op(i, 1), depth + 1);
   }
   return 1;
}

/* Does b only return (source info aside), directly or through empty
 * blocks? */
static bool returns_only(xe_module *m, const xe_block *b)
{
   for (int k = 0; k < 8 && b; k++) {
      xe_inst *t = xe_block_terminator((xe_block *)b);
      const xe_inst *first = xe_skip_source_info(m, b->insts.first);
      if (!t || first != t)
         return false;
      if (t->opcode == SpvOpReturn)
         return true;
      if (t->opcode != SpvOpBranch)
         return false;
      b = block_of_label(m, xe_op(t, 0));
   }
   return false;
}

/* Compares over all the conditional branches of c's function to t. */
static unsigned exit_compares(simplify *c, uint32_t t)
{
   unsigned n = 0;
   xe_foreach_block(b, c->f) {
      xe_inst *bt = xe_block_terminator(b);
      if (bt && bt->opcode == SpvOpBranchConditional && (xe_op(bt, 1) == t || xe_op(bt, 2) == t))
         n += cond_compares(c->m, xe_op(bt, 0), 0);
   }
   return n;
}

/* Speculation limit: the second test of a chain is a compare or two. */
#define MAX_HOISTED 8

/* P: br c1 ? T : L (or c1 ? L : T), L reached only from P, holding a few
 * speculatable instructions and br c2 with T on the same side:
 *    c1 ? T : (L: c2 ? T : O)   ->   (c1 || c2) ? T : (L: br O)
 *    c1 ? (L: c2 ? O : T) : T   ->   (c1 && c2) ? (L: br O) : T
 * L's instructions move to P.  This is
 * `if (x >= w || y >= h) return;` as ocloc emits it (two branches) turned
 * into the one guard clang emits (an OpSelect of the compares). */
static bool merge_block(simplify *c, xe_block *p)
{
   xe_module *m = c->m;
   xe_inst *t1 = xe_block_terminator(p);
   if (!t1 || t1->opcode != SpvOpBranchConditional || has_merge(t1))
      return false;
   for (int side = 0; side < 2; side++) {
      /* side 0: T is P's true target, L its false one. */
      uint32_t tid = xe_op(t1, 1 + side), lid = xe_op(t1, 2 - side);
      xe_block *l = block_of_label(m, lid);
      if (!l || l == p || tid == lid || l == c->f->first)
         continue;
      xe_inst *t2 = xe_block_terminator(l);
      if (!t2 || t2->opcode != SpvOpBranchConditional || has_merge(t2))
         continue;
      if (xe_op(t2, 1 + side) != tid || xe_op(t2, 2 - side) == tid ||
          xe_op(t2, 2 - side) == lid)
         continue;
      uint32_t oid = xe_op(t2, 2 - side);
      xe_block *tb = block_of_label(m, tid), *ob = block_of_label(m, oid);
      if (!tb || !ob)
         continue;
      /* L's only predecessor is P (its label used once by a branch; the
       * other uses are phi entries of its successors). */
      uint32_t n = 0, branches = 0;
      const xe_use *u = xe_uses(m, lid, &n);
      bool ok = true;
      for (uint32_t k = 0; k < n && ok; k++) {
         const xe_inst *i = u[k].inst;
         if (is_meta(i) || (i->opcode == SpvOpPhi && (i->block == tb || i->block == ob)))
            continue;
         ok = i == t1;
         branches++;
      }
      if (!ok || branches != 1)
         continue;
      unsigned nh = 0;
      for (xe_inst *i = l->insts.first; i && i != t2 && ok; i = i->next) {
         if (xe_inst_is_source_info(m, i))
            continue;
         ok = speculatable(m, i) && ++nh <= MAX_HOISTED;
      }
      if (!ok)
         continue;
      /* T's phis: after the merge, T is reached from P only once. */
      xe_foreach_phi(m, i, tb)
         ok &= phi_value(i, xe_block_id(p)) == phi_value(i, lid);
      if (!ok)
         continue;
      if (c->dry) {
         c->plain_candidates++;
         continue;
      }
      if (!c->shape && returns_only(m, tb) && exit_compares(c, tid) > 2) {
         c->kept_merges++;
         continue;
      }
      /* The rewrite. */
      for (xe_inst *i = l->insts.first, *nx; i && i != t2; i = nx) {
         nx = i->next;
         hoist(m, i, t1);
      }
      uint32_t c1 = xe_op(t1, 0), c2 = xe_op(t2, 0);
      xe_builder bld = xe_builder_before(m, t1);
      uint32_t nc = xe_build2(&bld, side == 0 ? SpvOpLogicalOr : SpvOpLogicalAnd,
                              xe_type_bool(m), c1, c2);
      /* clang's name for the same condition, where the module has names. */
      if (xe_name(m, c1))
         xe_set_name(m, nc, side == 0 ? "or.cond" : "and.cond");
      uint32_t ops[3] = { nc, side == 0 ? tid : lid, side == 0 ? lid : tid };
      xe_set_ops(t1, ops, 3, NULL);
      remove_phi_entries(m, tb, lid);
      /* L stays, empty, on the edge to O: the guarded region's single
       * entry when O has other predecessors (a loop header, as clang's
       * preheader); threading bypasses it otherwise. */
      xe_terminator_to_branch(m, t2, oid);
      c->merged++;
      return true;
   }
   return false;
}

static bool merge_all(simplify *c)
{
   bool changed = false;
   xe_foreach_block(b, c->f) {
      while (merge_block(c, b))
         changed = true;
   }
   return changed;
}

/* ---- two-way phis to selects ---- */

/* Is side (a successor of x's conditional branch) either j itself or a
 * block reached only from x, of a few speculatable instructions and
 * OpBranch j?  *r gets the block in between (NULL when side is j). */
static bool select_side(simplify *c, xe_inst *tx, uint32_t side, uint32_t jid, xe_block **r)
{
   *r = NULL;
   if (side == jid)
      return true;
   xe_block *rb = block_of_label(c->m, side);
   uint32_t to;
   if (!rb || rb == c->f->first)
      return false;
   xe_inst *t = xe_block_terminator(rb);
   if (!t || t->opcode != SpvOpBranch || (to = xe_op(t, 0)) != jid || has_merge(t))
      return false;
   uint32_t n = 0, branches = 0;
   const xe_use *u = xe_uses(c->m, side, &n);
   for (uint32_t k = 0; k < n; k++) {
      const xe_inst *i = u[k].inst;
      if (is_meta(i) || (i->opcode == SpvOpPhi && i->block && xe_block_id(i->block) == jid))
         continue;
      if (i != tx)
         return false;
      branches++;
   }
   if (branches != 1)
      return false;
   unsigned nh = 0;
   xe_foreach_inst(i, &rb->insts) {
      if (i == t)
         break;
      if (xe_inst_is_source_info(c->m, i))
         continue;
      if (!speculatable(c->m, i) || ++nh > MAX_HOISTED)
         return false;
   }
   *r = rb;
   return true;
}

/* Types an OpSelect of this phi may have: scalars and vectors of
 * integers, floats and booleans. */
static bool selectable_type(xe_module *m, uint32_t type_id)
{
   const xe_inst *t = xe_def(m, type_id);
   if (t && t->opcode == SpvOpTypeVector)
      t = xe_def(m, xe_op(t, 0));
   return t && (t->opcode == SpvOpTypeInt || t->opcode == SpvOpTypeFloat ||
                t->opcode == SpvOpTypeBool);
}

/* X: c ? A : B where each side is J or a small block going only to J, and
 * J is reached only that way:
 *    X: c ? (R: v = ...; br J) : J;  J: p = phi(v, R; w, X)
 * -> X: v = ...; p' = select c v w; br J
 * clang's -O2 turns `a && b` on values (not branches) into such selects,
 * ocloc keeps the branches: with them the guarded body is one block, as
 * subgroup-versioning needs it (its accesses all run where the guard
 * holds). */
static bool select_block(simplify *c, xe_block *x)
{
   xe_module *m = c->m;
   xe_inst *tx = xe_block_terminator(x);
   if (!tx || tx->opcode != SpvOpBranchConditional || has_merge(tx) ||
       xe_op(tx, 1) == xe_op(tx, 2))
      return false;
   uint32_t a = xe_op(tx, 1), b = xe_op(tx, 2), jid = 0;
   xe_block *ra = block_of_label(m, a), *rbk = block_of_label(m, b);
   if (!ra || !rbk)
      return false;
   /* J: the side that is not a forwarding candidate, or both sides' target. */
   xe_inst *ta = xe_block_terminator(ra), *tb = xe_block_terminator(rbk);
   if (ta && ta->opcode == SpvOpBranch && xe_op(ta, 0) == b)
      jid = b;
   else if (tb && tb->opcode == SpvOpBranch && xe_op(tb, 0) == a)
      jid = a;
   else if (ta && tb && ta->opcode == SpvOpBranch && tb->opcode == SpvOpBranch &&
            xe_op(ta, 0) == xe_op(tb, 0))
      jid = xe_op(ta, 0);
   else
      return false;
   xe_block *j = block_of_label(m, jid), *r1, *r2;
   if (!j || j == x || !select_side(c, tx, a, jid, &r1) || !select_side(c, tx, b, jid, &r2))
      return false;
   uint32_t pa = r1 ? xe_block_id(r1) : xe_block_id(x);
   uint32_t pb = r2 ? xe_block_id(r2) : xe_block_id(x);
   /* J's predecessors are exactly the two sides, and every phi of J can
    * become a select. */
   uint32_t n = 0;
   const xe_use *u = xe_uses(m, jid, &n);
   for (uint32_t k = 0; k < n; k++) {
      const xe_inst *i = u[k].inst;
      if (is_meta(i))
         continue;
      if (i->opcode == SpvOpPhi || (i->block == x && i == tx) || (r1 && i->block == r1) ||
          (r2 && i->block == r2))
         continue;
      return false;
   }
   xe_foreach_phi(m, i, j) {
      if (xe_nops(i) != 4 || !phi_value(i, pa) || !phi_value(i, pb) ||
          !selectable_type(m, i->type_id))
         return false;
   }
   if (c->dry) {
      c->plain_candidates++;
      return false;
   }
   /* The rewrite. */
   xe_block *sides[2] = { r1, r2 };
   for (int s = 0; s < 2; s++) {
      if (!sides[s])
         continue;
      xe_inst *st = xe_block_terminator(sides[s]);
      for (xe_inst *i = sides[s]->insts.first, *nx; i && i != st; i = nx) {
         nx = i->next;
         hoist(m, i, tx);
      }
   }
   uint32_t cond = xe_op(tx, 0);
   xe_builder bld = xe_builder_before(m, tx);
   xe_foreach_phi_safe(m, i, nx, j) {
      uint32_t sel = xe_build3(&bld, SpvOpSelect, i->type_id, cond, phi_value(i, pa),
                               phi_value(i, pb));
      xe_replace_all_uses(m, i->result_id, sel);
      const char *name = xe_name(m, i->result_id);
      if (name)
         xe_set_name(m, sel, name);
      xe_inst_kill(m, i);
   }
   xe_terminator_to_branch(m, tx, jid);
   /* r1, r2 keep only their branches, with no predecessor: deleted next. */
   c->selects++;
   return true;
}

static bool select_all(simplify *c)
{
   bool changed = false;
   xe_foreach_block(b, c->f)
      changed |= select_block(c, b);
   return changed;
}

static bool simplify_function(simplify *c)
{
   bool progress = false;
   for (unsigned round = 0; round < 1000; round++) {
      bool changed = fold_all(c, round > 0);
      changed |= delete_unreachable(c);
      if (c->enable || c->bypass)
         changed |= thread_all(c);
      if (c->enable) {
         changed |= merge_all(c);
         changed |= select_all(c);
      }
      if (!changed)
         break;
      progress = true;
   }
   /* Blocks the last threading left without predecessors. */
   progress |= delete_unreachable(c);
   if (!c->enable) {
      /* The enabling candidates, counted once each on the final CFG. */
      c->dry = true;
      if (!c->bypass)
         thread_all(c);
      merge_all(c);
      select_all(c);
      c->dry = false;
   } else if (!c->shape) {
      /* The candidates left, counted on the final CFG (the rounds above
       * counted each one once per round). */
      c->kept_merges = 0;
      merge_all(c);
   }
   return progress;
}

/* One block that ends the function: nothing to fold, bypass, merge or
 * delete (the wrapper functions llvm-spirv writes for each kernel, many
 * helpers).  Skipped without building its CFG. */
static bool single_returning_block(const xe_function *f)
{
   if (f->first != f->last)
      return false;
   xe_inst *t = xe_block_terminator(f->first);
   return t && (t->opcode == SpvOpReturn || t->opcode == SpvOpReturnValue ||
                t->opcode == SpvOpUnreachable || t->opcode == SpvOpKill);
}

/* Marks f and every function it calls, directly or not, with mark (a
 * function already marked is not entered again). */
static void mark_reachable(xe_module *m, xe_function *f, unsigned mark)
{
   if (!f || f->mark)
      return;
   f->mark = mark;
   xe_function **stack = malloc(sizeof(*stack));
   unsigned n = 0, cap = 1;
   stack[n++] = f;
   while (n) {
      xe_function *g = stack[--n];
      xe_foreach_block(b, g) {
         xe_foreach_inst(i, &b->insts) {
            if (i->opcode != SpvOpFunctionCall)
               continue;
            xe_function *callee = xe_function_by_id(m, xe_op(i, 0));
            if (!callee || callee->mark)
               continue;
            callee->mark = mark;
            if (n == cap) {
               cap *= 2;
               stack = realloc(stack, cap * sizeof(*stack));
               if (!stack)
                  xe_out_of_memory();
            }
            stack[n++] = callee;
         }
      }
   }
   free(stack);
}

/* May every chain of f be merged, including into a many-compare early
 * return (see the top)?  For a kernel's entry or body: when its rewrites
 * are not asked of the model (xe_judge_devices 0: --target=none,
 * --isa-check's first try) or asked for pvc alone (where such merges
 * gained), or --assume-padded names it (padding then removes the guard
 * the merge builds).  For any other function (a helper): when that holds
 * without --assume-padded for every kernel of the module.
 *
 * Worked out once for the module: MARK_KERNEL on each kernel's entry and
 * body, MARK_FREE on those of a kernel whose merges are free; returns
 * whether every kernel's are without --assume-padded (the helpers' gate).
 * Asking per function walked every kernel for each (a module of 10,000
 * kernels took 30 s in this gate). */
static bool shape_marks(const xe_ctx *ctx, const xe_kernel *ks, unsigned nk)
{
   const xe_options *o = ctx->options;
   bool all_free = true;
   for (unsigned k = 0; k < nk; k++) {
      /* Only pvc was measured to gain from such merges. */
      bool pvc_only = !(xe_judge_devices(ctx, ks[k].name) & ~(1u << XE_DEV_PVC));
      bool free_k = pvc_only || xe_options_kernel_listed(&o->assume_padded, ks[k].name);
      all_free &= pvc_only;
      xe_function *fs[2] = { ks[k].fn, ks[k].body };
      for (unsigned e = 0; e < 2; e++) {
         if (fs[e])
            fs[e]->mark |= MARK_KERNEL | (free_k ? MARK_FREE : 0);
      }
   }
   return all_free;
}

static bool shape_allowed(const xe_function *f, bool all_free)
{
   return f->mark & MARK_KERNEL ? (f->mark & MARK_FREE) != 0 : all_free;
}

bool xeopt_pass_simplify_cfg(xe_ctx *ctx)
{
   xe_module *m = ctx->module;
   unsigned nk = 0;
   /* Only the judge's kept originals need the kernels. */
   xe_kernel *ks = xe_judge_keeps_any(ctx) ? xe_kernels_all(m, &nk) : NULL;
   bool progress = false;
   /* A kernel the driver keeps as it came (--isa-check) stays whole, and
    * so does every function it may call (a helper it shares with other
    * kernels included).  MARK_KEEP: leave alone; marked once by a walk of
    * the excluded kernels' call graphs (a walk of the kernels per
    * function was quadratic). */
   xe_foreach_fn(f, m)
      f->mark = 0;
   for (unsigned k = 0; k < nk; k++) {
      if (!xe_judge_rewritable(ctx, ks[k].name))
         mark_reachable(m, ks[k].fn, MARK_KEEP);
   }
   /* Kernels' names per function, for the shape gate. */
   unsigned nall = 0;
   xe_kernel *all = xe_kernels_all(m, &nall);
   /* With the judge's XE_PLAIN_CFG, the enabling rewrites are made only in
    * the functions a kernel that is not plain reaches (mark 2). */
   bool *plain = xe_judge_plain_flags(ctx->judge, XE_PLAIN_CFG | XE_PLAIN_MERGE, all, nall);
   bool *merge = plain ? xe_judge_plain_flags(ctx->judge, XE_PLAIN_MERGE, all, nall) : NULL;
   for (unsigned k = 0; plain && k < nall; k++) {
      if (!plain[k])
         mark_reachable(m, all[k].fn, MARK_ENABLE);
   }
   /* Then the bypasses alone where only they are read (a function both
    * kinds reach gets every rewrite). */
   for (unsigned k = 0; merge && k < nall; k++) {
      if (merge[k])
         mark_reachable(m, all[k].fn, MARK_BYPASS);
   }
   free(merge);
   bool all_free = shape_marks(ctx, all, nall);
   xe_foreach_fn(f, m) {
      if (!f->first)
         continue; /* an import */
      if ((f->mark & MARK_REACH) == MARK_KEEP || single_returning_block(f))
         continue;
      simplify c = { .m = m, .f = f, .r = ctx->remarks,
                     .shape = shape_allowed(f, all_free),
                     .enable = !plain || (f->mark & MARK_REACH) == MARK_ENABLE,
                     .bypass = (f->mark & MARK_REACH) == MARK_BYPASS };
      bool changed = simplify_function(&c);
      if (changed) {
         progress = true;
         xe_remark(ctx->remarks, fname_of(&c), XE_REMARK_APPLIED,
                   "folded %u branch%s on known values, bypassed %u empty block%s, merged %u "
                   "short-circuit branch%s, turned %u two-way phi branch%s into selects, "
                   "deleted %u unreachable block%s",
                   c.folded, c.folded == 1 ? "" : "es", c.threaded, c.threaded == 1 ? "" : "s",
                   c.merged, c.merged == 1 ? "" : "es", c.selects, c.selects == 1 ? "" : "es",
                   c.deleted, c.deleted == 1 ? "" : "s");
      }
      if (c.plain_candidates && c.bypass)
         xe_remark(ctx->remarks, fname_of(&c), XE_REMARK_MISSED,
                   "made none of the %u short-circuit merge%s and phi%s to selects that would "
                   "only serve later passes: in a first run only loop-spec-constants rewrote this "
                   "kernel, which reads the empty-block bypasses alone, and IGC 2.40 compiles "
                   "them longer (generic_address_memcpy through clang's SPIR-V backend, pvc: a "
                   "loop one instruction longer, 70.1 -> 72.1 cycles per work-item); made with "
                   "--target=none and under --isa-check",
                   c.plain_candidates, c.plain_candidates == 1 ? "" : "s",
                   c.plain_candidates == 1 ? "" : "s");
      else if (c.plain_candidates)
         xe_remark(ctx->remarks, fname_of(&c), XE_REMARK_MISSED,
                   "made none of the %u rewrite%s that would only serve later passes (empty-block "
                   "bypasses, short-circuit merges, phis to selects): in a first run no later "
                   "pass rewrote this kernel with them made, and IGC 2.40 compiles them longer "
                   "(darktable blendop_RAW through ocloc 26, bmg: 260 -> 294 instructions); "
                   "made with --target=none and under --isa-check",
                   c.plain_candidates, c.plain_candidates == 1 ? "" : "s");
      if (c.kept_merges)
         xe_remark(ctx->remarks, fname_of(&c), XE_REMARK_MISSED,
                   "kept %u short-circuit branch%s to an early return tested by more than 2 "
                   "compares: on dg2 IGC compiles the chain as predicated compares and one "
                   "merged guard longer (darktable markesteijn_zero through ocloc: 77 -> 89 "
                   "instructions), a trade the cost model cannot price; merged with "
                   "--target=pvc or none, under --isa-check (IGC judges) or with "
                   "--assume-padded",
                   c.kept_merges, c.kept_merges == 1 ? "" : "es");
   }
   xe_foreach_fn(f, m)
      f->mark = 0;
   free(ks);
   free(all);
   free(plain);
   return progress;
}
