/*
 * The optimization driver and the public C API.  Nothing here is global:
 * each call owns its module, remarks and SPIRV-Tools contexts, so calls on
 * separate threads do not interact.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "driver.h"
#include "io.h"
#include "isa_driver.h"
#include "plain.h"

const char *xeopt_version(void)
{
   return XEOPT_VERSION;
}

xeopt_options *xeopt_options_create(void)
{
   xeopt_options *o = calloc(1, sizeof(*o));
   if (o)
      xe_options_init(&o->o);
   return o;
}

void xeopt_options_destroy(xeopt_options *o)
{
   if (!o)
      return;
   xe_options_free(&o->o);
   free(o);
}

xeopt_status xeopt_options_set(xeopt_options *o, const char *option, char **error)
{
   char *err = NULL;
   if (xe_options_parse(&o->o, option, &err)) {
      if (error)
         *error = NULL;
      return XEOPT_OK;
   }
   if (error)
      *error = err;
   else
      free(err);
   return XEOPT_ERROR_INPUT;
}

/* Appends one warning line; fmt has one %s for msg, whose line breaks
 * (the validator's messages quote the instruction on a second line) are
 * folded so that each warning stays one line. */
static void warn(xeopt_result *r, const char *fmt, const char *msg)
{
   char *folded = malloc(strlen(msg) * 3 + 1), *o = folded;
   for (const char *p = msg; *p; p++) {
      if (*p == '\n') {
         while (p[1] == ' ' || p[1] == '\n')
            p++;
         if (p[1])
            *o++ = ' ', *o++ = '|', *o++ = ' ';
      } else {
         *o++ = *p;
      }
   }
   *o = 0;
   char *line, *all;
   if (asprintf(&line, fmt, folded) < 0 || asprintf(&all, "%s%s\n", r->warnings, line) < 0)
      xe_out_of_memory();
   free(folded);
   free(line);
   free(r->warnings);
   r->warnings = all;
}

static void fail(xeopt_result *r, xeopt_status s, char *msg /* owned */)
{
   r->status = s;
   r->error = msg;
}

/* A remark's decision as data (xeopt.h): only on remarks with one. */
static void add_decision(cJSON *o, const xe_remark_entry *x)
{
   const char *d = xe_decision_name(x->decision);
   if (!d)
      return;
   cJSON_AddStringToObject(o, "decision", d);
   if (x->subject >= 0)
      cJSON_AddNumberToObject(o, "argument", x->subject);
   if (!x->nfigures)
      return;
   cJSON *fs = cJSON_AddArrayToObject(o, "figures");
   for (unsigned k = 0; k < x->nfigures; k++) {
      cJSON *f = cJSON_CreateObject();
      cJSON_AddStringToObject(f, "device", xe_device_name(x->figures[k].device));
      cJSON_AddNumberToObject(f, "before", x->figures[k].before);
      cJSON_AddNumberToObject(f, "after", x->figures[k].after);
      cJSON_AddItemToArray(fs, f);
   }
}

static char *remarks_json(const xe_remarks *rem)
{
   static const char *kinds[] = { "applied", "missed", "note" };
   cJSON *arr = cJSON_CreateArray();
   for (unsigned k = 0; k < rem->n; k++) {
      cJSON *e = cJSON_CreateObject();
      cJSON_AddStringToObject(e, "pass", rem->v[k].pass);
      if (rem->v[k].kernel)
         cJSON_AddStringToObject(e, "kernel", rem->v[k].kernel);
      cJSON_AddStringToObject(e, "kind", kinds[rem->v[k].kind]);
      cJSON_AddStringToObject(e, "message", rem->v[k].message);
      add_decision(e, &rem->v[k]);
      cJSON_AddItemToArray(arr, e);
   }
   char *s = cJSON_Print(arr);
   cJSON_Delete(arr);
   return s;
}

/* A promise naming a kernel the module does not have is an error: it
 * would otherwise be ignored without a word (a misspelt name). */
static bool promises_ok(const xe_module *m, const xe_options *o, char **err)
{
   unsigned n;
   xe_kernel *ks = xe_kernels_all(m, &n);
   const char **names = malloc((n ? n : 1) * sizeof(*names));
   if (!names)
      abort();
   for (unsigned k = 0; k < n; k++)
      names[k] = ks[k].name;
   bool ok = xe_options_check_kernels(o, names, n, err);
   free(names);
   free(ks);
   return ok;
}

/* One run of the pipeline (two for plain -O2, below) with the run's
 * parameters run (pipeline.h; NULL: o's) under the judge j, which the
 * second run may extend with its plain flags. */
static void optimize(xeopt_result *r, const xe_options *o, const xe_run *run, const xe_judge *j,
                     const void *bytes, size_t size, const xe_pipeline_hooks *h)
{
   int verify = run && run->no_verify ? 0 : o->verify;
   char *err = NULL;
   xe_module *m = xe_read(bytes, size, &err);
   char *unknown = m ? NULL : xe_read_unknown(bytes, size);
   if (unknown && !o->validate && verify <= 0) {
      /* Well framed, only newer than our SPIRV-Tools: hand it on as it came. */
      free(err);
      warn(r, "%s; the module is passed through unchanged", unknown);
      free(unknown);
      r->words = malloc(size);
      if (!r->words)
         xe_out_of_memory();
      memcpy(r->words, bytes, size);
      r->nwords = size / 4;
      return;
   }
   if (unknown) {
      free(err);
      if (asprintf(&err, "%s, so %s cannot check it (without either option the module is passed "
                   "through unchanged)", unknown, o->validate ? "--validate" : "--verify") < 0)
         xe_out_of_memory();
      free(unknown);
   }
   if (!m || !promises_ok(m, o, &err)) {
      fail(r, XEOPT_ERROR_INPUT, err);
      xe_module_free(m);
      return;
   }
   if (m->reordered)
      warn(r, "%ssections out of logical layout order; writing them in order", "");
   bool input_valid = true;
   if (o->validate) {
      input_valid = xe_validate(m, &err);
      if (!input_valid)
         warn(r, "input does not validate: %s", err);
      free(err);
      err = NULL;
   }
   bool valid = input_valid;
   unsigned first_run = xe_report_passes_count(h);
   enum xe_status s = xe_pipeline_run(m, o, run, j, &r->remarks, h, &valid, &err);
   /* canonicalize and simplify-cfg's bypasses, merges and selects cannot
    * be priced and serve the passes after them: where the model judges
    * and none of those rewrote a kernel, the pipeline runs again from the
    * input without them there (plain.h).  Measured under IGC 2.40
    * (darktable through ocloc 26): plain -O2 made 49 of 289 kernels longer
    * on bmg, 0 with this (bench/notes/igc-240-judge.md).  With --passes the user chose the
    * passes, and under --isa-check IGC judges every kernel (whatever the
    * model was asked, exec_classify's simplify-cfg gain, bmg 82 -> 74, is
    * IGC's to keep): no second run. */
   bool second = s == XE_OK && !o->passes.n && o->level >= 2 && !o->isa_check;
   xe_judge j2 = { 0 };
   if (second)
      xe_judge_copy(&j2, j); /* the second run's flags go on a copy */
   if (second && xe_plain_kernels(m, &r->remarks, &j2)) {
      xe_remarks first = r->remarks;
      memset(&r->remarks, 0, sizeof(r->remarks));
      /* In the first module's memory: its pages are already the process's. */
      m = xe_read_over(m, bytes, size, &err);
      if (!m)
         xe_out_of_memory(); /* it was read above */
      /* The report keeps both runs' passes, each named (docs/report.md). */
      xe_report_label_run(h, first_run, "first run");
      unsigned second_run = xe_report_passes_count(h);
      unsigned nplain = xe_judge_count_plain(&j2, XE_PLAIN_CFG | XE_PLAIN_CANON);
      if (h && h->print_after && h->print_to)
         fprintf(h->print_to, "; *** second run: %u kernel%s no later pass rewrote ***\n",
                 nplain, nplain == 1 ? "" : "s");
      if (h && h->time_passes && h->time_to)
         fprintf(h->time_to, "xeopt: time: second run (%u kernel%s no later pass rewrote)\n",
                 nplain, nplain == 1 ? "" : "s");
      valid = input_valid;
      s = xe_pipeline_run(m, o, run, &j2, &r->remarks, h, &valid, &err);
      xe_report_label_run(h, second_run, "second run");
      if (s == XE_OK)
         xe_plain_merge_remarks(m, &j2, &first, &r->remarks);
      xe_remarks_free(&first);
   }
   xe_judge_free(&j2);
   if (s != XE_OK) {
      fail(r, (xeopt_status)s, err);
      xe_module_free(m);
      return;
   }
   if (o->validate && !valid && !xe_validate(m, &err)) {
      warn(r, "output does not validate (nor did the input): %s", err);
      free(err);
      err = NULL;
   }
   if (verify > 0) {
      xe_module *before = xe_read(bytes, size, &err);
      char *text = NULL;
      size_t len = 0;
      FILE *log = open_memstream(&text, &len);
      if (!log)
         xe_out_of_memory();
      bool same = before && xe_verify_modules(before, m, o, log, &err);
      xe_module_free(before);
      fclose(log);
      /* A library prints nothing: the findings become warnings. */
      for (char *l = text, *e; l && *l; l = e ? e + 1 : NULL) {
         if ((e = strchr(l, '\n')))
            *e = 0;
         if (!strncmp(l, "warning: ", 9))
            l += 9;
         warn(r, "verify: %s", l);
      }
      free(text);
      if (!same) {
         fail(r, XEOPT_ERROR_VERIFY, err ? err : strdup("verification failed"));
         xe_module_free(m);
         return;
      }
   }
   r->words = xe_write(m, &r->nwords, false);
   if (m->manifest) {
      if (h && h->manifest_module &&
          !cJSON_AddStringToObject(m->manifest, "module", h->manifest_module))
         xe_out_of_memory();
      r->manifest_json = cJSON_Print(m->manifest);
   }
   if (h && h->leave_module && !*h->leave_module)
      *h->leave_module = m;
   else
      xe_module_free(m);
}

/* Where the last run of the pipeline starts among the report's "passes"
 * entries from index from on: the output of optimize is its last run's. */
static unsigned last_run(const xe_pipeline_hooks *h, unsigned from)
{
   const cJSON *arr = h && h->report ? cJSON_GetObjectItem(h->report, "passes") : NULL;
   int n = cJSON_GetArraySize(arr);
   const char *last = n ? cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetArrayItem(arr, n - 1), "run")) : NULL;
   int k = n;
   while (k > (int)from && last) {
      const char *run = cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetArrayItem(arr, k - 1), "run"));
      if (!run || strcmp(run, last))
         break;
      k--;
   }
   return last ? (unsigned)k : from;
}

xeopt_result *xe_optimize_ex(const xe_options *o, const void *bytes, size_t size,
                             const xe_pipeline_hooks *h)
{
   xeopt_result *volatile r = calloc(1, sizeof(*r));
   if (!r)
      return NULL;
   r->warnings = strdup("");
   r->target = o->target;
   r->isa_check = o->isa_check;
   if (!r->warnings) {
      free(r);
      return NULL;
   }
   /* Out of memory anywhere below ends this call here (ir.h: xe_oom_arm)
    * with XEOPT_ERROR_INTERNAL and "out of memory".  The result keeps
    * what it owned; the module, judge and scratch of the failed run are
    * not freed (no frame below can run again to free them): a process
    * that ran out of memory should end, as the command line does. */
   jmp_buf oom;
   jmp_buf *volatile prev = xe_oom_arm(&oom);
   if (setjmp(oom)) {
      xe_oom_arm(prev);
      free(r->words);
      r->words = NULL;
      r->nwords = 0;
      free(r->error);
      r->status = XEOPT_ERROR_INTERNAL;
      r->error = strdup("out of memory");
      return r;
   }
   char *err = NULL;
   if (!xe_pipeline_check(o, &err))
      fail(r, XEOPT_ERROR_INPUT, err);
   else if (o->isa_check)
      xe_isa_check_optimize(r, o, bytes, size, h, optimize);
   else {
      xe_judge j;
      xe_judge_init(&j, o, XE_JUDGE_MODEL);
      unsigned from = xe_report_passes_count(h);
      optimize(r, o, NULL, &j, bytes, size, h);
      xe_report_mark_shipped(h, last_run(h, from), xe_report_passes_count(h));
      xe_judge_free(&j);
   }
   xe_oom_arm(prev);
   return r;
}

xeopt_result *xeopt_optimize(const xeopt_options *options, const void *bytes, size_t size)
{
   return xe_optimize_ex(&options->o, bytes, size, NULL);
}

xeopt_status xeopt_result_status(const xeopt_result *r)
{
   return r->status;
}

const char *xeopt_result_error(const xeopt_result *r)
{
   return r->error;
}

const uint32_t *xeopt_result_words(const xeopt_result *r, size_t *nwords)
{
   if (nwords)
      *nwords = r->status == XEOPT_OK ? r->nwords : 0;
   return r->status == XEOPT_OK ? r->words : NULL;
}

const char *xeopt_result_remarks_json(const xeopt_result *cr)
{
   /* Built on the first request, not with every result: for a module of
    * 400 kernels the JSON took a tenth of the whole run, and the command
    * line asks for it only with --report.  The text is a cache of
    * r->remarks, so filling it in does not change the result. */
   xeopt_result *r = (xeopt_result *)cr;
   if (!r->remarks_json)
      r->remarks_json = remarks_json(&r->remarks);
   return r->remarks_json;
}

const char *xeopt_result_warnings(const xeopt_result *r)
{
   return r->warnings;
}

const char *xeopt_result_manifest_json(const xeopt_result *r)
{
   return r->manifest_json;
}

void xeopt_result_destroy(xeopt_result *r)
{
   if (!r)
      return;
   free(r->error);
   free(r->warnings);
   free(r->words);
   cJSON_free(r->remarks_json);
   cJSON_free(r->manifest_json);
   xe_remarks_free(&r->remarks);
   free(r);
}
