#define _GNU_SOURCE
/*
 * One kernel's section of the report (report_page.h): its remarks beside
 * its source lines (or the input's disassembly), its host requirements
 * and its ISA figures.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
/* libspirv.h defines a non-static const (external linkage in C): renamed
 * here as in src/ir/reader.c. */
#define kDefaultMaxIdBound xe_report_kernel_kDefaultMaxIdBound
#include <spirv-tools/libspirv.h>
#undef kDefaultMaxIdBound

#include "report_page.h"
#include "spirv_tools.h"

/* The disassembly of the input, one line per instruction; NULL when
 * SPIRV-Tools cannot read it. */
static char **disassemble(const rep_module *m, unsigned *nlines, char **text)
{
   spv_context ctx = xe_spv_context_create(SPV_ENV_UNIVERSAL_1_6);
   spv_text t = NULL;
   spv_diagnostic d = NULL;
   spv_result_t rc = xe_spv_binary_to_text(ctx, m->w, m->n, SPV_BINARY_TO_TEXT_OPTION_NO_HEADER, &t, &d);
   spvDiagnosticDestroy(d);
   spvContextDestroy(ctx);
   if (rc != SPV_SUCCESS || !t) {
      spvTextDestroy(t);
      return NULL;
   }
   *text = malloc(t->length + 1);
   memcpy(*text, t->str, t->length);
   (*text)[t->length] = 0;
   spvTextDestroy(t);
   unsigned cap = m->ninst + 1, n = 0;
   char **lines = calloc(cap, sizeof(char *));
   for (char *p = *text; *p && n < cap;) {
      char *e = strchr(p, '\n');
      if (e)
         *e = 0;
      while (*p == ' ')
         p++;
      lines[n++] = p;
      if (!e)
         break;
      p = e + 1;
   }
   if (n != m->ninst) {   /* not one line per instruction: do not guess */
      free(lines);
      free(*text);
      *text = NULL;
      return NULL;
   }
   *nlines = n;
   return lines;
}

static void row_class(sb *b, const placed *v, unsigned n)
{
   bool a = false, mi = false, no = false;
   for (unsigned k = 0; k < n; k++) {
      a |= v[k].r->kind == XE_REMARK_APPLIED;
      mi |= v[k].r->kind == XE_REMARK_MISSED;
      no |= v[k].r->kind == XE_REMARK_NOTE;
   }
   /* missed wins: the line needs a look */
   rep_sb_str(b, mi ? " class=\"has-missed\"" : a ? " class=\"has-applied\"" : no ? " class=\"has-note\"" : "");
}

/* The kernel's main file: where most of its located instructions are
 * (else the file of its first function with a line); 0 when none. */
static uint32_t main_file(const rep_module *m, rep_fn *const *fs, unsigned nf)
{
   uint32_t file = 0, best = 0;
   uint32_t fid[16], cnt[16];
   unsigned nfid = 0;
   for (unsigned k = 0; k < nf; k++)
      for (unsigned i = fs[k]->first; i <= fs[k]->last && i < m->ninst; i++) {
         uint32_t f = m->inst_loc[i].file;
         if (!m->inst_loc[i].line || f >= m->bound)
            continue;
         unsigned q = 0;
         while (q < nfid && fid[q] != f)
            q++;
         if (q == nfid) {
            if (nfid == 16)
               continue;
            fid[nfid] = f;
            cnt[nfid++] = 0;
         }
         if (++cnt[q] > best) {
            best = cnt[q];
            file = f;
         }
      }
   if (!file)
      for (unsigned k = 0; k < nf && !file; k++)
         file = fs[k]->line ? fs[k]->file : 0;
   return file;
}

/* The source lines of the kernel (its functions fs) in file, its text sf,
 * with its nr remarks pr beside them: those at no line of file at the
 * first line, "kernel-wide" (a remark at another file of the same name
 * is moved to file). */
static void source_table(sb *b, const rep_module *m, const kinfo *ki, const srcfile *sf,
                         uint32_t file, rep_fn *const *fs, unsigned nf, placed *pr, unsigned nr)
{
   uint32_t lo = UINT32_MAX, hi = 0;
   for (unsigned k = 0; k < nf; k++) {
      for (unsigned i = fs[k]->first; i <= fs[k]->last && i < m->ninst; i++)
         if (m->inst_loc[i].file == file && m->inst_loc[i].line) {
            lo = m->inst_loc[i].line < lo ? m->inst_loc[i].line : lo;
            hi = m->inst_loc[i].line > hi ? m->inst_loc[i].line : hi;
         }
      if (fs[k]->line && fs[k]->file == file)
         lo = fs[k]->line < lo ? fs[k]->line : lo;
   }
   for (unsigned k = 0; k < nr; k++)
      if (pr[k].at.line && m->str[pr[k].at.file] && m->str[file] &&
          !strcmp(rep_base_name(m->str[pr[k].at.file]), rep_base_name(m->str[file]))) {
         pr[k].at.file = file;
         lo = pr[k].at.line < lo ? pr[k].at.line : lo;
         hi = pr[k].at.line > hi ? pr[k].at.line : hi;
      }
   if (lo == UINT32_MAX)
      lo = hi = 1;
   if (hi > sf->nlines)
      hi = sf->nlines;
   if (lo < 1)
      lo = 1;
   if (lo > hi)
      lo = hi;
   /* "kernel void\nname(...)": the line with the qualifier too */
   if (lo > 1 && lo <= sf->nlines && strstr(sf->lines[lo - 2], "kernel") && !strchr(sf->lines[lo - 2], ';') &&
       !strchr(sf->lines[lo - 2], '}'))
      lo--;
   rep_sb_str(b, "<p class=\"meta\">");
   rep_sb_esc(b, m->str[file]);
   if (sf->path_read) {
      rep_sb_str(b, " (read from ");
      rep_sb_esc(b, sf->path_read);
      rep_sb_str(b, ")");
   } else {
      rep_sb_str(b, " (");
      rep_sb_str(b, sf->how);
      rep_sb_str(b, ")");
   }
   rep_sb_fmt(b, ", lines %u&ndash;%u. Remarks without a source line are shown at the kernel's first "
                 "line, marked <i>kernel-wide</i>.</p>", lo, hi);
   rep_sb_str(b, "<table class=\"src\">");
   for (uint32_t line = lo; line <= hi; line++) {
      placed here[64];
      unsigned nh = 0;
      for (unsigned k = 0; k < nr && nh < 64; k++)
         if ((pr[k].at.line == line && pr[k].at.file == file) ||
             (line == lo && (!pr[k].at.line || pr[k].at.file != file)))
            here[nh++] = pr[k];
      rep_sb_fmt(b, "<tr id=\"");
      rep_sb_anchor(b, ki->name);
      rep_sb_fmt(b, "-L%u\"", line);
      row_class(b, here, nh);
      rep_sb_fmt(b, "><td class=\"ln\">%u</td><td class=\"code\">", line);
      rep_sb_esc(b, sf->lines[line - 1]);
      rep_sb_str(b, "</td><td class=\"notes\">");
      for (unsigned k = 0; k < nh; k++) {
         const char *where = NULL;
         char wbuf[256];
         if (!here[k].at.line) {
            where = "kernel-wide (no source line)";
         } else if (here[k].at.file != file) {
            snprintf(wbuf, sizeof(wbuf), "at %s:%u", rep_base_name(m->str[here[k].at.file] ? m->str[here[k].at.file] : "?"),
                     here[k].at.line);
            where = wbuf;
         }
         rep_remark_html(b, here[k].r, where);
      }
      rep_sb_str(b, "</td></tr>");
   }
   rep_sb_str(b, "</table>");
}

/* The input's disassembly of the kernel's functions fs (dc: made), each
 * remark of pr beside the instruction that defines the first id it names;
 * file: the kernel's main file that could not be read (0: none). */
static void disassembly_table(sb *b, const rep_module *m, const dis_cache *dc, uint32_t file,
                              rep_fn *const *fs, unsigned nf, const placed *pr, unsigned nr)
{
   char **dis = dc->lines;
   unsigned ndis = dc->n;
   rep_sb_str(b, "<p class=\"meta\">The module has no source lines");
   if (file && m->str[file]) {
      rep_sb_str(b, " available (");
      rep_sb_esc(b, m->str[file]);
      rep_sb_str(b, " is not in the module and not on disk)");
   } else {
      rep_sb_str(b, " (build with <code>clang -g</code> to get them)");
   }
   rep_sb_str(b, ": the input's disassembly, with each remark beside the instruction that defines the "
                 "first id it names; remarks naming none are at the top, marked <i>kernel-wide</i>.</p>");
   rep_sb_str(b, "<table class=\"src\">");
   bool first = true;
   rep_fn *order[64];   /* in module order: the body before llvm-spirv's entry wrapper */
   memcpy(order, fs, nf * sizeof(rep_fn *));
   for (unsigned k = 1; k < nf; k++)
      for (unsigned j = k; j > 0 && order[j]->first < order[j - 1]->first; j--) {
         rep_fn *t = order[j];
         order[j] = order[j - 1];
         order[j - 1] = t;
      }
   for (unsigned k = 0; k < nf; k++) {
      if (k)
         rep_sb_str(b, "<tr class=\"gap\"><td></td><td colspan=\"2\">&hellip; another function the kernel runs</td></tr>");
      for (unsigned i = order[k]->first; i <= order[k]->last && i < ndis; i++) {
         placed here[64];
         unsigned nh = 0;
         /* at the top: remarks naming no instruction of the kernel's functions */
         for (unsigned j = 0; j < nr && nh < 64; j++)
            if (pr[j].inst == (int32_t)i || (first && !rep_in_fns(fs, nf, pr[j].inst)))
               here[nh++] = pr[j];
         rep_sb_str(b, "<tr");
         row_class(b, here, nh);
         rep_sb_fmt(b, "><td class=\"ln\">%u</td><td class=\"code\">", i);
         rep_sb_esc(b, dis[i]);
         rep_sb_str(b, "</td><td class=\"notes\">");
         for (unsigned j = 0; j < nh; j++)
            rep_remark_html(b, here[j].r, here[j].inst != (int32_t)i ? "kernel-wide (no instruction)" : NULL);
         rep_sb_str(b, "</td></tr>");
         first = false;
      }
   }
   rep_sb_str(b, "</table>");
}

/* The kernel's host requirements (its manifest entry). */
static void requirements_list(sb *b, const kinfo *ki)
{
   rep_sb_str(b, "<h3 id=\"");
   rep_sb_anchor(b, ki->name);
   rep_sb_str(b, "-req\">Host requirements (manifest)</h3>");
   if (ki->mf && rep_requirements_count(ki->mf)) {
      rep_sb_str(b, "<ul class=\"req\">");
      const cJSON *sec, *e;
      cJSON_ArrayForEach(sec, ki->mf) {
         cJSON_ArrayForEach(e, sec) rep_requirement_html(b, sec->string, e);
      }
      rep_sb_str(b, "</ul>");
   } else {
      rep_sb_str(b, "<p class=\"meta\">None: the host launches this kernel as before.</p>");
   }
}

void rep_kernel_section(sb *b, rep_module *m, const kinfo *ki, const xe_remarks *rs, const int *rk,
                        const char *input_path, dis_cache *dc)
{
   rep_sb_str(b, "<section class=\"kernel\" id=\"");
   rep_sb_anchor(b, ki->name);
   rep_sb_str(b, "\"><h2>Kernel <code>");
   rep_sb_esc(b, ki->name);
   rep_sb_fmt(b, "</code> <span class=\"meta\">%s &middot; %u applied &middot; %u missed &middot; %u notes</span></h2>",
              ki->changed ? "<span class=\"yes\">changed</span>" : "<span class=\"no\">unchanged</span>",
              ki->applied, ki->missed, ki->notes);

   /* The remarks of this kernel, placed. */
   rep_fn *fs[64];
   unsigned nf = rep_reachable(m, ki->entry, fs, 64);
   unsigned nr = 0;
   placed *pr = calloc(rs->n + 1, sizeof(placed));
   for (unsigned k = 0; k < rs->n; k++)
      if (rk[k] == ki->idx && !rep_isa_verdict(&rs->v[k]))
         pr[nr++] = rep_place(m, &rs->v[k], fs, nf);

   uint32_t file = main_file(m, fs, nf);
   srcfile sf;
   rep_load_source(&sf, m, file, input_path);

   rep_sb_str(b, "<h3>Remarks in the source</h3>");
   if (sf.text) {
      source_table(b, m, ki, &sf, file, fs, nf, pr, nr);
   } else if ((dc->tried ? 0 : (dc->tried = true, dc->lines = disassemble(m, &dc->n, &dc->text))),
              dc->lines) {
      disassembly_table(b, m, dc, file, fs, nf, pr, nr);
   } else {
      rep_sb_str(b, "<p class=\"meta\">No source lines and no disassembly: the remarks as a list.</p>");
      for (unsigned k = 0; k < nr; k++)
         rep_remark_html(b, pr[k].r, NULL);
   }
   if (!nr)
      rep_sb_str(b, ki->applied + ki->missed + ki->notes
                       ? "<p class=\"meta\">No remark beside the code: this kernel's --isa-check "
                         "verdicts are under ISA figures.</p>"
                       : "<p class=\"meta\">No remark for this kernel.</p>");

   requirements_list(b, ki);

   rep_isa_section(b, rs, rk, ki->idx);
   rep_sb_str(b, "</section>");
   rep_srcfile_free(&sf);
   free(pr);
}
