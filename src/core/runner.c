/*
 * The per-kernel frame of the rewriting passes (runner.h).
 */
#include <stdlib.h>

#include "judge.h"
#include "runner.h"

bool xe_for_each_kernel(xe_ctx *ctx, const xe_kernel_walk *w)
{
   xe_module *m = ctx->module;
   unsigned nk = 0;
   xe_kernel *ks = xe_kernels_all(m, &nk);
   bool progress = false;
   for (unsigned i = 0; i < nk; i++) {
      xe_kernel *k = &ks[i];
      if (!k->body || !xe_judge_rewritable(ctx, k->name))
         continue;
      if (w->shared_body && k->body != k->fn && k->body_callers != 1) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
         xe_remark(ctx->remarks, k->name, XE_REMARK_MISSED, w->shared_body, k->body_callers);
#pragma GCC diagnostic pop
         continue;
      }
      progress |= w->run(ctx, k, w->data);
   }
   free(ks);
   return progress;
}
