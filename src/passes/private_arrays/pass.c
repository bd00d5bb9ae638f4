/*
 * private-arrays: shrink per-work-item (Function storage) arrays so IGC
 * can keep them in registers instead of private (scratch) memory.
 *
 * Guide: register pressure, "use the smallest type, never make private
 * variables volatile" (shared/docs/REWRITES.md §3).  Rewrites, each proven
 * before it is applied, on the kernel body (called once per work-item):
 *  - volatile: Function-storage loads/stores lose Volatile; private memory
 *    is visible to no one else.
 *  - length: every index of T a[N] provably in [0, K), K < N -> T a[K].
 *  - narrow: integer elements whose stored values are constants or
 *    `load of the array + constant`, executed a bounded number of times,
 *    stay below 2^w -> w-bit elements, widened (OpUConvert) at loads.  The
 *    largest element never exceeds max(initial, constants) + the sum over
 *    increment stores of (increment x executions), so every widened load
 *    reads back the value the wide array held.  Floats are never narrowed.
 *  - scalarise: an array indexed only by constants becomes one scalar
 *    Function variable per element.
 * An array whose address escapes (any use other than element access
 * chains feeding loads/stores, lifetime markers, and whole-array copies
 * from a zero constant or to another pointer) is left alone with a remark.
 * Such copies may come more than once (subgroup-versioning copies the
 * body, and with it the zero-init): each is kept or rewritten alike.
 * Lifetime markers of rewritten arrays are dropped (hints; their sizes
 * would be stale).
 *
 *  - split: an array of vectors accessed whole or per constant component
 *    becomes one scalar array per component.
 * Length, narrowing, split and dropping Volatile (per array) ask the cost
 * model first and are not made where it says the kernel gets slower;
 * length, narrowing and dropping Volatile (all of a function's at once)
 * also not where its gain is thin on every device.
 * Host contract: none.
 *
 * Layout: this file finds the candidate arrays and drives the rewrites,
 * asking the cost model first; each rewrite is one file of this folder
 * (length.c, narrow.c, split.c, scalarise.c, drop_volatile.c), the
 * analysis of an array's uses is access.c.
 */
#include <stdlib.h>

#include "cfg.h"
#include "cost.h"
#include "gate.h"
#include "passes.h"
#include "runner.h"
#include "private_arrays.h"

/* ---- the cost model's say (src/analysis/cost.h) ----
 * Shortening or narrowing an array can move it from private memory into
 * registers; when the array is indexed by per-lane data, IGC then emits
 * per-lane indirect moves, which on pvc cost more than the scratch
 * messages they replace (measured: bench/notes/isa-per-pass.md).  So the
 * two rewrites are planned first (what length and element width they
 * would give, without remarks or edits) and made only if the model says
 * the kernel is not slower on any target device and, unless it sees no
 * change, clearly faster on one (cost_allows). */

static bool cost_allows(xe_ctx *ctx, xe_function *kfn, xe_function *f, const char *kn, parr *a)
{
   xe_module *m = ctx->module;
   xe_cost_change ch = { .var = a->var->result_id, .len = pa_plan_length(m, f, a),
                         .elem_bytes = pa_plan_bytes(m, f, a) };
   if (!ch.len && !ch.elem_bytes)
      return true; /* nothing to ask: the rewrites will say why not */
   /* A gain under XE_COST_MIN_GAIN on every target device is within
    * what IGC's own choices decide (registers or scratch, indirect moves
    * or selects), which can make the kernel longer.  A clear gain on one
    * device is enough (measured: bench/notes/igc-240-judge.md). */
   xe_gate g;
   enum xe_gate_verdict v = xe_gate_ask(ctx, kn, kfn, &ch, XE_GATE_CLEAR_SOMEWHERE_OR_UNMOVED, &g);
   if (v == XE_GATE_MADE)
      return true;
   unsigned len = ch.len ? ch.len : a->len;
   unsigned bytes = ch.elem_bytes ? ch.elem_bytes : (unsigned)xe_type_size(m, a->elem);
   if (v == XE_GATE_SLOWER)
      xe_gate_remark(ctx, kn, &g,
                     "'%s[%u]' -> [%u] x %u bytes not made: the cost model says slower on %s (estimate %s "
                     "cycles; a dynamically indexed array in registers costs per-lane indirect moves)",
                     pa_var_name(m, a), a->len, len, bytes, xe_device_name(g.worst), g.est);
   else
      xe_gate_remark(ctx, kn, &g,
                     "'%s[%u]' -> [%u] x %u bytes not made: the cost model's gain is under %.0f%% on "
                     "every target device (estimate %s cycles), where IGC's own choices decide",
                     pa_var_name(m, a), a->len, len, bytes, 100 * XE_COST_MIN_GAIN, g.est);
   return false;
}

/* Splitting an array of vectors gives one array per component, but the
 * parts are live together, over the original's range, and IGC's register
 * budget sees their sum with the kernel's other arrays: over it, the parts
 * go to scratch and each whole-vector access becomes one scratch access
 * per part (measured: bench/notes/real-code-corpus.md). */
static bool cost_allows_split(xe_ctx *ctx, xe_function *kfn, const char *kn, parr *a)
{
   xe_module *m = ctx->module;
   xe_cost_change ch = { .var = a->var->result_id };
   if (!pa_plan_split(m, a, &ch.split_comps, &ch.split_used))
      return true; /* pa_split says why not */
   xe_gate g;
   if (xe_gate_ask(ctx, kn, kfn, &ch, XE_GATE_NOT_SLOWER, &g) == XE_GATE_MADE)
      return true;
   xe_gate_remark(ctx, kn, &g,
                  "split '%s[%u]' not made: the cost model says slower on %s (estimate %s cycles; the "
                  "%u parts and the kernel's other private arrays exceed what IGC keeps in registers "
                  "together, so a whole-vector access becomes one private-memory message per part)",
                  pa_var_name(m, a), a->len, xe_device_name(g.worst), g.est, ch.split_comps);
   return false;
}

/* The variables of f with a Volatile access, each once, from one walk of
 * f (malloc'd, *nvols of them; NULL when none). */
static xe_inst **volatile_roots(xe_module *m, xe_function *f, unsigned *nvols_out)
{
   xe_inst **vols = NULL;
   unsigned nvols = 0;
   xe_foreach_block(b, f) {
      xe_foreach_inst(i, &b->insts) {
         xe_inst *root = xe_access_is_volatile(i) ? pa_root_var(m, xe_op(i, 0)) : NULL;
         bool seen = !root;
         for (unsigned q = 0; q < nvols && !seen; q++)
            seen = vols[q] == root;
         if (seen)
            continue;
         vols = realloc(vols, (nvols + 1) * sizeof(*vols));
         if (!vols)
            xe_out_of_memory();
         vols[nvols++] = root;
      }
   }
   *nvols_out = nvols;
   return vols;
}

/* The arrays of f among vols (nvols) that the model says are slower
 * without Volatile, with a remark each (malloc'd, *n of them; NULL when
 * none). */
static uint32_t *arrays_kept(xe_ctx *ctx, xe_function *kfn, xe_function *f, const char *kn,
                             xe_inst **vols, unsigned nvols, unsigned *n)
{
   xe_module *m = ctx->module;
   uint32_t *keep = NULL;
   xe_foreach_inst(v, &f->first->insts) {
      uint64_t len;
      uint32_t elem;
      if (!xe_variable_array(m, v, &len, &elem))
         continue;
      bool vol = false;
      for (unsigned q = 0; q < nvols && !vol; q++)
         vol = vols[q] == v;
      if (!vol)
         continue;
      xe_cost_change ch = { .var = v->result_id, .not_volatile = true };
      xe_gate g;
      if (xe_gate_ask(ctx, kn, kfn, &ch, XE_GATE_NOT_SLOWER, &g) == XE_GATE_MADE)
         continue;
      parr a = { .var = v, .len = (uint32_t)len };
      xe_gate_remark(ctx, kn, &g,
                     "volatile: '%s[%u]' keeps Volatile: the cost model says dropping it is slower on "
                     "%s (estimate %s cycles; the array would move into registers, where a dynamically "
                     "indexed array costs per-lane indirect moves)",
                     pa_var_name(m, &a), a.len, xe_device_name(g.worst), g.est);
      keep = realloc(keep, (*n + 1) * sizeof(uint32_t));
      if (!keep)
         xe_out_of_memory();
      keep[(*n)++] = v->result_id;
   }
   return keep;
}

/* Dropping Volatile lets IGC keep a small array in registers; when it is
 * indexed by per-lane data, that means per-lane indirect moves, which can
 * cost more than the scratch messages (the same trade as length and
 * narrowing).  Returns the variables of f whose Volatile accesses must
 * stay (malloc'd, *n of them): each array the model says
 * is slower without it, or all of them when dropping the rest gains too
 * little; a remark for each refusal. */
static uint32_t *volatile_kept(xe_ctx *ctx, xe_function *kfn, xe_function *f, const char *kn,
                               unsigned *n)
{
   xe_module *m = ctx->module;
   *n = 0;
   if (!xe_judge_devices(ctx, kn) || !f->first)
      return NULL;
   /* The variables with a Volatile access, from one walk of f. */
   unsigned nvols = 0;
   xe_inst **vols = volatile_roots(m, f, &nvols);
   uint32_t *keep = arrays_kept(ctx, kfn, f, kn, vols, nvols, n);
   /* The rest, scalars included, is asked as one change: a gain under
    * XE_COST_MIN_GAIN on every device is within what IGC's own choices
    * decide.  Scalar flags stored and reloaded volatile on a rare path
    * cost the model next to nothing, yet dropping Volatile can change
    * IGC's SIMD width for the worse (measured: bench/notes/igc-240-judge.md). */
   xe_cost_change all = { .not_volatile_fn = xe_function_id(f), .volatile_kept = keep,
                          .nvolatile_kept = *n };
   /* Unlike a reshaped array's, an estimate that does not move is no gain
    * either: the accesses are where the model's walk does not price them
    * (such rare-path flags). */
   xe_gate g;
   enum xe_gate_verdict v = nvols > *n ? xe_gate_ask(ctx, kn, kfn, &all, XE_GATE_CLEAR_SOMEWHERE, &g)
                                       : XE_GATE_MADE;
   if (v != XE_GATE_MADE) {
      unsigned rest = nvols - *n;
      if (v == XE_GATE_SLOWER)
         xe_gate_remark(ctx, kn, &g,
                        "volatile: %u private variable%s keep Volatile: the cost model says dropping it "
                        "is slower on %s (estimate %s cycles)",
                        rest, rest == 1 ? "" : "s", xe_device_name(g.worst), g.est);
      else
         xe_gate_remark(ctx, kn, &g,
                        "volatile: %u private variable%s keep Volatile: the cost model's gain is under "
                        "%.0f%% on every target device (estimate %s cycles), where IGC's own choices "
                        "decide", rest, rest == 1 ? "" : "s", 100 * XE_COST_MIN_GAIN, g.est);
      /* Every variable with a Volatile access, the arrays kept above among them. */
      keep = realloc(keep, nvols * sizeof(uint32_t));
      if (!keep)
         xe_out_of_memory();
      for (*n = 0; *n < nvols; (*n)++)
         keep[*n] = vols[*n]->result_id;
   }
   free(vols);
   return keep;
}

static bool run_function(xe_ctx *ctx, xe_function *kfn, xe_function *f, const char *kn)
{
   xe_module *m = ctx->module;
   xe_remarks *r = ctx->remarks;
   unsigned nkeep;
   uint32_t *keep = volatile_kept(ctx, kfn, f, kn, &nkeep);
   bool progress = pa_drop_volatile(m, f, kn, r, keep, nkeep);
   free(keep);
   if (!f->first)
      return progress;
   /* Function variables are at the top of the first block. */
   xe_inst **vars = NULL;
   unsigned nv = 0;
   xe_foreach_inst(i, &f->first->insts) {
      uint64_t len;
      uint32_t elem;
      if (!xe_variable_array(m, i, &len, &elem) || !len || len > UINT32_MAX)
         continue;
      vars = realloc(vars, (nv + 1) * sizeof(xe_inst *));
      vars[nv++] = i;
   }
   /* No xe_module_invalidate here or after a rewrite: the use lists are
    * kept current by the edit functions, which the rewrites use for every
    * change, and those also bump f's generations, so the loops and CFG
    * that the next proof asks for are recomputed when stale. */
   for (unsigned k = 0; k < nv; k++) {
      xe_inst *at = xe_def(m, xe_op(xe_def(m, vars[k]->type_id), 1));
      uint64_t len;
      xe_const_uint(m, xe_op(at, 1), &len);
      parr a = { .var = vars[k], .elem = xe_op(at, 0), .len = (uint32_t)len };
      pa_collect(m, &a);
      bool changed = false;
      if (a.escape) {
         xe_remark(r, kn, XE_REMARK_MISSED, "'%s[%u]' unchanged: %s (%s)", pa_var_name(m, &a), a.len,
                   a.escape, xe_opcode_name(a.escape_at->opcode));
      } else {
         /* Before the cost model and the rewrites count the uses. */
         progress |= pa_drop_dead(m, &a);
         bool allowed = cost_allows(ctx, kfn, f, kn, &a);
         if (allowed && pa_shrink_length(m, f, kn, r, &a))
            changed = true;
         if (allowed && pa_narrow(m, f, kn, r, &a))
            changed = true;
         bool split_ok = cost_allows_split(ctx, kfn, kn, &a);
         bool gone = split_ok && pa_split(m, kn, r, &a);
         if (!gone)
            gone = pa_scalarise(m, kn, r, &a);
         changed |= gone;
         if (changed) {
            pa_drop_lifetimes(m, &a);
            for (unsigned c = 0; c < a.ncasts; c++)
               pa_delete_if_dead(m, a.casts[c]->result_id);
            if (gone)
               pa_delete_if_dead(m, a.var->result_id);
         }
         else if (allowed && split_ok)
            xe_remark(r, kn, XE_REMARK_NOTE, "'%s[%u]' unchanged: no rewrite proven",
                      pa_var_name(m, &a), a.len);
      }
      progress |= changed;
      free(a.chains);
      free(a.casts);
      free(a.zero_init);
      free(a.copy_out);
      free(a.dead);
   }
   free(vars);
   return progress;
}

static bool run_one(xe_ctx *ctx, xe_kernel *k, void *data)
{
   (void)data;
   return run_function(ctx, k->fn, k->body, k->name);
}

bool xeopt_pass_private_arrays(xe_ctx *ctx)
{
   /* Execution bounds count per call: the body must run once per
    * work-item, i.e. be called from the wrapper only. */
   return xe_for_each_kernel(ctx, &(xe_kernel_walk){
      .run = run_one, .shared_body = "body is called %u times; not analysed" });
}
