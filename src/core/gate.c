/*
 * The cost gate (gate.h).
 */
#include <math.h>
#include <stdarg.h>

#include "gate.h"
#include "judge.h"

/* Applies rule to g's estimates, slower and g->worst as the comparison
 * found them; fills the rest of g. */
static enum xe_gate_verdict decide(xe_gate *g, bool slower, enum xe_gate_rule rule)
{
   bool thin = false;
   if (!slower) {
      switch (rule) {
      case XE_GATE_NOT_SLOWER:
         break;
      case XE_GATE_CLEAR_EVERYWHERE:
         thin = !xe_cost_clear_gain(g->devs, g->before, g->after, &g->worst);
         break;
      case XE_GATE_CLEAR_SOMEWHERE_OR_UNMOVED:
         thin = !xe_cost_some_clear_gain(g->devs, g->before, g->after);
         break;
      case XE_GATE_CLEAR_SOMEWHERE:
         thin = !xe_cost_any_clear_gain(g->devs, g->before, g->after);
         break;
      }
   }
   g->verdict = slower ? XE_GATE_SLOWER : thin ? XE_GATE_THIN : XE_GATE_MADE;
   g->est[0] = 0;
   if (g->verdict != XE_GATE_MADE)
      xe_cost_format(g->est, sizeof(g->est), g->devs, g->before, g->after);
   return g->verdict;
}

enum xe_gate_verdict xe_gate_ask(const xe_ctx *ctx, const char *kernel, xe_function *kfn,
                                 const xe_cost_change *ch, enum xe_gate_rule rule, xe_gate *g)
{
   *g = (xe_gate){ .devs = xe_judge_devices(ctx, kernel), .worst = XE_DEV_DG2 };
   bool slower = !xe_cost_compare(ctx->module, kfn, g->devs, ch, g->before, g->after, &g->worst);
   return decide(g, slower, rule);
}

void xe_gate_figures(xe_remark_entry *e, const xe_gate *g)
{
   for (int d = 0; e && d < XE_DEV_COUNT; d++)
      if (g->devs & (1u << d))
         xe_remark_figure_add(e, (enum xe_device)d, rint(g->before[d]), rint(g->after[d]), NULL);
}

xe_remark_entry *xe_gate_remark(const xe_ctx *ctx, const char *kernel, const xe_gate *g,
                                const char *fmt, ...)
{
   enum xe_decision d = g->verdict == XE_GATE_SLOWER ? XE_DECISION_COST_SLOWER : XE_DECISION_COST_THIN;
   va_list ap;
   va_start(ap, fmt);
   xe_remark_entry *e = xe_remark_vdecision(ctx->remarks, kernel, XE_REMARK_MISSED, d, fmt, ap);
   va_end(ap);
   xe_gate_figures(e, g);
   return e;
}
