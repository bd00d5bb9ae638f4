/*
 * Register pressure: how many bytes of values a kernel keeps live at its
 * worst point, split into per-lane values (one copy per SIMD lane: a
 * SIMD32 thread holds 32 of each) and sub-group uniform ones (one copy per
 * thread).  The cost model predicts IGC's SIMD width from it (cost.h,
 * xe_cost_simd): IGC compiles a kernel at the widest width whose registers
 * hold it without spilling.
 *
 * Liveness is SSA liveness over the CFG (a value is live from its
 * definition to its last use; a phi's operands are live out of the edge's
 * predecessor), in the order the SPIR-V lists the code: IGC's scheduler
 * moves code to lower the pressure, so this is an upper bound, closest for
 * the straight-line load-then-compute kernels whose width decides
 * versioning (docs/cost-model.md, "SIMD width").  A call counts the
 * callee's pressure on top of what is live across it (IGC inlines).
 * Debug instructions are not uses.  Booleans live in flag registers and
 * count nothing; Function-storage variables are not values.
 */
#ifndef XEOPT_PRESSURE_H
#define XEOPT_PRESSURE_H

#include "ir.h"

typedef struct xe_pressure {
   unsigned varying;   /* bytes per lane live at the worst point */
   unsigned uniform;   /* bytes live once per thread at that point */
} xe_pressure;

/* The pressure of f and what it calls. */
xe_pressure xe_function_pressure(xe_module *m, xe_function *f);

/* Does f have a top-level loop whose exit is divergent in the sense of
 * IGC's SIMD32 profitability check on dg2 (Simd32Profitability.cpp,
 * checkSimd32Profitable): a conditional branch leaving the loop on a
 * per-lane condition, other than an induction variable with a uniform
 * step compared with a uniform value or with its start plus a uniform
 * distance, in a loop whose count is not a constant under 100.  Per lane
 * as xe_function_pressure classifies values. */
bool xe_function_divergent_loop(xe_module *m, xe_function *f);

#endif
