/*
 * The judge's table (judge.h): the entries in the order they were added,
 * found by name through an open-addressing hash index, so that the passes'
 * questions (several per kernel and pass) cost O(1) each.  A binary search
 * by name was O(log n) string compares, each a cache miss into another
 * kernel's name: at 137,000 kernels (a 64 MB module, bench/scale-size) it
 * grew faster than the module.
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
   free(j->index);
   memset(j, 0, sizeof(*j));
}

/* FNV-1a: kernel names differ in their last characters (k1, k2, ...). */
static uint32_t name_hash(const char *s)
{
   uint32_t h = 2166136261u;
   for (; *s; s++)
      h = (h ^ (unsigned char)*s) * 16777619u;
   return h;
}

/* The index slot of kernel: where its entry's index is, or the empty slot
 * where it would go.  The index is never full (at most half used). */
static uint32_t *slot(const xe_judge *j, const char *kernel, uint32_t h)
{
   uint32_t mask = j->index_cap - 1;
   for (uint32_t at = h & mask;; at = (at + 1) & mask) {
      uint32_t *e = &j->index[at];
      if (!*e || (j->v[*e - 1].hash == h && !strcmp(j->v[*e - 1].kernel, kernel)))
         return e;
   }
}

/* An index of room for at least 2 * n entries, filled from v. */
static void reindex(xe_judge *j, unsigned n)
{
   uint32_t cap = 16;
   while (cap < 2 * n)
      cap *= 2;
   free(j->index);
   j->index_cap = cap;
   if (!(j->index = calloc(cap, sizeof(*j->index))))
      xe_out_of_memory();
   for (unsigned k = 0; k < j->n; k++)
      *slot(j, j->v[k].kernel, j->v[k].hash) = k + 1;
}

void xe_judge_copy(xe_judge *dst, const xe_judge *src)
{
   *dst = *src;
   dst->cap = src->n;
   dst->v = src->n ? malloc(src->n * sizeof(*dst->v)) : NULL;
   dst->index = NULL;
   dst->index_cap = 0;
   if (src->n && !dst->v)
      xe_out_of_memory();
   for (unsigned k = 0; k < src->n; k++) {
      dst->v[k] = src->v[k];
      if (!(dst->v[k].kernel = strdup(src->v[k].kernel)))
         xe_out_of_memory();
   }
   if (src->n)
      reindex(dst, src->n);
}

/* kernel's entry, or NULL. */
static xe_judge_entry *lookup(const xe_judge *j, const char *kernel)
{
   if (!j->n || !kernel)
      return NULL;
   uint32_t e = *slot(j, kernel, name_hash(kernel));
   return e ? &j->v[e - 1] : NULL;
}

static xe_judge_entry *entry(xe_judge *j, const char *kernel)
{
   xe_judge_entry *found = lookup(j, kernel);
   if (found)
      return found;
   if (j->n == j->cap) {
      j->cap = j->cap ? 2 * j->cap : 16;
      j->v = realloc(j->v, j->cap * sizeof(*j->v));
      if (!j->v)
         xe_out_of_memory();
   }
   if (2 * (j->n + 1) > j->index_cap)
      reindex(j, 2 * (j->n + 1));
   uint32_t h = name_hash(kernel);
   xe_judge_entry *e = &j->v[j->n];
   *e = (xe_judge_entry){ strdup(kernel), j->fallback, 0, h };
   if (!e->kernel)
      xe_out_of_memory();
   *slot(j, kernel, h) = ++j->n;
   return e;
}

enum xe_verdict xe_judge_verdict(const xe_judge *j, const char *kernel)
{
   const xe_judge_entry *e = lookup(j, kernel);
   return e ? e->verdict : j->fallback;
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

unsigned xe_judge_plain(const xe_judge *j, const char *kernel)
{
   const xe_judge_entry *e = j ? lookup(j, kernel) : NULL;
   return e ? e->plain : 0;
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
      const xe_judge_entry *e = lookup(j, ks[k].name);
      flags[k] = e && (e->plain & plain);
   }
   return flags;
}
