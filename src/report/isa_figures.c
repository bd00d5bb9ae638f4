/*
 * --isa-check's figures in a kernel's section (report_page.h): the written
 * result first, then each output the check discarded.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "report_page.h"

bool rep_isa_verdict(const xe_remark_entry *x)
{
   return x->decision == XE_DECISION_ISA_KEPT || x->decision == XE_DECISION_ISA_REDONE ||
          x->decision == XE_DECISION_ISA_ORIGINAL || x->decision == XE_DECISION_ISA_PROBE;
}

/* One row per device; colours (better, worse) only for the shipped
 * result: a discarded output's figures are not what runs. */
static void isa_rows(sb *b, const xe_remark_figure *f, unsigned n, bool shipped)
{
   for (unsigned k = 0; k < n; k++) {
      double a = f[k].before, c = f[k].after;
      const char *cls = !shipped ? "same" : c < a ? "better" : c > a ? "worse" : "same";
      const char *word = c < a ? (shipped ? "lower (better)" : "lower")
                         : c > a ? (shipped ? "higher (worse)" : "higher") : "same";
      rep_sb_str(b, "<tr><td>");
      rep_sb_esc(b, xe_device_name(f[k].device));
      rep_sb_fmt(b, "</td><td class=\"num\">%.0f</td><td class=\"num\">%.0f</td><td class=\"%s\">%s</td><td>",
                 a, c, cls, word);
      if (f[k].detail)
         rep_sb_esc(b, f[k].detail);
      rep_sb_str(b, "</td></tr>");
   }
}

/* The ISA figures of one kernel: the shipped result first (the kept
 * rewrite's figures, or the input's when the original was kept), then
 * each discarded attempt, labelled so and without colours. */
void rep_isa_section(sb *b, const xe_remarks *rs, const int *rk, int kidx)
{
   sb shipped = { 0 }, discarded = { 0 };
   unsigned nd = 0;
   for (unsigned k = 0; k < rs->n; k++) {
      const xe_remark_entry *x = &rs->v[k];
      const xe_remark_figure *f = x->figures;
      unsigned n = rk[k] == kidx && rep_isa_verdict(x) ? x->nfigures : 0;
      enum xe_decision kind = x->decision;
      if (!n)
         continue;
      if (kind == XE_DECISION_ISA_KEPT) {
         rep_sb_str(&shipped, "<div class=\"box\">");
         rep_remark_html(&shipped, x, NULL);
         rep_sb_str(&shipped, "<table class=\"isa\"><tr><th>device</th><th class=\"num\">input</th>"
                              "<th class=\"num\">output (written)</th><th>estimate</th>"
                              "<th>IGC's counts (input &rarr; output)</th></tr>");
         isa_rows(&shipped, f, n, true);
         rep_sb_str(&shipped, "</table></div>");
         continue;
      }
      if (kind == XE_DECISION_ISA_ORIGINAL) {
         rep_sb_str(&shipped, "<div class=\"box\"><p>The original code was written: the kernel runs as "
                              "it came (ISA estimate ");
         for (unsigned d = 0; d < n; d++) {
            rep_sb_str(&shipped, d ? ", " : "");
            rep_sb_esc(&shipped, xe_device_name(f[d].device));
            rep_sb_fmt(&shipped, " %.0f", f[d].before);
         }
         rep_sb_str(&shipped, "). The rewrite IGC compiled worse is below, discarded.</p></div>");
      }
      nd++;
      rep_sb_str(&discarded, "<div class=\"box discarded\"><p class=\"tag\">");
      rep_sb_str(&discarded, kind == XE_DECISION_ISA_PROBE ? "Comparison of two candidates, not the written code"
                                               : "Discarded attempt, not the written code");
      rep_sb_str(&discarded, "</p>");
      rep_remark_html(&discarded, x, NULL);
      rep_sb_fmt(&discarded, "<table class=\"isa\"><tr><th>device</th><th class=\"num\">%s</th>"
                             "<th class=\"num\">%s</th><th>estimate</th><th>IGC's counts</th></tr>",
                 kind == XE_DECISION_ISA_PROBE ? "without the model" : "input",
                 kind == XE_DECISION_ISA_PROBE ? "with the model" : "discarded output");
      isa_rows(&discarded, f, n, false);
      rep_sb_str(&discarded, "</table></div>");
   }
   if (shipped.s || discarded.s)
      rep_sb_str(b, "<h3>ISA figures (--isa-check, IGC)</h3>");
   if (shipped.s)
      rep_sb_str(b, shipped.s);
   if (discarded.s) {
      rep_sb_fmt(b, "<h4>%u output%s the check discarded</h4>", nd, nd == 1 ? "" : "s");
      rep_sb_str(b, discarded.s);
   }
   free(shipped.s);
   free(discarded.s);
}
