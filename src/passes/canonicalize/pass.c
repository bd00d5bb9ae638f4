/*
 * canonicalize: fold what today's front ends leave unfolded, so the
 * analyses of the later passes see the same kernel from every producer.
 *
 * One file per kind of rewrite: folds.c (selects on a known condition,
 * shift-pair sign extensions), addresses.c (the address forms of opaque
 * pointers), repairs.c (what spirv-val needs).  This file walks the module
 * and each function it may rewrite, and writes the remarks.
 *
 * The entry wrappers the new front ends write (an entry point whose one
 * block calls the body with its parameters) need no rewrite: the kernel
 * list already sees through them (xe_kernel.body, src/ir/facts.c).
 *
 * Where the cost model is asked, a kernel that no later pass reading
 * these forms rewrote in the driver's first run (loop-spec-constants does
 * not read them) is left as the front end wrote it, but for the repairs
 * (the judge's XE_PLAIN_CANON, src/driver/plain.h): these rewrites
 * serve the analyses, not IGC, and IGC 2.40 compiles some kernels longer
 * after them (bench/notes/igc-240-judge.md).
 *
 * Host contract: none.  Semantics: unchanged.
 */
#include <stdlib.h>

#include "canonicalize.h"
#include "judge.h"
#include "passes.h"
#include "runner.h"

/* Folds f's selects on a known condition and shift-pair sign extensions,
 * rewrites its address forms and repairs it; returns how many. */
static unsigned fold_function(xe_module *m, xe_function *f)
{
   unsigned n = 0;
   xe_foreach_block(b, f) {
      xe_foreach_inst_safe(i, next, &b->insts) {
         if (i->opcode != SpvOpPhi && canon_null_ints(m, i))
            n++;
         if (canon_cast_byte_uses(m, i) || canon_fold_byte_chain(m, i) || canon_array_cast(m, i) ||
             canon_repair_inst(m, i) || canon_import_cast(m, i)) {
            n++;
            continue;
         }
         if (canon_fold_sext_inreg(m, i)) {
            n++;
            continue;
         }
         n += canon_fold_select(m, i);
      }
   }
   /* Second walk: the byte-chain fold above writes the element casts
    * this one reads, before the instruction it visits.  The casts are
    * listed first: a rewrite deletes the chains after them. */
   unsigned ncast = 0, cap = 0;
   xe_inst **casts = NULL;
   xe_foreach_block(b, f) {
      xe_foreach_inst(i, &b->insts) {
         if (i->opcode != SpvOpBitcast)
            continue;
         if (ncast == cap && !(casts = realloc(casts, (cap = cap ? 2 * cap : 16) * sizeof *casts)))
            xe_out_of_memory();
         casts[ncast++] = i;
      }
   }
   for (unsigned k = 0; k < ncast; k++)
      n += canon_vector_component_cast(m, casts[k]);
   free(casts);
   return n;
}

/* What a remark about function f names: its kernel, else its own name. */
static const char *who(const xe_module *m, const xe_function *f, const char *owner)
{
   const char *name = owner ? owner : xe_name(m, xe_function_id(f));
   return name ? name : "?";
}

/* The module-wide repairs (repeated decorations, spec-constant
 * composites), with their remarks; returns whether it made any. */
static bool repair_module(xe_ctx *ctx)
{
   xe_module *m = ctx->module;
   unsigned dup = canon_drop_repeated_decorations(m);
   if (dup)
      xe_remark(ctx->remarks, NULL, XE_REMARK_APPLIED,
                "dropped %u decoration(s) that repeat an earlier one word for word "
                "(spirv-val 2026 rejects them)", dup);
   unsigned sc = canon_spec_composites(m);
   if (sc)
      xe_remark(ctx->remarks, NULL, XE_REMARK_APPLIED,
                "%u OpConstantComposite(s) with a specialization-constant operand made "
                "OpSpecConstantComposite", sc);
   return dup || sc;
}

/* f, whose kernel the judge leaves as the front end wrote it (owner: its
 * kernel's name, NULL for a helper): the repairs alone, with the remarks;
 * returns whether it repaired anything. */
static bool repair_as_written(xe_ctx *ctx, xe_function *f, const xe_function_info *fi,
                              const char *owner)
{
   xe_module *m = ctx->module;
   if (fi->kernel && f == fi->kernel->body)
      xe_remark(ctx->remarks, owner, XE_REMARK_MISSED,
                "kernel %s left as the front end wrote it: in a first run no later pass "
                "that reads its forms rewrote it, and IGC 2.40 compiles canonicalized code longer (darktable "
                "vng_interpolate through clang 21, bmg: 5044 -> 8609 by the estimate per work-item); "
                "canonicalized with --target=none and under --isa-check", owner);
   unsigned nr = canon_repair_function(m, f);
   if (nr)
      xe_remark(ctx->remarks, owner, XE_REMARK_APPLIED,
                "repaired %u instruction(s) in %s%s (printf format strings, repeated OpPhi "
                "pairs)", nr, owner ? "kernel " : "function ", who(m, f, owner));
   return nr > 0;
}

/* f (owner: its kernel's name, NULL for a helper): every rewrite, with
 * the remark; returns whether it made any. */
static bool canonicalize_function(xe_ctx *ctx, xe_function *f, const char *owner)
{
   xe_module *m = ctx->module;
   unsigned n = fold_function(m, f);
   if (!n)
      return false;
   xe_remark_decision(ctx->remarks, owner, XE_REMARK_APPLIED, XE_DECISION_CANONICAL_FORMS,
                      "rewrote %u instruction(s) in %s%s (selects on a constant condition, "
                      "shift-pair sign extensions, byte-offset addresses, address-space casts)",
                      n, owner ? "kernel " : "function ", who(m, f, owner));
   return true;
}

/* One function the judge lets be rewritten (xe_for_each_function: a
 * helper only when every kernel is).  Its kernels' XE_PLAIN_CANON (the
 * driver's second run leaves them as the front end wrote them; a helper
 * when every kernel is such) keeps it to the repairs. */
static bool run_function(xe_ctx *ctx, xe_function *f, const xe_function_info *fi, void *data)
{
   (void)data;
   const char *owner = fi->kernel ? fi->kernel->name : NULL;
   if (fi->plain)
      return repair_as_written(ctx, f, fi, owner);
   return canonicalize_function(ctx, f, owner);
}

bool xeopt_pass_canonicalize(xe_ctx *ctx)
{
   bool progress = repair_module(ctx);
   /* A kernel --isa-check kept as it came keeps its code byte for byte:
    * the walk's judge gate holds the helpers back when any kernel is. */
   xe_function_walk w = { .run = run_function, .plain = XE_PLAIN_CANON };
   return xe_for_each_function(ctx, &w) || progress;
}
