/*
 * The driver's side of --isa-check (isa_driver.h): the callbacks through
 * which the check (src/igc/isa_check.c) runs the pipeline, reads and
 * empties the driver's results and names the report's runs.
 */
#include <stdlib.h>
#include <string.h>

#include "io.h"
#include "isa_check.h"
#include "isa_driver.h"

/* What every run of one check shares. */
typedef struct isa_run_ctx {
   const xe_options *o;
   const void *bytes;
   size_t size;
   const xe_pipeline_hooks *h;
   xe_optimize_fn optimize;
} isa_run_ctx;

/* Empties r: no error, no warning, no output, no remarks. */
static void reset(xeopt_result *r)
{
   free(r->error);
   r->error = NULL;
   r->status = XEOPT_OK;
   free(r->warnings);
   r->warnings = strdup("");
   free(r->words);
   r->words = NULL;
   r->nwords = 0;
   free(r->manifest_json);
   r->manifest_json = NULL;
   xe_remarks_free(&r->remarks);
}

static unsigned run(void *cv, xeopt_result *r, const xe_run *p, const xe_judge *j, const char *name)
{
   isa_run_ctx *c = cv;
   reset(r);
   unsigned from = xe_report_passes_count(c->h);
   c->optimize(r, c->o, p, j, c->bytes, c->size, c->h);
   if (name)
      xe_report_label_run(c->h, from, name);
   return from;
}

static xe_isa_output output(xeopt_result *r)
{
   return (xe_isa_output){ .ok = r->status == XEOPT_OK, .error = r->error, .words = r->words,
                           .nwords = r->nwords, .remarks = &r->remarks };
}

static xeopt_result *result_new(void)
{
   xeopt_result *r = calloc(1, sizeof(*r));
   if (!r)
      xe_out_of_memory();
   return r;
}

static void result_free(xeopt_result *r)
{
   reset(r);
   free(r->warnings);
   free(r->remarks_json);
   free(r);
}

static void fail(xeopt_result *r, char *why)
{
   reset(r);
   r->status = XEOPT_ERROR_INPUT;
   r->error = why;
}

static unsigned report_count(void *cv)
{
   return xe_report_passes_count(((isa_run_ctx *)cv)->h);
}

static void report_shipped(void *cv, unsigned from, unsigned to)
{
   xe_report_mark_shipped(((isa_run_ctx *)cv)->h, from, to);
}

void xe_isa_check_optimize(xeopt_result *r, const xe_options *o, const void *bytes, size_t size,
                           const xe_pipeline_hooks *h, xe_optimize_fn optimize)
{
   isa_run_ctx c = { .o = o, .bytes = bytes, .size = size, .h = h, .optimize = optimize };
   xe_isa_driver d = { .ctx = &c, .workdir = h ? h->isa_workdir : NULL, .run = run,
                       .output = output, .result_new = result_new, .result_free = result_free,
                       .fail = fail, .report_count = report_count, .report_shipped = report_shipped };
   xe_isa_check_run(r, o, bytes, size, &d);
}
