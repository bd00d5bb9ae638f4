/*
 * --verify: differential execution of the input and the optimized module.
 * Every kernel runs on the same random launches in both; every buffer must
 * come back byte for byte equal.  A launch on which the input itself fails
 * (out of bounds, division by zero) is not a valid test of the rewrite: it
 * is skipped with a remark, and another launch is tried.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "internal.h"
#include "launch.h"
#include "pass.h"

/* The host contract of the optimized module (docs/manifest.md):
 * manifest.kernels[K] sections that constrain a launch.
 *  - spec_constants: an entry with flag_default true fixes argument
 *    `index` to `value_default`.
 *  - padding, kind "buffer": argument `arg` holds at least `min_elements`
 *    (a formula over arguments and launch sizes) elements, and elements the
 *    excluded work-items write are garbage the host ignores: the argument is
 *    marked in *padded.
 * (LocalSize/SubgroupSize requirements are execution modes of the module,
 * which the launch follows anyway; launches are always uniform.)
 * Passes that add other sections extend this function. */
static void verify_launch_from_contract(const xe_module *m, const char *kernel,
                                        int64_t *fixed_scalar, bool *padded, unsigned nparams)
{
   if (!m->manifest) return;
   cJSON *k = cJSON_GetObjectItem(cJSON_GetObjectItem(m->manifest, "kernels"), kernel);
   if (!k) return;
   cJSON *it;
   cJSON_ArrayForEach(it, cJSON_GetObjectItem(k, "spec_constants")) {
      cJSON *flag = cJSON_GetObjectItem(it, "flag_default"), *idx = cJSON_GetObjectItem(it, "index");
      cJSON *val = cJSON_GetObjectItem(it, "value_default");
      if (cJSON_IsTrue(flag) && cJSON_IsNumber(idx) && cJSON_IsString(val) &&
          (unsigned)idx->valuedouble < nparams)
         fixed_scalar[(unsigned)idx->valuedouble] = strtoll(val->valuestring, NULL, 10);
   }
   cJSON_ArrayForEach(it, cJSON_GetObjectItem(k, "padding")) {
      cJSON *kind = cJSON_GetObjectItem(it, "kind"), *arg = cJSON_GetObjectItem(it, "arg");
      if (cJSON_IsString(kind) && !strcmp(kind->valuestring, "buffer") && cJSON_IsNumber(arg) &&
          (unsigned)arg->valuedouble < nparams)
         padded[(unsigned)arg->valuedouble] = true;
   }
}

/* A manifest size formula (docs/manifest.md, "Formulas") for a launch. */
static int64_t eval_formula(const cJSON *f, const xe_launch *l, const double *sval)
{
   const cJSON *t, *mx = cJSON_GetObjectItem(f, "max_of");
   int64_t r = 0;
   if (mx) {
      bool first = true;
      cJSON_ArrayForEach(t, mx) {
         int64_t v = eval_formula(t, l, sval);
         if (first || v > r) r = v;
         first = false;
      }
      return r;
   }
   cJSON_ArrayForEach(t, cJSON_GetObjectItem(f, "terms")) {
      const cJSON *c = cJSON_GetObjectItem(t, "coeff"), *a = cJSON_GetObjectItem(t, "arg");
      const cJSON *q = cJSON_GetObjectItem(t, "launch"), *d = cJSON_GetObjectItem(t, "dim");
      int64_t v = c ? (int64_t)c->valuedouble : 1;
      if (a && (unsigned)a->valuedouble < l->nargs) v *= (int64_t)sval[(unsigned)a->valuedouble];
      if (cJSON_IsString(q)) {
         unsigned dim = d ? (unsigned)d->valuedouble % 3 : 0;
         if (!strcmp(q->valuestring, "global_size")) v *= (int64_t)l->global[dim];
         else if (!strcmp(q->valuestring, "global_offset")) v *= (int64_t)l->offset[dim];
         else if (!strcmp(q->valuestring, "local_size")) v *= (int64_t)l->local[dim];
      }
      r += v;
   }
   return r;
}

/* The largest min_elements of argument k in the padding section, or 0. */
static uint64_t padded_min_elements(const xe_module *m, const char *kernel, unsigned k,
                                    const xe_launch *l, const double *sval)
{
   if (!m->manifest) return 0;
   cJSON *it, *sec = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(m->manifest, "kernels"), kernel), "padding");
   int64_t best = 0;
   cJSON_ArrayForEach(it, sec) {
      cJSON *arg = cJSON_GetObjectItem(it, "arg"), *f = cJSON_GetObjectItem(it, "min_elements");
      if (cJSON_IsNumber(arg) && (unsigned)arg->valuedouble == k && f) {
         int64_t v = eval_formula(f, l, sval);
         if (v > best) best = v;
      }
   }
   return (uint64_t)best;
}

static void free_args(xe_launch *l)
{
   for (unsigned k = 0; k < l->nargs; k++) {
      free(l->args[k].data);
      l->args[k].data = NULL;
   }
}

static void copy_args(xe_launch *dst, const xe_launch *src)
{
   *dst = *src;
   for (unsigned k = 0; k < src->nargs; k++)
      if (src->args[k].data) {
         dst->args[k].data = malloc(src->args[k].size + 1);
         memcpy(dst->args[k].data, src->args[k].data, src->args[k].size);
      }
}

static void print_launch(FILE *log, const xe_launch *l)
{
   fprintf(log, "  launch: --global %llu --local %llu --subgroup-size %u",
           (unsigned long long)l->global[0], (unsigned long long)l->local[0], l->subgroup_size);
   for (unsigned k = 0; k < l->nargs; k++) {
      if (l->args[k].kind == XE_ARG_SCALAR)
         fprintf(log, " arg%u=%lld", k, (long long)ld_s(l->args[k].data, (unsigned)l->args[k].size));
      else
         fprintf(log, " arg%u=%s[%llu bytes]", k, l->args[k].kind == XE_ARG_LOCAL ? "local" : "buf",
                 (unsigned long long)l->args[k].size);
   }
   fputc('\n', log);
}

/* Races (docs/exec.md): a launch on which the input races is not a test of
 * the rewrite (its result depends on the order work-items run in), so it is
 * skipped like an out-of-bounds one; a race only the output has is a
 * finding.  Returns -1 to skip the launch, 1 for a finding, 0 otherwise;
 * lb is NULL when only the input has run. */
static int verify_races(const char *kernel, const xe_launch *la, const xe_launch *lb, bool quiet,
                        FILE *log)
{
   if (la->races) {
      if (!quiet) fprintf(log, "note: kernel %s: launch skipped, the input races on it: %s\n", kernel, la->race);
      return -1;
   }
   if (lb && lb->races) {
      fprintf(log, "kernel %s: the optimized module races where the input does not: %s\n", kernel, lb->race);
      return 1;
   }
   return 0;
}

/* Returns 1 on a difference, 0 when equal or skipped. */
static int one_launch(xe_module *a, xe_module *b, const xe_kernel *ka, const xe_kernel *kb,
                      unsigned trial, unsigned n, uint64_t *seed, FILE *log, bool quiet, bool *valid,
                      bool *unsupported)
{
   enum xe_arg_kind kind[XE_EXEC_MAX_ARGS];
   unsigned elem[XE_EXEC_MAX_ARGS];
   bool isf[XE_EXEC_MAX_ARGS];
   int np = xe_exec_params(a, ka->name, kind, elem, isf, XE_EXEC_MAX_ARGS);
   int npb = xe_exec_params(b, ka->name, NULL, NULL, NULL, 0);
   if (np != npb) {
      fprintf(log, "kernel %s: %d parameters in the input, %d in the output\n",
              ka->name, np, npb);
      return 1;
   }
   xe_launch l = {0};
   l.kernel = ka->name;
   l.nargs = (unsigned)np;
   l.dims = 1;
   l.max_steps = 400000000;
   const uint32_t *ls = kb->local_size[0] ? kb->local_size : ka->local_size;
   l.subgroup_size = kb->subgroup_size ? kb->subgroup_size : ka->subgroup_size ? ka->subgroup_size : 16;
   for (int d = 0; d < 3; d++) {
      l.local[d] = ls[0] ? ls[d] : d == 0 ? (trial % 2 ? 32 : 16) : 1;
      /* Last retries: a single work-group, for kernels that read a lot
       * per work-item. */
      l.global[d] = l.local[d] * (d == 0 && trial < 2 * n ? 2 + trial % 3 : 1);
   }
   int64_t fixed[XE_EXEC_MAX_ARGS];
   bool padded[XE_EXEC_MAX_ARGS] = {0};
   for (int k = 0; k < np; k++) fixed[k] = INT64_MIN;
   verify_launch_from_contract(b, ka->name, fixed, padded, (unsigned)np);
   uint64_t total = l.global[0] * l.global[1] * l.global[2];
   uint64_t lt = l.local[0] * l.local[1] * l.local[2];
   /* Scalars first: buffers are sized for the largest one, so that a
    * kernel indexing a[i * n + k] stays inside. */
   int64_t smax = 256;
   double sval[XE_EXEC_MAX_ARGS] = {0};
   for (int k = 0; k < np; k++) {
      if (kind[k] != XE_ARG_SCALAR) continue;
      uint64_t r = xe_rand(seed);
      sval[k] = fixed[k] != INT64_MIN ? (double)fixed[k]
                : isf[k] ? (double)(r % 17) / 4.0
                : (double)(1 + r % (trial < n ? total : trial < 2 * n ? 4 : 1));
      if (!isf[k] && sval[k] > smax) smax = (int64_t)sval[k];
   }
   for (int k = 0; k < np; k++) {
      xe_arg_spec s = {0};
      s.kind = kind[k];
      s.elem = elem[k] ? elem[k] : 1;
      s.is_float = isf[k];
      s.is_signed = true;
      s.fill = FILL_RANDOM;
      /* Retries: small data too, in case the kernel indexes with it. */
      s.range = trial < n ? 256 : 16;
      if (kind[k] == XE_ARG_BUFFER) {
         /* Retries after launches the input could not run: 8x larger. */
         s.count = total * (uint64_t)(smax + 4) * (trial < n ? 1 : trial < 2 * n ? 8 : 64) + 64;
         if (s.count * s.elem > (64u << 20)) s.count = (64u << 20) / s.elem;
         uint64_t need = padded_min_elements(b, ka->name, (unsigned)k, &l, sval);
         if (need > s.count) s.count = need;
      }
      else if (kind[k] == XE_ARG_LOCAL) { s.count = lt * 64 * s.elem; s.elem = 1; }
      else {
         s.count = 1;
         s.value = sval[k];
      }
      xe_arg_materialize(&s, &l.args[k], xe_rand(seed));
   }
   xe_launch la, lb;
   l.racecheck = true;
   copy_args(&la, &l);
   copy_args(&lb, &l);
   char *err = NULL;
   int rc = 0;
   *valid = false;
   if (!xe_exec_run(a, &la, &err)) {
      if (strstr(err, "unsupported")) {
         /* The interpreter's gap, not an invalid launch: no retry helps. */
         fprintf(log, "warning: kernel %s NOT verified: %s\n", ka->name, err);
         *valid = true;
         *unsupported = true;
         free(err);
         goto out;
      }
      if (!quiet) {
         fprintf(log, "note: kernel %s: launch skipped, the input fails on it: %s\n",
                 ka->name, err);
      }
      free(err);
      goto out;
   }
   if (verify_races(ka->name, &la, NULL, quiet, log))
      goto out;
   *valid = true;
   if (!xe_exec_run(b, &lb, &err)) {
      fprintf(log, "kernel %s: the optimized module fails where the input runs: %s\n",
              ka->name, err);
      print_launch(log, &l);
      free(err);
      rc = 1;
      goto out;
   }
   if (verify_races(ka->name, &la, &lb, quiet, log)) {
      print_launch(log, &l);
      rc = 1;
      goto out;
   }
   for (int k = 0; k < np && !rc; k++) {
      if (kind[k] != XE_ARG_BUFFER) continue;
      for (uint64_t i = 0; i < la.args[k].size; i++) {
         if (la.args[k].data[i] == lb.args[k].data[i]) continue;
         /* Padding the host ignores: the input did not write there (the
          * byte kept its initial value), the optimized module may. */
         if (padded[k] && la.args[k].data[i] == l.args[k].data[i]) continue;
         unsigned e = elem[k] && elem[k] <= 8 ? elem[k] : 1;
         uint64_t idx = i / e;
         fprintf(log, "kernel %s: argument %d differs at element %llu (byte %llu): "
                 "input 0x%llx, optimized 0x%llx\n", ka->name, k, (unsigned long long)idx,
                 (unsigned long long)i, (unsigned long long)ld_u(la.args[k].data + idx * e, e),
                 (unsigned long long)ld_u(lb.args[k].data + idx * e, e));
         print_launch(log, &l);
         rc = 1;
         break;
      }
   }
out:
   free_args(&la);
   free_args(&lb);
   free_args(&l);
   return rc;
}

int xe_exec_verify(xe_module *a, xe_module *b, unsigned n, bool quiet, FILE *log)
{
   char *why = NULL;
   for (int side = 0; side < 2; side++) {
      if (!xe_exec_check_module(side ? b : a, &why)) {
         fprintf(log, "cannot run the %s module, it does not validate: %s\n",
                 side ? "optimized" : "input", why);
         free(why);
         return 2;
      }
   }
   xe_kernel ka[64], kb;
   unsigned nk = xe_kernels(a, ka, 64);
   int rc = 0;
   for (unsigned k = 0; k < nk && !rc; k++) {
      if (!xe_kernel_by_name(b, ka[k].name, &kb)) {
         fprintf(log, "kernel %s is missing from the output\n", ka[k].name);
         return 1;
      }
      uint64_t seed = 0x5eed + k;
      unsigned ok = 0;
      bool unsup = false;
      for (unsigned t = 0; t < 3 * n && ok < n && !rc && !unsup; t++) {
         bool valid = false;
         rc = one_launch(a, b, &ka[k], &kb, t, n, &seed, log, quiet, &valid, &unsup);
         ok += valid;
      }
      if (unsup)
         continue;
      if (!rc && !quiet && !ok)
         fprintf(log, "warning: kernel %s NOT verified: no launch was valid for the input\n",
                 ka[k].name);
      else if (!rc && !quiet && ok < n)
         fprintf(log, "note: kernel %s: only %u of %u launches were valid for the input\n",
                 ka[k].name, ok, n);
   }
   return rc;
}

/* The driver's entry point (exec.h). */
bool xe_verify_modules(const xe_module *before, const xe_module *after, const xe_options *o,
                       FILE *log, char **report)
{
   int rc = xe_exec_verify((xe_module *)before, (xe_module *)after, (unsigned)o->verify, false, log);
   if (!rc)
      return true;
   *report = strdup(rc == 2 ? "--verify could not run the modules (see above); no output written"
                            : "--verify: the optimized module computes different results (see "
                              "above); no output written");
   return false;
}
