/*
 * The cost gate (gate.h).
 */
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
