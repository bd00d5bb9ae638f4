/*
 * The kernels of the second run (plain.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "passes.h"
#include "plain.h"

/* The passes that read what canonicalize and simplify-cfg leave.  The
 * guard passes read one merged guard and one-block regions, and
 * loop-spec-constants a loop's single entry after a bypass: they keep
 * simplify-cfg's rewrites (cfg), loop-spec-constants its bypasses alone
 * (bypass: XE_PLAIN_MERGE; a merge kept for it can make IGC compile its
 * loop longer).  padding, block-io, subgroup-versioning, private-arrays
 * and generic-address read canonicalize's address forms (byte offsets,
 * casts): they keep its rewrites (canon).  loop-spec-constants reads a
 * loop bound's integer arithmetic, which canonicalize leaves alone: a
 * kernel only it rewrote gets simplify-cfg's rewrites, not
 * canonicalize's.  A kernel only private-arrays or generic-address
 * rewrote gets canonicalize and simplify-cfg's folds, not its bypasses,
 * merges and selects.  private-arrays' Volatile drop
 * (XE_DECISION_VOLATILE_DROP) reads only a pointer's storage class, no
 * address form: a kernel it alone rewrote keeps neither (canonicalized
 * helpers would move IGC's choices in the kernels that share them).  In
 * each case the rewrites no later pass reads made some kernel costlier
 * under IGC 2.40 (measured: bench/notes/igc-240-judge.md, "From the
 * code's comments"). */
static const struct {
   const char *pass;
   bool cfg, canon;
   bool bypass;                /* of simplify-cfg's rewrites, reads only the bypasses */
   enum xe_decision reads_neither;  /* remarks of this decision use neither rewrite */
} users[] = {
   { "padding", true, true, false, XE_DECISION_NONE },
   { "block-io", true, true, false, XE_DECISION_NONE },
   { "subgroup-versioning", true, true, false, XE_DECISION_NONE },
   { "loop-spec-constants", true, false, true, XE_DECISION_NONE },
   { "private-arrays", false, true, false, XE_DECISION_VOLATILE_DROP },
   { "generic-address", false, true, false, XE_DECISION_NONE },
};

/* A set of names (not owned), by hash with linear probing: both functions
 * below ask it once to three times per kernel or once per remark.  As
 * sorted arrays searched by bsearch, at 137,000 kernels that was 17 strcmp
 * calls a question, most of them cache misses (1.8 % of plain -O2's time
 * at 64 MB, and growing with log n). */
typedef struct {
   const char **slot;
   size_t mask;
} name_set;

/* FNV-1a over 8-byte words (the tail a byte at a time): the remark merge
 * hashes every remark's message, a few hundred bytes each, of every
 * kernel, and a word at a time takes a multiply per 8 bytes, not per
 * byte. */
static size_t hash_name(const char *s)
{
   uint64_t h = 14695981039346656037u;
   size_t n = strlen(s), k = 0;
   for (; k + 8 <= n; k += 8) {
      uint64_t w;
      memcpy(&w, s + k, 8);
      h = (h ^ w) * 1099511628211u;
      h ^= h >> 29;
   }
   for (; k < n; k++)
      h = (h ^ (unsigned char)s[k]) * 1099511628211u;
   return (size_t)(h ^ h >> 32);
}

/* The set of the n names v[] (NULL entries skipped). */
static name_set set_of(const char **v, unsigned n)
{
   size_t cap = 16;
   while (cap < 2 * (size_t)n)
      cap *= 2;
   name_set s = { calloc(cap, sizeof(char *)), cap - 1 };
   if (!s.slot)
      xe_out_of_memory();
   for (unsigned k = 0; k < n; k++) {
      if (!v[k])
         continue;
      size_t h = hash_name(v[k]) & s.mask;
      while (s.slot[h] && strcmp(s.slot[h], v[k]))
         h = (h + 1) & s.mask;
      s.slot[h] = v[k];
   }
   return s;
}

static bool has(const name_set *s, const char *name)
{
   if (!name)
      return false;
   for (size_t h = hash_name(name) & s->mask; s->slot[h]; h = (h + 1) & s->mask)
      if (!strcmp(s->slot[h], name))
         return true;
   return false;
}

/* Is kernel k (by entry point or function name) in s? */
static bool names(xe_module *m, const xe_kernel *k, const name_set *s)
{
   return has(s, k->name) || has(s, xe_name(m, xe_function_id(k->fn))) ||
          has(s, xe_name(m, xe_function_id(k->body)));
}

bool xe_plain_kernels(xe_module *m, const xe_remarks *rem, xe_judge *j)
{
   /* used_cfg / used_canon: kernels the users of simplify-cfg's and of
    * canonicalize's rewrites rewrote; canon: kernels canonicalize rewrote
    * (its remarks name the kernel). */
   const char **used_cfg = malloc((rem->n + 1) * sizeof(char *));
   const char **used_merge = malloc((rem->n + 1) * sizeof(char *));
   const char **used_canon = malloc((rem->n + 1) * sizeof(char *));
   const char **canon = malloc((rem->n + 1) * sizeof(char *));
   if (!used_cfg || !used_merge || !used_canon || !canon)
      xe_out_of_memory();
   unsigned ncfg = 0, nmerge = 0, ncanon_used = 0, ncanon = 0;
   bool simplified = false, canon_helpers = false;
   for (unsigned k = 0; k < rem->n; k++) {
      const xe_remark_entry *e = &rem->v[k];
      /* A helper's folds name no kernel ("rewrote N instruction(s) in
       * function F"): any kernel may call it (hashcat through clang's
       * backend, where generic-address leaves every kernel to IGC). */
      if (e->kind == XE_REMARK_APPLIED && !e->kernel && e->decision == XE_DECISION_CANONICAL_FORMS)
         canon_helpers = true;
      if (e->kind != XE_REMARK_APPLIED || !e->kernel)
         continue;
      simplified |= !strcmp(e->pass, "simplify-cfg");
      if (!strcmp(e->pass, "canonicalize"))
         canon[ncanon++] = e->kernel;
      for (unsigned u = 0; u < sizeof(users) / sizeof(users[0]); u++) {
         if (strcmp(e->pass, users[u].pass) ||
             (users[u].reads_neither && e->decision == users[u].reads_neither))
            continue;
         if (users[u].canon)
            used_canon[ncanon_used++] = e->kernel;
         if (users[u].cfg)
            used_cfg[ncfg++] = e->kernel;
         if (users[u].cfg && !users[u].bypass)
            used_merge[nmerge++] = e->kernel;
      }
   }
   name_set cfg_set = set_of(used_cfg, ncfg), merge_set = set_of(used_merge, nmerge),
            canon_used_set = set_of(used_canon, ncanon_used),
            canon_set = set_of(canon, ncanon);
   unsigned nk = 0;
   xe_kernel *ks = simplified || ncanon || canon_helpers ? xe_kernels_all(m, &nk) : NULL;
   bool differs = false;
   for (unsigned k = 0; k < nk; k++) {
      if (!j->target || xe_judge_verdict(j, ks[k].name) != XE_JUDGE_MODEL)
         continue;
      if (!names(m, &ks[k], &cfg_set)) {
         xe_judge_add_plain(j, ks[k].name, XE_PLAIN_CFG);
         differs |= simplified;
      } else if (!names(m, &ks[k], &merge_set)) {
         xe_judge_add_plain(j, ks[k].name, XE_PLAIN_MERGE);
         differs |= simplified;
      }
      if (!names(m, &ks[k], &canon_used_set) &&
          (canon_helpers || names(m, &ks[k], &canon_set))) {
         xe_judge_add_plain(j, ks[k].name, XE_PLAIN_CANON);
         differs = true;
      }
   }
   free(ks);
   free(cfg_set.slot);
   free(merge_set.slot);
   free(canon_used_set.slot);
   free(canon_set.slot);
   free(used_cfg);
   free(used_merge);
   free(used_canon);
   free(canon);
   return differs;
}

/* The registry position of pass (remarks of the driver and the pipeline
 * itself last). */
static unsigned pass_index(const char *pass)
{
   unsigned n = 0;
   const xe_pass_info *all = xe_passes(&n);
   const xe_pass_info *p = xe_pass_find(pass);
   return p ? (unsigned)(p - all) : n;
}

/* One remark of either run and its place in the merged list: (key, sub),
 * key i + 1 for the first run's i-th remark (0: not placed yet). */
typedef struct {
   xe_remark_entry *e;     /* in its run's array */
   unsigned pass, idx;     /* registry position; index in its run */
   bool first, keep, used;
   unsigned key, sub;
} ranked;

static int cmp_kernel(const char *a, const char *b)
{
   return a && b ? strcmp(a, b) : (a != NULL) - (b != NULL);
}

static size_t hash_remark(const ranked *r)
{
   size_t h = r->pass * 31u + (size_t)r->e->kind;
   if (r->e->kernel)
      h ^= hash_name(r->e->kernel) * 3;
   if (r->e->message)
      h ^= hash_name(r->e->message) * 7;
   return h;
}

static bool same_remark(const ranked *a, const ranked *b)
{
   return a->pass == b->pass && a->e->kind == b->e->kind &&
          !cmp_kernel(a->e->kernel, b->e->kernel) && !cmp_kernel(a->e->message, b->e->message);
}

/* By pass, then kernel. */
static int cmp_pass_kernel(const ranked *x, const ranked *y)
{
   if (x->pass != y->pass)
      return x->pass < y->pass ? -1 : 1;
   return cmp_kernel(x->e->kernel, y->e->kernel);
}

/* By (pass, kernel), then in run order. */
static int cmp_group(const void *a, const void *b)
{
   const ranked *x = *(ranked *const *)a, *y = *(ranked *const *)b;
   int c = cmp_pass_kernel(x, y);
   return c ? c : (x->idx > y->idx) - (x->idx < y->idx);
}

static int cmp_place(const void *a, const void *b)
{
   const ranked *x = a, *y = b;
   if (x->key != y->key)
      return x->key < y->key ? -1 : 1;
   return (x->sub > y->sub) - (x->sub < y->sub);
}

/* Places the kept remarks of v (the second run's, v[0..ns), then the
 * first's, v[ns..n)) in the first run's order, so the order does not
 * depend on which kernels had a second run (-g can change that: clang-15
 * keeps empty blocks there that simplify-cfg bypasses):
 * - the first run's own remarks keep their places;
 * - a second-run remark the first run wrote word for word takes its place;
 * - the other applied remarks of a (pass, kernel) take, in turn, the places
 *   of the first run's applied remarks of it that were not kept;
 * - any other follows the second-run remark before it. */
static void place(ranked *v, unsigned ns, unsigned n)
{
   size_t cap = 16;
   while (cap < 2 * (size_t)(n - ns))
      cap *= 2;
   ranked **slot = calloc(cap, sizeof(*slot));
   ranked **sec = malloc((ns + 1) * sizeof(*sec)), **fst = malloc((n - ns + 1) * sizeof(*fst));
   if (!slot || !sec || !fst)
      xe_out_of_memory();
   for (unsigned k = ns; k < n; k++) {
      v[k].key = v[k].idx + 1;
      if (v[k].keep)
         continue;
      size_t h = hash_remark(&v[k]) & (cap - 1);
      while (slot[h])
         h = (h + 1) & (cap - 1);
      slot[h] = &v[k];
   }
   unsigned nsec = 0, nfst = 0;
   for (unsigned k = 0; k < ns; k++) {
      v[k].key = 0;
      if (!v[k].keep)
         continue;
      ranked *match = NULL;
      for (size_t h = hash_remark(&v[k]) & (cap - 1); slot[h] && !match; h = (h + 1) & (cap - 1))
         if (!slot[h]->used && same_remark(slot[h], &v[k]))
            match = slot[h];
      if (match) {
         match->used = true;
         v[k].key = match->key;
      } else if (v[k].e->kind == XE_REMARK_APPLIED) {
         sec[nsec++] = &v[k];
      }
   }
   for (unsigned k = ns; k < n; k++)
      if (!v[k].keep && !v[k].used && v[k].e->kind == XE_REMARK_APPLIED)
         fst[nfst++] = &v[k];
   qsort(sec, nsec, sizeof(*sec), cmp_group);
   qsort(fst, nfst, sizeof(*fst), cmp_group);
   for (unsigned a = 0, b = 0; a < nsec && b < nfst;) {
      int c = cmp_pass_kernel(sec[a], fst[b]);
      if (c < 0)
         a++;
      else if (c > 0)
         b++;
      else
         sec[a++]->key = fst[b++]->key;
   }
   unsigned key = 0, sub = 0;
   for (unsigned k = 0; k < ns; k++) {
      if (!v[k].keep)
         continue;
      if (v[k].key) {
         key = v[k].key;
         sub = 0;
      } else {
         v[k].key = key;
         v[k].sub = ++sub;
      }
   }
   free(slot);
   free(sec);
   free(fst);
}

void xe_plain_merge_remarks(xe_module *m, const xe_judge *j, xe_remarks *first,
                            xe_remarks *second)
{
   unsigned nk = 0;
   xe_kernel *ks = xe_kernels_all(m, &nk);
   bool *plain = xe_judge_plain_flags(j, XE_PLAIN_CFG | XE_PLAIN_MERGE | XE_PLAIN_CANON, ks, nk);
   const char **pn = malloc((3 * nk + 1) * sizeof(char *));
   if (!pn)
      xe_out_of_memory();
   unsigned npn = 0;
   for (unsigned k = 0; k < nk; k++) {
      if (!(plain && plain[k]))
         continue;
      const char *a = ks[k].name, *b = xe_name(m, xe_function_id(ks[k].fn)),
                 *c = xe_name(m, xe_function_id(ks[k].body));
      pn[npn++] = a;
      if (b)
         pn[npn++] = b;
      if (c)
         pn[npn++] = c;
   }
   name_set plain_names = set_of(pn, npn);
   unsigned after = pass_index("simplify-cfg"), npasses = 0;
   xe_passes(&npasses);
   ranked *v = malloc((first->n + second->n + 1) * sizeof(*v));
   if (!v)
      xe_out_of_memory();
   unsigned n = 0;
   xe_remarks *runs[2] = { second, first };
   for (int r = 0; r < 2; r++) {
      for (unsigned k = 0; k < runs[r]->n; k++) {
         xe_remark_entry *e = &runs[r]->v[k];
         unsigned pi = pass_index(e->pass);
         bool from_first = e->kernel && e->kind != XE_REMARK_APPLIED && pi > after &&
                           pi < npasses && has(&plain_names, e->kernel);
         v[n++] = (ranked){ .e = e, .pass = pi, .idx = k, .first = r == 1,
                            .keep = from_first == (r == 1) };
      }
   }
   place(v, second->n, n);
   unsigned kept = 0;
   for (unsigned k = 0; k < n; k++)
      if (v[k].keep)
         v[kept++] = v[k];
   n = kept;
   qsort(v, n, sizeof(*v), cmp_place);
   xe_remark_entry *out = malloc((n + 1) * sizeof(*out));
   if (!out)
      xe_out_of_memory();
   /* The kept remarks move out of their runs; their text goes with them:
    * second's stays, first's moves to it. */
   for (unsigned k = 0; k < n; k++) {
      out[k] = *v[k].e;
      *v[k].e = (xe_remark_entry){ .pass = out[k].pass };
   }
   xe_remarks_free_entries(second);
   xe_remarks_take_text(second, first);
   second->pass = NULL;
   second->v = out;
   second->n = second->cap = n;
   free(v);
   free(plain_names.slot);
   free(pn);
   free(plain);
   free(ks);
}
