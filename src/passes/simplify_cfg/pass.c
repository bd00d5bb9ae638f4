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
 * Rewrites, repeated until nothing changes, one file each:
 *  - fold.c: branches whose outcome is known become OpBranch (an OpSwitch
 *    whose selector can take only values that all select one target, an
 *    OpBranchConditional on a constant or with both targets equal), and
 *    unreachable blocks are deleted;
 *  - thread.c: an empty forwarding block is bypassed by its predecessors;
 *  - merge.c: short-circuit chains (P: c1 ? T : L, L: c2 ? T : O) become
 *    one branch on c1 || c2 (or c1 && c2);
 *  - select.c: two-way phi branches become OpSelect.
 * This file says which functions get which rewrites (below; the judge's
 * answers per function come from the runner's function walk, runner.h),
 * runs the rewrites on each function and writes its remarks.
 *
 * Which rewrites are made (issue 30).  The cost model cannot price these
 * rewrites (it charges a branch more than a compare, so it calls every
 * merge cheaper), so each was switched off in turn and IGC asked
 * (measured: bench/notes/igc-240-judge.md, "From the code's comments"):
 *  - folding and deleting unreachable blocks never made a kernel longer
 *    on their own, under IGC 2.40 either: always made.  Bypassing empty
 *    blocks never did under IGC 22.43; under 2.40 it does (below).
 *  - merging a chain into an early return (T only returns) whose branches
 *    test more than 2 compares in all: on dg2 IGC compiles the chain as
 *    predicated compares and one guard of 4 compares as flag moves and
 *    selects, and keeping such chains wins there over all; on pvc the
 *    merge never cost.  So such a chain is kept (remark "missed") where
 *    the model is asked for a device other than pvc (dg2 is in the
 *    default), unless --assume-padded lets padding remove the guard the
 *    merge builds; under --target=none and --isa-check's first try (IGC
 *    judges the kernel and keeps the better) it is merged.
 *  - other merges (2-compare early returns, chains inside the body) and
 *    two-way phis to selects gained more than they cost under IGC 22.43,
 *    though some kernels still lose.
 * Under IGC 2.40 the bypasses, merges and selects make more kernels
 * longer than shorter: they are rewrites for the passes after this one,
 * not for IGC.  So where the model is asked, the driver runs the pipeline
 * twice when needed (driver.c): a kernel that no guard or loop pass
 * rewrote in the first run carries the judge's XE_PLAIN_CFG, and in the
 * second run this pass makes only folds and deletions in it (remark "made
 * none of ...").  A kernel only loop-spec-constants rewrote carries
 * XE_PLAIN_MERGE instead: it reads the bypasses (a loop's single entry)
 * and not the merges or selects, so the second run makes the bypasses and
 * folds alone there (a merge kept for it can make the loop IGC compiles
 * longer).
 *
 * Semantics: unchanged for every launch (no host contract).  Only the
 * values a selector can hold at run time decide a fold; only instructions
 * without side effects or undefined behaviour run speculatively.  Merge
 * and continue targets stay.  A folded branch can change a block's
 * dominator and so break the rule that blocks follow their dominators;
 * block-order, last in the pipeline, restores it.
 */

#include "cost.h"
#include "judge.h"
#include "passes.h"
#include "runner.h"
#include "simplify_cfg.h"

static bool simplify_function(simplify *c)
{
   bool progress = false;
   for (unsigned round = 0; round < 1000; round++) {
      bool changed = scfg_fold_all(c, round > 0);
      changed |= scfg_delete_unreachable(c);
      if (c->enable || c->bypass)
         changed |= scfg_thread_all(c);
      if (c->enable) {
         changed |= scfg_merge_all(c);
         changed |= scfg_select_all(c);
      }
      if (!changed)
         break;
      progress = true;
   }
   /* Blocks the last threading left without predecessors. */
   progress |= scfg_delete_unreachable(c);
   if (!c->enable) {
      /* The enabling candidates, counted once each on the final CFG. */
      c->dry = true;
      if (!c->bypass)
         scfg_thread_all(c);
      scfg_merge_all(c);
      scfg_select_all(c);
      c->dry = false;
   } else if (!c->shape) {
      /* The candidates left, counted on the final CFG (the rounds above
       * counted each one once per round). */
      c->kept_merges = 0;
      scfg_merge_all(c);
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

/* May every chain of f be merged, including into a many-compare early
 * return (see the top)?  For a kernel's entry or body: when its rewrites
 * are not asked of the model (xe_judge_devices 0: --target=none,
 * --isa-check's first try) or asked for pvc alone (where such merges
 * gained), or --assume-padded names it (padding then removes the guard
 * the merge builds).  For any other function (a helper): when that holds
 * without --assume-padded for every kernel of the module (fi's devices
 * are every kernel's then). */
static bool shape_allowed(const xe_ctx *ctx, const xe_function_info *fi)
{
   /* Only pvc was measured to gain from such merges. */
   bool pvc_only = !(fi->devices & ~(1u << XE_DEV_PVC));
   return pvc_only ||
          (fi->kernel && xe_options_kernel_listed(&ctx->options->assume_padded, fi->kernel->name));
}

/* The remarks of c's function: what was made (changed), and what was left
 * and why. */
static void write_remarks(xe_ctx *ctx, simplify *c, bool changed)
{
   if (changed)
      xe_remark(ctx->remarks, scfg_fname_of(c), XE_REMARK_APPLIED,
                "folded %u branch%s on known values, bypassed %u empty block%s, merged %u "
                "short-circuit branch%s, turned %u two-way phi branch%s into selects, "
                "deleted %u unreachable block%s",
                c->folded, c->folded == 1 ? "" : "es", c->threaded, c->threaded == 1 ? "" : "s",
                c->merged, c->merged == 1 ? "" : "es", c->selects, c->selects == 1 ? "" : "es",
                c->deleted, c->deleted == 1 ? "" : "s");
   if (c->plain_candidates && c->bypass)
      xe_remark(ctx->remarks, scfg_fname_of(c), XE_REMARK_MISSED,
                "made none of the %u short-circuit merge%s and phi%s to selects that would "
                "only serve later passes: in a first run only loop-spec-constants rewrote this "
                "kernel, which reads the empty-block bypasses alone, and IGC 2.40 compiles "
                "them longer (generic_address_memcpy through clang's SPIR-V backend, pvc: a "
                "loop one instruction longer, 70.1 -> 72.1 cycles per work-item); made with "
                "--target=none and under --isa-check",
                c->plain_candidates, c->plain_candidates == 1 ? "" : "s",
                c->plain_candidates == 1 ? "" : "s");
   else if (c->plain_candidates)
      xe_remark(ctx->remarks, scfg_fname_of(c), XE_REMARK_MISSED,
                "made none of the %u rewrite%s that would only serve later passes (empty-block "
                "bypasses, short-circuit merges, phis to selects): in a first run no later "
                "pass rewrote this kernel with them made, and IGC 2.40 compiles them longer "
                "(darktable blendop_RAW through ocloc 26, bmg: 260 -> 294 instructions); "
                "made with --target=none and under --isa-check",
                c->plain_candidates, c->plain_candidates == 1 ? "" : "s");
   if (c->kept_merges)
      xe_remark(ctx->remarks, scfg_fname_of(c), XE_REMARK_MISSED,
                "kept %u short-circuit branch%s to an early return tested by more than 2 "
                "compares: on dg2 IGC compiles the chain as predicated compares and one "
                "merged guard longer (darktable markesteijn_zero through ocloc: 77 -> 89 "
                "instructions), a trade the cost model cannot price; merged with "
                "--target=pvc or none, under --isa-check (IGC judges) or with "
                "--assume-padded",
                c->kept_merges, c->kept_merges == 1 ? "" : "es");
}

/* One function every kernel that reaches it lets be rewritten (a kernel
 * the driver keeps as it came stays whole, and so does every function it
 * may call).  With the judge's XE_PLAIN_CFG, the enabling rewrites are
 * made only in the functions a kernel that is not plain reaches; the
 * bypasses alone where only XE_PLAIN_MERGE kernels read them (a function
 * both kinds reach gets every rewrite). */
static bool run_function(xe_ctx *ctx, xe_function *f, const xe_function_info *fi, void *data)
{
   (void)data;
   if (single_returning_block(f))
      return false;
   simplify c = { .m = ctx->module, .f = f, .r = ctx->remarks,
                  .shape = shape_allowed(ctx, fi),
                  .enable = !fi->reach_plain,
                  .bypass = fi->reach_plain && (fi->reach_plain_any & XE_PLAIN_MERGE) };
   bool changed = simplify_function(&c);
   write_remarks(ctx, &c, changed);
   return changed;
}

bool xeopt_pass_simplify_cfg(xe_ctx *ctx)
{
   xe_function_walk w = { .run = run_function, .plain = XE_PLAIN_CFG | XE_PLAIN_MERGE,
                          .reach = true, .reach_any = XE_PLAIN_MERGE };
   return xe_for_each_function(ctx, &w);
}
