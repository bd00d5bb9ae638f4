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

#include <stddef.h>
#include <stdint.h>
#include <xeopt/xeopt.h>

#include "judge.h"
#include "pass.h"

/* What the check reads of one run's result. */
typedef struct xe_isa_output {
   bool ok;                /* the run gave an output (XEOPT_OK) */
   const char *error;      /* else why; may be NULL */
   const uint32_t *words;  /* the output module, when ok */
   size_t nwords;
   xe_remarks *remarks;    /* what the run said; the check adds its own to the final result's */
} xe_isa_output;

/* The driver as the check uses it.  The check sits below the driver,
 * which calls it from xeopt_optimize, yet runs the driver's pipeline
 * again and again: it does so through these, never by including the
 * driver (src/driver/isa_driver.c fills them in).  Results are the
 * driver's (xeopt_result), opaque here. */
typedef struct xe_isa_driver {
   void *ctx;
   const char *workdir;    /* the directory to compile in; NULL: a new one in $TMPDIR */
   /* Empties r, then runs the pipeline once on the input into it with the
    * run's parameters p (NULL: the options' own) under judge j, the
    * report's entries of the run named name (NULL: not named).  Returns
    * where those entries start among the report's. */
   unsigned (*run)(void *ctx, xeopt_result *r, const xe_run *p, const xe_judge *j, const char *name);
   /* What r holds, pointing into r (valid until r is run into again or freed). */
   xe_isa_output (*output)(xeopt_result *r);
   /* A new, empty result; xe_out_of_memory when none can be made. */
   xeopt_result *(*result_new)(void);
   void (*result_free)(xeopt_result *r);
   /* Empties r and makes it the input error why (taken). */
   void (*fail)(xeopt_result *r, char *why);
   /* How many entries the report's "passes" array has (pipeline.h). */
   unsigned (*report_count)(void *ctx);
   /* Marks the report's entries [from, to) as the run written. */
   void (*report_shipped)(void *ctx, unsigned from, unsigned to);
} xe_isa_driver;

/* Runs the pipeline under the check through d, on the input bytes[0..size)
 * under the options o; fills r like one run does, plus isa-check's
 * remarks: each move of a kernel's verdict, one verdict per changed
 * kernel of the final output, and the judge with its compile count (at
 * most 1 + 3 * (XE_ISA_ROUNDS + 1) per device). */
void xe_isa_check_run(xeopt_result *r, const xe_options *o, const void *bytes, size_t size,
                      const xe_isa_driver *d);

#endif
