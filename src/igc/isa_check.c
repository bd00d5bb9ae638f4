/*
 * --isa-check: IGC judges (isa_check.h).
 *
 * The verdicts live in one table, the judge (judge.h), which the passes
 * read.  A round runs the pipeline under the judge, compiles its output
 * for every checked device and moves each kernel IGC finds worse one step
 * along XE_JUDGE_IGC -> XE_JUDGE_MODEL -> XE_JUDGE_ORIGINAL.  The rounds
 * end when no kernel moves; XE_ISA_ROUNDS bounds them, so a module is
 * compiled at most (1 + 3 * (XE_ISA_ROUNDS + 1)) times per device (the
 * input, each output and the probe, each with its two measured paths when
 * it has a versioned kernel).
 *
 * The pipeline is the driver's, a layer above: every run goes through the
 * callbacks it hands the check (xe_isa_driver), results stay opaque.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io.h"
#include "isa_check.h"
#include "ocloc.h"

/* Outputs judged before the check gives up and keeps every original: a
 * verdict moves at most twice per kernel, but a kept original can change
 * a sibling's code through a shared helper (docs/cost-model.md "Known
 * limits"), so in principle the rounds could run once per kernel. */
#define XE_ISA_ROUNDS 8

/* XE_ISA_ROUNDS, or fewer from $XEOPT_ISA_ROUNDS: the tests' way to reach
 * the bound (tests/test_cost.c isa_check_rounds_bound). */
static unsigned max_rounds(void)
{
   const char *e = getenv("XEOPT_ISA_ROUNDS");
   char *end;
   unsigned long n = e && *e ? strtoul(e, &end, 10) : XE_ISA_ROUNDS;
   return e && *e && !*end && n < XE_ISA_ROUNDS ? (unsigned)n : XE_ISA_ROUNDS;
}

static int name_cmp(const void *name, const void *k)
{
   return strcmp(name, ((const xe_isa_kernel *)k)->name);
}

/* Kernel name's counts among the n of k, which xe_isa_module_counts
 * sorted by name; NULL when IGC wrote none for it. */
static const xe_isa_kernel *find(const xe_isa_kernel *k, unsigned n, const char *name)
{
   return n ? bsearch(name, k, n, sizeof(*k), name_cmp) : NULL;
}

static bool write_bytes(const char *path, const void *b, size_t n)
{
   FILE *f = fopen(path, "wb");
   if (!f)
      return false;
   bool ok = fwrite(b, 1, n, f) == n;
   return fclose(f) == 0 && ok;
}

/* Does an "applied" remark of kernel exist? */
static bool kernel_applied(const xe_remarks *rem, const char *kernel)
{
   for (unsigned k = 0; k < rem->n; k++) {
      const xe_remark_entry *e = &rem->v[k];
      if (e->kind == XE_REMARK_APPLIED && e->kernel && !strcmp(e->kernel, kernel))
         return true;
   }
   return false;
}

/* Did subgroup-versioning version this kernel? */
static bool kernel_versioned(const xe_remarks *rem, const char *kernel)
{
   return xe_remarks_decided(rem, kernel, XE_DECISION_VERSIONED);
}

/* IGC's counts of the two paths of the versioned kernels of one pipeline
 * output: the module rebuilt with measure_path fast and slow (pass.h),
 * each compiled for the checked devices.  [0] fast, [1] slow. */
typedef struct paths {
   xe_isa_kernel *k[2][XE_DEV_COUNT];
   unsigned n[2][XE_DEV_COUNT];
   bool ok;
} paths;

static void paths_free(paths *p)
{
   for (int w = 0; w < 2; w++)
      for (int d = 0; d < XE_DEV_COUNT; d++)
         xe_isa_kernels_free(p->k[w][d], p->n[w][d]);
   memset(p, 0, sizeof(*p));
}

/* One --isa-check call: the user's options, the input and its counts. */
typedef struct check {
   const xe_options *o;       /* the user's */
   unsigned devs;             /* --isa-check's devices */
   const void *bytes;
   size_t size;
   const xe_isa_driver *d;
   xe_isa_tools tools;        /* the IGC that judges */
   const char *work;          /* the work directory: d->workdir, else own */
   char *own;                 /* a new one in $TMPDIR, removed at the end */
   int failed;                /* the device compile_bytes last failed on, else XE_DEV_COUNT */
   xe_isa_kernel *in[XE_DEV_COUNT];
   unsigned nin[XE_DEV_COUNT];
   unsigned outputs, compiles; /* modules compiled; ocloc compiles (one per device) */
   xe_remarks notes;          /* isa-check's remarks: moves, then the final verdicts */
   char stage[48];            /* the report's name of the output being judged */
   unsigned ship_from, ship_to; /* the report's entries of the run in the result */
} check;

/* The rounds' runs: the real output, whatever --measure-path asks. */
static const xe_run real_output = { .measure_path = XE_MEASURE_NONE };

/* One run of the pipeline into t (emptied first) with the run's
 * parameters p (NULL: the user's options' own) under j, its report
 * entries named run (NULL: not named).  Returns where they start. */
static unsigned run_named(check *c, xeopt_result *t, const xe_run *p, const xe_judge *j,
                          const char *run)
{
   return c->d->run(c->d->ctx, t, p, j, run);
}

/* run_named into the result r: the run whose output is written, unless a
 * later one replaces it. */
static void run_result(check *c, xeopt_result *r, const xe_run *p, const xe_judge *j,
                       const char *run)
{
   c->ship_from = run_named(c, r, p, j, run);
   c->ship_to = c->d->report_count(c->d->ctx);
}

/* Writes a module's size bytes to WORK/WHAT.spv and compiles it for every
 * checked device into k/n; false with *err (malloc'd) when that fails. */
static bool compile_bytes(check *c, const void *b, size_t size, const char *what,
                          xe_isa_kernel **k, unsigned *n, char **err)
{
   char *path, *dir;
   if (asprintf(&path, "%s/%s.spv", c->work, what) < 0 || asprintf(&dir, "%s/%s", c->work, what) < 0)
      xe_out_of_memory();
   bool ok = (mkdir(dir, 0700) == 0 || errno == EEXIST) && write_bytes(path, b, size);
   if (!ok && !*err)
      *err = strdup("could not write the module");
   c->outputs += ok;
   c->failed = XE_DEV_COUNT;
   for (int d = 0; d < XE_DEV_COUNT && ok; d++) {
      if (!(c->devs & (1u << d)))
         continue;
      c->compiles++;
      ok = xe_isa_module_counts(&c->tools, path, d, 0, dir, &k[d], &n[d], err);
      if (!ok)
         c->failed = d;
   }
   free(path);
   free(dir);
   return ok;
}

/* compile_bytes of a run's output; false with its error when it has none. */
static bool compile_output(check *c, const xe_isa_output *t, const char *what,
                           xe_isa_kernel **k, unsigned *n, char **err)
{
   if (!t->ok) {
      if (!*err)
         *err = strdup(t->error ? t->error : "no output");
      return false;
   }
   return compile_bytes(c, t->words, t->nwords * 4, what, k, n, err);
}

/* IGC compiles a path alone at the width it picks for that code, which
 * need not be the width of the whole versioned kernel (bmg: a straight-line
 * fast copy alone SIMD32, the kernel with both copies SIMD16).  What runs
 * is the path at the kernel's width, so under IGC 2.x every path kernel
 * whose width differs from the output's (out) is compiled again forced to
 * it, and its counts replaced.  False with *err when that compile fails. */
static bool paths_at_width(check *c, paths *p, int w, xe_isa_kernel *const *out, const unsigned *nout,
                           char **err)
{
   const char *what = w ? "slow" : "fast";
   for (int d = 0; d < XE_DEV_COUNT && c->tools.gen2; d++) {
      for (unsigned simd = 8; simd <= 32; simd *= 2) {
         bool need = false;
         for (unsigned q = 0; q < p->n[w][d] && !need; q++) {
            const xe_isa_kernel *b = find(out[d], nout[d], p->k[w][d][q].name);
            need = b && b->c.simd == simd && p->k[w][d][q].c.simd && p->k[w][d][q].c.simd != simd;
         }
         if (!need)
            continue;
         char *path, *dir;
         if (asprintf(&path, "%s/%s.spv", c->work, what) < 0 ||
             asprintf(&dir, "%s/%s-simd%u", c->work, what, simd) < 0)
            xe_out_of_memory();
         xe_isa_kernel *k = NULL;
         unsigned n = 0;
         bool ok = (mkdir(dir, 0700) == 0 || errno == EEXIST) &&
                   xe_isa_module_counts(&c->tools, path, (enum xe_device)d, simd, dir, &k, &n, err);
         c->compiles += ok;
         for (unsigned q = 0; ok && q < p->n[w][d]; q++) {
            xe_isa_kernel *pk = &p->k[w][d][q];
            const xe_isa_kernel *b = find(out[d], nout[d], pk->name), *f = find(k, n, pk->name);
            if (b && b->c.simd == simd && f)
               pk->c = f->c;
         }
         xe_isa_kernels_free(k, n);
         free(path);
         free(dir);
         if (!ok)
            return false;
      }
   }
   return true;
}

/* The two paths of the versioned kernels of the output under judge j,
 * each at the width of the output's kernel (out, nout: its counts). */
static void paths_measure(check *c, const xe_judge *j, paths *p, xe_isa_kernel *const *out,
                          const unsigned *nout, char **err)
{
   memset(p, 0, sizeof(*p));
   p->ok = true;
   for (int w = 0; w < 2 && p->ok; w++) {
      xe_run path = { .measure_path = w ? XE_MEASURE_SLOW : XE_MEASURE_FAST, .no_verify = true };
      xeopt_result *t = c->d->result_new();
      char run[80];
      snprintf(run, sizeof(run), "%s, %s path alone (measured)", c->stage, w ? "slow" : "fast");
      run_named(c, t, &path, j, run);
      xe_isa_output to = c->d->output(t);
      p->ok = compile_output(c, &to, w ? "slow" : "fast", p->k[w], p->n[w], err) &&
              paths_at_width(c, p, w, out, nout, err);
      c->d->result_free(t);
   }
}

/* A pipeline output under a judge, compiled: its counts per device and,
 * when it versioned a kernel, its paths. */
typedef struct scored {
   xe_isa_kernel *k[XE_DEV_COUNT];
   unsigned n[XE_DEV_COUNT];
   paths p;
   bool compiled;
} scored;

static void scored_free(scored *s)
{
   for (int d = 0; d < XE_DEV_COUNT; d++)
      xe_isa_kernels_free(s->k[d], s->n[d]);
   paths_free(&s->p);
   memset(s, 0, sizeof(*s));
}

/* Compiles t (the output under j; its kernels ks) as WORK/WHAT into s
 * and, when it versioned one of them (*versioned), its two paths (s->p.ok
 * says whether they compiled).  False with *err when t itself does not
 * compile. */
static bool compile_scored(check *c, const xe_judge *j, const xe_isa_output *t, const char *what,
                           const xe_kernel *ks, unsigned nk, scored *s, bool *versioned, char **err)
{
   memset(s, 0, sizeof(*s));
   *versioned = false;
   if (!compile_output(c, t, what, s->k, s->n, err))
      return false;
   for (unsigned k = 0; k < nk; k++)
      *versioned |= kernel_versioned(t->remarks, ks[k].name);
   if (*versioned)
      paths_measure(c, j, &s->p, s->k, s->n, err);
   return true;
}

/* A round's output: compile_scored, with a note when IGC fails on it or
 * on a measured path (then its versioned kernels are scored with both
 * copies). */
static void score(check *c, const xe_judge *j, const xe_isa_output *t, const char *what,
                  const xe_kernel *ks, unsigned nk, scored *s)
{
   char *err = NULL;
   bool versioned;
   s->compiled = compile_scored(c, j, t, what, ks, nk, s, &versioned, &err);
   if (!s->compiled)
      xe_remark(&c->notes, NULL, XE_REMARK_NOTE, "IGC could not compile the output: %s", err ? err : "?");
   else if (versioned && !s->p.ok)
      xe_remark(&c->notes, NULL, XE_REMARK_NOTE, "versioned kernels scored with both copies: "
                "IGC could not compile a measured path: %s", err ? err : "?");
   free(err);
}

/* One kernel's ISA estimate, or with igc IGC 2.x's own (0 when IGC gave
 * none), for simd's work-items. */
static double one_estimate(enum xe_device d, const xe_isa_counts *c, unsigned simd, bool igc)
{
   return igc ? xe_cost_igc_at(d, c, simd) : xe_cost_isa_at(d, c, simd);
}

/* The ISA estimate (igc: IGC's own) of kernel b's output on d: for a
 * versioned kernel the two paths weighted as the sub-groups run them
 * (xe_cost_versioned's XE_COST_FAST_FRACTION; docs/cost-model.md
 * "Versioning"), each path's code compiled on its own with the test kept.
 * 0 for igc when IGC gave none for a code the estimate needs. */
static double estimate(enum xe_device d, const xe_isa_kernel *b, const paths *p, const char *name,
                       unsigned simd, bool igc)
{
   if (p && p->ok) {
      const xe_isa_kernel *f = find(p->k[0][d], p->n[0][d], name);
      const xe_isa_kernel *s = find(p->k[1][d], p->n[1][d], name);
      if (f && s) {
         double ef = one_estimate(d, &f->c, simd, igc), es = one_estimate(d, &s->c, simd, igc);
         if (igc && (!ef || !es))
            return 0;
         return XE_COST_FAST_FRACTION * ef + (1 - XE_COST_FAST_FRACTION) * es;
      }
   }
   return one_estimate(d, &b->c, simd, igc);
}

/* Is the output (ISA estimate eb, IGC's estimate ib) worse than the input
 * a on d?  By the ISA estimate, or, where IGC 2.x estimated both, by IGC's
 * own: IGC judges too, and a rewrite stays only where neither says it
 * costs (IGC's estimate weighs cycles with latencies and each loop by its
 * trips; the ISA estimate weighs memory messages by kind). */
static bool scores_worse(enum xe_device d, const xe_isa_counts *a, double eb, double ib)
{
   if (eb > xe_cost_isa_at(d, a, a->simd) * (1 + XE_COST_TIE))
      return true;
   return a->igc_estimate > 0 && ib > 0 && ib > a->igc_estimate * (1 + XE_COST_TIE);
}

/* One device's figures of a verdict: the estimates before and after and
 * the counts behind them, written as "pvc 30 -> 37 (22 -> 31 instructions,
 * 2 -> 1 scattered, 0 -> 1 block, 0 -> 0 private)" into the remark and
 * kept as data for the report. */
typedef struct figure {
   enum xe_device d;
   double before, after;
   char detail[256];
} figure;

/* The SIMD widths when IGC chose different ones (the counts are per
 * thread, the output's estimate per as many work-items as the input's
 * thread). */
static void describe(figure *f, enum xe_device d, const xe_isa_counts *a, const xe_isa_counts *b,
                     double eb, double ib, bool versioned)
{
   char simd[80] = "", igc[64] = "";
   if (a->simd && b->simd && a->simd != b->simd)
      snprintf(simd, sizeof(simd), ", SIMD%u -> SIMD%u, estimated per %u work-items", a->simd, b->simd,
               xe_cost_isa_per(d, a->simd));
   if (a->igc_estimate > 0 && ib > 0)
      snprintf(igc, sizeof(igc), ", IGC's estimate %.0f -> %.0f cycles", a->igc_estimate, ib);
   f->d = d;
   f->before = xe_cost_isa_at(d, a, a->simd);
   f->after = eb;
   snprintf(f->detail, sizeof(f->detail), "%u -> %u instructions, loop %u -> %u, %u -> %u "
            "scattered, %u -> %u block, %u -> %u private%s%s%s", a->instructions, b->instructions,
            a->loop, b->loop, a->scattered, b->scattered, a->block, b->block, a->priv, b->priv,
            simd, igc, versioned ? "; counts of both copies, estimate of the two paths as sub-groups run them" : "");
}

/* "dg2 61 -> 50 (counts); pvc 57 -> 49 (counts)" of the nf figures f into
 * all (n bytes). */
static void figures_text(char *all, size_t n, const figure *f, unsigned nf)
{
   all[0] = 0;
   for (unsigned k = 0; k < nf; k++) {
      size_t at = strlen(all);
      snprintf(all + at, n - at, "%s%s %.0f -> %.0f%s%s%s", k ? "; " : "", xe_device_name(f[k].d),
               f[k].before, f[k].after, f[k].detail[0] ? " (" : "", f[k].detail,
               f[k].detail[0] ? ")" : "");
   }
}

/* The figures onto remark e, as its message prints them (whole cycles). */
static void figures_add(xe_remark_entry *e, const figure *f, unsigned nf)
{
   for (unsigned k = 0; k < nf; k++)
      xe_remark_figure_add(e, f[k].d, rint(f[k].before), rint(f[k].after),
                           f[k].detail[0] ? f[k].detail : NULL);
}

/* Did the output t (compiled as s) change kernel name: a pass says so,
 * or IGC's code differs (helpers rewritten for several kernels carry no
 * kernel name)? */
static bool changed(const check *c, const xe_isa_output *t, const scored *s, const char *name)
{
   bool ch = !s->compiled || kernel_applied(t->remarks, name);
   for (int d = 0; d < XE_DEV_COUNT && !ch; d++) {
      const xe_isa_kernel *a = find(c->in[d], c->nin[d], name), *b = find(s->k[d], s->n[d], name);
      ch = a && b && memcmp(&a->c, &b->c, sizeof(a->c));
   }
   return ch;
}

/* One round's verdicts on the output t (compiled as s): each changed
 * kernel IGC finds worse than its input on a checked device moves one
 * step (XE_JUDGE_IGC -> XE_JUDGE_MODEL -> XE_JUDGE_ORIGINAL; straight to
 * the original when the output did not compile), with a remark; each
 * other changed kernel gets "rewrite kept" in kept.  Returns how many
 * moved. */
static unsigned judge_round(check *c, xe_judge *j, const xe_isa_output *t, const scored *s,
                            const xe_kernel *ks, unsigned nk, xe_remarks *kept)
{
   unsigned moved = 0;
   for (unsigned k = 0; k < nk; k++) {
      const char *name = ks[k].name;
      enum xe_verdict v = xe_judge_verdict(j, name);
      if (v == XE_JUDGE_ORIGINAL || !changed(c, t, s, name))
         continue;
      figure figs[XE_DEV_COUNT];
      unsigned nf = 0;
      bool worse = !s->compiled;
      const char *worst = s->compiled ? NULL : "IGC could not compile the output";
      for (int d = 0; d < XE_DEV_COUNT && s->compiled; d++) {
         const xe_isa_kernel *a = find(c->in[d], c->nin[d], name), *b = find(s->k[d], s->n[d], name);
         if (!(c->devs & (1u << d)) || !a || !b)
            continue;
         bool vers = s->p.ok && kernel_versioned(t->remarks, name);
         double eb = estimate(d, b, vers ? &s->p : NULL, name, a->c.simd, false);
         double ib = estimate(d, b, vers ? &s->p : NULL, name, a->c.simd, true);
         describe(&figs[nf++], d, &a->c, &b->c, eb, ib, vers);
         if (scores_worse(d, &a->c, eb, ib) && !worst)
            worst = xe_device_name(d);
         worse |= worst != NULL;
      }
      char all[XE_DEV_COUNT * 324];
      figures_text(all, sizeof(all), figs, nf);
      xe_remark_entry *e;
      if (!worse) {
         e = xe_remark_decision(kept, name, XE_REMARK_APPLIED, XE_DECISION_ISA_KEPT,
                                "rewrite kept: ISA estimate %s", all);
      } else if (v == XE_JUDGE_IGC && s->compiled) {
         xe_judge_set(j, name, XE_JUDGE_MODEL);
         e = xe_remark_decision(&c->notes, name, XE_REMARK_NOTE, XE_DECISION_ISA_REDONE,
                                "rewritten again with the cost model asked: IGC's output without "
                                "it is worse on %s (ISA estimate %s)", worst, all);
      } else {
         xe_judge_set(j, name, XE_JUDGE_ORIGINAL);
         e = xe_remark_decision(&c->notes, name, XE_REMARK_MISSED, XE_DECISION_ISA_ORIGINAL,
                                "original kept: IGC's output is worse on %s (ISA estimate %s)",
                                worst, all);
      }
      figures_add(e, figs, nf);
      moved += worse;
   }
   return moved;
}

/* The rounds start without the cost model and keep whatever IGC does not
 * find worse than the input; the rewrite the model asks for may still be
 * the better one (testdata sg_wide on dg2: ISA estimate 62 with the
 * model, 74 without it, 91 as input).  So once the rounds settle, one
 * probe: the same run with the model asked for every kernel still at
 * XE_JUDGE_IGC.  When its output differs, it is compiled and scored like
 * a round, and each such kernel whose probe estimate is not higher on any
 * checked device and lower on one moves to XE_JUDGE_MODEL.  cur is the
 * settled round's output t, compiled.  Returns how many moved (the rounds
 * then run again and judge them as usual). */
static unsigned probe_model(check *c, xe_judge *j, const xe_isa_output *t, const scored *cur,
                            const xe_kernel *ks, unsigned nk)
{
   xe_judge pj;
   xe_judge_copy(&pj, j);
   bool any = false;
   for (unsigned k = 0; k < nk; k++) {
      if (xe_judge_verdict(j, ks[k].name) == XE_JUDGE_IGC) {
         xe_judge_set(&pj, ks[k].name, XE_JUDGE_MODEL);
         any = true;
      }
   }
   xeopt_result *ptr = c->d->result_new();
   xe_isa_output pt = { 0 };
   scored ps = { 0 };
   unsigned moved = 0;
   snprintf(c->stage, sizeof(c->stage), "isa-check probe (cost model asked)");
   if (any) {
      run_named(c, ptr, &real_output, &pj, c->stage);
      pt = c->d->output(ptr);
   }
   bool differs = any && pt.ok &&
                  (pt.nwords != t->nwords || memcmp(pt.words, t->words, pt.nwords * 4));
   char *err = NULL;
   bool versioned = false;
   /* Scored only when every code the estimates need compiled. */
   if (differs)
      ps.compiled = compile_scored(c, &pj, &pt, "probe", ks, nk, &ps, &versioned, &err) &&
                    (!versioned || ps.p.ok);
   for (unsigned k = 0; k < nk && ps.compiled; k++) {
      const char *name = ks[k].name;
      if (xe_judge_verdict(j, name) != XE_JUDGE_IGC)
         continue;
      bool lower = false, higher = false;
      figure figs[XE_DEV_COUNT];
      unsigned nf = 0;
      for (int d = 0; d < XE_DEV_COUNT; d++) {
         const xe_isa_kernel *a = find(cur->k[d], cur->n[d], name), *b = find(ps.k[d], ps.n[d], name);
         if (!(c->devs & (1u << d)) || !a || !b)
            continue;
         /* Both per as many work-items as the current output's thread. */
         const paths *pa = kernel_versioned(t->remarks, name) ? &cur->p : NULL;
         const paths *pb = kernel_versioned(pt.remarks, name) ? &ps.p : NULL;
         double ea = estimate(d, a, pa, name, a->c.simd, false), eb = estimate(d, b, pb, name, a->c.simd, false);
         double ia = estimate(d, a, pa, name, a->c.simd, true), ib = estimate(d, b, pb, name, a->c.simd, true);
         lower |= eb < ea * (1 - XE_COST_TIE);
         higher |= eb > ea * (1 + XE_COST_TIE) || (ia > 0 && ib > ia * (1 + XE_COST_TIE));
         figs[nf++] = (figure){ .d = (enum xe_device)d, .before = ea, .after = eb };
      }
      if (!lower || higher)
         continue;
      xe_judge_set(j, name, XE_JUDGE_MODEL);
      moved++;
      char all[XE_DEV_COUNT * 324];
      figures_text(all, sizeof(all), figs, nf);
      figures_add(xe_remark_decision(&c->notes, name, XE_REMARK_NOTE, XE_DECISION_ISA_PROBE,
                                     "rewritten again with the cost model asked: IGC's output of "
                                     "the model's rewrite scores better than the one without it "
                                     "(ISA estimate without -> with the model: %s)", all),
                  figs, nf);
   }
   scored_free(&ps);
   c->d->result_free(ptr);
   xe_judge_free(&pj);
   free(err);
   return moved;
}

/* Why the check cannot judge, when it cannot: ocloc cannot compile for a
 * named device, no work directory, or IGC fails on the input.  A judge
 * that cannot judge a device the user named is an error: an output it
 * did not judge is never given out as if it had (malloc'd; NULL when the
 * input compiled for every device). */
static char *cannot_judge(check *c)
{
   char *why = NULL, *msg;
   for (int d = 0; d < XE_DEV_COUNT; d++) {
      if ((c->devs & (1u << d)) && !xe_isa_device_supported(&c->tools, d, &why)) {
         if (asprintf(&msg, "--isa-check cannot judge %s: %s", xe_device_name(d), why) < 0)
            xe_out_of_memory();
         free(why);
         return msg;
      }
   }
   if (!c->work)
      return strdup("--isa-check cannot judge: no work directory could be made in $TMPDIR");
   if (c->size % 4)
      return strdup("--isa-check cannot judge: the input is not a whole number of words");
   if (compile_bytes(c, c->bytes, c->size, "in", c->in, c->nin, &why))
      return NULL;
   if (c->failed < XE_DEV_COUNT) {
      if (asprintf(&msg, "--isa-check cannot judge %s: IGC could not compile the input: %s",
                   xe_device_name(c->failed), why ? why : "?") < 0)
         xe_out_of_memory();
   } else if (asprintf(&msg, "--isa-check cannot judge: %s", why ? why : "?") < 0) {
      xe_out_of_memory();
   }
   free(why);
   return msg;
}

/* r's error when the check cannot judge: the pipeline's own when it fails
 * on the input (an invalid module says so, as without --isa-check), else
 * why (taken). */
static void fail_unjudged(check *c, xeopt_result *r, const xe_judge *j, char *why)
{
   run_named(c, r, &real_output, j, NULL);
   if (!c->d->output(r).ok) {
      free(why);
      return;
   }
   c->d->fail(r, why);
}

void xe_isa_check_run(xeopt_result *r, const xe_options *o, const void *bytes, size_t size,
                      const xe_isa_driver *d)
{
   check c = { .o = o, .devs = o->isa_check, .bytes = bytes, .size = size, .d = d };
   c.notes.pass = "isa-check";
   if (d->workdir)
      c.work = d->workdir;
   else
      c.work = c.own = xe_isa_workdir("isa");
   /* IGC is the judge: every kernel is first rewritten without the cost
    * model (judge_round moves the ones IGC finds worse). */
   xe_judge j;
   xe_judge_init(&j, o, XE_JUDGE_IGC);
   xe_remarks kept = { 0 };  /* the last round's "rewrite kept" verdicts */
   char *why = NULL;
   if (!xe_isa_tools_find(&c.tools, o->ocloc, &why) || (why = cannot_judge(&c))) {
      fail_unjudged(&c, r, &j, why);
      goto done;
   }
   bool probed = false, settled = false;
   unsigned rounds = max_rounds();
   for (unsigned round = 0; round <= rounds; round++) {
      snprintf(c.stage, sizeof(c.stage), "isa-check round %u", round + 1);
      run_result(&c, r, &real_output, &j, c.stage);
      xe_isa_output out = d->output(r);
      if (!out.ok) {
         xe_remarks_free(&kept);
         settled = true;
         break;
      }
      if (round == rounds)
         break;              /* judged as many outputs as allowed: not settled */
      unsigned nk;
      char *err = NULL;
      xe_module *m = xe_read(out.words, out.nwords * 4, &err);
      free(err);
      if (!m) {
         settled = true;     /* nothing to judge by: the output stands as the pipeline wrote it */
         break;
      }
      xe_kernel *ks = xe_kernels_all(m, &nk);
      scored s;
      char what[16];
      snprintf(what, sizeof(what), "out%u", round);
      score(&c, &j, &out, what, ks, nk, &s);
      xe_remarks_free(&kept);
      kept.pass = "isa-check";
      unsigned moved = judge_round(&c, &j, &out, &s, ks, nk, &kept);
      if (!moved && !probed && s.compiled) {
         probed = true;
         moved = probe_model(&c, &j, &out, &s, ks, nk);
      }
      scored_free(&s);
      free(ks);
      xe_module_free(m);
      if (!moved) {
         settled = true;
         break;
      }
   }
   if (!settled) {
      /* Every original: the input's code, which IGC cannot find worse. */
      xe_remarks_free(&kept);
      xe_judge_set_all(&j, XE_JUDGE_ORIGINAL);
      xe_remark(&c.notes, NULL, XE_REMARK_MISSED,
                "every original kept: IGC's verdicts did not settle in %u judged output%s", rounds,
                rounds == 1 ? "" : "s");
      run_result(&c, r, &real_output, &j, "isa-check: every original kept");
   }
   if (o->measure_path != XE_MEASURE_NONE && d->output(r).ok) {
      /* The rounds measured the real output; the one asked for is one path
       * of it, with the same verdicts. */
      run_result(&c, r, NULL, &j, "the measured path asked for (--measure-path)");
   }
   d->report_shipped(d->ctx, c.ship_from, c.ship_to);
   /* The check's remarks go after the final pipeline's: the moves, the
    * final verdicts, then who judged and at what cost. */
   xe_remarks *rem = d->output(r).remarks;
   rem->pass = "isa-check";
   for (unsigned k = 0; k < c.notes.n; k++)
      xe_remark_copy(rem, &c.notes.v[k]);
   for (unsigned k = 0; k < kept.n; k++)
      xe_remark_copy(rem, &kept.v[k]);
   char *judge = xe_isa_judge(&c.tools);
   xe_remark(rem, NULL, XE_REMARK_NOTE, "judged by %s: %u modules compiled, %u ocloc compiles",
             judge, c.outputs, c.compiles);
   free(judge);
done:
   xe_remarks_free(&kept);
   xe_remarks_free(&c.notes);
   for (int d = 0; d < XE_DEV_COUNT; d++)
      xe_isa_kernels_free(c.in[d], c.nin[d]);
   xe_judge_free(&j);
   xe_isa_tools_free(&c.tools);
   if (c.own)
      xe_rm_rf(c.own);
   free(c.own);
}
