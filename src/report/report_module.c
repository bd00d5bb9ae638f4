/*
 * The report's reading of a SPIR-V module (report_module.h).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/spirv.h>

#include "report_module.h"

enum { SET_NONE, SET_OPENCL_DEBUG, SET_NONSEMANTIC_DEBUG };

static char *lit_string(const uint32_t *w, unsigned nw)
{
   size_t max = (size_t)nw * 4;
   const char *s = (const char *)w;
   size_t len = strnlen(s, max);
   char *t = malloc(len + 1);
   memcpy(t, s, len);
   t[len] = 0;
   return t;
}

static void append_text(char **dst, const char *t)
{
   size_t a = *dst ? strlen(*dst) : 0, b = strlen(t);
   *dst = realloc(*dst, a + b + 1);
   memcpy(*dst + a, t, b + 1);
}

static rep_fn *fn_of(rep_module *m, uint32_t id)
{
   for (unsigned k = 0; k < m->nfn; k++)
      if (m->fns[k].id == id)
         return &m->fns[k];
   return NULL;
}

void rep_module_free(rep_module *m)
{
   if (!m->w)
      return;
   for (uint32_t k = 0; k < m->bound; k++) {
      free(m->str[k]);
      free(m->name[k]);
      free(m->src_text[k]);
   }
   for (unsigned k = 0; k < m->nfn; k++)
      free(m->fns[k].calls);
   for (unsigned k = 0; k < m->nep; k++)
      free(m->eps[k].name);
   free(m->fns);
   free(m->eps);
   free(m->str);
   free(m->name);
   free(m->by_name);
   free(m->strings);
   free(m->modes);
   free(m->src_text);
   free(m->set);
   free(m->isconst);
   free(m->cval);
   free(m->dsrc_file);
   free(m->idloc);
   free(m->idinst);
   free(m->inst_word);
   free(m->inst_loc);
   free(m->w);
   memset(m, 0, sizeof(*m));
}

/* Whether instruction op has a result id, and at which word. */
static int result_word(uint16_t op)
{
   bool has_result, has_type;
   SpvHasResultAndType((SpvOp)op, &has_result, &has_type);
   return has_result ? (has_type ? 2 : 1) : 0;
}

static uint32_t cnum(const rep_module *m, uint32_t id)
{
   return id < m->bound && m->isconst[id] ? m->cval[id] : 0;
}

static const rep_module *sort_names;   /* qsort has no context argument */

static int by_name_cmp(const void *a, const void *b)
{
   uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
   int c = strcmp(sort_names->name[x], sort_names->name[y]);
   return c ? c : (x > y) - (x < y);
}

/* Reads the words; false when they are not a SPIR-V module. */
bool rep_module_read(rep_module *m, const void *bytes, size_t size)
{
   memset(m, 0, sizeof(*m));
   if (size < 20 || size % 4)
      return false;
   m->n = size / 4;
   m->w = malloc(size);
   memcpy(m->w, bytes, size);
   if (m->w[0] == 0x03022307u) {
      for (size_t k = 0; k < m->n; k++)
         m->w[k] = __builtin_bswap32(m->w[k]);
   } else if (m->w[0] != SpvMagicNumber) {
      free(m->w);
      m->w = NULL;
      return false;
   }
   /* Ids past 4 x the words are not looked up (a bogus bound in the
    * header must not size the tables). */
   m->bound = m->w[3];
   if (m->bound > 4 * m->n + 16)
      m->bound = (uint32_t)(4 * m->n + 16);
   uint32_t B = m->bound;
   m->str = calloc(B, sizeof(char *));
   m->name = calloc(B, sizeof(char *));
   m->src_text = calloc(B, sizeof(char *));
   m->set = calloc(B, 1);
   m->isconst = calloc(B, 1);
   m->cval = calloc(B, sizeof(uint32_t));
   m->dsrc_file = calloc(B, sizeof(uint32_t));
   m->idloc = calloc(B, sizeof(rep_loc));
   m->idinst = malloc(B * sizeof(int32_t));
   for (uint32_t k = 0; k < B; k++)
      m->idinst[k] = -1;
   size_t capi = 256;
   m->inst_word = malloc(capi * sizeof(size_t));
   m->inst_loc = malloc(capi * sizeof(rep_loc));

   rep_loc cur = { 0 };
   uint32_t last_source_file = 0;   /* OpSourceContinued appends to it */
   uint32_t pending_label = 0;      /* a label whose block has no located instruction yet */
   rep_fn *f = NULL;
   size_t p = 5;
   while (p < m->n) {
      uint32_t w0 = m->w[p];
      uint16_t op = w0 & 0xffff, nw = w0 >> 16;
      if (nw == 0 || p + nw > m->n)
         break;
      const uint32_t *in = m->w + p;
      if (m->ninst == capi) {
         capi *= 2;
         m->inst_word = realloc(m->inst_word, capi * sizeof(size_t));
         m->inst_loc = realloc(m->inst_loc, capi * sizeof(rep_loc));
      }
      unsigned ix = m->ninst++;
      m->inst_word[ix] = p;
      bool is_line = false;
      switch (op) {
      case SpvOpString:
         if (nw > 2 && in[1] < B && !m->str[in[1]])
            m->str[in[1]] = lit_string(in + 2, nw - 2u);
         break;
      case SpvOpExecutionMode:
      case SpvOpExecutionModeId:
         if (nw > 2) {
            m->modes = realloc(m->modes, (m->nmodes + 1) * sizeof(size_t));
            m->modes[m->nmodes++] = p;
         }
         break;
      case SpvOpName:
         if (nw > 2 && in[1] < B && !m->name[in[1]])
            m->name[in[1]] = lit_string(in + 2, nw - 2u);
         break;
      case SpvOpSource:
         if (nw > 3 && in[3] < B) {
            last_source_file = in[3];
            if (nw > 4) {
               char *t = lit_string(in + 4, nw - 4u);
               append_text(&m->src_text[in[3]], t);
               free(t);
            }
         } else {
            last_source_file = 0;
         }
         break;
      case SpvOpSourceContinued:
         if (last_source_file && nw > 1) {
            char *t = lit_string(in + 1, nw - 1u);
            append_text(&m->src_text[last_source_file], t);
            free(t);
         }
         break;
      case SpvOpExtInstImport:
         if (nw > 2 && in[1] < B) {
            char *t = lit_string(in + 2, nw - 2u);
            if (!strcmp(t, "OpenCL.DebugInfo.100"))
               m->set[in[1]] = SET_OPENCL_DEBUG;
            else if (!strncmp(t, "NonSemantic.Shader.DebugInfo", 28))
               m->set[in[1]] = SET_NONSEMANTIC_DEBUG;
            free(t);
         }
         break;
      case SpvOpConstant:
         if (nw > 3 && in[2] < B) {
            m->isconst[in[2]] = 1;
            m->cval[in[2]] = in[3];
         }
         break;
      case SpvOpEntryPoint:
         if (nw > 3) {
            m->eps = realloc(m->eps, (m->nep + 1) * sizeof(rep_ep));
            m->eps[m->nep++] = (rep_ep){ .fn = in[2], .name = lit_string(in + 3, nw - 3u),
                                     .wfirst = p, .wend = p + nw };
         }
         break;
      case SpvOpFunction:
         m->fns = realloc(m->fns, (m->nfn + 1) * sizeof(rep_fn));
         f = &m->fns[m->nfn++];
         memset(f, 0, sizeof(*f));
         f->id = nw > 2 ? in[2] : 0;
         if (f->id < B && m->idloc[f->id].line) {
            f->line = m->idloc[f->id].line;
            f->file = m->idloc[f->id].file;
         }
         f->first = ix;
         f->wfirst = p;
         cur = (rep_loc){ 0 };
         break;
      case SpvOpFunctionEnd:
         if (f) {
            f->last = ix;
            f->wend = p + nw;
         }
         f = NULL;
         cur = (rep_loc){ 0 };
         break;
      case SpvOpFunctionCall:
         if (f && nw > 3) {
            f->calls = realloc(f->calls, (f->ncalls + 1) * sizeof(uint32_t));
            f->calls[f->ncalls++] = in[3];
         }
         break;
      case SpvOpLabel:
         cur = (rep_loc){ 0 };   /* a line's scope ends with its block */
         pending_label = nw > 1 ? in[1] : 0;
         break;
      case SpvOpLine:
         is_line = true;
         if (nw > 3)
            cur = (rep_loc){ in[1], in[2] };
         break;
      case SpvOpNoLine:
         is_line = true;
         cur = (rep_loc){ 0 };
         break;
      case SpvOpExtInst:
         if (nw > 4 && in[3] < B && m->set[in[3]]) {
            bool ns = m->set[in[3]] == SET_NONSEMANTIC_DEBUG;
            uint32_t dop = in[4];
            is_line = true;   /* debug instructions are not code */
            if (dop == 35 && nw > 5 && in[2] < B) {              /* DebugSource */
               m->dsrc_file[in[2]] = in[5];
               if (nw > 6 && in[5] < B && in[6] < B && m->str[in[6]] && !m->src_text[in[5]])
                  append_text(&m->src_text[in[5]], m->str[in[6]]);
               last_source_file = in[5];
            } else if (ns && dop == 102 && nw > 5 && last_source_file && in[5] < B &&
                       m->str[in[5]]) {                          /* DebugSourceContinued */
               append_text(&m->src_text[last_source_file], m->str[in[5]]);
            } else if (ns && dop == 103 && nw > 6 && in[5] < B) { /* DebugLine */
               /* Source: a DebugSource, or (llvm-spirv 21) its OpString */
               uint32_t file = m->dsrc_file[in[5]] ? m->dsrc_file[in[5]] : m->str[in[5]] ? in[5] : 0;
               cur = (rep_loc){ file, cnum(m, in[6]) };
            } else if (ns && dop == 104) {                       /* DebugNoLine */
               cur = (rep_loc){ 0 };
            } else if (dop == 20 && nw > 8 && in[7] < B) {       /* DebugFunction */
               uint32_t line = ns ? cnum(m, in[8]) : in[8];
               uint32_t file = m->dsrc_file[in[7]];
               /* OpenCL.DebugInfo.100 names the function (operand 10). */
               if (!ns && nw > 14 && in[14] < B)
                  m->idloc[in[14]] = (rep_loc){ file, line };   /* read by its OpFunction */
               if (in[2] < B) {   /* for DebugFunctionDefinition */
                  m->idloc[in[2]] = (rep_loc){ file, line };
               }
            } else if (ns && dop == 101 && nw > 6 && in[5] < B) { /* DebugFunctionDefinition */
               rep_fn *g = fn_of(m, in[6]);   /* inside the function it defines */
               if (g && !g->line) {
                  g->line = m->idloc[in[5]].line;
                  g->file = m->idloc[in[5]].file;
               }
            }
         }
         break;
      default:
         break;
      }
      m->inst_loc[ix] = f && !is_line && cur.line ? cur : (rep_loc){ 0 };
      int rw = result_word(op);
      if (rw && rw < nw && in[rw] < B) {
         m->idinst[in[rw]] = (int32_t)ix;
         if (f && !is_line && cur.line && !m->idloc[in[rw]].line)
            m->idloc[in[rw]] = cur;
      }
      if (f && !is_line && cur.line && pending_label && op != SpvOpLabel) {
         if (pending_label < B && !m->idloc[pending_label].line)
            m->idloc[pending_label] = cur;
         pending_label = 0;
      }
      p += nw;
   }
   /* Indexes for the remarks' names: the named ids by name, the strings. */
   m->by_name = malloc((B ? B : 1) * sizeof(uint32_t));
   m->strings = malloc((B ? B : 1) * sizeof(uint32_t));
   for (uint32_t id = 1; id < B; id++) {
      if (m->name[id] && *m->name[id])
         m->by_name[m->nnamed++] = id;
      if (m->str[id] && *m->str[id])
         m->strings[m->nstrings++] = id;
   }
   sort_names = m;
   qsort(m->by_name, m->nnamed, sizeof(uint32_t), by_name_cmp);
   return true;
}

/* The first index in m->by_name whose name is tok[0..n), or nnamed. */
uint32_t rep_name_lower_bound(const rep_module *m, const char *tok, size_t n)
{
   uint32_t lo = 0, hi = m->nnamed;
   while (lo < hi) {
      uint32_t mid = lo + (hi - lo) / 2;
      const char *nm = m->name[m->by_name[mid]];
      int c = strncmp(nm, tok, n);
      if (c == 0 && nm[n])
         c = 1;
      if (c < 0)
         lo = mid + 1;
      else
         hi = mid;
   }
   return lo;
}

bool rep_name_is(const rep_module *m, uint32_t k, const char *tok, size_t n)
{
   const char *nm = m->name[m->by_name[k]];
   return !strncmp(nm, tok, n) && !nm[n];
}

/* The functions a kernel runs: its entry and what it calls. */
unsigned rep_reachable(rep_module *m, uint32_t entry, rep_fn **out, unsigned max)
{
   unsigned n = 0;
   rep_fn *e = fn_of(m, entry);
   if (!e)
      return 0;
   out[n++] = e;
   for (unsigned k = 0; k < n; k++)
      for (unsigned c = 0; c < out[k]->ncalls; c++) {
         rep_fn *g = fn_of(m, out[k]->calls[c]);
         bool seen = false;
         for (unsigned j = 0; j < n && !seen; j++)
            seen = out[j] == g;
         if (g && !seen && n < max)
            out[n++] = g;
      }
   return n;
}

