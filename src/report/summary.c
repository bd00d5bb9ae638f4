#define _GNU_SOURCE
/*
 * The report's summaries (report_page.h): per device, the estimates of the
 * rewritten kernels; per kernel, what was applied and refused and why; per
 * run of the pipeline, its passes.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cost.h"
#include "io.h"
#include "report_page.h"

/* ---- per device ---- */

/* Did subgroup-versioning version kernel kidx?  The model's estimate of
 * the output then counts both copies. */
static bool versioned(const xe_remarks *rs, const int *rk, int kidx)
{
   for (unsigned k = 0; k < rs->n; k++)
      if (rk[k] == kidx && rs->v[k].kind == XE_REMARK_APPLIED &&
          rs->v[k].decision == XE_DECISION_VERSIONED)
         return true;
   return false;
}

/* The estimates of the rewritten kernels, summed per device: IGC's from
 * --isa-check's "rewrite kept" remarks, else the cost model's of the
 * input's and the output's code.  have[d] counts the kernels with
 * figures on d. */
typedef struct dev_sums {
   double before[XE_DEV_COUNT], after[XE_DEV_COUNT];
   unsigned have[XE_DEV_COUNT];
} dev_sums;

static void sums_igc(dev_sums *ds, const xe_remarks *rs, const int *rk, const kinfo *ks)
{
   for (unsigned k = 0; k < rs->n; k++) {
      if (rk[k] < 0 || !ks[rk[k]].changed || rs->v[k].decision != XE_DECISION_ISA_KEPT)
         continue;
      const xe_remark_figure *f = rs->v[k].figures;
      for (unsigned q = 0; q < rs->v[k].nfigures; q++) {
         enum xe_device d = f[q].device;
         ds->before[d] += f[q].before;
         ds->after[d] += f[q].after;
         ds->have[d]++;
      }
   }
}

static void sums_model(dev_sums *ds, unsigned devs, const xeopt_result *r, const void *input,
                       size_t size, const kinfo *ks, unsigned nk)
{
   char *err = NULL;
   size_t nw = 0;
   const uint32_t *ow = xeopt_result_words(r, &nw);
   xe_module *mi = xe_read(input, size, &err);
   free(err);
   err = NULL;
   xe_module *mo = ow ? xe_read(ow, nw * 4, &err) : NULL;
   free(err);
   for (unsigned k = 0; k < nk && mi && mo; k++) {
      xe_kernel a, b;
      if (!ks[k].changed || !xe_kernel_by_name(mi, ks[k].name, &a) || !xe_kernel_by_name(mo, ks[k].name, &b) ||
          !a.fn || !b.fn)
         continue;
      for (int d = 0; d < XE_DEV_COUNT; d++) {
         if (!(devs & (1u << d)))
            continue;
         ds->before[d] += xe_cost_function(mi, a.fn, (enum xe_device)d, NULL).cycles;
         ds->after[d] += xe_cost_function(mo, b.fn, (enum xe_device)d, NULL).cycles;
         ds->have[d]++;
      }
   }
   xe_module_free(mi);
   xe_module_free(mo);
}

/* The table at the top: per target device, the kernels rewritten and
 * kept as they were, and the estimate of the rewritten ones before ->
 * after (IGC's with --isa-check, else the cost model's). */
void rep_device_summary(sb *b, const xeopt_result *r, const void *input, size_t size,
                        const kinfo *ks, unsigned nk, const int *rk)
{
   const xe_remarks *rs = &r->remarks;
   bool igc = r->isa_check != 0;
   unsigned devs = igc ? r->isa_check
                   : r->target == XE_TARGET_NONE ? 0 : r->target ? r->target : XE_DEV_DEFAULT;
   unsigned nch = 0, nvers = 0;
   for (unsigned k = 0; k < nk; k++) {
      nch += ks[k].changed;
      nvers += ks[k].changed && versioned(rs, rk, ks[k].idx);
   }
   dev_sums ds = { 0 };
   if (igc)
      sums_igc(&ds, rs, rk, ks);
   else if (devs && nch)
      sums_model(&ds, devs, r, input, size, ks, nk);
   rep_sb_str(b, "<h2>Per device</h2>");
   if (!devs) {
      rep_sb_fmt(b, "<p>%u of %u kernel%s rewritten; no device estimate (<code>--target=none</code>).</p>",
                 nch, nk, nk == 1 ? "" : "s");
      return;
   }
   rep_sb_fmt(b, "<p class=\"meta\">The devices %s; the estimate is %s, summed over the rewritten "
                 "kernels (the others are unchanged).</p>",
              igc ? "IGC checked (<code>--isa-check</code>)" : "the cost model targets (<code>--target</code>)",
              igc ? "IGC's ISA estimate of the code written (a kernel whose original was kept counts as "
                    "kept)"
                  : "the cost model's of the input's and the output's code");
   rep_sb_str(b, "<table class=\"sum dev\"><tr><th>device</th><th class=\"num\">kernels rewritten</th>"
                 "<th class=\"num\">kept as they were</th><th class=\"num\">estimate before</th>"
                 "<th class=\"num\">after</th><th>change</th></tr>");
   for (int d = 0; d < XE_DEV_COUNT; d++) {
      if (!(devs & (1u << d)))
         continue;
      rep_sb_fmt(b, "<tr><td>%s</td><td class=\"num\">%u</td><td class=\"num\">%u</td>",
                 xe_device_name((enum xe_device)d), nch, nk - nch);
      if (!ds.have[d]) {
         rep_sb_fmt(b, "<td class=\"num no\">&mdash;</td><td class=\"num no\">&mdash;</td><td class=\"no\">%s</td></tr>",
                    nch ? "no figures (see the remarks)" : "nothing rewritten");
         continue;
      }
      double a = ds.before[d], c = ds.after[d];
      const char *cls = c < a ? "better" : c > a ? "worse" : "same";
      rep_sb_fmt(b, "<td class=\"num\">%.0f</td><td class=\"num\">%.0f%s</td><td class=\"%s\">", a, c,
                 !igc && nvers ? " *" : "", cls);
      if (a > 0)
         rep_sb_fmt(b, "%+.1f%% ", 100.0 * (c - a) / a);
      rep_sb_str(b, c < a ? "lower (better)" : c > a ? "higher (worse)" : "same");
      if (igc && ds.have[d] < nch)
         rep_sb_fmt(b, " <span class=\"no\">(%u of %u rewritten kernels measured)</span>", ds.have[d], nch);
      rep_sb_str(b, "</td></tr>");
   }
   rep_sb_str(b, "</table>");
   if (!igc && nvers)
      rep_sb_fmt(b, "<p class=\"meta\">* the model's estimate of the code as written counts both copies "
                    "of %u versioned kernel%s; the weighted estimate the pass decided by is in its "
                    "remarks (each sub-group runs one copy).</p>", nvers, nvers == 1 ? "" : "s");
}

/* The reason of a missed remark as the summary shows it: the message
 * after its subject ("load via %29: unknown sub-group size" ->
 * "unknown ..."). */
static void reason_of(const char *msg, char *buf, size_t n)
{
   const char *c = strstr(msg, ": ");
   const char *r = c && c[2] ? c + 2 : msg;
   snprintf(buf, n, "%s", r);
   if (strlen(r) >= n - 1 && n > 4)
      memcpy(buf + n - 4, "...", 4);
}

/* Do missed remarks a and b give one reason in the summary?  Where they
 * record a decision, by its data (the pass, the decision, its subject and
 * figures); else by the message after its subject, why_a and why_b
 * (reason_of). */
static bool same_reason(const xe_remark_entry *a, const char *why_a, const xe_remark_entry *b,
                        const char *why_b)
{
   if (strcmp(a->pass, b->pass) || a->decision != b->decision)
      return false;
   if (a->decision == XE_DECISION_NONE)
      return !strcmp(why_a, why_b);
   if (a->subject != b->subject || a->nfigures != b->nfigures)
      return false;
   for (unsigned f = 0; f < a->nfigures; f++)
      if (a->figures[f].device != b->figures[f].device || a->figures[f].before != b->figures[f].before ||
          a->figures[f].after != b->figures[f].after)
         return false;
   return true;
}

/* The table of the kernels: changed or not, applied and missed counts,
 * the distinct reasons of the missed ones per pass, host requirements. */
void rep_kernels_summary(sb *b, const kinfo *ks, unsigned nk, unsigned nchanged,
                         const xe_remarks *rs, const int *rk)
{
   rep_sb_fmt(b, "<h2>Summary</h2><p>%u kernel%s, %u changed. "
                 "<span class=\"legend\"><span class=\"pill applied\">&#10003; applied</span> a rewrite was made "
                 "&nbsp; <span class=\"pill missed\">&#10007; missed</span> a candidate was refused, with why</span></p>",
              nk, nk == 1 ? "" : "s", nchanged);
   rep_sb_str(b, "<table class=\"sum\"><tr><th>kernel</th><th>changed</th><th class=\"num\">applied</th>"
                 "<th class=\"num\">missed</th><th>refused, and why</th><th>host requirements</th></tr>");
   for (unsigned k = 0; k < nk; k++) {
      const kinfo *ki = &ks[k];
      rep_sb_str(b, "<tr><td><a href=\"#");
      rep_sb_anchor(b, ki->name);
      rep_sb_str(b, "\"><code>");
      rep_sb_esc(b, ki->name);
      rep_sb_fmt(b, "</code></a></td><td>%s</td><td class=\"num\">%s%u%s</td><td class=\"num\">%s%u%s</td><td>",
                 ki->changed ? "<span class=\"yes\">&#10003; yes</span>" : "<span class=\"no\">no</span>",
                 ki->applied ? "<span class=\"pill applied\">" : "", ki->applied, ki->applied ? "</span>" : "",
                 ki->missed ? "<span class=\"pill missed\">" : "", ki->missed, ki->missed ? "</span>" : "");
      /* distinct reasons per pass */
      if (ki->missed) {
         rep_sb_str(b, "<ul class=\"why\">");
         char (*seen)[200] = calloc(ki->missed, sizeof(*seen));
         unsigned *times = calloc(ki->missed, sizeof(unsigned));
         const xe_remark_entry **firsts = calloc(ki->missed, sizeof(*firsts));
         unsigned ns = 0;
         for (unsigned j = 0; j < rs->n; j++) {
            const xe_remark_entry *x = &rs->v[j];
            if (rk[j] != (int)k || x->kind != XE_REMARK_MISSED)
               continue;
            char why[200];
            reason_of(x->message, why, sizeof(why));
            unsigned q = 0;
            while (q < ns && !same_reason(firsts[q], seen[q], x, why))
               q++;
            if (q == ns) {
               memcpy(seen[ns], why, sizeof(why));
               firsts[ns] = x;
               ns++;
            }
            times[q]++;
         }
         for (unsigned q = 0; q < ns; q++) {
            rep_sb_str(b, "<li><span class=\"pass\">");
            rep_sb_esc(b, firsts[q]->pass);
            rep_sb_str(b, "</span> ");
            rep_sb_esc(b, seen[q]);
            if (times[q] > 1)
               rep_sb_fmt(b, " <b>&times;%u</b>", times[q]);
            rep_sb_str(b, "</li>");
         }
         free(seen);
         free(times);
         free(firsts);
         rep_sb_str(b, "</ul>");
      } else {
         rep_sb_str(b, "<span class=\"no\">&mdash;</span>");
      }
      unsigned nreq = ki->mf ? rep_requirements_count(ki->mf) : 0;
      if (nreq) {
         rep_sb_fmt(b, "</td><td><a href=\"#");
         rep_sb_anchor(b, ki->name);
         rep_sb_fmt(b, "-req\">%u (see the kernel)</a></td></tr>", nreq);
      }
      else
         rep_sb_str(b, "</td><td class=\"no\">none</td></tr>");
   }
   rep_sb_str(b, "</table>");
}

/* ---- passes ---- */

/* The "passes" entries [from, to) as a table. */
static void passes_table(sb *b, const cJSON *passes, int from, int to)
{
   rep_sb_str(b, "<table class=\"stats\"><tr><th>pass</th><th>changed the module</th>"
                 "<th class=\"num\">milliseconds</th></tr>");
   for (int k = from; k < to; k++) {
      const cJSON *p = cJSON_GetArrayItem(passes, k);
      rep_sb_str(b, "<tr><td><code>");
      rep_sb_esc(b, rep_jstr(p, "name"));
      bool ch = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "changed"));
      rep_sb_fmt(b, "</code></td><td>%s</td><td class=\"num\">%.3f</td></tr>",
                 ch ? "<span class=\"yes\">yes</span>" : "<span class=\"no\">no</span>",
                 rep_jnum(p, "milliseconds", 0));
   }
   rep_sb_str(b, "</table>");
}

/* Where the run holding entry k ends: the first entry after it with
 * another "run". */
static int run_end(const cJSON *passes, int k, int n)
{
   const char *run = rep_jstr(cJSON_GetArrayItem(passes, k), "run");
   int e = k + 1;
   while (e < n && run && rep_jstr(cJSON_GetArrayItem(passes, e), "run") &&
          !strcmp(rep_jstr(cJSON_GetArrayItem(passes, e), "run"), run))
      e++;
   return run ? e : n;
}

/* The passes of each run of the pipeline (pipeline.h: xe_report_label_run),
 * the run whose output was written first, the others folded. */
void rep_passes_html(sb *b, const cJSON *passes)
{
   int n = cJSON_GetArraySize(passes);
   if (n <= 0)
      return;
   rep_sb_str(b, "<h2>Passes</h2>");
   if (!rep_jstr(cJSON_GetArrayItem(passes, 0), "run")) {
      rep_sb_str(b, "<p class=\"meta\">One run of the pipeline; its output was written.</p>");
      passes_table(b, passes, 0, n);
      return;
   }
   int nruns = 0, ship = -1;
   for (int k = 0; k < n; k = run_end(passes, k, n)) {
      nruns++;
      if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(passes, k), "shipped")))
         ship = k;
   }
   rep_sb_fmt(b, "<p class=\"meta\">The pipeline ran %d times", nruns);
   if (ship >= 0) {
      rep_sb_str(b, "; the output written comes from: <b>");
      rep_sb_esc(b, rep_jstr(cJSON_GetArrayItem(passes, ship), "run"));
      rep_sb_str(b, "</b>");
   }
   rep_sb_str(b, " (docs/report.md).</p>");
   if (ship >= 0) {
      rep_sb_str(b, "<h3 class=\"run\">");
      rep_sb_esc(b, rep_jstr(cJSON_GetArrayItem(passes, ship), "run"));
      rep_sb_str(b, " &middot; written</h3>");
      passes_table(b, passes, ship, run_end(passes, ship, n));
   }
   if (nruns - (ship >= 0) <= 0)
      return;
   rep_sb_fmt(b, "<details class=\"runs\"><summary>The other %d run%s (not written)</summary>",
              nruns - (ship >= 0), nruns - (ship >= 0) == 1 ? "" : "s");
   for (int k = 0; k < n; k = run_end(passes, k, n)) {
      if (k == ship)
         continue;
      rep_sb_str(b, "<h3 class=\"run\">");
      rep_sb_esc(b, rep_jstr(cJSON_GetArrayItem(passes, k), "run"));
      rep_sb_str(b, " &middot; not written</h3>");
      passes_table(b, passes, k, run_end(passes, k, n));
   }
   rep_sb_str(b, "</details>");
}
