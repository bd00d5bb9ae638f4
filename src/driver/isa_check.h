/*
 * --isa-check=DEVICE[,DEVICE]: IGC judges.  After the pipeline, the input
 * and the output are compiled by IGC (ocloc.h), each changed kernel's ISA
 * is counted (instructions; scattered, block and private messages) and
 * scored with the cost model's weights (xe_cost_isa), and the judge
 * (judge.h) moves a kernel whose output scores worse than its input on
 * any named device from "rewritten without the model" to "the model
 * asked" to "original kept"; the pipeline runs again under the new
 * verdicts until none moves.  docs/cost-model.md has the details.
 */
#ifndef XEOPT_ISA_CHECK_H
#define XEOPT_ISA_CHECK_H

#include "driver.h"
#include "judge.h"

/* One run of the pipeline under options o, the run's parameters run
 * (pipeline.h; NULL: o's) and judge j (the driver's optimize), filling r. */
typedef void (*xe_optimize_fn)(xeopt_result *r, const xe_options *o, const xe_run *run,
                               const xe_judge *j, const void *bytes, size_t size,
                               const xe_pipeline_hooks *h);

/* Runs optimize under the check; fills r like optimize does, plus
 * isa-check's remarks: each move of a kernel's verdict, one verdict per
 * changed kernel of the final output, and the judge with its compile
 * count (at most 1 + 3 * (XE_ISA_ROUNDS + 1) per device). */
void xe_isa_check_optimize(xeopt_result *r, const xe_options *o, const void *bytes, size_t size,
                           const xe_pipeline_hooks *h, xe_optimize_fn optimize);

#endif
