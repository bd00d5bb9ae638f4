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
#define kDefaultMaxIdBound xe_report_kDefaultMaxIdBound
#include <spirv-tools/libspirv.h>
#undef kDefaultMaxIdBound
#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/spirv.h>

#include "cost.h"
#include "io.h"
#include "report_html.h"
#include "spirv_tools.h"
#include "report_module.h"

/* ---- text ---- */

typedef struct sb {
   char *s;
   size_t n, cap;
} sb;

static void sb_put(sb *b, const char *s, size_t n)
{
   if (b->n + n + 1 > b->cap) {
      b->cap = (b->n + n + 1) * 2;
      b->s = realloc(b->s, b->cap);
      if (!b->s)
         xe_out_of_memory();
   }
   memcpy(b->s + b->n, s, n);
   b->n += n;
   b->s[b->n] = 0;
}

static void sb_str(sb *b, const char *s)
{
   sb_put(b, s, strlen(s));
}

static void sb_fmt(sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_fmt(sb *b, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   char *t = NULL;
   int n = vasprintf(&t, fmt, ap);
   va_end(ap);
   if (n < 0)
      xe_out_of_memory();
   sb_put(b, t, (size_t)n);
   free(t);
}

/* HTML-escaped s[0..n). */
static void sb_escn(sb *b, const char *s, size_t n)
{
   for (size_t k = 0; k < n; k++) {
      switch (s[k]) {
      case '&': sb_str(b, "&amp;"); break;
      case '<': sb_str(b, "&lt;"); break;
      case '>': sb_str(b, "&gt;"); break;
      case '"': sb_str(b, "&quot;"); break;
      case '\'': sb_str(b, "&#39;"); break;
      case '\t': sb_str(b, "    "); break;
      case '\r': break;
      default:
         /* Other control characters would make the page invalid. */
         if ((unsigned char)s[k] < 0x20 && s[k] != '\n')
            sb_str(b, "\xEF\xBF\xBD");
         else
            sb_put(b, s + k, 1);
      }
   }
}

static void sb_esc(sb *b, const char *s)
{
   if (s)
      sb_escn(b, s, strlen(s));
}

/* An id for HTML attributes: letters, digits, '-' and '_' only. */
static void sb_anchor(sb *b, const char *kernel)
{
   sb_str(b, "k-");
   for (const char *p = kernel; *p; p++)
      if (isalnum((unsigned char)*p) || *p == '_' || *p == '-')
         sb_put(b, p, 1);
      else
         sb_fmt(b, ".%02x", (unsigned char)*p);
}

/* ---- source files ---- */

typedef struct srcfile {
   char *text;       /* NULL: not available */
   const char **lines;
   unsigned nlines;
   const char *how;  /* "embedded in the module", "read from PATH" */
   char *path_read;
} srcfile;

static char *read_whole(const char *path)
{
   FILE *fp = fopen(path, "rb");
   if (!fp)
      return NULL;
   sb b = { 0 };
   char buf[8192];
   size_t n;
   while ((n = fread(buf, 1, sizeof(buf), fp)) > 0) {
      sb_put(&b, buf, n);
      if (b.n > ((size_t)16 << 20))
         break;
   }
   fclose(fp);
   if (!b.s)
      b.s = strdup("");
   return b.s;
}

static void split_lines(srcfile *s)
{
   unsigned cap = 64;
   s->lines = malloc(cap * sizeof(char *));
   char *p = s->text;
   while (*p) {
      if (s->nlines == cap) {
         cap *= 2;
         s->lines = realloc(s->lines, cap * sizeof(char *));
      }
      s->lines[s->nlines++] = p;
      char *e = strchr(p, '\n');
      if (!e)
         break;
      *e = 0;
      p = e + 1;
   }
}

/* The text of file string id: the module's copy, else the file on disk
 * (as named, or beside the input). */
static void load_source(srcfile *s, const rep_module *m, uint32_t file, const char *input_path)
{
   memset(s, 0, sizeof(*s));
   if (!file || file >= m->bound)
      return;
   const char *own = m->src_text[file];
   /* llvm-spirv writes the checksum as DebugSource's text:
    * "//__CSK_MD5:...", the source (when it has it) on the next line. */
   if (own && !strncmp(own, "//__CSK_", 8))
      own = strchr(own, '\n') ? strchr(own, '\n') + 1 : "";
   if (own && *own) {
      s->text = strdup(own);
      s->how = "embedded in the module";
   } else if (m->str[file] && *m->str[file]) {
      const char *name = m->str[file];
      s->text = read_whole(name);
      if (s->text) {
         s->path_read = strdup(name);
      } else if (input_path && strchr(input_path, '/')) {
         const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
         char *alt = NULL;
         if (asprintf(&alt, "%.*s/%s", (int)(strrchr(input_path, '/') - input_path), input_path,
                      base) < 0)
            xe_out_of_memory();
         s->text = read_whole(alt);
         if (s->text)
            s->path_read = alt;
         else
            free(alt);
      }
      s->how = "read from";
   }
   if (s->text)
      split_lines(s);
}

static void srcfile_free(srcfile *s)
{
   free(s->text);
   free(s->lines);
   free(s->path_read);
}

static const char *base_name(const char *p)
{
   const char *s = strrchr(p, '/');
   return s ? s + 1 : p;
}

/* ---- remarks ---- */

static const char *kind_word[] = { "applied", "missed", "note" };

typedef struct placed {
   const xe_remark_entry *r;
   rep_loc at;              /* line 0: no line */
   int32_t inst;        /* instruction of the id named, -1 */
} placed;

/* Where remark x is: "FILE:LINE" naming a file of the module, else the
 * first "%N" with a line (or, for the disassembly, an instruction). */
static bool in_fns(rep_fn *const *fs, unsigned nf, int32_t inst)
{
   for (unsigned k = 0; k < nf; k++)
      if (inst >= (int32_t)fs[k]->first && inst <= (int32_t)fs[k]->last)
         return true;
   return false;
}

/* The id "%tok" names (tok[0..n)): "%27", or "%name" (OpName; an id in
 * the kernel's functions first); 0 when none. */
static uint32_t id_named(const rep_module *m, const char *tok, size_t n, rep_fn *const *fs, unsigned nf)
{
   size_t d = 0;
   while (d < n && isdigit((unsigned char)tok[d]))
      d++;
   if (d == n && n > 0) {
      unsigned long id = strtoul(tok, NULL, 10);
      return id < m->bound ? (uint32_t)id : 0;
   }
   uint32_t any = 0;
   for (uint32_t k = rep_name_lower_bound(m, tok, n); k < m->nnamed && rep_name_is(m, k, tok, n); k++) {
      uint32_t id = m->by_name[k];
      if (in_fns(fs, nf, m->idinst[id]))
         return id;
      if (!any)
         any = id;
   }
   return any;
}

static placed place(const rep_module *m, const xe_remark_entry *x, rep_fn *const *fs, unsigned nf)
{
   placed p = { .r = x, .inst = -1 };
   const char *s = x->message;
   for (const char *c = strchr(s, ':'); c && !p.at.line; c = strchr(c + 1, ':')) {
      if (!isdigit((unsigned char)c[1]))
         continue;
      const char *b = c;
      while (b > s && (isalnum((unsigned char)b[-1]) || strchr("._-/+", b[-1])))
         b--;
      if (b == c)
         continue;
      uint32_t line = (uint32_t)strtoul(c + 1, NULL, 10);
      size_t len = (size_t)(c - b);
      for (uint32_t q = 0; q < m->nstrings && line; q++) {
         uint32_t id = m->strings[q];
         const char *name = m->str[id];
         const char *bn = base_name(name);
         bool match = (strlen(name) == len && !strncmp(name, b, len)) ||
                      (strlen(bn) == len && !strncmp(bn, b, len)) ||
                      (len > strlen(bn) && b[len - strlen(bn) - 1] == '/' &&
                       !strncmp(b + len - strlen(bn), bn, strlen(bn)));
         if (match) {
            p.at = (rep_loc){ id, line };
            break;
         }
      }
   }
   for (const char *c = strchr(s, '%'); c; c = strchr(c + 1, '%')) {
      size_t n = 0;
      while (c[1 + n] && (isalnum((unsigned char)c[1 + n]) || strchr("_.$-", c[1 + n])))
         n++;
      uint32_t id = 0;
      while (n > 0 && !(id = id_named(m, c + 1, n, fs, nf)) && strchr(".-", c[n]))
         n--;   /* "%x." at the end of a sentence */
      if (!id)
         continue;
      if (p.inst < 0)
         p.inst = m->idinst[id];
      if (!p.at.line && m->idloc[id].line)
         p.at = m->idloc[id];
      if (p.at.line && p.inst >= 0)
         break;
   }
   /* A block named without '%' ("loop for.body39"): a word that is the
    * OpName of a label in the kernel's functions. */
   for (const char *c = s; *c && !p.at.line;) {
      while (*c && !(isalnum((unsigned char)*c) || *c == '_'))
         c++;
      if (!*c)
         break;
      size_t n = 0;
      while (c[n] && (isalnum((unsigned char)c[n]) || strchr("_.$", c[n])))
         n++;
      while (n > 0 && c[n - 1] == '.')
         n--;
      if (n >= 3 && (c == s || (c[-1] != '%' && c[-1] != '\''))) {
         for (uint32_t k = rep_name_lower_bound(m, c, n); k < m->nnamed && rep_name_is(m, k, c, n); k++) {
            uint32_t id = m->by_name[k];
            if (m->idinst[id] >= 0 && in_fns(fs, nf, m->idinst[id]) && m->idloc[id].line &&
                (m->w[m->inst_word[m->idinst[id]]] & 0xffff) == SpvOpLabel) {
               p.at = m->idloc[id];
               if (p.inst < 0)
                  p.inst = m->idinst[id];
               break;
            }
         }
      }
      c += n ? n : 1;
   }
   return p;
}

/* The reason of a missed remark, for the summary: the message after its
 * subject ("load via %29: unknown sub-group size" -> "unknown ..."). */
static void reason_of(const char *msg, char *buf, size_t n)
{
   const char *c = strstr(msg, ": ");
   const char *r = c && c[2] ? c + 2 : msg;
   snprintf(buf, n, "%s", r);
   if (strlen(r) >= n - 1 && n > 4)
      memcpy(buf + n - 4, "...", 4);
}

static void remark_html(sb *b, const xe_remark_entry *x, const char *where)
{
   const char *k = kind_word[x->kind];
   sb_fmt(b, "<div class=\"rm %s\"><span class=\"badge %s\">%s %s</span> <span class=\"pass\">", k, k,
          x->kind == XE_REMARK_APPLIED ? "&#10003;" : x->kind == XE_REMARK_MISSED ? "&#10007;" : "&#8505;", k);
   sb_esc(b, x->pass);
   sb_str(b, "</span>");
   if (where) {
      sb_str(b, " <span class=\"where\">");
      sb_esc(b, where);
      sb_str(b, "</span>");
   }
   sb_str(b, "<div class=\"msg\">");
   sb_esc(b, x->message);
   sb_str(b, "</div></div>");
}

/* ---- host requirements ---- */

static const char *jstr(const cJSON *o, const char *k)
{
   const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
   if (cJSON_IsString(v))
      return v->valuestring;
   if (cJSON_IsObject(v)) {
      const cJSON *t = cJSON_GetObjectItemCaseSensitive(v, "text");
      if (cJSON_IsString(t))
         return t->valuestring;
   }
   return NULL;
}

static double jnum(const cJSON *o, const char *k, double def)
{
   const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
   return cJSON_IsNumber(v) ? v->valuedouble : def;
}

/* A JSON value as short text: strings as they are, formulas by their
 * "text", anything else printed. */
static void value_text(sb *b, const cJSON *v)
{
   if (cJSON_IsString(v)) {
      sb_esc(b, v->valuestring);
      return;
   }
   const cJSON *t = cJSON_IsObject(v) ? cJSON_GetObjectItemCaseSensitive(v, "text") : NULL;
   if (cJSON_IsString(t)) {
      sb_str(b, "<code>");
      sb_esc(b, t->valuestring);
      sb_str(b, "</code>");
      return;
   }
   char *s = cJSON_PrintUnformatted(v);
   sb_str(b, "<code>");
   sb_esc(b, s);
   sb_str(b, "</code>");
   free(s);
}

static void requirement_html(sb *b, const char *section, const cJSON *e)
{
   const char *kind = jstr(e, "kind"), *req = jstr(e, "requirement");
   sb_str(b, "<li>");
   if (!strcmp(section, "padding") && kind && !strcmp(kind, "buffer")) {
      sb_fmt(b, "<b>Pad buffer</b> argument %.0f <code>", jnum(e, "arg", -1));
      sb_esc(b, jstr(e, "name"));
      sb_str(b, "</code>: allocate at least <code>");
      sb_esc(b, jstr(e, "min_elements"));
      sb_fmt(b, "</code> elements of %.0f bytes", jnum(e, "element_size", 0));
      if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "distinct_allocation")))
         sb_str(b, "; its own allocation (no overlap with another buffer argument)");
      if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "zero_fill")))
         sb_str(b, "; padding filled with zeros");
      const cJSON *rq = cJSON_GetObjectItemCaseSensitive(e, "requires");
      const cJSON *nn = cJSON_GetObjectItemCaseSensitive(rq, "nonnegative_args");
      if (cJSON_GetArraySize(nn) > 0) {
         sb_str(b, "; these arguments must be &ge; 0: ");
         value_text(b, nn);
      }
      const cJSON *mx = cJSON_GetObjectItemCaseSensitive(rq, "max_elements");
      if (mx) {
         sb_str(b, "; at most ");
         value_text(b, mx);
         sb_str(b, " elements (32-bit index)");
      }
   } else if (!strcmp(section, "padding") && kind && !strcmp(kind, "guard")) {
      sb_str(b, "<b>Guard removed</b> <code>");
      sb_esc(b, jstr(e, "condition"));
      sb_str(b, "</code>");
      if (jstr(e, "file")) {
         sb_str(b, " at ");
         sb_esc(b, jstr(e, "file"));
         sb_fmt(b, ":%.0f", jnum(e, "line", 0));
      }
      sb_str(b, " (proof: ");
      sb_esc(b, jstr(e, "proof"));
      sb_str(b, "): the buffers below must be padded");
   } else if (!strcmp(section, "spec_constants")) {
      bool set = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "flag_default"));
      sb_fmt(b, "<b>Specialization constants</b> for argument %.0f <code>", jnum(e, "index", -1));
      sb_esc(b, jstr(e, "argument"));
      sb_fmt(b, "</code> (%.0f loop%s): flag SpecId %.0f (default %s), value SpecId %.0f (default ",
             jnum(e, "loops", 0), jnum(e, "loops", 0) == 1 ? "" : "s", jnum(e, "flag_spec_id", -1),
             set ? "true" : "false", jnum(e, "value_spec_id", -1));
      sb_esc(b, jstr(e, "value_default"));
      sb_str(b, ")");
      if (set)
         sb_str(b, "; the flag is set by default: launch with the argument equal to the value");
      else
         sb_str(b, "; nothing to do unless the host sets the flag");
      if (jstr(e, "guarantee")) {
         sb_str(b, "; guarantee: ");
         sb_esc(b, jstr(e, "guarantee"));
      }
   } else if (req && !strcmp(req, "uniform_work_groups")) {
      sb_str(b, "<b>Uniform work-groups</b>: the global size must be a multiple of the local size "
                "in every dimension");
   } else if (req && !strcmp(req, "subgroup_size")) {
      sb_fmt(b, "<b>Sub-group size</b> %.0f: the kernel is compiled at that SIMD width", jnum(e, "value", 0));
   } else if (req && !strcmp(req, "local_size")) {
      sb_str(b, "<b>Local size</b> ");
      value_text(b, cJSON_GetObjectItemCaseSensitive(e, "value"));
      sb_str(b, ": launch with exactly this local size");
   } else if (req && !strcmp(req, "argument_alignment")) {
      sb_fmt(b, "<b>Alignment</b>: argument %.0f <code>", jnum(e, "argument", -1));
      sb_esc(b, jstr(e, "name"));
      sb_fmt(b, "</code> at least %.0f-byte aligned", jnum(e, "bytes", 0));
   } else if (req && !strcmp(req, "global_offset")) {
      sb_fmt(b, "<b>Global offset</b> in dimension %.0f a multiple of %.0f", jnum(e, "dimension", 0),
             jnum(e, "multiple_of", 0));
   } else {
      sb_fmt(b, "<b>");
      sb_esc(b, section);
      sb_str(b, "</b>:");
      const cJSON *f;
      cJSON_ArrayForEach(f, e) {
         sb_str(b, " <span class=\"kv\">");
         sb_esc(b, f->string);
         sb_str(b, "=</span>");
         value_text(b, f);
      }
   }
   char *raw = cJSON_PrintUnformatted(e);
   sb_str(b, " <details class=\"raw\"><summary>JSON</summary><code>");
   sb_esc(b, raw);
   sb_str(b, "</code></details></li>");
   free(raw);
}

static unsigned requirements_count(const cJSON *k)
{
   unsigned n = 0;
   const cJSON *s;
   cJSON_ArrayForEach(s, k) n += (unsigned)cJSON_GetArraySize(s);
   return n;
}

/* ---- ISA figures (--isa-check's remarks) ---- */

/* What an isa-check remark's figures are.  Only "rewrite kept" describes
 * the code written; the others describe an output the check discarded
 * (the kernel was rewritten again, or its original kept) or compare two
 * candidates (the probe). */
enum isa_kind { ISA_NONE, ISA_SHIPPED, ISA_ORIGINAL, ISA_REDONE, ISA_PROBE };

static enum isa_kind isa_kind_of(const xe_remark_entry *x)
{
   switch (x->decision) {
   case XE_DECISION_ISA_KEPT:
      return ISA_SHIPPED;
   case XE_DECISION_ISA_ORIGINAL:
      return ISA_ORIGINAL;
   case XE_DECISION_ISA_PROBE:
      return ISA_PROBE;
   case XE_DECISION_ISA_REDONE:
      return ISA_REDONE;
   default:
      return ISA_NONE;
   }
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
      sb_str(b, "<tr><td>");
      sb_esc(b, xe_device_name(f[k].device));
      sb_fmt(b, "</td><td class=\"num\">%.0f</td><td class=\"num\">%.0f</td><td class=\"%s\">%s</td><td>",
             a, c, cls, word);
      if (f[k].detail)
         sb_esc(b, f[k].detail);
      sb_str(b, "</td></tr>");
   }
}

/* The ISA figures of one kernel: the shipped result first (the kept
 * rewrite's figures, or the input's when the original was kept), then
 * each discarded attempt, labelled so and without colours. */
static void isa_section(sb *b, const xe_remarks *rs, const int *rk, int kidx)
{
   sb shipped = { 0 }, discarded = { 0 };
   unsigned nd = 0;
   for (unsigned k = 0; k < rs->n; k++) {
      const xe_remark_entry *x = &rs->v[k];
      enum isa_kind kind = rk[k] == kidx ? isa_kind_of(x) : ISA_NONE;
      const xe_remark_figure *f = x->figures;
      unsigned n = kind != ISA_NONE ? x->nfigures : 0;
      if (!n)
         continue;
      if (kind == ISA_SHIPPED) {
         sb_str(&shipped, "<div class=\"box\">");
         remark_html(&shipped, x, NULL);
         sb_str(&shipped, "<table class=\"isa\"><tr><th>device</th><th class=\"num\">input</th>"
                          "<th class=\"num\">output (written)</th><th>estimate</th>"
                          "<th>IGC's counts (input &rarr; output)</th></tr>");
         isa_rows(&shipped, f, n, true);
         sb_str(&shipped, "</table></div>");
         continue;
      }
      if (kind == ISA_ORIGINAL) {
         sb_str(&shipped, "<div class=\"box\"><p>The original code was written: the kernel runs as "
                          "it came (ISA estimate ");
         for (unsigned d = 0; d < n; d++) {
            sb_str(&shipped, d ? ", " : "");
            sb_esc(&shipped, xe_device_name(f[d].device));
            sb_fmt(&shipped, " %.0f", f[d].before);
         }
         sb_str(&shipped, "). The rewrite IGC compiled worse is below, discarded.</p></div>");
      }
      nd++;
      sb_str(&discarded, "<div class=\"box discarded\"><p class=\"tag\">");
      sb_str(&discarded, kind == ISA_PROBE ? "Comparison of two candidates, not the written code"
                                           : "Discarded attempt, not the written code");
      sb_str(&discarded, "</p>");
      remark_html(&discarded, x, NULL);
      sb_fmt(&discarded, "<table class=\"isa\"><tr><th>device</th><th class=\"num\">%s</th>"
                         "<th class=\"num\">%s</th><th>estimate</th><th>IGC's counts</th></tr>",
             kind == ISA_PROBE ? "without the model" : "input",
             kind == ISA_PROBE ? "with the model" : "discarded output");
      isa_rows(&discarded, f, n, false);
      sb_str(&discarded, "</table></div>");
   }
   if (shipped.s || discarded.s)
      sb_str(b, "<h3>ISA figures (--isa-check, IGC)</h3>");
   if (shipped.s)
      sb_str(b, shipped.s);
   if (discarded.s) {
      sb_fmt(b, "<h4>%u output%s the check discarded</h4>", nd, nd == 1 ? "" : "s");
      sb_str(b, discarded.s);
   }
   free(shipped.s);
   free(discarded.s);
}

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

typedef struct kinfo {
   int idx;
   const char *name;
   uint32_t entry;
   bool changed;
   unsigned applied, missed, notes;
   const cJSON *mf;
} kinfo;

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
            sb_put(side ? &mb : &ma, (const char *)(m->w + p + 2), (nw - 2u) * 4);
      }
   }
   bool diff = ma.n != mb.n || (ma.n && memcmp(ma.s, mb.s, ma.n));
   free(ma.s);
   free(mb.s);
   return diff;
}

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
   sb_str(b, mi ? " class=\"has-missed\"" : a ? " class=\"has-applied\"" : no ? " class=\"has-note\"" : "");
}

typedef struct dis_cache {
   bool tried;
   char **lines;
   unsigned n;
   char *text;
} dis_cache;

static void kernel_section(sb *b, rep_module *m, const kinfo *ki, const xe_remarks *rs, const int *rk,
                           const char *input_path, dis_cache *dc)
{
   sb_str(b, "<section class=\"kernel\" id=\"");
   sb_anchor(b, ki->name);
   sb_str(b, "\"><h2>Kernel <code>");
   sb_esc(b, ki->name);
   sb_fmt(b, "</code> <span class=\"meta\">%s &middot; %u applied &middot; %u missed &middot; %u notes</span></h2>",
          ki->changed ? "<span class=\"yes\">changed</span>" : "<span class=\"no\">unchanged</span>",
          ki->applied, ki->missed, ki->notes);

   /* The remarks of this kernel, placed. */
   rep_fn *fs[64];
   unsigned nf = rep_reachable(m, ki->entry, fs, 64);
   unsigned nr = 0;
   placed *pr = calloc(rs->n + 1, sizeof(placed));
   for (unsigned k = 0; k < rs->n; k++)
      if (rk[k] == ki->idx && isa_kind_of(&rs->v[k]) == ISA_NONE)
         pr[nr++] = place(m, &rs->v[k], fs, nf);

   /* The kernel's main file: where most of its located instructions are. */
   uint32_t file = 0, best = 0;
   {
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
   }
   if (!file)
      for (unsigned k = 0; k < nf && !file; k++)
         file = fs[k]->line ? fs[k]->file : 0;
   srcfile sf;
   load_source(&sf, m, file, input_path);

   sb_str(b, "<h3>Remarks in the source</h3>");
   if (sf.text) {
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
             !strcmp(base_name(m->str[pr[k].at.file]), base_name(m->str[file]))) {
            pr[k].at.file = file;
            lo = pr[k].at.line < lo ? pr[k].at.line : lo;
            hi = pr[k].at.line > hi ? pr[k].at.line : hi;
         }
      if (lo == UINT32_MAX)
         lo = hi = 1;
      if (hi > sf.nlines)
         hi = sf.nlines;
      if (lo < 1)
         lo = 1;
      if (lo > hi)
         lo = hi;
      /* "kernel void\nname(...)": the line with the qualifier too */
      if (lo > 1 && lo <= sf.nlines && strstr(sf.lines[lo - 2], "kernel") && !strchr(sf.lines[lo - 2], ';') &&
          !strchr(sf.lines[lo - 2], '}'))
         lo--;
      sb_str(b, "<p class=\"meta\">");
      sb_esc(b, m->str[file]);
      if (sf.path_read) {
         sb_str(b, " (read from ");
         sb_esc(b, sf.path_read);
         sb_str(b, ")");
      } else {
         sb_str(b, " (");
         sb_str(b, sf.how);
         sb_str(b, ")");
      }
      sb_fmt(b, ", lines %u&ndash;%u. Remarks without a source line are shown at the kernel's first "
                "line, marked <i>kernel-wide</i>.</p>", lo, hi);
      sb_str(b, "<table class=\"src\">");
      for (uint32_t line = lo; line <= hi; line++) {
         placed here[64];
         unsigned nh = 0;
         for (unsigned k = 0; k < nr && nh < 64; k++)
            if ((pr[k].at.line == line && pr[k].at.file == file) ||
                (line == lo && (!pr[k].at.line || pr[k].at.file != file)))
               here[nh++] = pr[k];
         sb_fmt(b, "<tr id=\"");
         sb_anchor(b, ki->name);
         sb_fmt(b, "-L%u\"", line);
         row_class(b, here, nh);
         sb_fmt(b, "><td class=\"ln\">%u</td><td class=\"code\">", line);
         sb_esc(b, sf.lines[line - 1]);
         sb_str(b, "</td><td class=\"notes\">");
         for (unsigned k = 0; k < nh; k++) {
            const char *where = NULL;
            char wbuf[256];
            if (!here[k].at.line) {
               where = "kernel-wide (no source line)";
            } else if (here[k].at.file != file) {
               snprintf(wbuf, sizeof(wbuf), "at %s:%u", base_name(m->str[here[k].at.file] ? m->str[here[k].at.file] : "?"),
                        here[k].at.line);
               where = wbuf;
            }
            remark_html(b, here[k].r, where);
         }
         sb_str(b, "</td></tr>");
      }
      sb_str(b, "</table>");
   } else if ((dc->tried ? 0 : (dc->tried = true, dc->lines = disassemble(m, &dc->n, &dc->text))),
              dc->lines) {
      char **dis = dc->lines;
      unsigned ndis = dc->n;
      sb_str(b, "<p class=\"meta\">The module has no source lines");
      if (file && m->str[file]) {
         sb_str(b, " available (");
         sb_esc(b, m->str[file]);
         sb_str(b, " is not in the module and not on disk)");
      } else {
         sb_str(b, " (build with <code>clang -g</code> to get them)");
      }
      sb_str(b, ": the input's disassembly, with each remark beside the instruction that defines the "
                "first id it names; remarks naming none are at the top, marked <i>kernel-wide</i>.</p>");
      sb_str(b, "<table class=\"src\">");
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
            sb_str(b, "<tr class=\"gap\"><td></td><td colspan=\"2\">&hellip; another function the kernel runs</td></tr>");
         for (unsigned i = order[k]->first; i <= order[k]->last && i < ndis; i++) {
            placed here[64];
            unsigned nh = 0;
            /* at the top: remarks naming no instruction of the kernel's functions */
            for (unsigned j = 0; j < nr && nh < 64; j++)
               if (pr[j].inst == (int32_t)i || (first && !in_fns(fs, nf, pr[j].inst)))
                  here[nh++] = pr[j];
            sb_str(b, "<tr");
            row_class(b, here, nh);
            sb_fmt(b, "><td class=\"ln\">%u</td><td class=\"code\">", i);
            sb_esc(b, dis[i]);
            sb_str(b, "</td><td class=\"notes\">");
            for (unsigned j = 0; j < nh; j++)
               remark_html(b, here[j].r, here[j].inst != (int32_t)i ? "kernel-wide (no instruction)" : NULL);
            sb_str(b, "</td></tr>");
            first = false;
         }
      }
      sb_str(b, "</table>");
   } else {
      sb_str(b, "<p class=\"meta\">No source lines and no disassembly: the remarks as a list.</p>");
      for (unsigned k = 0; k < nr; k++)
         remark_html(b, pr[k].r, NULL);
   }
   if (!nr)
      sb_str(b, ki->applied + ki->missed + ki->notes
                   ? "<p class=\"meta\">No remark beside the code: this kernel's --isa-check "
                     "verdicts are under ISA figures.</p>"
                   : "<p class=\"meta\">No remark for this kernel.</p>");

   /* Host requirements. */
   sb_str(b, "<h3 id=\"");
   sb_anchor(b, ki->name);
   sb_str(b, "-req\">Host requirements (manifest)</h3>");
   if (ki->mf && requirements_count(ki->mf)) {
      sb_str(b, "<ul class=\"req\">");
      const cJSON *sec, *e;
      cJSON_ArrayForEach(sec, ki->mf) {
         cJSON_ArrayForEach(e, sec) requirement_html(b, sec->string, e);
      }
      sb_str(b, "</ul>");
   } else {
      sb_str(b, "<p class=\"meta\">None: the host launches this kernel as before.</p>");
   }

   isa_section(b, rs, rk, ki->idx);
   sb_str(b, "</section>");
   srcfile_free(&sf);
   free(pr);
}

/* ---- passes ---- */

/* The "passes" entries [from, to) as a table. */
static void passes_table(sb *b, const cJSON *passes, int from, int to)
{
   sb_str(b, "<table class=\"stats\"><tr><th>pass</th><th>changed the module</th>"
             "<th class=\"num\">milliseconds</th></tr>");
   for (int k = from; k < to; k++) {
      const cJSON *p = cJSON_GetArrayItem(passes, k);
      sb_str(b, "<tr><td><code>");
      sb_esc(b, jstr(p, "name"));
      bool ch = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "changed"));
      sb_fmt(b, "</code></td><td>%s</td><td class=\"num\">%.3f</td></tr>",
             ch ? "<span class=\"yes\">yes</span>" : "<span class=\"no\">no</span>",
             jnum(p, "milliseconds", 0));
   }
   sb_str(b, "</table>");
}

/* Where the run holding entry k ends: the first entry after it with
 * another "run". */
static int run_end(const cJSON *passes, int k, int n)
{
   const char *run = jstr(cJSON_GetArrayItem(passes, k), "run");
   int e = k + 1;
   while (e < n && run && jstr(cJSON_GetArrayItem(passes, e), "run") &&
          !strcmp(jstr(cJSON_GetArrayItem(passes, e), "run"), run))
      e++;
   return run ? e : n;
}

/* The passes of each run of the pipeline (pipeline.h: xe_report_label_run),
 * the run whose output was written first, the others folded. */
static void passes_html(sb *b, const cJSON *passes)
{
   int n = cJSON_GetArraySize(passes);
   if (n <= 0)
      return;
   sb_str(b, "<h2>Passes</h2>");
   if (!jstr(cJSON_GetArrayItem(passes, 0), "run")) {
      sb_str(b, "<p class=\"meta\">One run of the pipeline; its output was written.</p>");
      passes_table(b, passes, 0, n);
      return;
   }
   int nruns = 0, ship = -1;
   for (int k = 0; k < n; k = run_end(passes, k, n)) {
      nruns++;
      if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(passes, k), "shipped")))
         ship = k;
   }
   sb_fmt(b, "<p class=\"meta\">The pipeline ran %d times", nruns);
   if (ship >= 0) {
      sb_str(b, "; the output written comes from: <b>");
      sb_esc(b, jstr(cJSON_GetArrayItem(passes, ship), "run"));
      sb_str(b, "</b>");
   }
   sb_str(b, " (docs/report.md).</p>");
   if (ship >= 0) {
      sb_str(b, "<h3 class=\"run\">");
      sb_esc(b, jstr(cJSON_GetArrayItem(passes, ship), "run"));
      sb_str(b, " &middot; written</h3>");
      passes_table(b, passes, ship, run_end(passes, ship, n));
   }
   if (nruns - (ship >= 0) <= 0)
      return;
   sb_fmt(b, "<details class=\"runs\"><summary>The other %d run%s (not written)</summary>",
          nruns - (ship >= 0), nruns - (ship >= 0) == 1 ? "" : "s");
   for (int k = 0; k < n; k = run_end(passes, k, n)) {
      if (k == ship)
         continue;
      sb_str(b, "<h3 class=\"run\">");
      sb_esc(b, jstr(cJSON_GetArrayItem(passes, k), "run"));
      sb_str(b, " &middot; not written</h3>");
      passes_table(b, passes, k, run_end(passes, k, n));
   }
   sb_str(b, "</details>");
}

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
      if (rk[k] < 0 || !ks[rk[k]].changed || isa_kind_of(&rs->v[k]) != ISA_SHIPPED)
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
static void device_summary(sb *b, const xeopt_result *r, const void *input, size_t size,
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
   sb_str(b, "<h2>Per device</h2>");
   if (!devs) {
      sb_fmt(b, "<p>%u of %u kernel%s rewritten; no device estimate (<code>--target=none</code>).</p>",
             nch, nk, nk == 1 ? "" : "s");
      return;
   }
   sb_fmt(b, "<p class=\"meta\">The devices %s; the estimate is %s, summed over the rewritten "
             "kernels (the others are unchanged).</p>",
          igc ? "IGC checked (<code>--isa-check</code>)" : "the cost model targets (<code>--target</code>)",
          igc ? "IGC's ISA estimate of the code written (a kernel whose original was kept counts as "
                "kept)"
              : "the cost model's of the input's and the output's code");
   sb_str(b, "<table class=\"sum dev\"><tr><th>device</th><th class=\"num\">kernels rewritten</th>"
             "<th class=\"num\">kept as they were</th><th class=\"num\">estimate before</th>"
             "<th class=\"num\">after</th><th>change</th></tr>");
   for (int d = 0; d < XE_DEV_COUNT; d++) {
      if (!(devs & (1u << d)))
         continue;
      sb_fmt(b, "<tr><td>%s</td><td class=\"num\">%u</td><td class=\"num\">%u</td>",
             xe_device_name((enum xe_device)d), nch, nk - nch);
      if (!ds.have[d]) {
         sb_fmt(b, "<td class=\"num no\">&mdash;</td><td class=\"num no\">&mdash;</td><td class=\"no\">%s</td></tr>",
                nch ? "no figures (see the remarks)" : "nothing rewritten");
         continue;
      }
      double a = ds.before[d], c = ds.after[d];
      const char *cls = c < a ? "better" : c > a ? "worse" : "same";
      sb_fmt(b, "<td class=\"num\">%.0f</td><td class=\"num\">%.0f%s</td><td class=\"%s\">", a, c,
             !igc && nvers ? " *" : "", cls);
      if (a > 0)
         sb_fmt(b, "%+.1f%% ", 100.0 * (c - a) / a);
      sb_str(b, c < a ? "lower (better)" : c > a ? "higher (worse)" : "same");
      if (igc && ds.have[d] < nch)
         sb_fmt(b, " <span class=\"no\">(%u of %u rewritten kernels measured)</span>", ds.have[d], nch);
      sb_str(b, "</td></tr>");
   }
   sb_str(b, "</table>");
   if (!igc && nvers)
      sb_fmt(b, "<p class=\"meta\">* the model's estimate of the code as written counts both copies "
                "of %u versioned kernel%s; the weighted estimate the pass decided by is in its "
                "remarks (each sub-group runs one copy).</p>", nvers, nvers == 1 ? "" : "s");
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

   sb_str(&b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
              "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
              "<title>xeopt report");
   if (title) {
      sb_str(&b, ": ");
      sb_esc(&b, title);
   }
   sb_str(&b, "</title><style>");
   sb_str(&b, css);
   sb_str(&b, "</style></head><body><header><h1>xeopt report");
   if (title) {
      sb_str(&b, ": <code>");
      sb_esc(&b, title);
      sb_str(&b, "</code>");
   }
   sb_fmt(&b, "</h1><div class=\"sub\">xeopt %s", xeopt_version());
   if (xeopt_result_status(r) != XEOPT_OK) {
      sb_str(&b, " &middot; failed: ");
      sb_esc(&b, xeopt_result_error(r));
   }
   sb_str(&b, "</div></header><main>");

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
      device_summary(&b, r, input, size, ks, nk, rk);

   sb_fmt(&b, "<h2>Summary</h2><p>%u kernel%s, %u changed. "
              "<span class=\"legend\"><span class=\"pill applied\">&#10003; applied</span> a rewrite was made "
              "&nbsp; <span class=\"pill missed\">&#10007; missed</span> a candidate was refused, with why</span></p>",
          nk, nk == 1 ? "" : "s", nchanged);
   sb_str(&b, "<table class=\"sum\"><tr><th>kernel</th><th>changed</th><th class=\"num\">applied</th>"
              "<th class=\"num\">missed</th><th>refused, and why</th><th>host requirements</th></tr>");
   for (unsigned k = 0; k < nk; k++) {
      kinfo *ki = &ks[k];
      sb_str(&b, "<tr><td><a href=\"#");
      sb_anchor(&b, ki->name);
      sb_str(&b, "\"><code>");
      sb_esc(&b, ki->name);
      sb_fmt(&b, "</code></a></td><td>%s</td><td class=\"num\">%s%u%s</td><td class=\"num\">%s%u%s</td><td>",
             ki->changed ? "<span class=\"yes\">&#10003; yes</span>" : "<span class=\"no\">no</span>",
             ki->applied ? "<span class=\"pill applied\">" : "", ki->applied, ki->applied ? "</span>" : "",
             ki->missed ? "<span class=\"pill missed\">" : "", ki->missed, ki->missed ? "</span>" : "");
      /* distinct reasons per pass */
      if (ki->missed) {
         sb_str(&b, "<ul class=\"why\">");
         char (*seen)[200] = calloc(ki->missed, sizeof(*seen));
         unsigned *times = calloc(ki->missed, sizeof(unsigned));
         const char **passes = calloc(ki->missed, sizeof(char *));
         unsigned ns = 0;
         for (unsigned j = 0; j < rs->n; j++) {
            const xe_remark_entry *x = &rs->v[j];
            if (rk[j] != (int)k || x->kind != XE_REMARK_MISSED)
               continue;
            char why[200];
            reason_of(x->message, why, sizeof(why));
            unsigned q = 0;
            while (q < ns && (strcmp(seen[q], why) || strcmp(passes[q], x->pass)))
               q++;
            if (q == ns) {
               memcpy(seen[ns], why, sizeof(why));
               passes[ns] = x->pass;
               ns++;
            }
            times[q]++;
         }
         for (unsigned q = 0; q < ns; q++) {
            sb_str(&b, "<li><span class=\"pass\">");
            sb_esc(&b, passes[q]);
            sb_str(&b, "</span> ");
            sb_esc(&b, seen[q]);
            if (times[q] > 1)
               sb_fmt(&b, " <b>&times;%u</b>", times[q]);
            sb_str(&b, "</li>");
         }
         free(seen);
         free(times);
         free(passes);
         sb_str(&b, "</ul>");
      } else {
         sb_str(&b, "<span class=\"no\">&mdash;</span>");
      }
      unsigned nreq = ki->mf ? requirements_count(ki->mf) : 0;
      if (nreq) {
         sb_fmt(&b, "</td><td><a href=\"#");
         sb_anchor(&b, ki->name);
         sb_fmt(&b, "-req\">%u (see the kernel)</a></td></tr>", nreq);
      }
      else
         sb_str(&b, "</td><td class=\"no\">none</td></tr>");
   }
   sb_str(&b, "</table>");
   if (!have_in)
      sb_str(&b, "<p class=\"meta\">The input is not a SPIR-V module.</p>");

   /* Module-wide remarks and warnings. */
   bool any = false;
   for (unsigned j = 0; j < rs->n; j++) {
      const xe_remark_entry *x = &rs->v[j];
      if (rk[j] >= 0)
         continue;
      if (!any)
         sb_str(&b, "<h3>Module-wide remarks</h3>");
      any = true;
      remark_html(&b, x, x->kernel ? x->kernel : NULL);
   }
   const char *warn = xeopt_result_warnings(r);
   if (warn && *warn) {
      sb_str(&b, "<h3>Warnings</h3><pre class=\"box\">");
      sb_esc(&b, warn);
      sb_str(&b, "</pre>");
   }

   dis_cache dc = { 0 };   /* the disassembly, made when a kernel lacks source lines */
   for (unsigned k = 0; k < nk; k++)
      kernel_section(&b, &in, &ks[k], rs, rk, input_path, &dc);
   free(dc.text);
   free(dc.lines);

   passes_html(&b, cJSON_GetObjectItemCaseSensitive(stats, "passes"));
   sb_str(&b, "</main></body></html>\n");

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
