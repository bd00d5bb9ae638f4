/*
 * The launch's key and its variants (docs/layer.md, "Launch facts and
 * variants"): the facts of a launch as a key and as xeopt's promises,
 * the variant made for a key (xeopt with the promises, built by the
 * driver), the driver as its first judge, and the decisions the cache
 * remembers for it.  Apart from launch.c so that each file stays small;
 * the clock, the second judge, is launch_clock.c.
 */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "cl_layer.h"
#include "frontend.h"
#include "launch_internal.h"

#ifndef CL_KERNEL_SPILL_MEM_SIZE_INTEL
#define CL_KERNEL_SPILL_MEM_SIZE_INTEL 0x4109
#endif

/* ---- facts and the key ----------------------------------------------------------- */

void xl_add(text *t, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   int k = vsnprintf(t->s + t->n, sizeof t->s - t->n, fmt, ap);
   va_end(ap);
   if (k < 0 || (size_t)k >= sizeof t->s - t->n)
      t->full = true;
   else
      t->n += (size_t)k;
}

static size_t subgroup_size(kstate *ks, cl_device_id dev, cl_uint dim, const size_t *local)
{
   if (ks->sg_dev == dev && ks->sg_dim == dim && !memcmp(ks->sg_local, local, dim * sizeof *local))
      return ks->sg;
   size_t sg = 0;
   if (xl_next->clGetKernelSubGroupInfo(ks->k, dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                        dim * sizeof *local, local, sizeof sg, &sg, NULL) != CL_SUCCESS)
      sg = 0;
   ks->sg_dev = dev;
   ks->sg_dim = dim;
   memcpy(ks->sg_local, local, dim * sizeof *local);
   ks->sg = sg;
   return sg;
}

/* The launch's key and the promises it allows (empty: none). */
bool xl_facts(kstate *ks, cl_device_id dev, cl_uint dim, const size_t *offset,
                  const size_t *global, const size_t *local, text *key, text *promises)
{
   if (dim < 1 || dim > 3 || !global)
      return false;
   const char *k = ks->name;
   bool uniform = false;
   size_t sg = 0;
   if (local) {
      uniform = true;
      for (cl_uint d = 0; d < dim; d++)
         uniform &= local[d] && global[d] % local[d] == 0;
      size_t l[3] = { 1, 1, 1 };
      memcpy(l, local, dim * sizeof *l);
      xl_add(key, "local=%zu,%zu,%zu%s", l[0], l[1], l[2], uniform ? "" : " nonuniform");
      if (uniform)
         xl_add(promises, " --local-size=%s:%zu,%zu,%zu", k, l[0], l[1], l[2]);
      sg = subgroup_size(ks, dev, dim, local);
      if (sg)
         xl_add(key, " sg=%zu", sg);
      if (sg == 8 || sg == 16 || sg == 32) /* the sizes xeopt takes (Intel's GPUs) */
         xl_add(promises, " --subgroup-size=%s:%zu", k, sg);
   }
   bool offset0 = true;
   for (cl_uint d = 0; offset && d < dim; d++)
      offset0 &= offset[d] == 0;
   if (!offset0)
      xl_add(key, "%soffset=%zu", key->n ? " " : "", offset[0]);
   bool aligned = true, buffers = false;
   for (unsigned i = 0; i < ks->nparams; i++) {
      if (ks->pk[i] != PK_GLOBAL)
         continue;
      xl_add(key, "%s%u", buffers ? "," : key->n ? " align=" : "align=", ks->args[i].align);
      aligned &= ks->args[i].align >= 16;
      buffers = true;
   }
   if (buffers && aligned && (offset0 || (sg && offset[0] % sg == 0)))
      xl_add(promises, " --assume-aligned");
   for (unsigned i = 0; i < ks->nparams; i++) {
      const xl_arg *a = &ks->args[i];
      if (ks->pk[i] != PK_INT || a->how != ARG_VALUE || a->size > 8 || (i < 64 && (ks->nospec >> i) & 1) ||
          a->repeats < SCALAR_REPEATS)
         continue;
      xl_add(key, "%sarg%u=%llu", key->n ? " " : "", i, (unsigned long long)a->scalar);
      xl_add(promises, " --specialize=%s:%u=%llu", k, i, (unsigned long long)a->scalar);
   }
   if (xl_core_promises_padded(xl_core_get()) && uniform)
      xl_add(promises, " --assume-padded=%s", k);
   return !key->full && !promises->full && ks->name_ok;
}

/* ---- making a variant --------------------------------------------------------------- */

static char *device_name(cl_device_id d)
{
   size_t n = 0;
   if (xl_next->clGetDeviceInfo(d, CL_DEVICE_NAME, 0, NULL, &n) != CL_SUCCESS)
      return strdup("?");
   char *s = calloc(n + 1, 1);
   if (s)
      xl_next->clGetDeviceInfo(d, CL_DEVICE_NAME, n, s, NULL);
   return s;
}

void xl_set_state(xl_core *core, variant *v, vstate st, const char *state, const char *by,
                      const char *reason)
{
   v->st = st;
   xl_core_lock(core);
   v->rec->state = state;
   if (by)
      v->rec->decided_by = by;
   if (reason) {
      free(v->rec->reason);
      v->rec->reason = strdup(reason);
   }
   xl_core_unlock(core);
}

/* Arguments xeopt's remarks say bound no loop: no longer specialized.
 * Read from the remarks' data (decision "specialize_unused" and its
 * "argument", xeopt.h), never from the message, which is for people. */
static bool unused_specializations(kstate *ks, const char *remarks)
{
   cJSON *r = remarks ? cJSON_Parse(remarks) : NULL, *it;
   bool changed = false;
   cJSON_ArrayForEach(it, r) {
      const cJSON *d = cJSON_GetObjectItem(it, "decision"), *a = cJSON_GetObjectItem(it, "argument");
      if (!cJSON_IsString(d) || strcmp(d->valuestring, "specialize_unused") || !cJSON_IsNumber(a))
         continue;
      int i = a->valueint;
      if (i >= 0 && i < 64 && !((ks->nospec >> i) & 1)) {
         ks->nospec |= 1ull << i;
         changed = true;
      }
   }
   cJSON_Delete(r);
   return changed;
}

/* The driver's build of a variant module for dev. */
static cl_program build_variant(xl_core *core, xl_cl_program *e, cl_device_id dev,
                                const void *bytes, size_t size, char *why, size_t whyn)
{
   cl_int err = CL_SUCCESS;
   cl_program p = xl_next->clCreateProgramWithIL(e->context, bytes, size, &err);
   if (!p || err != CL_SUCCESS) {
      snprintf(why, whyn, "clCreateProgramWithIL: %d", err);
      return NULL;
   }
   for (size_t i = 0; i < e->nspecs && err == CL_SUCCESS; i++)
      err = xl_next->clSetProgramSpecializationConstant(p, e->specs[i].id, e->specs[i].size,
                                                        e->specs[i].value);
   char *opts = e->origin == XL_ORIGIN_SOURCE ? xl_frontend_il_build_options(e->build_options)
                                              : strdup(e->build_options);
   char *faulty = NULL;
   if (opts && xl_core_fault(core, "variant-build") &&
       asprintf(&faulty, "%s -xeopt-layer-test-fault", opts) >= 0) {
      free(opts);
      opts = faulty;
   }
   if (err == CL_SUCCESS)
      err = opts ? xl_next->clBuildProgram(p, 1, &dev, opts, NULL, NULL) : CL_OUT_OF_HOST_MEMORY;
   free(opts);
   if (err != CL_SUCCESS) {
      snprintf(why, whyn, "the driver could not build the variant (%d)", err);
      xl_next->clReleaseProgram(p);
      return NULL;
   }
   return p;
}

/* The driver as first judge: NULL when the variant may run, else why not. */
static const char *driver_judge(xl_core *core, kstate *ks, variant *v, char *why, size_t whyn)
{
   cl_ulong pb = 0, pv = 0, sb = 0, sv = 0;
   size_t wb = 0, wv = 0;
   xl_next->clGetKernelWorkGroupInfo(ks->k, v->dev, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof pb, &pb, NULL);
   xl_next->clGetKernelWorkGroupInfo(v->kern, v->dev, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof pv, &pv, NULL);
   bool spills = xl_next->clGetKernelWorkGroupInfo(ks->k, v->dev, CL_KERNEL_SPILL_MEM_SIZE_INTEL,
                                                   sizeof sb, &sb, NULL) == CL_SUCCESS &&
                 xl_next->clGetKernelWorkGroupInfo(v->kern, v->dev, CL_KERNEL_SPILL_MEM_SIZE_INTEL,
                                                   sizeof sv, &sv, NULL) == CL_SUCCESS;
   /* the SIMD width: the sub-group size for the launch's local size, else
    * the preferred work-group multiple (Intel's GPUs: the SIMD width) */
   bool sg = v->dim &&
             xl_next->clGetKernelSubGroupInfo(ks->k, v->dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                              v->dim * sizeof(size_t), v->local, sizeof wb, &wb, NULL) == CL_SUCCESS &&
             xl_next->clGetKernelSubGroupInfo(v->kern, v->dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                              v->dim * sizeof(size_t), v->local, sizeof wv, &wv, NULL) == CL_SUCCESS;
   if (!sg) {
      wb = wv = 0;
      xl_next->clGetKernelWorkGroupInfo(ks->k, v->dev, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                        sizeof wb, &wb, NULL);
      xl_next->clGetKernelWorkGroupInfo(v->kern, v->dev, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                        sizeof wv, &wv, NULL);
   }
   if (xl_core_fault(core, "spill-variant")) {
      spills = true;
      sv = sb + 1024;
   }
   if (spills && sv > sb)
      snprintf(why, whyn, "spill memory %llu bytes, the base %llu", (unsigned long long)sv,
               (unsigned long long)sb);
   else if (pv > pb)
      snprintf(why, whyn, "private memory %llu bytes, the base %llu", (unsigned long long)pv,
               (unsigned long long)pb);
   else if (wv < wb)
      snprintf(why, whyn, "SIMD width %zu, the base %zu", wv, wb);
   else
      return NULL;
   return why;
}

/* Makes v's variant (ks->lock held).  Returns false when the key must be
 * computed again (an argument turned out not to be worth specializing). */
bool xl_make_variant(xl_core *core, kstate *ks, variant *v, const char *promises)
{
   char why[256];
   size_t size = 0;
   char *remarks = NULL, *error = NULL;
   bool failed = false;
   void *bytes = xl_optimize_variant(core, &ks->prog->device, ks->prog->module, ks->prog->module_size,
                                     promises, &size, &remarks, &failed, &error);
   bool respec = !failed && unused_specializations(ks, remarks);
   free(remarks);
   if (failed) {
      xl_set_state(core, v, V_NONE, "failed", NULL, error ? error : "xeopt failed");
      free(error);
      return true;
   }
   if (respec) {
      free(bytes);
      xl_set_state(core, v, V_NONE, "no_change", NULL, "a specialized argument bounds no loop");
      return false;
   }
   xl_key key = { 0, 0 };
   if (bytes) {
      const void *parts[] = { bytes };
      key = xl_key_of(parts, &size, 1);
   }
   if (!bytes || !memcmp(&key, ks->prog->base_key, sizeof key)) {
      free(bytes);
      xl_set_state(core, v, V_NONE, "no_change", NULL, "xeopt made no other rewrite with these facts");
      if (xl_core_specialize(core) == XL_SPEC_MEASURE)
         xl_decision_write(core, v->identity, "no_change");
      return true;
   }
   pthread_mutex_lock(&xl_launch_lock);
   bool budget = ks->made < xl_budget_per_kernel && xl_made_in_all < xl_budget_in_all;
   if (budget) {
      ks->made++;
      xl_made_in_all++;
   }
   pthread_mutex_unlock(&xl_launch_lock);
   if (!budget) {
      free(bytes);
      xl_set_state(core, v, V_NONE, "budget", NULL, "the variant budget is spent");
      return true;
   }
   cl_int err = CL_SUCCESS;
   v->prog = build_variant(core, ks->prog, v->dev, bytes, size, why, sizeof why);
   free(bytes);
   if (v->prog && (!(v->kern = xl_next->clCreateKernel(v->prog, ks->name, &err)) || err != CL_SUCCESS)) {
      snprintf(why, sizeof why, "clCreateKernel on the variant: %d", err);
      v->kern = NULL;
   }
   if (!v->kern) {
      xl_set_state(core, v, V_NONE, "failed", NULL, why);
      return true;
   }
   xl_core_count(core, XL_COUNT_VARIANT);
   if (driver_judge(core, ks, v, why, sizeof why)) {
      xl_core_count(core, XL_COUNT_DROPPED_BY_DRIVER);
      xl_set_state(core, v, V_NONE, "dropped_by_driver", "driver", why);
      if (xl_core_specialize(core) == XL_SPEC_MEASURE)
         xl_decision_write(core, v->identity, "dropped_by_driver");
      return true;
   }
   switch (xl_core_specialize(core)) {
   case XL_SPEC_ALWAYS:
      xl_set_state(core, v, V_KEPT, "always", NULL, NULL);
      break;
   default:
      if (v->st == V_KEPT) /* remembered */
         xl_set_state(core, v, V_KEPT, "kept", "remembered", NULL);
      else if ((v->tb = calloc(xl_core_samples(core), sizeof *v->tb)) &&
               (v->tv = calloc(xl_core_samples(core), sizeof *v->tv)))
         xl_set_state(core, v, V_MEASURE, "measuring", NULL, NULL);
      else
         xl_set_state(core, v, V_NONE, "failed", NULL, "out of memory");
   }
   return true;
}

variant *xl_find_variant(xl_core *core, kstate *ks, cl_device_id dev, const char *key,
                             const char *promises, cl_uint dim, const size_t *local)
{
   variant *v = ks->variants;
   while (v && (v->dev != dev || strcmp(v->key, key)))
      v = v->next;
   if (v)
      return v;
   if (ks->nkeys >= MAX_KEYS)
      return NULL;
   ks->nkeys++;
   if (!(v = calloc(1, sizeof *v)) || !(v->key = strdup(key)) ||
       !(v->rec = xl_key_rec_get(core, ks->rec, key))) {
      if (v)
         free(v->key);
      free(v);
      return NULL;
   }
   v->dev = dev;
   if (local && dim <= 3) {
      v->dim = dim;
      memcpy(v->local, local, dim * sizeof *local);
   }
   v->next = ks->variants;
   ks->variants = v;
   char hash[33] = "", *dname = device_name(dev);
   xl_program_hash(core, ks->prog->rec, hash);
   if (asprintf(&v->identity, "%s|%s|%s|%s", dname ? dname : "?", hash, ks->name, key) < 0)
      v->identity = NULL;
   free(dname);
   xl_core_lock(core);
   free(v->rec->promises);
   v->rec->promises = *promises ? strdup(promises + 1) : NULL;
   xl_core_unlock(core);
   if (!*promises) {
      xl_set_state(core, v, V_NONE, "base", NULL, NULL);
      return v;
   }
   xl_set_state(core, v, V_WAIT, "pending", NULL, NULL);
   if (xl_core_specialize(core) == XL_SPEC_MEASURE && v->identity) {
      char *d = xl_decision_read(core, v->identity);
      if (d && !strcmp(d, "kept"))
         v->st = V_KEPT; /* made at its first launch, still judged by the driver */
      else if (d && (!strcmp(d, "dropped_by_clock") || !strcmp(d, "dropped_by_driver") ||
                     !strcmp(d, "no_change")))
         xl_set_state(core, v, V_NONE, !strcmp(d, "dropped_by_clock") ? "dropped_by_clock"
                                    : !strcmp(d, "dropped_by_driver") ? "dropped_by_driver"
                                                                      : "no_change",
                   "remembered", NULL);
      free(d);
   }
   return v;
}
