/*
 * Launch facts and variants (docs/layer.md, "Launch facts and variants").
 *
 * Every kernel the application gets from a program the layer optimized (or
 * left unchanged) has a state here: the arguments set on it, kept to be
 * replayed, and its variants.  At clEnqueueNDRangeKernel the launch's
 * facts make a key: the local size (when the application gives one) and
 * whether the work-groups are uniform, the driver's sub-group size for it,
 * each buffer argument's alignment class, a non-zero global offset, and
 * the integer arguments whose value repeated.  A variant is xeopt with the
 * facts as promises (--local-size, --subgroup-size, --assume-aligned,
 * --specialize), built by the driver for the queue's device; a launch runs
 * it only when its key is exactly the variant's.  The driver judges a
 * variant first (private memory, spills, SIMD width), then the clock:
 * launches with the key alternate between base and variant, timed with
 * profiling events, and after XEOPT_LAYER_SAMPLES of each the variant stays
 * only if it is faster beyond the noise.  Decisions persist in the cache.
 *
 * Whatever fails (xeopt, the driver's build, the variant's enqueue), the
 * launch is the application's, exactly as asked.
 *
 * This file holds the launch (clEnqueueNDRangeKernel) and the layer's
 * entries for it; the kernel states and arguments are launch_kernel.c,
 * the key, the variants and the driver judge launch_variant.c, the clock
 * and the queues launch_clock.c, and what they share launch_internal.h.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl_layer.h"
#include "launch_internal.h"

unsigned xl_budget_per_kernel = 4, xl_budget_in_all = 64;
pthread_mutex_t xl_launch_lock = PTHREAD_MUTEX_INITIALIZER;
unsigned xl_made_in_all;

/* ---- the launch ------------------------------------------------------------------------------------ */

static void count_launch(xl_core *core, variant *v, bool specialized)
{
   xl_core_lock(core);
   v->rec->launches++;
   v->rec->specialized += specialized;
   xl_core_unlock(core);
}

static cl_int CL_API_CALL enqueue_nd_range(cl_command_queue q, cl_kernel k, cl_uint dim,
                                           const size_t *offset, const size_t *global,
                                           const size_t *local, cl_uint nwait, const cl_event *wait,
                                           cl_event *event)
{
   kstate *ks = xl_find_kstate(k);
   if (!ks)
      return xl_next->clEnqueueNDRangeKernel(q, k, dim, offset, global, local, nwait, wait, event);
   xl_core *core = xl_core_get();
   xl_spec_mode mode = xl_core_specialize(core);
   qinfo *qi = xl_find_queue(q);
   cl_device_id dev = qi ? qi->dev : NULL;
   if (!dev)
      xl_next->clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL);
   pthread_mutex_lock(&ks->lock);
   /* the scalars' repeats */
   for (unsigned i = 0; i < ks->nparams; i++) {
      xl_arg *a = &ks->args[i];
      if (ks->pk[i] == PK_INT && a->how == ARG_VALUE) {
         a->repeats = a->repeats && a->last == a->scalar ? a->repeats + 1 : 1;
         a->last = a->scalar;
      }
   }
   variant *v = NULL;
   bool run_variant = false, timed_launch = false;
   for (int attempt = 0; attempt < 2 && !v; attempt++) {
      text key = { .n = 0 }, promises = { .n = 0 };
      key.s[0] = promises.s[0] = 0;
      if (!dev || !xl_facts(ks, dev, dim, offset, global, local, &key, &promises))
         break;
      if (!key.n)
         xl_add(&key, "none");
      v = xl_find_variant(core, ks, dev, key.s, promises.s, dim, local);
      if (!v)
         break;
      v->seen++;
      bool make = !v->kern && (v->st == V_WAIT || v->st == V_KEPT) &&
                  (mode == XL_SPEC_ALWAYS || v->st == V_KEPT || v->seen >= MAKE_AFTER);
      if (make && !xl_make_variant(core, ks, v, promises.s)) {
         v->seen--;
         v = NULL; /* the key again, without the arguments that bound no loop */
      }
   }
   unsigned n = xl_core_samples(core);
   if (v && v->kern && (v->st == V_KEPT || v->st == V_MEASURE)) {
      bool ready = xl_replay(ks, v);
      if (v->st == V_KEPT)
         run_variant = ready;
      else if (ready && xl_profiled(q, qi) && (v->enq_var < n || v->enq_base < n)) {
         run_variant = v->enq_var <= v->enq_base && v->enq_var < n;
         timed_launch = true;
         if (run_variant)
            v->enq_var++;
         else
            v->enq_base++;
      }
   }
   if (timed_launch)
      ks->refs++;
   pthread_mutex_unlock(&ks->lock);

   cl_event mine = NULL, *ev = timed_launch ? (event ? event : &mine) : event;
   cl_int err = CL_INVALID_KERNEL;
   bool timed_variant = run_variant;
   if (run_variant) {
      err = xl_next->clEnqueueNDRangeKernel(q, v->kern, dim, offset, global, local, nwait, wait, ev);
      if (err != CL_SUCCESS) {
         /* the variant could not be enqueued: it goes, the application's launch runs */
         char why[64];
         snprintf(why, sizeof why, "clEnqueueNDRangeKernel on the variant: %d", err);
         pthread_mutex_lock(&ks->lock);
         xl_set_state(core, v, V_NONE, "failed", NULL, why);
         pthread_mutex_unlock(&ks->lock);
         run_variant = false;
      }
   }
   if (!run_variant)
      err = xl_next->clEnqueueNDRangeKernel(q, k, dim, offset, global, local, nwait, wait, ev);
   if (v)
      count_launch(core, v, run_variant && err == CL_SUCCESS);
   if (!timed_launch)
      return err;
   xl_sample *s = err == CL_SUCCESS && timed_variant == run_variant ? malloc(sizeof *s) : NULL;
   if (s) {
      *s = (xl_sample){ .ks = ks, .v = v, .variant = run_variant };
      if (ev != &mine)
         xl_next->clRetainEvent(*ev); /* the callback's reference */
      if (xl_next->clSetEventCallback(*ev, CL_COMPLETE, xl_timed, s) == CL_SUCCESS)
         return err;
      if (ev != &mine)
         xl_next->clReleaseEvent(*ev);
      free(s);
   }
   /* not timed after all */
   pthread_mutex_lock(&ks->lock);
   if (v->st == V_MEASURE) {
      if (timed_variant)
         v->enq_var--;
      else
         v->enq_base--;
   }
   pthread_mutex_unlock(&ks->lock);
   if (mine)
      xl_next->clReleaseEvent(mine);
   xl_unref(ks);
   return err;
}

void xl_launch_install(struct _cl_icd_dispatch *d)
{
   if (xl_core_specialize(xl_core_get()) == XL_SPEC_OFF)
      return;
   const char *b = getenv("XEOPT_LAYER_VARIANTS");
   unsigned per = 0, all = 0;
   if (b && sscanf(b, "%u,%u", &per, &all) == 2) {
      xl_budget_per_kernel = per;
      xl_budget_in_all = all;
   }
   d->clSetKernelArg = xl_set_kernel_arg;
   d->clSetKernelArgSVMPointer = xl_set_kernel_arg_svm;
   d->clSetKernelExecInfo = xl_set_kernel_exec_info;
   d->clEnqueueNDRangeKernel = enqueue_nd_range;
   if (xl_measuring()) {
      d->clCreateCommandQueue = xl_create_queue;
      d->clCreateCommandQueueWithProperties = xl_create_queue_with_properties;
      d->clGetCommandQueueInfo = xl_get_queue_info;
      d->clReleaseCommandQueue = xl_release_queue;
      d->clGetEventProfilingInfo = xl_get_event_profiling_info;
   }
}
