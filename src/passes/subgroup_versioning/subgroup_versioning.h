/*
 * subgroup-versioning, shared between its files
 * (src/passes/subgroup_versioning/): region.c finds the region and its
 * candidates, pass.c asks the cost model and writes the remarks, test.c
 * builds the test, fast_copy.c the fast copy and its block accesses.  The
 * recognition they use is src/analysis/subgroup_region.h.
 */
#ifndef XEOPT_SUBGROUP_VERSIONING_H
#define XEOPT_SUBGROUP_VERSIONING_H

#include "lanes.h"
#include "pass.h"
#include "subgroup_region.h"

#define SCOPE_SUBGROUP 3
#define SCOPE_WORKGROUP 2

/* The region, its candidates and the hoisting state
 * (src/analysis/subgroup_region.h). */
typedef xe_sgv vctx;
typedef xe_sgv_cand cand;

/* ---- test.c: the test that selects the fast copy ---- */

/* Builds, before c->at (B's terminator), the test that selects the fast
 * copy (uniform when xe_sgv_uniform_test, else general) and sets each
 * candidate's base; returns the bool it computes.  cond, h_true: as for
 * sgv_apply. */
uint32_t sgv_build_test(vctx *c, uint32_t cond, bool h_true);

/* ---- fast_copy.c: the copy ---- */

/* Builds the test at the end of B, the fast copy of R (rb: its nrb blocks,
 * H first) with the candidates as block accesses, and the branch between
 * the copies.  cond: the guard's condition (0 without a guard), h_true: H
 * is its true target.  c->emitted must be empty.  measure: the pass
 * context's measure_path (pass.h); not XE_MEASURE_NONE only when
 * measuring, and then the output is not correct for every launch. */
void sgv_apply(vctx *c, xe_block **rb, unsigned nrb, uint32_t cond, bool h_true, int measure);

/* One kernel's state between the steps of run_kernel: the region found
 * (c), its guard and the cost model's estimate. */
typedef struct sgv_kernel {
   xe_ctx *ctx;
   xe_module *m;
   xe_kernel *k;
   xe_function *f;
   const xe_cfg *cfg;
   const uint32_t *ls;       /* the kernel's LocalSize, or NULL */
   xe_lanes *l0;             /* the lane facts of the body */
   vctx c;
   uint32_t gb, gh, gcond;   /* the guard's block, H, its condition (0: none) */
   bool gtrue;               /* H is the guard's true target */
   char est[160];            /* the cost model's estimate, for the remark */
} sgv_kernel;

/* ---- region.c: the region to version ---- */

/* Guards first: a uniform block whose branch the lanes may disagree on,
 * one side of which leads to a region with candidates the fast copy can
 * be made of; whether one was found (s->c, gb, gh, gcond, gtrue set; the
 * regions refused remarked). */
bool sgv_find_guarded_region(sgv_kernel *s);
/* No guard: the whole body after the entry's variables; whether it has
 * candidates and the fast copy can be made of it (s->c set, s->gh 0; a
 * remark when not). */
bool sgv_whole_body_region(sgv_kernel *s);

#endif
