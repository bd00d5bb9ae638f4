/*
 * The frames of the rewriting passes (issue 48): which kernels a pass may
 * rewrite (the judge's verdict), the kernel list and the rule for bodies
 * several callers share live here, so that a pass writes only what it
 * does to one kernel (xe_for_each_kernel) or to one function
 * (xe_for_each_function), as NIR's passes write what they do to one
 * function (nir_shader_instructions_pass).
 */
#ifndef XEOPT_RUNNER_H
#define XEOPT_RUNNER_H

#include "pass.h"

typedef struct xe_kernel_walk {
   /* One kernel that has a body and that the judge lets the pass rewrite
    * (xe_judge_rewritable).  Returns progress. */
   bool (*run)(xe_ctx *ctx, xe_kernel *k, void *data);
   void *data;
   /* When not NULL, a kernel whose body is a function of its own (a front
    * end's wrapper calls it) that other places call as well is skipped
    * with a missed remark of this printf format, whose one %u is the
    * number of callers: a rewrite of the body would change theirs. */
   const char *shared_body;
} xe_kernel_walk;

/* Runs w->run on each kernel of ctx's module, in the module's order (the
 * kernel list, src/ir/facts.c); returns whether any made progress. */
bool xe_for_each_kernel(xe_ctx *ctx, const xe_kernel_walk *w);

/* What the judge says about one function (xe_for_each_function).  A
 * function is a kernel's when it is a kernel's entry function or body
 * (xe_kernel.fn, .body); any other is a helper.  Two sets of kernels
 * decide about it:
 *  - its kernels: the kernel it is, or for a helper every kernel of the
 *    module (a helper's callers are not traced: the safe answer, and
 *    the one that costs no call-graph walk);
 *  - with xe_function_walk.reach, the kernels that reach it: those whose
 *    entry function calls it, directly or not, or is it (none for a
 *    helper no kernel calls).
 * Every field is worked out once per walk: the kernels' verdicts once
 * each, the reach by one linear walk of the call graph per property
 * (asking per function walked every kernel for each: issue 47). */
typedef struct xe_function_info {
   /* The first kernel in the module's order whose entry function or body
    * this is; NULL for a helper. */
   const xe_kernel *kernel;
   /* Over its kernels. */
   bool rewritable;            /* the judge lets each be rewritten */
   unsigned devices;           /* the union of their xe_judge_devices */
   bool plain;                 /* each carries one of the walk's plain flags; false
                                * when the judge marks no kernel with them */
   /* Over the kernels that reach it; only with xe_function_walk.reach. */
   bool reach_rewritable;      /* the judge lets each be rewritten */
   bool reach_plain;           /* each carries one of the walk's plain flags (true
                                * when none reaches it); false when the judge marks
                                * no kernel with them */
   unsigned reach_plain_any;   /* the flags of the walk's reach_any any of them carries */
} xe_function_info;

typedef struct xe_function_walk {
   /* One function with a body that the judge lets the pass rewrite: each
    * of its kernels rewritable, or with reach each kernel that reaches it
    * (a rewrite changes what every such kernel runs).  Returns progress.
    * run may add functions: they come later in the walk, as helpers that
    * no kernel reaches. */
   bool (*run)(xe_ctx *ctx, xe_function *f, const xe_function_info *fi, void *data);
   void *data;
   unsigned plain;             /* the judge's XE_PLAIN_* flags the pass reads (judge.h) */
   bool reach;                 /* trace the call graph: the reach_* fields, and the gate */
   unsigned reach_any;         /* with reach: the XE_PLAIN_* flags reach_plain_any
                                * reports (each one more walk of the call graph, from
                                * the kernels that carry it) */
} xe_function_walk;

/* Runs w->run on each function of ctx's module that has a body and that
 * the judge lets be rewritten, in the module's order; returns whether any
 * made progress. */
bool xe_for_each_function(xe_ctx *ctx, const xe_function_walk *w);

#endif
