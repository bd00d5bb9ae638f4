/*
 * The cost model's weights per device, as data (cost_weights.c): pvc's
 * table in full and, for every other device, only the weights whose value
 * differs from pvc's, resolved at compile time into one full table per
 * device.  What each weight means is cost.h's xe_cost_weights; where each
 * value comes from is docs/cost-model.md ("The weights").
 */
#ifndef XEOPT_COST_WEIGHTS_H
#define XEOPT_COST_WEIGHTS_H

#include "cost.h"

/* The weights of device d at [d], for every d below XE_DEV_COUNT.
 * Constant data, complete before main runs: nothing to initialise, and any
 * thread may read it.  cost.h's xe_cost_weights_of(d) returns &[d]. */
extern const xe_cost_weights xe_cost_weight_table[XE_DEV_COUNT];

#endif
