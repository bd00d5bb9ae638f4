/*
 * The judge's table (judge.h): a sorted array, so that a pass asking for
 * each of a module's 400 kernels stays O(n log n).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "judge.h"

/* The devices o's --target names: every device the model knows when it
 * names none, 0 for --target=none. */
static unsigned target_of(const xe_options *o)
{
   return o->target == XE_TARGET_NONE ? 0 : o->target ? o->target : XE_DEV_DEFAULT;
}

void xe_judge_init(xe_judge *j, const xe_options *o, enum xe_verdict all)
{
   memset(j, 0, sizeof(*j));
   j->target = target_of(o);
   j->fallback = all;
}

void xe_judge_free(xe_judge *j)
{
   for (unsigned k = 0; k < j->n; k++)
      free(j->v[k].kernel);
   free(j->v);
   memset(j, 0, sizeof(*j));
}

void xe_judge_copy(xe_judge *dst, const xe_judge *src)
{
   *dst = *src;
   dst->cap = src->n;
   dst->v = src->n ? malloc(src->n * sizeof(*dst->v)) : NULL;
   if (src->n && !dst->v)
      xe_out_of_memory();
   for (unsigned k = 0; k < src->n; k++) {
      dst->v[k] = src->v[k];
      if (!(dst->v[k].kernel = strdup(src->v[k].kernel)))
         xe_out_of_memory();
   }
}

/* The index of kernel's entry, or where it would go (*found false). */
static unsigned lookup(const xe_judge *j, const char *kernel, bool *found)
{
   unsigned lo = 0, hi = j->n;
   while (lo < hi) {
      unsigned mid = (lo + hi) / 2;
      int c = strcmp(j->v[mid].kernel, kernel);
      if (!c) {
         *found = true;
         return mid;
      }
      if (c < 0)
         lo = mid + 1;
      else
         hi = mid;
   }
   *found = false;
   return lo;
}

static xe_judge_entry *entry(xe_judge *j, const char *kernel)
{
   bool found;
   unsigned at = lookup(j, kernel, &found);
   if (found)
      return &j->v[at];
   if (j->n == j->cap) {
      j->cap = j->cap ? 2 * j->cap : 16;
      j->v = realloc(j->v, j->cap * sizeof(*j->v));
      if (!j->v)
         xe_out_of_memory();
   }
   memmove(&j->v[at + 1], &j->v[at], (j->n - at) * sizeof(*j->v));
   j->n++;
   j->v[at] = (xe_judge_entry){ strdup(kernel), j->fallback, 0 };
   if (!j->v[at].kernel)
      xe_out_of_memory();
   return &j->v[at];
}

enum xe_verdict xe_judge_verdict(const xe_judge *j, const char *kernel)
{
   bool found;
   unsigned at = kernel ? lookup(j, kernel, &found) : (found = false, 0);
   return found ? j->v[at].verdict : j->fallback;
}

void xe_judge_set(xe_judge *j, const char *kernel, enum xe_verdict v)
{
   entry(j, kernel)->verdict = v;
}

void xe_judge_set_all(xe_judge *j, enum xe_verdict v)
{
   j->fallback = v;
   for (unsigned k = 0; k < j->n; k++)
      j->v[k].verdict = v;
}

void xe_judge_add_plain(xe_judge *j, const char *kernel, unsigned plain)
{
   entry(j, kernel)->plain |= plain;
}

unsigned xe_judge_count_plain(const xe_judge *j, unsigned plain)
{
   unsigned n = 0;
   for (unsigned k = 0; k < j->n; k++)
      n += (j->v[k].plain & plain) != 0;
   return n;
}

unsigned xe_judge_devices(const xe_ctx *ctx, const char *kernel)
{
   const xe_judge *j = ctx->judge;
   if (!j)
      return target_of(ctx->options);
   return xe_judge_verdict(j, kernel) == XE_JUDGE_MODEL ? j->target : 0;
}

bool xe_judge_rewritable(const xe_ctx *ctx, const char *kernel)
{
   return !ctx->judge || xe_judge_verdict(ctx->judge, kernel) != XE_JUDGE_ORIGINAL;
}

bool xe_judge_keeps_any(const xe_ctx *ctx)
{
   const xe_judge *j = ctx->judge;
   if (!j)
      return false;
   bool any = j->fallback == XE_JUDGE_ORIGINAL;
   for (unsigned k = 0; k < j->n && !any; k++)
      any = j->v[k].verdict == XE_JUDGE_ORIGINAL;
   return any;
}

bool *xe_judge_plain_flags(const xe_judge *j, unsigned plain, const xe_kernel *ks, unsigned nk)
{
   if (!j || !xe_judge_count_plain(j, plain))
      return NULL;
   bool *flags = calloc(nk + 1, sizeof(*flags));
   if (!flags)
      xe_out_of_memory();
   for (unsigned k = 0; k < nk; k++) {
      bool found;
      unsigned at = lookup(j, ks[k].name, &found);
      flags[k] = found && (j->v[at].plain & plain);
   }
   return flags;
}
