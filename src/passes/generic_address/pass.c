/*
 * generic-address: give Generic pointers the storage class they really hold.
 *
 * Guide: REWRITES.md section 5 (seed opencl20-generic-address-space).  Every
 * access through a Generic pointer costs IGC a run-time check of the address
 * range unless it can resolve the space.  Where src/address_spaces.c proves
 * that only one storage class reaches a Generic value, the value and the
 * chain that builds it (access chains, bitcasts, OpPhi, OpSelect) are
 * retyped to that class, OpPtrCastToGeneric becomes a same-class bitcast,
 * and OpGenericCastToPtr[Explicit] of a known value folds (to the pointer,
 * or to null when to_global()/to_local()/to_private() asks another class).
 *
 * Preconditions proved: the one-space fact for each retyped value; uses that
 * need a Generic operand (calls, stores of the pointer, OpReturnValue, ...)
 * get a fresh OpPtrCastToGeneric, so they see the same pointer as before.
 * Helpers called with different spaces are cloned per combination (at
 * most MAX_VERSIONS, each copy named for it: `f.CrossWorkgroup.Workgroup`);
 * an exported helper (LinkageAttributes Export) stays as
 * it is, since other modules may call it with any space, and the calls in
 * this module go to internal copies.
 * Not done (remarked): values two spaces reach; pointers loaded from
 * memory other than a private slot that never escapes.
 * Remarks on a helper name the kernel that runs it, when only one does.
 * Cost: where no call is DontInline and generic pointers are only loaded
 * or stored through, IGC inlines every call and resolves these spaces
 * itself, so a kernel whose model is asked is left to IGC (a note says
 * so; xeopt_pass_generic_address).
 * Host contract: unchanged.
 *
 * Files (src/passes/generic_address/, generic_address.h): this one drives
 * the pass per module; gate.c the cost question, clones.c the copies for
 * call sites, owners.c the kernel a helper's remarks name, infer.c the
 * inference over a function, retype.c its retyping, casts.c the fixed uses
 * and cast folds, spaces.c what they share.
 */
#include <stdlib.h>

#include "generic_address.h"
#include "judge.h"
#include "runner.h"

/* The spaces the callers pass to each parameter (xe_as_param_spaces),
 * indexed by the ids that existed when computed (nps); passes add more. */
typedef struct param_spaces {
   int *ps;
   uint8_t *pconf;
   uint32_t nps;
} param_spaces;

static void param_spaces_compute(xe_module *m, param_spaces *p)
{
   p->nps = m->bound;
   p->ps = xe_as_param_spaces(m, &p->pconf);
}

static void param_spaces_free(param_spaces *p)
{
   free(p->ps);
   free(p->pconf);
}

/* Without a Generic pointer type there is nothing to infer; the
 * analyses cost a table of the module's ids per function. */
static bool any_generic_pointer(xe_module *m)
{
   bool any = false;
   xe_foreach_inst(g, &m->sec[XE_SEC_GLOBAL])
      any |= g->opcode == SpvOpTypePointer && xe_op(g, 0) == SpvStorageClassGeneric;
   return any;
}

/* The model's say (issue 30).  Where IGC inlines every call and each
 * generic pointer is only loaded or stored through, IGC resolves every
 * space this pass proves itself: it compiles such a kernel to the same
 * code with the rewrite and without.  The gain is nil, and the rewrite
 * keeps canonicalize's forms in its kernels, which move IGC's other
 * choices, so a kernel whose model is asked is left as it is.  The gains
 * come from calls IGC keeps (DontInline; clang -O0 makes every function
 * so: a copy without it is inlined) and from ga_igc_resolves_all's
 * exceptions.  Nor where the rewrite would copy helpers (exported ones,
 * or ones called with different spaces): a helper's callers move IGC's
 * inlining (docs/cost-model.md, "Known limits"), and without a
 * DontInline call the copies win nothing IGC does not do itself.
 * clang's SPIR-V backend exports every helper, so its modules are such
 * a case.  Measured: bench/notes/igc-240-judge.md, "From the
 * code's comments".
 * Returns how many kernels are left to IGC (a note says so); *gate: whether
 * the kernels whose model is asked are left so. */
static unsigned left_to_igc(xe_ctx *ctx, const xe_kernel *ks, unsigned nk,
                            const param_spaces *p, bool *gate)
{
   xe_module *m = ctx->module;
   unsigned nasked = 0;
   for (unsigned k = 0; k < nk; k++)
      nasked += xe_judge_rewritable(ctx, ks[k].name) &&
                xe_judge_devices(ctx, ks[k].name);
   candidate *cands = NULL;
   unsigned ncands = 0;
   *gate = nasked && !ga_calls_kept(m);
   if (*gate) {
      ncands = ga_find_candidates(m, p->nps, p->pconf, &cands);
      free(cands);
      *gate = ncands || ga_igc_resolves_all(m);
   }
   unsigned nleft = *gate ? nasked : 0;
   if (nleft)
      xe_remark(ctx->remarks, NULL, XE_REMARK_NOTE,
                "%u kernel%s left to IGC: no call here is DontInline, so IGC inlines every "
                "call and resolves itself each address space this pass proves; %s "
                "(--target=none makes it)",
                nleft, nleft == 1 ? "" : "s",
                ncands ? "the rewrite would copy helpers, which moves IGC's inlining"
                       : "every generic pointer is only loaded or stored through, so the "
                         "rewrite gains nothing and moves IGC's other choices");
   return nleft;
}

/* Copies of an outer helper pass known spaces to the helpers it calls:
 * one more round per level of the call graph (bounded: OpenCL C has no
 * recursion, and each round only adds copies of what is called).  p is
 * computed again after each round.  drop: the copies lose DontInline
 * (ga_all_dont_inline).  Whether a call now goes elsewhere. */
static bool specialize(xe_ctx *ctx, const xe_kernel *ks, unsigned nk, param_spaces *p,
                       bool drop)
{
   xe_module *m = ctx->module;
   bool progress = false;
   for (int round = 0; round < MAX_ROUNDS &&
                       ga_specialize_calls(m, p->ps, p->nps, p->pconf, drop, ks, nk, ctx->remarks);
        round++) {
      if (!progress && drop)
         xe_remark(ctx->remarks, NULL, XE_REMARK_NOTE,
                   "the copies are not DontInline: every function here is, as clang -O0 makes "
                   "them, so the hint is not the author's and IGC may inline each copy");
      progress = true;
      /* The clones and redirected calls were made by the edit functions
       * (xe_function_clone, xe_set_op): the use lists and the callers'
       * generations are current, so nothing is invalidated by hand; the
       * round's use-list copies are freed. */
      xe_uses_release(m);
      param_spaces_free(p);
      param_spaces_compute(m, p);
   }
   return progress;
}

/* What the function walk of the inference reads. */
typedef struct retype_walk {
   const param_spaces *p;
   const char **own;        /* ga_kernel_owners */
   uint32_t nown;
   bool gate;               /* the kernels whose model is asked are left to IGC */
   bool excluded;           /* a kernel is kept or left to IGC: the helpers too */
} retype_walk;

/* The inference over one function the judge lets be rewritten (a helper
 * only when it lets every kernel be): a kernel's unless it is left to IGC
 * (gate), a helper unless a kernel is excluded.  Whether it changed. */
static bool retype_function(xe_ctx *ctx, xe_function *f, const xe_function_info *fi, void *data)
{
   const retype_walk *rw = data;
   xe_module *m = ctx->module;
   /* Dead helpers (inlined everywhere) only make noise. */
   if (!fi->kernel && (rw->excluded || !xe_function_callers(m, f)))
      return false;
   if (fi->kernel && rw->gate && fi->devices)
      return false;
   const char *owner = xe_function_id(f) < rw->nown ? rw->own[xe_function_id(f)] : NULL;
   return ga_run_function(m, f, owner, rw->p->ps, rw->p->nps, rw->p->pconf, ctx->remarks);
}

bool xeopt_pass_generic_address(xe_ctx *ctx)
{
   xe_module *m = ctx->module;
   if (!any_generic_pointer(m))
      return false;
   unsigned nk;
   xe_kernel *ks = xe_kernels_all(m, &nk);
   param_spaces p;
   param_spaces_compute(m, &p);
   bool drop = ga_all_dont_inline(m);
   bool gate;
   unsigned nleft = left_to_igc(ctx, ks, nk, &p, &gate);
   /* A kernel excluded from rewriting (--isa-check kept its original), or
    * left to IGC, may share helpers with the others: then no helper is
    * copied. */
   bool excluded = xe_judge_keeps_any(ctx) || nleft;
   bool progress = !excluded && specialize(ctx, ks, nk, &p, drop);
   retype_walk rw = { &p, ga_kernel_owners(m, ks, nk), m->bound, gate, excluded };
   free(ks);
   xe_function_walk w = { .run = retype_function, .data = &rw };
   progress |= xe_for_each_function(ctx, &w);
   free(rw.own);
   param_spaces_free(&p);
   return progress;
}
