/*
 * The per-kernel frame of the rewriting passes (issue 48): which kernels a
 * pass may rewrite (the judge's verdict), the kernel list and the rule
 * for bodies several callers share live here, so that a pass writes only
 * what it does to one kernel, as NIR's passes write what they do to one
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

#endif
