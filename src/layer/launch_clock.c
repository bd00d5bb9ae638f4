/*
 * The clock, the second judge of a variant (docs/layer.md, "Launch facts
 * and variants"): launches with a key alternate between the base and the
 * variant, timed with profiling events, and after XEOPT_LAYER_SAMPLES of
 * each the variant stays only if it is faster beyond the noise; the
 * decision persists in the cache.  Also the queues: profiling turned on
 * for the clock, answered as the application set it.  Apart from
 * launch.c so that each file stays small.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "cl_layer.h"
#include "launch_internal.h"
#include "ptrmap.h"

static xl_ptrmap queues;

/* ---- the clock --------------------------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
   double x = *(const double *)a, y = *(const double *)b;
   return x < y ? -1 : x > y;
}

/* median and median absolute deviation of t[0..n) (sorted in place) */
static void stats(double *t, unsigned n, double *med, double *mad)
{
   qsort(t, n, sizeof *t, cmp_double);
   *med = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
   double *d = malloc(n * sizeof *d);
   if (!d) {
      *mad = *med;
      return;
   }
   for (unsigned i = 0; i < n; i++)
      d[i] = t[i] > *med ? t[i] - *med : *med - t[i];
   qsort(d, n, sizeof *d, cmp_double);
   *mad = n % 2 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2;
   free(d);
}

/* Both sides have their samples: keep or drop (ks->lock held). */
static void judge(xl_core *core, variant *v)
{
   double mb, madb, mv, madv;
   stats(v->tb, v->nb, &mb, &madb);
   stats(v->tv, v->nv, &mv, &madv);
   double noise = 2 * (madb > madv ? madb : madv);
   bool keep = mv < mb * (1 - MIN_GAIN) && mb - mv > noise;
   char why[160];
   snprintf(why, sizeof why, "median %.1f us against the base's %.1f us (spread %.1f us)", mv * 1e6,
            mb * 1e6, noise / 2 * 1e6);
   xl_core_lock(core);
   v->rec->base_us = mb * 1e6;
   v->rec->variant_us = mv * 1e6;
   xl_core_unlock(core);
   xl_core_count(core, keep ? XL_COUNT_KEPT : XL_COUNT_DROPPED_BY_CLOCK);
   xl_set_state(core, v, keep ? V_KEPT : V_NONE, keep ? "kept" : "dropped_by_clock", "measured", why);
   if (v->identity)
      xl_decision_write(core, v->identity, keep ? "kept" : "dropped_by_clock");
}

void CL_CALLBACK xl_timed(cl_event ev, cl_int status, void *data)
{
   xl_sample *s = data;
   xl_core *core = xl_core_get();
   cl_ulong t0 = 0, t1 = 0;
   bool ok = status == CL_COMPLETE &&
             xl_next->clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL) == CL_SUCCESS &&
             xl_next->clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL) == CL_SUCCESS &&
             t1 >= t0;
   double t = (double)(t1 - t0) * 1e-9;
   /* test hooks: the clock sees one side four times slower */
   if (xl_core_fault(core, s->variant ? "slow-variant" : "slow-base"))
      t = t * 4 + 200e-6;
   kstate *ks = s->ks;
   variant *v = s->v;
   unsigned n = xl_core_samples(core);
   pthread_mutex_lock(&ks->lock);
   if (ok && v->st == V_MEASURE) {
      double *arr = s->variant ? v->tv : v->tb;
      unsigned *cnt = s->variant ? &v->nv : &v->nb;
      if (*cnt < n)
         arr[(*cnt)++] = t;
      xl_core_lock(core);
      v->rec->base_samples = v->nb;
      v->rec->variant_samples = v->nv;
      xl_core_unlock(core);
      if (v->nb >= n && v->nv >= n)
         judge(core, v);
   } else if (!ok && v->st == V_MEASURE) {
      /* a launch that failed or cannot be timed: take another */
      if (s->variant)
         v->enq_var--;
      else
         v->enq_base--;
   }
   pthread_mutex_unlock(&ks->lock);
   xl_next->clReleaseEvent(ev);
   free(s);
   xl_unref(ks);
}

/* ---- queues: profiling on, as the application set it in the answers -------------------------- */

qinfo *xl_find_queue(cl_command_queue q)
{
   pthread_mutex_lock(&xl_launch_lock);
   qinfo *i = xl_ptrmap_get(&queues, q);
   pthread_mutex_unlock(&xl_launch_lock);
   return i;
}

static void remember_queue(cl_command_queue q, cl_device_id dev, cl_command_queue_properties props,
                           const cl_queue_properties *array)
{
   qinfo *i = calloc(1, sizeof *i);
   if (!i)
      return;
   i->app_props = props;
   i->dev = dev;
   if (array) {
      size_t n = 0;
      while (array[n])
         n += 2;
      i->app_array_bytes = (n + 1) * sizeof *array;
      if ((i->app_array = malloc(i->app_array_bytes)))
         memcpy(i->app_array, array, i->app_array_bytes);
   }
   pthread_mutex_lock(&xl_launch_lock);
   qinfo *old = xl_ptrmap_take(&queues, q);
   bool ok = xl_ptrmap_put(&queues, q, i);
   pthread_mutex_unlock(&xl_launch_lock);
   if (old) {
      free(old->app_array);
      free(old);
   }
   if (!ok) {
      free(i->app_array);
      free(i);
   }
}

bool xl_measuring(void)
{
   return xl_core_specialize(xl_core_get()) == XL_SPEC_MEASURE;
}

cl_command_queue CL_API_CALL xl_create_queue(cl_context ctx, cl_device_id dev,
                                                 cl_command_queue_properties props, cl_int *errcode)
{
   cl_int err = CL_SUCCESS;
   cl_command_queue q = NULL;
   if (xl_measuring() && !(props & CL_QUEUE_PROFILING_ENABLE)) {
      q = xl_next->clCreateCommandQueue(ctx, dev, props | CL_QUEUE_PROFILING_ENABLE, &err);
      if (q && err == CL_SUCCESS)
         remember_queue(q, dev, props, NULL);
   }
   if (!q || err != CL_SUCCESS)
      q = xl_next->clCreateCommandQueue(ctx, dev, props, &err);
   if (errcode)
      *errcode = err;
   return q;
}

cl_command_queue CL_API_CALL xl_create_queue_with_properties(cl_context ctx, cl_device_id dev,
                                                                 const cl_queue_properties *props,
                                                                 cl_int *errcode)
{
   cl_int err = CL_SUCCESS;
   cl_command_queue q = NULL;
   if (xl_measuring()) {
      size_t n = 0, at = (size_t)-1;
      while (props && props[n]) {
         if (props[n] == CL_QUEUE_PROPERTIES)
            at = n + 1;
         n += 2;
      }
      cl_queue_properties *mine = malloc((n + 3) * sizeof *mine);
      cl_command_queue_properties app = at != (size_t)-1 ? (cl_command_queue_properties)props[at] : 0;
      if (mine && !(app & CL_QUEUE_PROFILING_ENABLE)) {
         if (n)
            memcpy(mine, props, n * sizeof *mine);
         if (at != (size_t)-1)
            mine[at] |= CL_QUEUE_PROFILING_ENABLE;
         else {
            mine[n++] = CL_QUEUE_PROPERTIES;
            mine[n++] = CL_QUEUE_PROFILING_ENABLE;
         }
         mine[n] = 0;
         q = xl_next->clCreateCommandQueueWithProperties(ctx, dev, mine, &err);
         if (q && err == CL_SUCCESS)
            remember_queue(q, dev, app, props);
      }
      free(mine);
   }
   if (!q || err != CL_SUCCESS)
      q = xl_next->clCreateCommandQueueWithProperties(ctx, dev, props, &err);
   if (errcode)
      *errcode = err;
   return q;
}

cl_int CL_API_CALL xl_get_queue_info(cl_command_queue q, cl_command_queue_info what, size_t size,
                                         void *value, size_t *size_ret)
{
   qinfo *i = what == CL_QUEUE_PROPERTIES || what == CL_QUEUE_PROPERTIES_ARRAY ? xl_find_queue(q) : NULL;
   if (!i)
      return xl_next->clGetCommandQueueInfo(q, what, size, value, size_ret);
   const void *src = what == CL_QUEUE_PROPERTIES ? (const void *)&i->app_props : i->app_array;
   size_t n = what == CL_QUEUE_PROPERTIES ? sizeof i->app_props : i->app_array_bytes;
   if (what == CL_QUEUE_PROPERTIES_ARRAY && !i->app_array)
      n = 0; /* clCreateCommandQueue, or a NULL list: none */
   if (value && size < n)
      return CL_INVALID_VALUE;
   if (value && n)
      memcpy(value, src, n);
   if (size_ret)
      *size_ret = n;
   return CL_SUCCESS;
}

cl_int CL_API_CALL xl_release_queue(cl_command_queue q)
{
   cl_uint refs = 0;
   qinfo *i = xl_find_queue(q);
   if (i && xl_next->clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs, NULL) ==
                CL_SUCCESS && refs == 1) {
      pthread_mutex_lock(&xl_launch_lock);
      i = xl_ptrmap_take(&queues, q);
      pthread_mutex_unlock(&xl_launch_lock);
      if (i) {
         free(i->app_array);
         free(i);
      }
   }
   return xl_next->clReleaseCommandQueue(q);
}

/* An event of a queue whose profiling the application did not ask for
 * answers as it would have. */
cl_int CL_API_CALL xl_get_event_profiling_info(cl_event ev, cl_profiling_info what, size_t size,
                                                   void *value, size_t *size_ret)
{
   cl_command_queue q = NULL;
   if (xl_next->clGetEventInfo(ev, CL_EVENT_COMMAND_QUEUE, sizeof q, &q, NULL) == CL_SUCCESS && q) {
      qinfo *i = xl_find_queue(q);
      if (i && !(i->app_props & CL_QUEUE_PROFILING_ENABLE))
         return CL_PROFILING_INFO_NOT_AVAILABLE;
   }
   return xl_next->clGetEventProfilingInfo(ev, what, size, value, size_ret);
}

bool xl_profiled(cl_command_queue q, qinfo *i)
{
   if (i)
      return true;
   cl_command_queue_properties p = 0;
   return xl_next->clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof p, &p, NULL) == CL_SUCCESS &&
          (p & CL_QUEUE_PROFILING_ENABLE);
}
