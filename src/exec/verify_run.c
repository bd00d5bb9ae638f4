/*
 * --verify's runs: a launch slot's input runs and retries (retry_for says
 * what the next attempt changes), the optimized module's run on the launch
 * the input ran on, the byte-for-byte comparison of what the host sees, the
 * user's launches, and the launch printed as `xeopt run` options to
 * reproduce a finding.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "verify.h"

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

static void print_dims(FILE *log, const char *opt, const uint64_t *v, unsigned dims)
{
   fprintf(log, " %s %llu", opt, (unsigned long long)v[0]);
   for (unsigned d = 1; d < dims; d++) fprintf(log, ",%llu", (unsigned long long)v[d]);
}

/* The launch as `xeopt run` options, to reproduce a finding (arguments
 * from np on are the hidden buffers, "memN"). */
static void print_launch(FILE *log, const xe_launch *l, unsigned np)
{
   unsigned dims = l->dims ? l->dims : 1;
   fputs("  launch:", log);
   print_dims(log, "--global", l->global, dims);
   print_dims(log, "--local", l->local, dims);
   if (l->offset[0] || l->offset[1] || l->offset[2]) print_dims(log, "--offset", l->offset, dims);
   fprintf(log, " --subgroup-size %u", l->subgroup_size);
   for (unsigned k = 0; k < l->nargs; k++) {
      if (l->args[k].kind == XE_ARG_SCALAR)
         fprintf(log, " arg%u=%lld", k, (long long)ld_s(l->args[k].data, (unsigned)l->args[k].size));
      else if (l->args[k].kind == XE_ARG_IMAGE) {
         const xe_image_desc *im = &l->args[k].image;
         fprintf(log, " arg%u=image:%s:%s:%llu", k, xe_image_order_name(im->order),
                 xe_image_type_name(im->type), (unsigned long long)im->width);
         if (im->dims > 1) fprintf(log, "x%llu", (unsigned long long)im->height);
         if (im->dims > 2) fprintf(log, "x%llu", (unsigned long long)im->depth);
      } else if (l->args[k].kind == XE_ARG_SAMPLER) {
         char sb[64];
         fprintf(log, " arg%u=%s", k, xe_sampler_string((uint32_t)ld_u(l->args[k].data, 4), sb, sizeof sb));
      }
      else if (l->args[k].kind == XE_ARG_LOCAL)
         fprintf(log, " arg%u=local[%llu bytes]", k, (unsigned long long)l->args[k].size);
      else if (l->args[k].start)
         fprintf(log, " arg%u=buf[%llu bytes, starting at byte %llu]", k,
                 (unsigned long long)(l->args[k].size - l->args[k].start),
                 (unsigned long long)l->args[k].start);
      else
         fprintf(log, " %s%u=buf[%llu bytes]", k < np ? "arg" : "mem", k < np ? k : k - np,
                 (unsigned long long)l->args[k].size);
   }
   fputc('\n', log);
}

/* What to do after an input run failed (or was rejected). */
enum retry {
   RETRY_HEAVY,       /* too many steps: one work-group per dimension */
   RETRY_SHRINK,      /* past a local array: smaller work-groups */
   RETRY_RESCALE,     /* other scalar values (smaller), smaller data */
   RETRY_PLAIN,       /* full sub-groups, uniform, aligned, no offset */
   RETRY_IMAGE,       /* outside an image argument: larger images */
   RETRY_NEVER,       /* the interpreter's gap: no launch helps */
};

static enum retry retry_for(const vkernel *vk, const xe_launch *l, const char *err)
{
   if (err && strstr(err, "unsupported"))
      return RETRY_NEVER;
   switch (l->fault.kind) {
   case XE_FAULT_BOUNDS:
      if (l->fault.arg < l->nargs && l->args[l->fault.arg].kind == XE_ARG_IMAGE)
         return RETRY_IMAGE;
      /* Not past an argument's end (that a measuring run records): in a
       * local array of the kernel's, below an argument's start, or in
       * private memory. */
      return l->fault.local_memory && l->fault.arg == ~0u && !vk->local[0] ? RETRY_SHRINK
                                                                            : RETRY_RESCALE;
   case XE_FAULT_BLOCK_IO:
      return RETRY_PLAIN;
   case XE_FAULT_STEPS:
      return vk->heavy ? RETRY_RESCALE : RETRY_HEAVY;
   default:
      return RETRY_RESCALE;
   }
}

/* After a measuring run that went past the end of some arguments: sizes
 * them to what the input reached.  false when that needs more than
 * BUFFER_CAP. */
static bool grow_to_reach(vkernel *vk, const xe_launch *l, vplan *p)
{
   uint64_t t = p->global[0] * p->global[1] * p->global[2];
   uint64_t lt = p->local[0] * p->local[1] * p->local[2];
   for (int k = 0; k < vk->na; k++) {
      if (!l->reach[k]) continue;
      unsigned e = vk->kind[k] == XE_ARG_LOCAL ? 1 : vk->elem[k] ? vk->elem[k] : 1;
      uint64_t need = (l->reach[k] - p->start[k] + e - 1) / e;
      /* A little more: what the input read past the old end (zeros in a
       * measuring run) may steer it further. */
      need += need / 8 + 16;
      if (need * e > BUFFER_CAP) return false;
      if (need > p->count[k]) p->count[k] = need;
      double per = (double)need / (double)(vk->kind[k] == XE_ARG_LOCAL ? lt : t);
      if (per > vk->per_item[k]) vk->per_item[k] = per;
   }
   return true;
}

static bool reached_past(const xe_launch *l)
{
   for (unsigned k = 0; k < l->nargs; k++)
      if (l->reach[k]) return true;
   return false;
}

/* Compares the buffers after both ran; returns 1 on a difference. */
static int compare_args(const vkernel *vk, const xe_launch *l, const xe_launch *la,
                        const xe_launch *lb, FILE *log)
{
   for (int k = 0; k < (int)la->nargs && k < vk->na; k++) {
      if (vk->kind[k] != XE_ARG_BUFFER && vk->kind[k] != XE_ARG_IMAGE) continue;
      for (uint64_t i = 0; i < la->args[k].size; i++) {
         if (la->args[k].data[i] == lb->args[k].data[i]) continue;
         /* Padding the host ignores: the input did not write there (the
          * byte kept its initial value), the optimized module may. */
         if (vk->padded[k] && la->args[k].data[i] == l->args[k].data[i]) continue;
         unsigned e = vk->kind[k] == XE_ARG_IMAGE ? xe_image_channel_size(la->args[k].image.type)
                      : vk->elem[k] && vk->elem[k] <= 8 ? vk->elem[k] : 1;
         uint64_t st = la->args[k].start, rel = i - (i >= st ? st : 0);
         uint64_t idx = rel / e, at = st + idx * e;
         if (k >= vk->np)
            fprintf(log, "kernel %s: hidden buffer %d (memory a pointer in an argument points "
                    "to) differs at byte %llu: input 0x%x, optimized 0x%x\n", vk->name, k - vk->np,
                    (unsigned long long)i, la->args[k].data[i], lb->args[k].data[i]);
         else if (i < st)
            fprintf(log, "kernel %s: argument %d differs %llu bytes before its start: "
                    "input 0x%x, optimized 0x%x\n", vk->name, k, (unsigned long long)(st - i),
                    la->args[k].data[i], lb->args[k].data[i]);
         else
            fprintf(log, "kernel %s: argument %d differs at element %llu (byte %llu): "
                    "input 0x%llx, optimized 0x%llx\n", vk->name, k, (unsigned long long)idx,
                    (unsigned long long)rel,
                    (unsigned long long)(at + e <= la->args[k].size ? ld_u(la->args[k].data + at, e) : 0),
                    (unsigned long long)(at + e <= lb->args[k].size ? ld_u(lb->args[k].data + at, e) : 0));
         print_launch(log, l, (unsigned)vk->np);
         return 1;
      }
   }
   return 0;
}

/* Runs the optimized module on l (the input already ran on la, a copy of
 * l) and compares.  Returns 1 on a difference. */
static int run_output(xe_module *b, const vkernel *vk, const xe_launch *l, const xe_launch *la,
                      FILE *log)
{
   xe_launch lb;
   copy_args(&lb, l);
   lb.racecheck = true;
   char *err = NULL;
   int rc = 0;
   if (!xe_exec_run(b, &lb, &err)) {
      fprintf(log, "kernel %s: the optimized module fails where the input runs: %s\n",
              vk->name, err);
      print_launch(log, l, (unsigned)vk->np);
      free(err);
      rc = 1;
   } else if (lb.races) {
      /* The input ran race-free on l (xe_verify_one_launch retries racy launches):
       * a race only the output has is a finding. */
      fprintf(log, "kernel %s: the optimized module races where the input does not: %s\n",
              vk->name, lb.race);
      print_launch(log, l, (unsigned)vk->np);
      rc = 1;
   } else {
      rc = compare_args(vk, l, la, &lb, log);
   }
   free_args(&lb);
   return rc;
}

/* Launch slot `slot`: synthesizes a launch the input runs on (at most
 * MAX_ATTEMPTS input runs), then compares.  Returns 1 on a difference;
 * *valid when the input ran; *unsupported when the interpreter cannot run
 * the kernel at all. */
int xe_verify_one_launch(xe_module *a, xe_module *b, vkernel *vk, unsigned slot, uint64_t *seed,
                         FILE *log, bool quiet, bool *valid, bool *unsupported)
{
   vplan p;
   bool plain = false, small = false;
   unsigned rescales = 0, shrink = 0;
   char *last = NULL;
   *valid = false;
   memset(&p, 0, sizeof p);
   xe_verify_plan_shape(vk, slot, plain, shrink, seed, &p);
   xe_verify_plan_images(vk, slot, seed, &p);
   xe_verify_plan_scalars(vk, &p, seed, slot == 0, small);
   p.range = 256;
   p.seed = xe_rand(seed);
   xe_verify_plan_buffers(vk, &p);
   for (unsigned attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      xe_launch l, la;
      xe_verify_materialize(vk, &p, &l);
      copy_args(&la, &l);
      /* Every input run measures: one that stays in bounds is the test
       * run, one that goes past an argument's end sizes the next. */
      la.measure = true;
      la.racecheck = true;
      if (!vk->heavy) la.max_steps = HEAVY_STEPS;
      char *err = NULL;
      bool ran = xe_exec_run(a, &la, &err);
      /* A run the input completed but that is no valid test is rejected
       * here with its retry: a data race makes the input's result depend
       * on the order work-items run in, and launches with sizes that agree
       * with the NDRange often do not race. */
      if (ran && !reached_past(&la) && la.races) {
         if (asprintf(&err, "the input races on it: %s", la.race) < 0)
            xe_out_of_memory();
         ran = false;
         la.fault.kind = XE_FAULT_OTHER;
      }
      if (ran && !reached_past(&la)) {
         *valid = true;
         int rc = run_output(b, vk, &l, &la, log);
         free_args(&la);
         free_args(&l);
         free(last);
         return rc;
      }
      if (ran) {
         bool grown = grow_to_reach(vk, &la, &p);
         free_args(&la);
         free_args(&l);
         if (grown) continue;
         free(last);
         if (asprintf(&last, "kernel %s: the buffers it reaches need more than %llu MiB", vk->name,
                      (unsigned long long)(BUFFER_CAP >> 20)) < 0)
            xe_out_of_memory();
         err = strdup(last);
         la.fault.kind = XE_FAULT_OTHER;
      }
      enum retry r = retry_for(vk, &la, err);
      if (err && strstr(err, "division by zero")) p.nonzero = true;
      free_args(&la);
      free_args(&l);
      free(last);
      last = err;
      if (r == RETRY_NEVER) {
         fprintf(log, "warning: kernel %s NOT verified: %s\n", vk->name, err);
         *unsupported = true;
         free(last);
         return 0;
      }
      if (r == RETRY_IMAGE && p.image_scale[la.fault.arg] < 8) {
         p.image_scale[la.fault.arg] *= 2;
      } else if (r == RETRY_SHRINK && shrink < 4) {
         shrink++;
         xe_verify_plan_shape(vk, slot, plain, shrink, seed, &p);
      } else if (r == RETRY_HEAVY) {
         vk->heavy = true;
         xe_verify_plan_shape(vk, slot, plain, shrink, seed, &p);
      } else if (r == RETRY_PLAIN && !plain) {
         plain = true;
         xe_verify_plan_shape(vk, slot, plain, shrink, seed, &p);
      } else {
         /* Other values: first from the shape's candidates, then small
          * ones with small data, then a single work-group. */
         rescales++;
         small = rescales > 2;
         p.range = rescales > 1 ? 16 : 256;
         if (rescales > 4)
            for (int d = 0; d < 3; d++) p.global[d] = p.local[d];
      }
      xe_verify_plan_images(vk, slot, seed, &p);
      xe_verify_plan_scalars(vk, &p, seed, slot == 0 && !rescales, small);
      xe_verify_plan_buffers(vk, &p);
   }
   if (!quiet)
      fprintf(log, "note: kernel %s: launch %u skipped, the input fails on every variant tried: %s\n",
              vk->name, slot + 1, last);
   free(last);
   return 0;
}

/* The user's launches (--verify-launch) of kernel vk.  Returns 1 on a
 * difference, 2 on a malformed launch; counts the launches run. */
int xe_verify_user_launches(xe_module *a, xe_module *b, vkernel *vk, const cJSON *launches,
                            FILE *log, unsigned *ran)
{
   const cJSON *js;
   unsigned idx = 0;
   cJSON_ArrayForEach(js, launches) {
      idx++;
      const cJSON *kn = cJSON_GetObjectItem(js, "kernel");
      if (!cJSON_IsString(kn) || strcmp(kn->valuestring, vk->name)) continue;
      xe_launch l = {0};
      xe_arg_spec specs[XE_EXEC_MAX_ARGS] = {0};
      unsigned ns = 0;
      char *err = NULL;
      if (!xe_launch_from_json(js, &l, specs, &ns, &err) || ns != (unsigned)vk->np) {
         if (!err && asprintf(&err, "launch of %s gives %u arguments, the kernel takes %d",
                              vk->name, ns, vk->np) < 0)
            xe_out_of_memory();
         fprintf(log, "--verify-launch: launch %u: %s\n", idx, err);
         free(err);
         return 2;
      }
      l.nargs = ns;
      l.max_steps = 0;
      for (unsigned k = 0; k < ns; k++) {
         if (specs[k].kind != vk->kind[k]) {
            fprintf(log, "--verify-launch: launch %u of %s: argument %u is not a %s\n", idx,
                    vk->name, k, vk->kind[k] == XE_ARG_SCALAR ? "scalar" :
                    vk->kind[k] == XE_ARG_LOCAL ? "local-memory size" :
                    vk->kind[k] == XE_ARG_IMAGE ? "image" : vk->kind[k] == XE_ARG_SAMPLER ? "sampler" :
                    "buffer");
            free_args(&l);
            return 2;
         }
         xe_arg_materialize(&specs[k], &l.args[k], 7919 * (uint64_t)idx + k);
      }
      xe_launch la;
      copy_args(&la, &l);
      la.racecheck = true;
      int rc = 0;
      if (!xe_exec_run(a, &la, &err)) {
         fprintf(log, "warning: kernel %s: user launch %u not verified, the input fails on it: %s\n",
                 vk->name, idx, err);
         free(err);
      } else if (la.races) {
         fprintf(log, "warning: kernel %s: user launch %u not verified, the input races on it: %s\n",
                 vk->name, idx, la.race);
      } else {
         (*ran)++;
         rc = run_output(b, vk, &l, &la, log);
      }
      free_args(&la);
      free_args(&l);
      if (rc) return rc;
   }
   return 0;
}
