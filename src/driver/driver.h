/*
 * The optimization driver behind both the C API (include/xeopt/xeopt.h)
 * and the command line: read, validate, run the pipeline, verify, write.
 */
#ifndef XEOPT_DRIVER_H
#define XEOPT_DRIVER_H

#include <stdio.h>
#include <xeopt/xeopt.h>

#include "runnable.h"
#include "pipeline.h"

struct xeopt_options {
   xe_options o;
};

struct xeopt_result {
   xeopt_status status;
   char *error;
   char *warnings;         /* lines, "" when none */
   uint32_t *words;
   size_t nwords;
   char *remarks_json;     /* built on first request (xeopt_result_remarks_json), NULL before */
   char *manifest_json;    /* NULL when no contract entry */
   xe_remarks remarks;     /* for the command line's printing */
   unsigned target;        /* the options' --target and --isa-check device sets, for */
   unsigned isa_check;     /* the report's estimates (report_html.c) */
};

/* xeopt_optimize with the command line's hooks (print-after, timing,
 * report); hooks may be NULL. */
xeopt_result *xe_optimize_ex(const xe_options *o, const void *bytes, size_t size,
                             const xe_pipeline_hooks *hooks);


#endif
