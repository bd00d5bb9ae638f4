/*
 * Running passes: the registry order or a --passes list, validation
 * between passes, --print-after and --time-passes.
 */
#ifndef XEOPT_PIPELINE_H
#define XEOPT_PIPELINE_H

#include <stdio.h>

#include "judge.h"
#include "pass.h"

typedef struct xe_pipeline_hooks {
   const char *print_after;   /* a pass name or "all"; NULL for none */
   FILE *print_to;            /* disassembly destination */
   bool time_passes;
   FILE *time_to;
   struct cJSON *report;      /* when set, gets a "passes" array */
   /* When set, the manifest's "module" member (the output file as the
    * manifest names it): the command line's, added before the driver prints
    * the manifest so that the JSON is printed once and never parsed back
    * (xeopt_result_manifest_json has it then; the C API leaves it out). */
   const char *manifest_module;
   /* When set, the directory --isa-check works in (the command line's,
    * which it removes, also on SIGINT and SIGTERM); else a new one in
    * $TMPDIR, removed at the end. */
   const char *isa_workdir;
   /* When set, a successful optimization's module is left here (unless
    * one already is), not freed: for the command line, whose process ends
    * right after and hands the memory back at once.  At 64 MB of input,
    * freeing the module's millions of small blocks one by one took about
    * a second of 20, each free a cache miss in a heap of gigabytes. */
   struct xe_module **leave_module;
} xe_pipeline_hooks;

enum xe_status {
   XE_OK = 0,
   XE_BAD_INPUT = 1,      /* invalid input or usage */
   XE_INTERNAL = 2,       /* a pass broke a valid module, or similar */
};

/* "unknown pass 'NAME' (the passes: canonicalize, ...)", malloc'd. */
char *xe_unknown_pass(const char *name);

/* Checks that every name in o->passes exists; on error sets *err. */
bool xe_pipeline_check(const xe_options *o, char **err);

/* Runs the pipeline.  *valid says whether the input validated, and on
 * return whether the output does (when o->validate is set, the module is
 * validated after every pass that changed it).  A pass that turns a valid
 * module into an invalid one is an internal error (XE_INTERNAL, *err
 * set).  run: the run's parameters (the passes see its measure_path);
 * NULL: o's.  j says who judges each kernel's rewrites (judge.h); NULL:
 * the cost model for every kernel, for o's --target. */
enum xe_status xe_pipeline_run(xe_module *m, const xe_options *o, const xe_run *run, const xe_judge *j,
                               xe_remarks *r, const xe_pipeline_hooks *h, bool *valid, char **err);

/* The report's runs.  One call of xeopt_optimize may run the pipeline
 * several times (plain -O2's first and second run, --isa-check's rounds,
 * probe and measured paths); each run's "passes" entries get a "run"
 * member naming it, and the run whose output was written "shipped": true
 * (docs/report.md).  All do nothing without h->report. */

/* How many "passes" entries the report has: where the next run starts. */
unsigned xe_report_passes_count(const xe_pipeline_hooks *h);
/* Names the entries from index from on that have no "run" yet. */
void xe_report_label_run(const xe_pipeline_hooks *h, unsigned from, const char *run);
/* Marks the entries [from, to) "shipped": the run whose output the
 * result holds. */
void xe_report_mark_shipped(const xe_pipeline_hooks *h, unsigned from, unsigned to);

#endif
