/*
 * subgroup-versioning, shared between its files
 * (src/passes/subgroup_versioning/): pass.c finds the region and asks the
 * cost model, fast_copy.c builds the test, the fast copy and its block
 * accesses.  The recognition both use is src/analysis/subgroup_region.h.
 */
#ifndef XEOPT_SUBGROUP_VERSIONING_H
#define XEOPT_SUBGROUP_VERSIONING_H

#include "pass.h"
#include "subgroup_region.h"

#define SCOPE_SUBGROUP 3
#define SCOPE_WORKGROUP 2

/* The region, its candidates and the hoisting state
 * (src/analysis/subgroup_region.h). */
typedef xe_sgv vctx;
typedef xe_sgv_cand cand;

/* Builds the test at the end of B, the fast copy of R (rb: its nrb blocks,
 * H first) with the candidates as block accesses, and the branch between
 * the copies.  cond: the guard's condition (0 without a guard), h_true: H
 * is its true target.  c->emitted must be empty.  measure: the options'
 * measure_path (pass.h); not XE_MEASURE_NONE only when measuring, and then
 * the output is not correct for every launch. */
void sgv_apply(vctx *c, xe_block **rb, unsigned nrb, uint32_t cond, bool h_true, int measure);

#endif
