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
 * Addresses base[ext(i)] with a uniform base are tested on the index
 * instead: lane k's i is lane 0's plus k, and lane 0's i is far enough from
 * the wrap point of the extension.  Indices that add uniform values to one
 * lane key (a stencil's i - w, i - 1, i + 1, i + w; xe_sgv_cand.lane_key)
 * share its per-lane comparison: each adds a uniform lane-0 index, its
 * base's alignment and, unless the program marks the additions
 * NoSignedWrap (NoUnsignedWrap for a zero extension), a wrap check of its
 * own (measured: bench/notes/subgroup-versioning.md).
 *
 * The uniform test.  A kernel that declares SubgroupSize S and LocalSize L
 * with L.x % S == 0 runs with S lanes per sub-group, and in a work-group
 * whose local size x is L.x every sub-group is full and one row's run of S
 * consecutive x ids.  When the lane analysis under S and L proves every
 * candidate's address lane 0's plus one element per lane (so it holds in
 * every such sub-group; xe_sgv_cand.proved), B tests only what is uniform
 * per sub-group (test.c, uniform_test):
 *
 *    WorkgroupSize.x == L.x
 *    && each lane-0 base aligned (a 32-bit AND; none for a read whose own
 *       Aligned operand is 4 or more: lane 0 runs that read whenever the
 *       fast copy runs its block form)
 *    && for base[sext(i)] (or zext) with a 32-bit i that moves by one per
 *       lane modulo 2^32 (`int i = get_global_id(0)`): lane 0's i <= 2^31 - S
 *       (2^32 - S), so no lane crosses the extension's wrap point
 *    && OpGroupAll(cond-for-H)                       (with a guard)
 *
 * No per-lane address difference and no reduction.  The --subgroup-size
 * and --local-size options do not count as declared here (they are
 * promises block-io records for the host); a kernel without both modes, or
 * with an access the analysis cannot prove, gets the general test above.
 *
 * An access converts only when its address can be computed at the end of
 * B: from values available there, through pure integer and pointer
 * operations (re-emitted at B; InBounds access chains lose InBounds since
 * lanes that fail the guard compute them too) and loads of built-ins.
 * Other accesses stay per-lane in both copies.
 *
 * Preconditions: the body is called only from its kernel's entry; neither R
 * nor a function it calls has a barrier, a work-group collective or a
 * work-group copy (sub-groups of one work-group may take different copies,
 * so a barrier would be two barriers; a call is duplicated as a call, as
 * Intel's front end leaves helper functions uninlined); R has at most
 * XE_SGV_MAX_REGION_INSTS instructions (the size rule:
 * the region is duplicated once; a remark names larger regions).  A loop in R is
 * duplicated even when no access inside it converts: the fast copy of the
 * loop runs without the guard's divergence, at the price of code size
 * (measured: bench/notes/subgroup-versioning.md).
 *
 * Cost: the region is versioned only where the cost model
 * (src/analysis/cost.h) says the versioned kernel is not slower on any
 * device of --target (cost_allows; docs/cost-model.md): one or two block
 * accesses rarely pay for the sub-group test, general or uniform (the
 * uniform test is priced by xe_cost_versioned_uniform; measured:
 * bench/notes/subgroup-versioning.md).  --target=none versions without
 * asking.  Kernels on the --isa-check exclusion list are left alone.
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
 *
 * Layout: this file drives each kernel (run_kernel), asks the cost model
 * and writes the remarks; region.c finds the region; test.c builds the
 * test and fast_copy.c the copy; the recognition (hoisting,
 * the region's preconditions, the candidates) is
 * src/analysis/subgroup_region.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "cost.h"
#include "gate.h"
#include "lanes.h"
#include "opinfo.h"
#include "passes.h"
#include "runner.h"
#include "simd.h"
#include "subgroup_versioning.h"

/* Remarks the accesses xe_sgv_collect leaves per-lane. */
typedef struct missed_ctx {
   xe_remarks *r;
   xe_module *m;
   const char *kernel;
} missed_ctx;

static void missed_remark(void *arg, bool st, uint32_t ptr, const char *why)
{
   missed_ctx *mc = arg;
   char nb[64];
   xe_remark(mc->r, mc->kernel, XE_REMARK_MISSED, "%s via %s stays per-lane: %s",
             st ? "store" : "load", xe_id_text(mc->m, ptr, nb, sizeof(nb)), why);
}

/* Does the region have a loop?  Then the test runs once for many runs of
 * the fast copy's accesses. */
static bool region_has_loop(vctx *c)
{
   const xe_loops *ls = xe_function_loops(c->f);
   for (uint32_t li = 0; ls && li < ls->n; li++) {
      if (c->in_r[ls->loops[li].header])
         return true;
   }
   return false;
}

/* Does versioning a region without a loop pay on every device of devs?
 * In IGC's own estimate the sub-group test costs a few cycles per tested
 * access, and a block access about what the scattered one it replaces
 * did (dg2 computes the lane-0 address in emulated 64-bit where the
 * scattered access had a 32-bit offset; at SIMD8 its fast copy is slower
 * than the original; docs/cost-model.md, "Straight-line regions").  What
 * a fast copy gains there is registers, its addresses being lane 0's:
 * that pays on pvc, which keeps SIMD32 and spills, when the input
 * spills; dg2, bmg, lnl and ptl narrow the kernel instead, and their
 * verdicts split (measured: bench/notes/straight-line-kernels.md).
 * *which gets a device where it does not pay. */
static bool straight_line_pays(unsigned devs, const xe_simd_facts *in, const unsigned *w_in,
                               enum xe_device *which)
{
   for (int d = 0; d < XE_DEV_COUNT; d++) {
      if ((devs & (1u << d)) &&
          (d != XE_DEV_PVC || !xe_simd_spills((enum xe_device)d, in, w_in[d]))) {
         *which = (enum xe_device)d;
         return false;
      }
   }
   return true;
}


/* The test test.c will build: uniform (xe_sgv_uniform_test), else
 * the general one with its tested, shared and wraps checks
 * (xe_sgv_lane_tests). */
typedef struct test_shape {
   bool uniform;
   unsigned tested, shared, wraps;
} test_shape;

/* The estimate of the kernel before and after into v, per work-item at
 * the SIMD widths w_in and w_out IGC is predicted to compile it at
 * (simd.h): verdict XE_GATE_SLOWER, worst the first device where the
 * versioned kernel is slower; else XE_GATE_MADE (cost_allows applies the
 * other rules). */
static void estimate_versioned(vctx *c, unsigned devs, const xe_cost_change *ch, const test_shape *t,
                               const unsigned *w_in, const unsigned *w_out, uint32_t b, xe_gate *v)
{
   xe_module *m = c->m;
   const xe_cost_change *none = NULL;
   double fb = xe_cost_block_frequency(m, c->f, b);
   *v = (xe_gate){ .devs = devs, .worst = XE_DEV_DG2, .verdict = XE_GATE_MADE };
   xe_cost_memo memo = { 0 }; /* the devices share the liveness walks */
   for (int d = 0; d < XE_DEV_COUNT; d++) {
      if (!(devs & (1u << d)))
         continue;
      double total = xe_cost_function_memo(m, c->k->fn, (enum xe_device)d, none, &memo).cycles;
      double slow = xe_cost_blocks_memo(m, c->f, (enum xe_device)d, none, c->in_r, &memo);
      double fast = xe_cost_blocks_memo(m, c->f, (enum xe_device)d, ch, c->in_r, &memo);
      double guard = c->no_guard ? 0 : xe_cost_weights_of((enum xe_device)d)->branch * fb;
      double outside = total - slow - guard;
      v->before[d] = total;
      double run = t->uniform ? xe_cost_versioned_uniform((enum xe_device)d, xe_sgv_uniform_checks(c),
                                                          !c->no_guard, fast, (slow + guard) / fb)
                              : xe_cost_versioned((enum xe_device)d, t->tested, t->shared, t->wraps, fast,
                                                  (slow + guard) / fb);
      v->after[d] = (outside + fb * run) * xe_cost_simd_change((enum xe_device)d, w_in[d], w_out[d]);
      if (v->after[d] > v->before[d] * (1 + XE_COST_TIE) && v->verdict == XE_GATE_MADE) {
         v->verdict = XE_GATE_SLOWER;
         v->worst = (enum xe_device)d;
      }
   }
   xe_cost_memo_release(&memo);
}

/* IGC's SIMD width per device before (w_in) and after (w_out) versioning
 * (simd.h): the fast copy's block accesses and the general test's
 * broadcasts are sub-group operations, which cost dg2 its SIMD32; the copy
 * keeps the original's registers live on its slow path, and the tested
 * addresses across the test.  Returns the input's facts. */
static xe_simd_facts simd_widths(xe_module *m, const vctx *c, const test_shape *t,
                                 unsigned *w_in, unsigned *w_out)
{
   xe_simd_facts in = xe_simd_facts_of(m, c->k), out = in;
   out.subgroup_func = true;
   out.pressure.varying += 8 * t->tested;
   for (int d = 0; d < XE_DEV_COUNT; d++) {
      w_in[d] = xe_simd_predict((enum xe_device)d, &in);
      w_out[d] = xe_simd_predict((enum xe_device)d, &out);
   }
   return in;
}

/* The cost model's say (src/analysis/cost.h, docs/cost-model.md): the
 * kernel as is against the versioned kernel, on every device of --target.
 * The versioned estimate is the kernel outside R, then
 * xe_cost_versioned(fast, slow) per run of the test: the test, then
 * fast = R with the candidates as block accesses and no guard for the
 * sub-groups that pass it, slow = R and the guard's divergent branch as
 * they are for the others; per work-item at the SIMD width IGC will
 * compile each at (simd.h).  A region without a loop under the general
 * test must also free registers of a kernel that spills
 * (straight_line_pays).  Estimated before anything is built, so a refusal leaves the kernel
 * untouched.  Returns true when allowed; otherwise remarks why. */
static bool cost_allows(xe_ctx *ctx, vctx *c, uint32_t gb, uint32_t gcond, char *est, size_t nest)
{
   xe_module *m = c->m;
   unsigned devs = xe_judge_devices(ctx, c->k->name);
   est[0] = 0;
   if (!devs)
      return true;   /* --target=none: the model is not asked */
   xe_inst **conv = malloc(c->nc * sizeof(*conv));
   for (unsigned q = 0; q < c->nc; q++)
      conv[q] = c->c[q].inst;
   xe_cost_change ch = { .block = conv, .nblock = c->nc, .local_size_declared = c->k->local_size[0] != 0 };
   uint32_t b = c->no_guard ? 0 : gb;
   test_shape t = { .uniform = xe_sgv_uniform_test(c) };
   t.tested = xe_sgv_lane_tests(c, &t.shared, &t.wraps);
   unsigned w_in[XE_DEV_COUNT] = { 0 }, w_out[XE_DEV_COUNT] = { 0 };
   xe_simd_facts in = simd_widths(m, c, &t, w_in, w_out);
   xe_gate full;
   estimate_versioned(c, devs, &ch, &t, w_in, w_out, b, &full);
   double *before = full.before, *after = full.after;
   bool ok = full.verdict == XE_GATE_MADE;
   enum xe_device worst = full.worst;
   enum xe_device no_spill = XE_DEV_DG2;
   bool straight = !t.uniform && !region_has_loop(c) &&
                   !straight_line_pays(devs, &in, w_in, &no_spill);
   free(conv);
   xe_cost_format(est, nest, devs, before, after);
   /* A gain under XE_COST_MIN_GAIN on a device is within what the
    * assumed fast fraction and IGC's SIMD choice move (measured:
    * bench/notes/igc-240-judge.md). */
   enum xe_device thin = XE_DEV_DG2;
   bool thin_gain = ok && !xe_cost_clear_gain(devs, before, after, &thin);
   if (ok && !thin_gain && !straight)
      return true;
   char nb[64], what[128];
   if (c->no_guard)
      snprintf(what, sizeof(what), "no fast copy of the kernel body");
   else
      snprintf(what, sizeof(what), "no fast copy of the region guarded by %s",
               xe_id_text(m, gcond, nb, sizeof(nb)));
   if (thin_gain) {
      full.verdict = XE_GATE_THIN;
      xe_gate_remark(ctx, c->k->name, &full,
                     "%s: the cost model's gain on %s is under %.0f%% (estimate %s cycles), where "
                     "IGC's own choices decide", what, xe_device_name(thin), 100 * XE_COST_MIN_GAIN, est);
      return false;
   }
   if (ok) {
      xe_remark_entry *e = xe_remark_decision(
         ctx->remarks, c->k->name, XE_REMARK_MISSED, XE_DECISION_COST_STRAIGHT_LINE,
         "%s: a region without a loop, where the sub-group test costs more than the block accesses "
         "save in IGC's own estimate, unless they free registers of a kernel that spills at SIMD32 "
         "(pvc); %s compiles it SIMD%u%s (estimate %s cycles)", what, xe_device_name(no_spill),
         w_in[no_spill], no_spill == XE_DEV_PVC ? " without spilling" : ", narrowing a kernel rather "
         "than spilling", est);
      xe_gate_figures(e, &full);
      return false;
   }
   /* Where the width decided it, say so. */
   char simd[96] = "";
   double vs = xe_cost_simd_change(worst, w_in[worst], w_out[worst]);
   if (vs != 1 && after[worst] / vs <= before[worst] * (1 + XE_COST_TIE))
      snprintf(simd, sizeof(simd), ", once IGC's SIMD width is counted: SIMD%u -> SIMD%u", w_in[worst],
               w_out[worst]);
   const char *igc = xe_cost_igc_blocks(&ch, worst)
                        ? ", IGC making them block messages itself there, the kernel declaring LocalSize" : "";
   xe_gate_remark(ctx, c->k->name, &full,
                  "%s: the cost model says slower on %s (estimate %s cycles; %u block access(es)%s "
                  "do not pay for the sub-group test%s%s)", what, xe_device_name(worst), est, c->nc,
                  c->no_guard ? "" : " and the guard", simd, igc);
   return false;
}

/* The uniform test reads WorkgroupSize as a vector of 64-bit size_t. */
static bool physical64(const xe_module *m)
{
   xe_foreach_inst(i, &m->sec[XE_SEC_MEMORY_MODEL]) {
      if (i->opcode == SpvOpMemoryModel)
         return xe_op(i, 0) == SpvAddressingModelPhysical64;
   }
   return false;
}

/* Whether k's body can be versioned at all; remarks why not where it is
 * worth saying. */
static bool body_considered(xe_ctx *ctx, xe_kernel *k)
{
   xe_remarks *r = ctx->remarks;
   xe_function *f = k->body;
   /* A body another kernel (or a second wrapper) calls too: versioning it
    * in place would run the fast copy there with this kernel's sub-group
    * and work-group facts. */
   if (f && f->first && k->body != k->fn && k->body_callers != 1)
      xe_remark(r, k->name, XE_REMARK_MISSED, "not considered: its body is called from %u places "
                "(another kernel's entry point calls it too), and a fast copy made for this kernel "
                "would run there as well", k->body_callers);
   if (!f || !f->first || (k->body != k->fn && k->body_callers != 1))
      return false;
   /* An OpSelectionMerge must stay right before its branch, which the
    * test and the copies would separate.  (ocloc 26 writes OpLoopMerge in
    * some kernels, which the copies keep valid; no kernel front end
    * writes OpSelectionMerge.) */
   xe_foreach_block(blk, f) {
      xe_foreach_inst(i, &blk->insts) {
         if (i->opcode != SpvOpSelectionMerge)
            continue;
         xe_remark(r, k->name, XE_REMARK_MISSED, "not considered: the body has structured control "
                   "flow (OpSelectionMerge), which the fast copy and its test do not keep");
         return false;
      }
   }
   return true;
}

/* Only kernels with a global load or store left per-lane. */
static bool has_global_access(xe_module *m, xe_function *f)
{
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
   return any;
}

/* Remarks for the accesses that stay per-lane: collects the region again,
 * reporting, and keeps the candidates found before. */
static void remark_kept_accesses(sgv_kernel *s)
{
   vctx *c = &s->c;
   missed_ctx mc = { s->ctx->remarks, s->m, s->k->name };
   unsigned keep = c->nc;
   cand *saved = c->c;
   c->c = NULL;
   c->nc = 0;
   if (!c->no_guard) {
      xe_lanes *le = xe_lanes_analyze_edge(s->m, s->f, s->k->subgroup_size, s->ls, 0,
                                           xe_block_id(s->cfg->blocks[s->gb]),
                                           xe_block_id(s->cfg->blocks[s->gh]));
      xe_sgv_collect(c, le, missed_remark, &mc);
      xe_lanes_free(le);
   } else {
      xe_sgv_collect(c, s->l0, missed_remark, &mc);
   }
   free(c->c);
   c->c = saved;
   c->nc = keep;
   if (!c->no_guard)
      c->b = s->gb;
}

/* The region's blocks, H first, then R in function order (malloc'd,
 * *nrb of them). */
static xe_block **region_blocks(sgv_kernel *s, unsigned *nrb)
{
   xe_block **rb = malloc(s->cfg->n * sizeof(*rb));
   *nrb = 0;
   rb[(*nrb)++] = s->cfg->blocks[s->gh];
   xe_foreach_block(blk, s->f) {
      uint32_t x = xe_cfg_block_index(s->cfg, xe_block_id(blk));
      if (x != s->gh && s->c.in_r[x])
         rb[(*nrb)++] = blk;
   }
   return rb;
}

/* An applied remark per candidate; counts the reads and writes. */
static void remark_candidates(sgv_kernel *s, unsigned *reads, unsigned *writes)
{
   xe_module *m = s->m;
   const vctx *c = &s->c;
   char nb[64], nb2[64];
   *reads = *writes = 0;
   for (unsigned q = 0; q < c->nc; q++) {
      *reads += !c->c[q].store;
      *writes += c->c[q].store;
      if (c->c[q].loop_key)
         xe_remark(s->ctx->remarks, s->k->name, XE_REMARK_APPLIED,
                   "load via %s: sub-group block read in the fast copy (tested: %s contiguous "
                   "without wrap; the index adds a uniform value without wrap; base aligned as "
                   "the load says)", xe_id_text(m, c->c[q].ptr, nb, sizeof(nb)),
                   xe_id_text(m, c->c[q].loop_key, nb2, sizeof(nb2)));
      else
         xe_remark(s->ctx->remarks, s->k->name, XE_REMARK_APPLIED,
                   "%s via %s: sub-group block %s in the fast copy (tested: contiguous, %u-byte "
                   "aligned base)", c->c[q].store ? "store" : "load",
                   xe_id_text(m, c->c[q].ptr, nb, sizeof(nb)), c->c[q].store ? "write" : "read",
                   c->c[q].store ? 16 : 4);
   }
}

/* The test the fast copy runs under, in words, into test (n bytes). */
static void describe_test(sgv_kernel *s, char *test, size_t n)
{
   vctx *c = &s->c;
   bool wrap = false;
   for (unsigned q = 0; q < c->nc; q++)
      wrap |= c->c[q].wrap_mode != 0;
   if (!xe_sgv_uniform_test(c))
      snprintf(test, n, "sub-group add-reduction of the per-lane predicate == "
               "SubgroupMaxSize");
   else
      snprintf(test, n, "uniform: the declared sizes prove contiguity in a full "
               "sub-group; work-group size x == LocalSize x, lane-0 bases aligned%s%s",
               wrap ? ", lane 0's 32-bit index not within the sub-group size of its wrap" : "",
               c->no_guard ? "" : ", OpGroupAll of the guard");
}

/* Remarks for the accesses, then the change: the test, the fast copy and
 * the branch between the copies (fast_copy.c). */
static void version_region(sgv_kernel *s)
{
   xe_module *m = s->m;
   xe_remarks *r = s->ctx->remarks;
   const char *est = s->est;
   char nb[64], test[256];
   remark_kept_accesses(s);
   unsigned nrb, reads, writes;
   xe_block **rb = region_blocks(s, &nrb);
   remark_candidates(s, &reads, &writes);
   describe_test(s, test, sizeof(test));
   if (s->c.no_guard) {
      xe_remark_decision(r, s->k->name, XE_REMARK_APPLIED, XE_DECISION_VERSIONED,
                "versioned the kernel body: a fast copy with %u block read(s) and %u block "
                "write(s) runs when the sub-group is full and every address is contiguous and "
                "aligned (test: %s); otherwise the original code%s%s%s", reads, writes, test,
                est[0] ? " (cost model: " : "", est, est[0] ? " cycles)" : "");
      sgv_apply(&s->c, rb, nrb, 0, true, s->ctx->measure_path);
   } else {
      xe_remark_decision(r, s->k->name, XE_REMARK_APPLIED, XE_DECISION_VERSIONED,
                "versioned the region guarded by %s: a fast copy without the guard, with %u "
                "block read(s) and %u block write(s), runs when the sub-group is full, the guard "
                "holds in every lane and every address is contiguous and aligned (test: %s); "
                "otherwise the original code%s%s%s", xe_id_text(m, s->gcond, nb, sizeof(nb)), reads, writes, test,
                est[0] ? " (cost model: " : "", est, est[0] ? " cycles)" : "");
      sgv_apply(&s->c, rb, nrb, s->gcond, s->gtrue, s->ctx->measure_path);
   }
   free(rb);
   xe_idtab_free(&s->c.emitted);
}

/* One kernel: the region (a guarded one first, else the whole body) with
 * its candidates -> decide (the region's legality, then the cost model)
 * -> remarks and the rewrite. */
static bool run_kernel(xe_ctx *ctx, xe_kernel *k)
{
   xe_module *m = ctx->module;
   xe_function *f = k->body;
   if (!body_considered(ctx, k) || !has_global_access(m, f))
      return false;
   const xe_cfg *cfg = xe_function_cfg(f);
   sgv_kernel s = { .ctx = ctx, .m = m, .k = k, .f = f, .cfg = cfg,
                    .c = { .m = m, .k = k, .f = f, .cfg = cfg },
                    .gb = XE_NONE, .gh = XE_NONE };
   s.c.in_r = calloc(cfg->n ? cfg->n : 1, 1);
   s.ls = k->local_size[0] ? k->local_size : NULL;
   /* The kernel's own SubgroupSize and LocalSize (not --subgroup-size /
    * --local-size, which are promises block-io records in a manifest):
    * with L.x a multiple of S the lane facts below hold in every full
    * sub-group, and the test can be the uniform one (test.c). */
   s.c.declared = k->subgroup_size && s.ls && s.ls[0] % k->subgroup_size == 0 && physical64(m);
   s.l0 = xe_lanes_analyze(m, f, k->subgroup_size, s.ls, 0);
   bool done = sgv_find_guarded_region(&s) || sgv_whole_body_region(&s);
   if (done && !cost_allows(ctx, &s.c, s.gb, s.gcond, s.est, sizeof(s.est))) {
      done = false;
      s.c.nc = 0;
   }
   if (done)
      version_region(&s);
   xe_lanes_free(s.l0);
   if (s.c.typical)
      xe_lanes_free(s.c.typical);
   free(s.c.c);
   free(s.c.in_r);
   xe_idtab_free(&s.c.hmemo);
   return done;
}

static bool run_one(xe_ctx *ctx, xe_kernel *k, void *data)
{
   (void)data;
   return run_kernel(ctx, k);
}

bool xeopt_pass_subgroup_versioning(xe_ctx *ctx)
{
   return xe_for_each_kernel(ctx, &(xe_kernel_walk){ .run = run_one });
}
