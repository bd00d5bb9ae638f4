/*
 * The host requirements of a kernel's manifest entry as the report lists
 * them (report_page.h, docs/manifest.md), and the JSON helpers the page's
 * other parts share.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "report_page.h"

const char *rep_jstr(const cJSON *o, const char *k)
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

double rep_jnum(const cJSON *o, const char *k, double def)
{
   const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
   return cJSON_IsNumber(v) ? v->valuedouble : def;
}

/* A JSON value as short text: strings as they are, formulas by their
 * "text", anything else printed. */
static void value_text(sb *b, const cJSON *v)
{
   if (cJSON_IsString(v)) {
      rep_sb_esc(b, v->valuestring);
      return;
   }
   const cJSON *t = cJSON_IsObject(v) ? cJSON_GetObjectItemCaseSensitive(v, "text") : NULL;
   if (cJSON_IsString(t)) {
      rep_sb_str(b, "<code>");
      rep_sb_esc(b, t->valuestring);
      rep_sb_str(b, "</code>");
      return;
   }
   char *s = cJSON_PrintUnformatted(v);
   rep_sb_str(b, "<code>");
   rep_sb_esc(b, s);
   rep_sb_str(b, "</code>");
   free(s);
}

void rep_requirement_html(sb *b, const char *section, const cJSON *e)
{
   const char *kind = rep_jstr(e, "kind"), *req = rep_jstr(e, "requirement");
   rep_sb_str(b, "<li>");
   if (!strcmp(section, "padding") && kind && !strcmp(kind, "buffer")) {
      rep_sb_fmt(b, "<b>Pad buffer</b> argument %.0f <code>", rep_jnum(e, "arg", -1));
      rep_sb_esc(b, rep_jstr(e, "name"));
      rep_sb_str(b, "</code>: allocate at least <code>");
      rep_sb_esc(b, rep_jstr(e, "min_elements"));
      rep_sb_fmt(b, "</code> elements of %.0f bytes", rep_jnum(e, "element_size", 0));
      if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "distinct_allocation")))
         rep_sb_str(b, "; its own allocation (no overlap with another buffer argument)");
      if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "zero_fill")))
         rep_sb_str(b, "; padding filled with zeros");
      const cJSON *rq = cJSON_GetObjectItemCaseSensitive(e, "requires");
      const cJSON *nn = cJSON_GetObjectItemCaseSensitive(rq, "nonnegative_args");
      if (cJSON_GetArraySize(nn) > 0) {
         rep_sb_str(b, "; these arguments must be &ge; 0: ");
         value_text(b, nn);
      }
      const cJSON *mx = cJSON_GetObjectItemCaseSensitive(rq, "max_elements");
      if (mx) {
         rep_sb_str(b, "; at most ");
         value_text(b, mx);
         rep_sb_str(b, " elements (32-bit index)");
      }
   } else if (!strcmp(section, "padding") && kind && !strcmp(kind, "guard")) {
      rep_sb_str(b, "<b>Guard removed</b> <code>");
      rep_sb_esc(b, rep_jstr(e, "condition"));
      rep_sb_str(b, "</code>");
      if (rep_jstr(e, "file")) {
         rep_sb_str(b, " at ");
         rep_sb_esc(b, rep_jstr(e, "file"));
         rep_sb_fmt(b, ":%.0f", rep_jnum(e, "line", 0));
      }
      rep_sb_str(b, " (proof: ");
      rep_sb_esc(b, rep_jstr(e, "proof"));
      rep_sb_str(b, "): the buffers below must be padded");
   } else if (!strcmp(section, "spec_constants")) {
      bool set = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "flag_default"));
      rep_sb_fmt(b, "<b>Specialization constants</b> for argument %.0f <code>", rep_jnum(e, "index", -1));
      rep_sb_esc(b, rep_jstr(e, "argument"));
      rep_sb_fmt(b, "</code> (%.0f loop%s): flag SpecId %.0f (default %s), value SpecId %.0f (default ",
                 rep_jnum(e, "loops", 0), rep_jnum(e, "loops", 0) == 1 ? "" : "s", rep_jnum(e, "flag_spec_id", -1),
                 set ? "true" : "false", rep_jnum(e, "value_spec_id", -1));
      rep_sb_esc(b, rep_jstr(e, "value_default"));
      rep_sb_str(b, ")");
      if (set)
         rep_sb_str(b, "; the flag is set by default: launch with the argument equal to the value");
      else
         rep_sb_str(b, "; nothing to do unless the host sets the flag");
      if (rep_jstr(e, "guarantee")) {
         rep_sb_str(b, "; guarantee: ");
         rep_sb_esc(b, rep_jstr(e, "guarantee"));
      }
   } else if (req && !strcmp(req, "uniform_work_groups")) {
      rep_sb_str(b, "<b>Uniform work-groups</b>: the global size must be a multiple of the local size "
                    "in every dimension");
   } else if (req && !strcmp(req, "subgroup_size")) {
      rep_sb_fmt(b, "<b>Sub-group size</b> %.0f: the kernel is compiled at that SIMD width", rep_jnum(e, "value", 0));
   } else if (req && !strcmp(req, "local_size")) {
      rep_sb_str(b, "<b>Local size</b> ");
      value_text(b, cJSON_GetObjectItemCaseSensitive(e, "value"));
      rep_sb_str(b, ": launch with exactly this local size");
   } else if (req && !strcmp(req, "argument_alignment")) {
      rep_sb_fmt(b, "<b>Alignment</b>: argument %.0f <code>", rep_jnum(e, "argument", -1));
      rep_sb_esc(b, rep_jstr(e, "name"));
      rep_sb_fmt(b, "</code> at least %.0f-byte aligned", rep_jnum(e, "bytes", 0));
   } else if (req && !strcmp(req, "global_offset")) {
      rep_sb_fmt(b, "<b>Global offset</b> in dimension %.0f a multiple of %.0f", rep_jnum(e, "dimension", 0),
                 rep_jnum(e, "multiple_of", 0));
   } else {
      rep_sb_fmt(b, "<b>");
      rep_sb_esc(b, section);
      rep_sb_str(b, "</b>:");
      const cJSON *f;
      cJSON_ArrayForEach(f, e) {
         rep_sb_str(b, " <span class=\"kv\">");
         rep_sb_esc(b, f->string);
         rep_sb_str(b, "=</span>");
         value_text(b, f);
      }
   }
   char *raw = cJSON_PrintUnformatted(e);
   rep_sb_str(b, " <details class=\"raw\"><summary>JSON</summary><code>");
   rep_sb_esc(b, raw);
   rep_sb_str(b, "</code></details></li>");
   free(raw);
}

unsigned rep_requirements_count(const cJSON *k)
{
   unsigned n = 0;
   const cJSON *s;
   cJSON_ArrayForEach(s, k) n += (unsigned)cJSON_GetArraySize(s);
   return n;
}
