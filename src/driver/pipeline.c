/*
 * The pass registry and the pipeline driver.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "cfg.h"
#include "io.h"
#include "ocloc.h"
#include "passes.h"
#include "pipeline.h"

/* Default order.  Levels: bit 1 = -O1, bit 2 = -O2. */
static const xe_pass_info registry[] = {
   /* First: the analyses of every later pass read ids through what the
    * front end left unfolded (clang 21's and ocloc 26's inlined builtins). */
   { "canonicalize", "fold what today's front ends leave unfolded (constant selects, shift-pair sign extensions)",
     xeopt_pass_canonicalize, 6, XE_PRESERVE_CFG },
   { "generic-address", "give Generic pointers the one storage class that reaches them",
     xeopt_pass_generic_address, 6, XE_PRESERVE_NONE },
   /* Before the guard passes: ocloc's early returns reach the shape the
    * region analyses accept only once its cleanup switch is folded. */
   { "simplify-cfg", "fold branches on known values (ocloc's cleanup switch), bypass empty blocks",
     xeopt_pass_simplify_cfg, 4, XE_PRESERVE_NONE },
   { "padding", "remove bounds-check branches of padded buffers (--assume-padded)",
     xeopt_pass_padding, 4, XE_PRESERVE_NONE },
   { "block-io", "turn lane-contiguous global loads/stores into sub-group block reads/writes",
     xeopt_pass_block_io, 4, XE_PRESERVE_CFG },
   /* After padding and block-io: what a host promise let them do needs
    * no run-time test. */
   { "subgroup-versioning", "add a fast copy (no guard, block reads/writes) chosen per sub-group at run time",
     xeopt_pass_subgroup_versioning, 4, XE_PRESERVE_NONE },
   { "loop-spec-constants", "let the runtime fold loop bounds taken from kernel arguments",
     xeopt_pass_loop_spec_constants, 4, XE_PRESERVE_CFG },
   { "private-arrays", "shrink private arrays (length, element type, scalars, no volatile)",
     xeopt_pass_private_arrays, 6, XE_PRESERVE_CFG },
   { "interface-vars", "list every global variable an entry point uses in its interface",
     xeopt_pass_interface_vars, 6, XE_PRESERVE_CFG },
   /* Only with --passes: the passes above clean up after themselves. */
   { "dce", "delete the values nothing uses (not in -O1 or -O2)",
     xeopt_pass_dce, 0, XE_PRESERVE_CFG },
   /* Last: other passes may add blocks. */
   { "block-order", "write blocks in dominance order so the output validates",
     xeopt_pass_block_order, 6, XE_PRESERVE_NONE },
};

const xe_pass_info *xe_passes(unsigned *count)
{
   *count = sizeof(registry) / sizeof(registry[0]);
   return registry;
}

const xe_pass_info *xe_pass_find(const char *name)
{
   for (unsigned k = 0; k < sizeof(registry) / sizeof(registry[0]); k++) {
      if (!strcmp(registry[k].name, name))
         return &registry[k];
   }
   return NULL;
}

char *xe_unknown_pass(const char *name)
{
   char *msg;
   size_t n;
   FILE *f = open_memstream(&msg, &n);
   if (!f)
      abort();
   fprintf(f, "unknown pass '%s' (the passes: ", name);
   for (unsigned k = 0; k < sizeof(registry) / sizeof(registry[0]); k++)
      fprintf(f, "%s%s", k ? ", " : "", registry[k].name);
   fputs(")", f);
   fclose(f);
   return msg;
}

bool xe_pipeline_check(const xe_options *o, char **err)
{
   for (unsigned k = 0; k < o->passes.n; k++) {
      if (!xe_pass_find(o->passes.v[k])) {
         *err = xe_unknown_pass(o->passes.v[k]);
         return false;
      }
   }
   /* IGC in the loop needs IGC (isa_check.c). */
   if (o->isa_check && !xe_isa_check_tools(o->ocloc, err))
      return false;
   return true;
}

static double now(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void print_after(const xe_pass_info *p, xe_module *m, const xe_pipeline_hooks *h)
{
   if (!h || !h->print_after || !h->print_to)
      return;
   if (strcmp(h->print_after, "all") && strcmp(h->print_after, p->name))
      return;
   char *text = xe_disassemble(m, false);
   fprintf(h->print_to, "; *** after %s ***\n%s", p->name, text ? text : "; (disassembly failed)\n");
   free(text);
}

/* XEOPT_CHECK_PASSES=1 (the test suite sets it): after every pass, the
 * module's structure, its use lists and indexes against a fresh walk, and
 * every still-valid cached analysis against a fresh computation, as
 * nir_validate and SPIRV-Tools' IsConsistent do.  A difference is an
 * internal error naming the pass that left it. */
static bool check_after(const xe_pass_info *p, xe_module *m, char **err)
{
   const char *e = getenv("XEOPT_CHECK_PASSES");
   if (!e || strcmp(e, "1"))
      return true;
   char *msg = xe_check_structure(m);
   if (!msg && !xe_check_uses(m, &msg) && !msg)
      msg = strdup("use lists differ");
   const char *kwhy = msg ? NULL : xe_check_kernels(m);
   if (kwhy && asprintf(&msg, "the remembered kernel list is stale (%s)", kwhy) < 0)
      xe_out_of_memory();
   const char *fwhy = msg ? NULL : xe_check_layout_facts(m);
   if (fwhy)
      msg = strdup(fwhy);
   if (msg) {
      if (asprintf(err, "after pass %s: %s", p->name, msg) < 0)
         xe_out_of_memory();
      free(msg);
      return false;
   }
   xe_foreach_fn(f, m) {
      const char *why = xe_check_cfg(f);
      const char *what = "CFG";
      if (!why) {
         why = xe_check_loops(f);
         what = "loops";
      }
      if (why) {
         if (asprintf(err, "after pass %s: the cached %s of function %%%u is stale (%s)", p->name,
                      what, xe_function_id(f), why) < 0)
            xe_out_of_memory();
         return false;
      }
   }
   return true;
}

static enum xe_status run_one(const xe_pass_info *p, xe_module *m, const xe_options *o,
                              enum xe_measure_path measure, const xe_judge *j, xe_remarks *r,
                              const xe_pipeline_hooks *h, bool *valid, char **err)
{
   r->pass = p->name;
   double t0 = now();
   xe_ctx ctx = { .module = m, .options = o, .remarks = r, .judge = j, .measure_path = measure };
   bool progress = p->run(&ctx);
   double dt = now() - t0;
   r->pass = NULL;
   /* The edit functions keep the use lists current and make the analyses
    * of the functions they change stale (generation counters); a pass that
    * does not declare the CFG preserved may have changed code behind them,
    * so the module epoch drops every cached analysis, in O(1). */
   if (progress && !(p->preserves & XE_PRESERVE_CFG))
      xe_module_invalidate(m);
   else
      xe_uses_release(m);
   /* The passes count no debug info as a use: what they deleted or moved
    * a DebugValue may still name. */
   if (progress)
      xe_debug_info_repair(m);
   if (!check_after(p, m, err))
      return XE_INTERNAL;
   if (h && h->time_passes && h->time_to)
      fprintf(h->time_to, "xeopt: time: %-24s %10.4f ms%s\n", p->name, dt * 1e3,
              progress ? "  (changed)" : "");
   if (h && h->report) {
      cJSON *arr = cJSON_GetObjectItem(h->report, "passes");
      if (!arr)
         arr = cJSON_AddArrayToObject(h->report, "passes");
      cJSON *e = cJSON_CreateObject();
      cJSON_AddStringToObject(e, "name", p->name);
      cJSON_AddBoolToObject(e, "changed", progress);
      cJSON_AddNumberToObject(e, "milliseconds", dt * 1e3);
      cJSON_AddItemToArray(arr, e);
   }
   print_after(p, m, h);
   if (progress && o->validate) {
      char *msg = NULL;
      bool ok = xe_validate(m, &msg);
      if (!ok && *valid) {
         if (asprintf(err, "pass %s produced an invalid module: %s", p->name, msg) < 0)
            xe_out_of_memory();
         free(msg);
         return XE_INTERNAL;
      }
      free(msg);
      *valid = ok;
   }
   return XE_OK;
}

static cJSON *report_passes(const xe_pipeline_hooks *h)
{
   return h && h->report ? cJSON_GetObjectItem(h->report, "passes") : NULL;
}

unsigned xe_report_passes_count(const xe_pipeline_hooks *h)
{
   return (unsigned)cJSON_GetArraySize(report_passes(h));
}

void xe_report_label_run(const xe_pipeline_hooks *h, unsigned from, const char *run)
{
   cJSON *e, *arr = report_passes(h);
   unsigned k = 0;
   cJSON_ArrayForEach(e, arr) {
      if (k++ >= from && !cJSON_GetObjectItem(e, "run") && !cJSON_AddStringToObject(e, "run", run))
         abort();
   }
}

void xe_report_mark_shipped(const xe_pipeline_hooks *h, unsigned from, unsigned to)
{
   cJSON *e, *arr = report_passes(h);
   unsigned k = 0;
   cJSON_ArrayForEach(e, arr) {
      if (k >= from && k < to && !cJSON_AddBoolToObject(e, "shipped", true))
         abort();
      k++;
   }
}

/* The passes model OpenCL kernels (OpenCL memory model, Kernel entry
 * points, SPIR-V 2.16's Kernel rules).  Anything else, a Vulkan compute
 * shader say, is written back as it came; says why in buf. */
static bool kernel_module(const xe_module *m, char *buf, size_t n)
{
   xe_inst *mm = m->sec[XE_SEC_MEMORY_MODEL].first;
   if (mm && xe_op(mm, 1) != SpvMemoryModelOpenCL) {
      snprintf(buf, n, "memory model %s is not OpenCL",
               xe_op(mm, 1) == SpvMemoryModelGLSL450 ? "GLSL450"
               : xe_op(mm, 1) == SpvMemoryModelVulkan ? "Vulkan" : "Simple");
      return false;
   }
   xe_foreach_inst(e, &m->sec[XE_SEC_ENTRY_POINT]) {
      if (xe_op(e, 0) != SpvExecutionModelKernel) {
         snprintf(buf, n, "entry point %s has execution model %u, not Kernel",
                  (const char *)&e->words[e->first_op + 2], xe_op(e, 0));
         return false;
      }
   }
   return true;
}

enum xe_status xe_pipeline_run(xe_module *m, const xe_options *o, const xe_run *run, const xe_judge *j,
                               xe_remarks *r, const xe_pipeline_hooks *h, bool *valid, char **err)
{
   enum xe_measure_path measure = run ? run->measure_path : o->measure_path;
   char why[256];
   if (!kernel_module(m, why, sizeof why)) {
      r->pass = "pipeline";
      xe_remark(r, NULL, XE_REMARK_MISSED,
                "not an OpenCL kernel module (%s): no pass runs, the module is written unchanged", why);
      r->pass = NULL;
      return XE_OK;
   }
   if (o->passes.n) {
      /* The rewrites' analyses read the canonical form: when a list names
       * one and not canonicalize, canonicalize runs first (a module from
       * clang 21 or ocloc 26 otherwise hides every candidate). */
      bool rewrite = false, canonical = false;
      for (unsigned k = 0; k < o->passes.n; k++) {
         const char *n = o->passes.v[k];
         canonical |= !strcmp(n, "canonicalize");
         rewrite |= strcmp(n, "canonicalize") && strcmp(n, "block-order") && strcmp(n, "interface-vars");
      }
      if (rewrite && !canonical) {
         enum xe_status s = run_one(&registry[0], m, o, measure, j, r, h, valid, err);
         if (s != XE_OK)
            return s;
      }
      for (unsigned k = 0; k < o->passes.n; k++) {
         const xe_pass_info *p = xe_pass_find(o->passes.v[k]);
         if (!p) {
            if (asprintf(err, "unknown pass '%s'", o->passes.v[k]) < 0)
               xe_out_of_memory();
            return XE_BAD_INPUT;
         }
         enum xe_status s = run_one(p, m, o, measure, j, r, h, valid, err);
         if (s != XE_OK)
            return s;
      }
      return XE_OK;
   }
   if (o->level <= 0)
      return XE_OK;
   for (unsigned k = 0; k < sizeof(registry) / sizeof(registry[0]); k++) {
      if (!(registry[k].levels & (1u << o->level)))
         continue;
      enum xe_status s = run_one(&registry[k], m, o, measure, j, r, h, valid, err);
      if (s != XE_OK)
         return s;
   }
   return XE_OK;
}
