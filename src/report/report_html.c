#define _GNU_SOURCE
/*
 * The HTML report (docs/report.md).  The page is written from what a run
 * already has: the input module's words (for the source lines: OpSource
 * text, OpString file names, OpLine, and the DebugSource / DebugLine /
 * DebugFunction instructions of OpenCL.DebugInfo.100 and
 * NonSemantic.Shader.DebugInfo.100), the output's words (did a kernel
 * change), the remarks, the manifest and --isa-check's remarks.
 *
 * Remarks carry no instruction: a remark is placed at the source line its
 * message names ("at k.cl:7", as padding writes), else at the line of the
 * first "%N" id its message names that has one (block-io, versioning),
 * else at the kernel's first line, marked "kernel-wide".  Without line
 * information the kernel's disassembly (of the input) stands in for the
 * source, with remarks beside the instruction that defines the id.
 *
 * The page has no script, no external resource, and everything taken from
 * the module or the remarks is HTML-escaped.
 *
 * This file puts the page together (its style, which kernels changed, the
 * order of the parts); the parts are in the files report_page.h lists.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "report_html.h"
#include "report_page.h"

/* ---- the page ---- */

static const char *css =
   ":root{--fg:#1d232b;--mut:#5b6573;--bg:#fff;--pane:#f6f7f9;--line:#e3e6ea;"
   "--ok:#1a7f37;--okbg:#e6f4ea;--miss:#b35900;--missbg:#fff1e0;--note:#3b5ba5;--notebg:#eaf0fb}"
   "*{box-sizing:border-box}"
   "body{margin:0;font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;"
   "color:var(--fg);background:var(--bg)}"
   "header{padding:18px 28px;background:#20303f;color:#fff}"
   "header h1{margin:0;font-size:20px;font-weight:600}header .sub{color:#c4cfdb;font-size:13px}"
   "main{padding:8px 28px 40px;max-width:1500px}"
   "h2{font-size:17px;margin:28px 0 10px;padding-bottom:4px;border-bottom:2px solid var(--line)}"
   "h3{font-size:14px;margin:18px 0 6px;color:var(--mut);text-transform:uppercase;letter-spacing:.04em}"
   "table{border-collapse:collapse}"
   "table.sum,table.isa,table.stats{width:100%;margin:6px 0}"
   ".sum th,.sum td,.isa th,.isa td,.stats th,.stats td{border-bottom:1px solid var(--line);"
   "padding:6px 8px;text-align:left;vertical-align:top}"
   ".sum th,.isa th,.stats th{background:var(--pane);font-weight:600}"
   "td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}"
   ".yes{color:var(--ok);font-weight:600}.no{color:var(--mut)}"
   ".pill{display:inline-block;border-radius:9px;padding:0 7px;font-size:12px;font-weight:600}"
   ".pill.applied{background:var(--okbg);color:var(--ok)}.pill.missed{background:var(--missbg);color:var(--miss)}"
   ".why{margin:0;padding-left:16px;color:var(--fg)}.why li{margin:1px 0}"
   ".why .pass,.rm .pass{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:12px;color:var(--mut)}"
   "section.kernel{margin-top:36px}"
   "section.kernel>h2 code{font-size:17px}"
   ".meta{color:var(--mut);font-size:13px}"
   "table.src{width:100%;border:1px solid var(--line);border-radius:6px;background:var(--pane)}"
   ".src td{vertical-align:top;padding:0 8px}"
   ".src td.ln{width:1%;text-align:right;color:#9aa3ae;user-select:none;"
   "font:12px/20px ui-monospace,'DejaVu Sans Mono',monospace;border-right:1px solid var(--line)}"
   ".src td.code{font:12.5px/20px ui-monospace,'DejaVu Sans Mono',monospace;white-space:pre-wrap;"
   "word-break:break-all;width:55%}"
   ".src td.notes{width:44%;padding:2px 8px;background:var(--bg);border-left:1px solid var(--line)}"
   ".src tr.has-applied td.code{background:var(--okbg)}"
   ".src tr.has-missed td.code{background:var(--missbg)}"
   ".src tr.has-note td.code{background:var(--notebg)}"
   ".src tr.gap td{color:#9aa3ae;font-size:12px;padding:2px 8px}"
   ".rm{margin:3px 0;padding:4px 8px;border-left:4px solid;border-radius:3px;font-size:13px}"
   ".rm.applied{border-color:var(--ok);background:var(--okbg)}"
   ".rm.missed{border-color:var(--miss);background:var(--missbg)}"
   ".rm.note{border-color:var(--note);background:var(--notebg)}"
   ".badge{font-weight:700;font-size:11px;text-transform:uppercase;letter-spacing:.05em}"
   ".badge.applied{color:var(--ok)}.badge.missed{color:var(--miss)}.badge.note{color:var(--note)}"
   ".rm .where{font-size:11px;color:var(--mut);font-style:italic}"
   ".rm .msg{white-space:pre-wrap;word-break:break-word}"
   "ul.req{margin:4px 0;padding-left:20px}ul.req li{margin:3px 0}"
   "details.raw{display:inline}details.raw summary{display:inline;cursor:pointer;color:var(--mut);font-size:12px}"
   "details.raw code{display:block;font-size:12px;color:var(--mut);word-break:break-all}"
   ".better{color:var(--ok);font-weight:600}.worse{color:var(--miss);font-weight:600}.same{color:var(--mut)}"
   ".box.discarded{border-style:dashed;background:var(--bg);color:var(--mut)}"
   ".box.discarded .tag{margin:0 0 4px;font-weight:700;font-size:12px;text-transform:uppercase;"
   "letter-spacing:.04em}"
   "h4{font-size:13px;margin:14px 0 4px;color:var(--mut)}"
   "h3.run{text-transform:none;letter-spacing:0}"
   "details.runs>summary{cursor:pointer;color:var(--mut);margin:10px 0}"
   ".box{background:var(--pane);border:1px solid var(--line);border-radius:6px;padding:8px 12px;margin:8px 0}"
   ".legend span{margin-right:14px}"
   "code{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:12.5px}"
   "a{color:#1f5fbf;text-decoration:none}a:hover{text-decoration:underline}";

static int kinfo_cmp(const void *a, const void *b)
{
   const kinfo *x = *(kinfo *const *)a, *y = *(kinfo *const *)b;
   int c = strcmp(x->name, y->name);
   return c ? c : (x->idx > y->idx) - (x->idx < y->idx);
}

static int kinfo_name_cmp(const void *a, const void *b)
{
   return strcmp((*(kinfo *const *)a)->name, (*(kinfo *const *)b)->name);
}

/* Did the kernel's code or its entry point change between in and out? */
static bool kernel_changed(rep_module *in, rep_module *out, const char *name)
{
   const rep_ep *a = NULL, *b = NULL;
   for (unsigned k = 0; k < in->nep; k++)
      if (!strcmp(in->eps[k].name, name))
         a = &in->eps[k];
   for (unsigned k = 0; k < out->nep; k++)
      if (!strcmp(out->eps[k].name, name))
         b = &out->eps[k];
   if (!a || !b)
      return true;
   if (a->wend - a->wfirst != b->wend - b->wfirst ||
       memcmp(in->w + a->wfirst, out->w + b->wfirst, (a->wend - a->wfirst) * 4))
      return true;
   rep_fn *fa[64], *fb[64];
   unsigned na = rep_reachable(in, a->fn, fa, 64), nb = rep_reachable(out, b->fn, fb, 64);
   if (na != nb)
      return true;
   for (unsigned k = 0; k < na; k++) {
      size_t la = fa[k]->wend - fa[k]->wfirst, lb = fb[k]->wend - fb[k]->wfirst;
      if (la != lb || memcmp(in->w + fa[k]->wfirst, out->w + fb[k]->wfirst, la * 4))
         return true;
   }
   /* Execution modes of the entry. */
   sb ma = { 0 }, mb = { 0 };
   for (int side = 0; side < 2; side++) {
      rep_module *m = side ? out : in;
      uint32_t e = side ? b->fn : a->fn;
      for (unsigned k = 0; k < m->nmodes; k++) {
         size_t p = m->modes[k];
         uint32_t nw = m->w[p] >> 16;
         if (m->w[p + 1] == e)
            rep_sb_put(side ? &mb : &ma, (const char *)(m->w + p + 2), (nw - 2u) * 4);
      }
   }
   bool diff = ma.n != mb.n || (ma.n && memcmp(ma.s, mb.s, ma.n));
   free(ma.s);
   free(mb.s);
   return diff;
}

char *xe_report_html(const xeopt_result *r, const void *input, size_t size, const char *title,
                     const char *input_path, const cJSON *stats)
{
   sb b = { 0 };
   rep_module in, out;
   bool have_in = rep_module_read(&in, input, size);
   size_t nw = 0;
   const uint32_t *ow = xeopt_result_words(r, &nw);
   bool have_out = ow && rep_module_read(&out, ow, nw * 4);
   const xe_remarks *rs = &r->remarks;
   cJSON *mf = xeopt_result_manifest_json(r) ? cJSON_Parse(xeopt_result_manifest_json(r)) : NULL;
   const cJSON *mk = cJSON_GetObjectItemCaseSensitive(mf, "kernels");

   rep_sb_str(&b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                  "<title>xeopt report");
   if (title) {
      rep_sb_str(&b, ": ");
      rep_sb_esc(&b, title);
   }
   rep_sb_str(&b, "</title><style>");
   rep_sb_str(&b, css);
   rep_sb_str(&b, "</style></head><body><header><h1>xeopt report");
   if (title) {
      rep_sb_str(&b, ": <code>");
      rep_sb_esc(&b, title);
      rep_sb_str(&b, "</code>");
   }
   rep_sb_fmt(&b, "</h1><div class=\"sub\">xeopt %s", xeopt_version());
   if (xeopt_result_status(r) != XEOPT_OK) {
      rep_sb_str(&b, " &middot; failed: ");
      rep_sb_esc(&b, xeopt_result_error(r));
   }
   rep_sb_str(&b, "</div></header><main>");

   /* Kernels. */
   unsigned nk = have_in ? in.nep : 0, nchanged = 0;
   kinfo *ks = calloc(nk + 1, sizeof(kinfo));
   /* Each remark's kernel, by index (-1: none, or not an entry point). */
   int *rk = malloc((rs->n + 1) * sizeof(int));
   {
      kinfo **sorted = malloc((nk + 1) * sizeof(kinfo *));
      for (unsigned k = 0; k < nk; k++) {
         ks[k].name = in.eps[k].name;
         ks[k].idx = (int)k;
         sorted[k] = &ks[k];
      }
      qsort(sorted, nk, sizeof(kinfo *), kinfo_cmp);
      for (unsigned j = 0; j < rs->n; j++) {
         rk[j] = -1;
         if (!rs->v[j].kernel)
            continue;
         kinfo key = { .name = rs->v[j].kernel }, *kp = &key;
         kinfo **hit = bsearch(&kp, sorted, nk, sizeof(kinfo *), kinfo_name_cmp);
         if (hit) {
            while (hit > sorted && !strcmp(hit[-1]->name, key.name))
               hit--;   /* two entry points of one name: the first */
            rk[j] = (*hit)->idx;
         }
      }
      free(sorted);
   }
   for (unsigned k = 0; k < nk; k++) {
      kinfo *ki = &ks[k];
      ki->name = in.eps[k].name;
      ki->entry = in.eps[k].fn;
      ki->changed = have_out && kernel_changed(&in, &out, ki->name);
      nchanged += ki->changed;
      ki->mf = cJSON_GetObjectItemCaseSensitive(mk, ki->name);
      for (unsigned j = 0; j < rs->n; j++)
         if (rk[j] == (int)k) {
            ki->applied += rs->v[j].kind == XE_REMARK_APPLIED;
            ki->missed += rs->v[j].kind == XE_REMARK_MISSED;
            ki->notes += rs->v[j].kind == XE_REMARK_NOTE;
         }
   }

   if (have_in && xeopt_result_status(r) == XEOPT_OK)
      rep_device_summary(&b, r, input, size, ks, nk, rk);

   rep_kernels_summary(&b, ks, nk, nchanged, rs, rk);
   if (!have_in)
      rep_sb_str(&b, "<p class=\"meta\">The input is not a SPIR-V module.</p>");

   /* Module-wide remarks and warnings. */
   bool any = false;
   for (unsigned j = 0; j < rs->n; j++) {
      const xe_remark_entry *x = &rs->v[j];
      if (rk[j] >= 0)
         continue;
      if (!any)
         rep_sb_str(&b, "<h3>Module-wide remarks</h3>");
      any = true;
      rep_remark_html(&b, x, x->kernel ? x->kernel : NULL);
   }
   const char *warn = xeopt_result_warnings(r);
   if (warn && *warn) {
      rep_sb_str(&b, "<h3>Warnings</h3><pre class=\"box\">");
      rep_sb_esc(&b, warn);
      rep_sb_str(&b, "</pre>");
   }

   dis_cache dc = { 0 };   /* the disassembly, made when a kernel lacks source lines */
   for (unsigned k = 0; k < nk; k++)
      rep_kernel_section(&b, &in, &ks[k], rs, rk, input_path, &dc);
   free(dc.text);
   free(dc.lines);

   rep_passes_html(&b, cJSON_GetObjectItemCaseSensitive(stats, "passes"));
   rep_sb_str(&b, "</main></body></html>\n");

   free(ks);
   free(rk);
   cJSON_Delete(mf);
   if (have_in)
      rep_module_free(&in);
   if (have_out)
      rep_module_free(&out);
   return b.s;
}

char *xeopt_result_report_html(const xeopt_result *result, const void *input, size_t size,
                               const char *title)
{
   if (!result || !input)
      return NULL;
   return xe_report_html(result, input, size, title, NULL, NULL);
}
