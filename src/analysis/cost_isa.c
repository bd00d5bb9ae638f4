/*
 * The ISA estimate (cost.h's xe_cost_isa family): the cost model's weights
 * applied to counts read from IGC's disassembly, so that IGC's output and
 * the model's estimate are in one unit (docs/cost-model.md, "--isa-check").
 * It reads the weights and the devices' register widths only, no SPIR-V.
 */
#include "cost.h"
#include "cost_weights.h"

double xe_cost_isa(enum xe_device d, const xe_isa_counts *c)
{
   const xe_cost_weights *w = &xe_cost_weight_table[d];
   return c->instructions + (double)c->loop * (XE_COST_ASSUMED_TRIPS - 1) +
          c->scattered * w->msg_scattered + c->block * w->msg_block + c->priv * w->msg_private;
}

unsigned xe_cost_isa_per(enum xe_device d, unsigned simd)
{
   return xe_device_grf_bytes(d) == 64 && simd > 16 ? 16 : simd;
}

double xe_cost_isa_at(enum xe_device d, const xe_isa_counts *c, unsigned simd)
{
   double e = xe_cost_isa(d, c);
   if (!simd || !c->simd)
      return e;
   if (xe_device_grf_bytes(d) != 64)
      return e * simd / c->simd;
   /* A 16-lane ALU: an instruction of more than 16 lanes takes two passes,
    * any other one (a scalar (W) one in a SIMD32 kernel too) one; the
    * estimate counts passes per thread, scaled to xe_cost_isa_per's
    * work-items (up to 16: a wider thread is counted by its passes). */
   double passes = e + c->wide + (double)c->loop_wide * (XE_COST_ASSUMED_TRIPS - 1);
   return passes * xe_cost_isa_per(d, simd) / c->simd;
}

double xe_cost_igc_at(enum xe_device d, const xe_isa_counts *c, unsigned simd)
{
   (void)d;
   if (!simd || !c->simd)
      return c->igc_estimate;
   return c->igc_estimate * simd / c->simd;
}
