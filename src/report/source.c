#define _GNU_SOURCE
/*
 * Where the report shows a remark (report_page.h): the source text of a
 * kernel's file, from the module or from disk, and the line (or, for the
 * disassembly, the instruction) a remark's message names.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/spirv.h>

#include "io.h"
#include "report_page.h"

static char *read_whole(const char *path)
{
   FILE *fp = fopen(path, "rb");
   if (!fp)
      return NULL;
   sb b = { 0 };
   char buf[8192];
   size_t n;
   while ((n = fread(buf, 1, sizeof(buf), fp)) > 0) {
      rep_sb_put(&b, buf, n);
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
void rep_load_source(srcfile *s, const rep_module *m, uint32_t file, const char *input_path)
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

void rep_srcfile_free(srcfile *s)
{
   free(s->text);
   free(s->lines);
   free(s->path_read);
}

const char *rep_base_name(const char *p)
{
   const char *s = strrchr(p, '/');
   return s ? s + 1 : p;
}

/* Where remark x is: "FILE:LINE" naming a file of the module, else the
 * first "%N" with a line (or, for the disassembly, an instruction). */
bool rep_in_fns(rep_fn *const *fs, unsigned nf, int32_t inst)
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
      if (rep_in_fns(fs, nf, m->idinst[id]))
         return id;
      if (!any)
         any = id;
   }
   return any;
}

placed rep_place(const rep_module *m, const xe_remark_entry *x, rep_fn *const *fs, unsigned nf)
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
         const char *bn = rep_base_name(name);
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
            if (m->idinst[id] >= 0 && rep_in_fns(fs, nf, m->idinst[id]) && m->idloc[id].line &&
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
