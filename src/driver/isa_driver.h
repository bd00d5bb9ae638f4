/*
 * --isa-check from the driver.  The check (src/igc/isa_check.h) sits in
 * the layer below the driver yet runs the driver's pipeline round after
 * round: it is handed the driver's side as callbacks (isa_driver.c), so
 * neither layer includes the other's way up.
 */
#ifndef XEOPT_ISA_DRIVER_H
#define XEOPT_ISA_DRIVER_H

#include "driver.h"
#include "judge.h"

/* One run of the pipeline under options o, the run's parameters run
 * (pass.h; NULL: o's) and judge j (the driver's optimize), filling r. */
typedef void (*xe_optimize_fn)(xeopt_result *r, const xe_options *o, const xe_run *run,
                               const xe_judge *j, const void *bytes, size_t size,
                               const xe_pipeline_hooks *h);

/* Runs optimize under the check (isa_check.h: xe_isa_check_run) on
 * bytes[0..size), with h's report and work directory (h may be NULL);
 * fills r like optimize does, plus isa-check's remarks. */
void xe_isa_check_optimize(xeopt_result *r, const xe_options *o, const void *bytes, size_t size,
                           const xe_pipeline_hooks *h, xe_optimize_fn optimize);

#endif
