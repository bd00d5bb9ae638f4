/*
 * Counting IGC's ISA (isa_count.h): the rules of bench/isa's header
 * comment, in C, so that --isa-check judges a kernel by the same numbers
 * the sweep and the README tables report.
 *
 * The part that needs care is telling private memory from other a64
 * traffic on dg2, where IGC 22.43 puts private arrays in stateless memory
 * (`a64 dword gathering read` at privateBase + a per-thread slot) and a
 * generic or stateless global pointer's accesses look the same.  The slot
 * is computed from the hardware thread id in sr0, so a forward data-flow
 * pass over the code, by GRF byte, tags every value that depends on sr0
 * ("P") and every value computed from the indirect-payload pointer
 * `r0.0 & 0xFFFFFFC0` ("A", the prologue's argument loads); a send is
 * classified by the tags of its address payload.  The pass is linear and
 * ignores control flow: a write that covers a byte replaces its tags,
 * unless the instruction is predicated, when it adds to them.  It is a
 * heuristic; bench/isa's header says on what it was checked, and
 * tests/test_isa_count.c checks this port against bench/isa.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <regex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "isa_count.h"

enum { TAG_PRIVATE = 1, TAG_ARGS = 2 };

/* Taint by GRF byte (up to 256 registers of 64 bytes, with slack for
 * regions that run past the last one), and by acc/sr register number. */
enum { TAINT_BYTES = 256 * 64 + 16384, SPECIAL = 32 };

typedef struct counter {
   regex_t pred, reg, exec, cond, lsc, dsize, ss, label, wr, rd;
   uint8_t *taint;         /* TAINT_BYTES */
   uint8_t acc[SPECIAL], sr[SPECIAL];
   unsigned grf;           /* bytes per GRF: 32 on dg2, 64 on pvc */
} counter;

static void compile(regex_t *re, const char *pattern)
{
   if (regcomp(re, pattern, REG_EXTENDED))
      xe_out_of_memory(); /* a constant pattern: fails only for memory */
}

static bool counter_init(counter *c, enum xe_device d)
{
   memset(c, 0, sizeof(*c));
   c->grf = xe_device_grf_bytes(d);
   c->taint = calloc(TAINT_BYTES, 1);
   if (!c->taint)
      return false;
   compile(&c->pred, "^\\((W|W&)?~?(f[0-9]+\\.[0-9]+[A-Za-z0-9_.]*)?\\)[[:space:]]*");
   compile(&c->reg, "^(r|acc|sr)([0-9]+)(\\.([0-9]+))?(<[^>]*>)?(:([A-Za-z0-9_]+))?");
   compile(&c->exec, "\\(([0-9]+)\\|M[0-9]+\\)");
   compile(&c->cond, "\\([A-Za-z0-9_]+\\)f[0-9]+\\.[0-9]+");
   compile(&c->lsc, "^(load|store|atomic[a-z0-9_]*|load_block2d|store_block2d|load_status|"
                    "prefetch[a-z0-9_]*)\\.(ugm|ugml|slm|tgm)([^a-z0-9_]|$)");
   compile(&c->dsize, "\\.d[0-9]+(u[0-9]+)?x[0-9]+t([^a-z0-9_]|$)|\\.d[0-9]+t([^a-z0-9_]|$)");
   compile(&c->ss, "(^|[^a-z0-9_])ss\\[");
   compile(&c->label, "(^|[^A-Za-z0-9_])(L[0-9]+)([^A-Za-z0-9_]|$)");
   compile(&c->wr, "wr:([0-9]+)h?\\+([0-9]+)");
   compile(&c->rd, "rd:([0-9]+)");
   return true;
}

static void counter_free(counter *c)
{
   regex_t *all[] = { &c->pred, &c->reg, &c->exec, &c->cond, &c->lsc, &c->dsize, &c->ss, &c->label,
                      &c->wr, &c->rd };
   for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
      regfree(all[i]);
   free(c->taint);
}

static unsigned type_bytes(const char *t, size_t n)
{
   static const struct { const char *name; unsigned bytes; } types[] = {
      { "b", 1 }, { "ub", 1 }, { "w", 2 }, { "uw", 2 }, { "hf", 2 }, { "bf", 2 }, { "d", 4 },
      { "ud", 4 }, { "f", 4 }, { "q", 8 }, { "uq", 8 }, { "df", 8 }, { "tf32", 4 }, { "bf8", 1 },
   };
   for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
      if (strlen(types[i].name) == n && !strncmp(types[i].name, t, n))
         return types[i].bytes;
   return 4;
}

/* The bytes (or the acc/sr register) a register operand touches with n
 * channels: calls visit(c, slot, arg) for each.  slot points at the
 * byte's tags.  Not a register (immediate, null, -r1, (abs)r1): none. */
typedef void (*visit_fn)(uint8_t *slot, void *arg);

static void operand(counter *c, const char *tok, unsigned n, visit_fn visit, void *arg)
{
   regmatch_t m[8];
   if (regexec(&c->reg, tok, 8, m, 0))
      return;
   unsigned num = (unsigned)strtoul(tok + m[2].rm_so, NULL, 10);
   if (tok[0] != 'r') {
      if (num < SPECIAL)
         visit(tok[0] == 'a' ? &c->acc[num] : &c->sr[num], arg);
      return;
   }
   unsigned sub = m[4].rm_so >= 0 ? (unsigned)strtoul(tok + m[4].rm_so, NULL, 10) : 0;
   unsigned tb = m[7].rm_so >= 0 ? type_bytes(tok + m[7].rm_so, (size_t)(m[7].rm_eo - m[7].rm_so)) : 4;
   unsigned parts[3] = { 0 }, np = 0;
   if (m[5].rm_so >= 0)
      for (const char *p = tok + m[5].rm_so, *e = tok + m[5].rm_eo; p < e; p++)
         if (isdigit((unsigned char)*p)) {
            unsigned v = (unsigned)strtoul(p, (char **)&p, 10);
            if (np < 3)
               parts[np] = v;
            np++;
            p--;
         }
   size_t base = (size_t)num * c->grf + (size_t)sub * tb;
   for (unsigned i = 0; i < n; i++) {
      unsigned off;
      if (np == 1)
         off = i * parts[0];
      else if (np == 2)
         off = i * (parts[1] ? parts[1] : parts[0]);
      else if (np >= 3) {
         unsigned w = parts[1] ? parts[1] : 1;
         off = (i / w) * parts[0] + (i % w) * parts[2];
      } else
         off = i;
      for (unsigned b = 0; b < tb; b++) {
         size_t at = base + (size_t)off * tb + b;
         if (at < TAINT_BYTES)
            visit(&c->taint[at], arg);
      }
   }
}

static void gather(uint8_t *slot, void *arg) { *(uint8_t *)arg |= *slot; }
static void assign(uint8_t *slot, void *arg) { *slot = *(uint8_t *)arg; }
static void add(uint8_t *slot, void *arg) { *slot |= *(uint8_t *)arg; }

/* Tags of, or clearing, `count` whole GRFs from the register token tok. */
static uint8_t whole_grfs(counter *c, const char *tok, unsigned count, bool clear)
{
   regmatch_t m[3];
   uint8_t tags = 0;
   if (regexec(&c->reg, tok, 3, m, 0) || tok[0] != 'r')
      return 0;
   size_t from = (size_t)strtoul(tok + m[2].rm_so, NULL, 10) * c->grf;
   for (size_t at = from; at < from + (size_t)count * c->grf && at < TAINT_BYTES; at++) {
      tags |= c->taint[at];
      if (clear)
         c->taint[at] = 0;
   }
   return tags;
}

static bool contains(const char *s, const char *w) { return strstr(s, w) != NULL; }

static void classify(counter *c, const char *msg, uint8_t tags, xe_isa_counts *k)
{
   if (tags & TAG_ARGS)
      return; /* the prologue's argument payload */
   char low[512];
   size_t n = 0;
   for (; msg[n] && n + 1 < sizeof(low); n++)
      low[n] = (char)tolower((unsigned char)msg[n]);
   low[n] = 0;
   bool lsc = !regexec(&c->lsc, low, 0, NULL, 0);
   bool mem = lsc || contains(low, "block") || contains(low, "gather") || contains(low, "scatter") ||
              contains(low, "untyped") || contains(low, "typed") || contains(low, "atomic") ||
              contains(low, "surface") || contains(low, "scratch");
   if (!mem || !strncmp(low, "fence", 5) || !strncmp(low, "signal", 6) ||
       !strncmp(low, "end of thread", 13))
      return;
   if ((tags & TAG_PRIVATE) || contains(low, "scratch") || !regexec(&c->ss, low, 0, NULL, 0))
      k->priv++;
   else if (lsc ? contains(low, "block2d") || !regexec(&c->dsize, low, 0, NULL, 0) : contains(low, "block"))
      k->block++;
   else
      k->scattered++;
}

static bool is_divergent(const char *op, size_t n)
{
   static const char *const ops[] = { "goto", "join", "if", "else", "endif", "while", "break",
                                      "cont", "brd", "brc", "halt" };
   for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
      if (strlen(ops[i]) == n && !strncmp(ops[i], op, n))
         return true;
   return false;
}

/* Blanks [so, eo) of s (the curly-brace options, a condition modifier). */
static void blank_all(const regex_t *re, char *s)
{
   regmatch_t m;
   while (!regexec(re, s, 1, &m, 0) && m.rm_eo > m.rm_so)
      memset(s + m.rm_so, ' ', (size_t)(m.rm_eo - m.rm_so));
}

/* IGC 2.x ends the heap with nop and four `(W) mov (16|M0) null<1>:ud
 * 0x...:ud` lines (a hash of the kernel) before the illegal padding. */
static bool padding_mov(const char *s)
{
   if (strncmp(s, "(W)", 3))
      return false;
   s += 3 + strspn(s + 3, " \t");
   if (strncmp(s, "mov", 3) || !isspace((unsigned char)s[3]))
      return false;
   s += 3 + strspn(s + 3, " \t");
   if (strncmp(s, "(16|M0)", 7))
      return false;
   s += 7 + strspn(s + 7, " \t");
   if (strncmp(s, "null<1>:ud", 10))
      return false;
   s += 10 + strspn(s + 10, " \t");
   if (strncmp(s, "0x", 2))
      return false;
   s += 2 + strspn(s + 2, "0123456789abcdefABCDEF");
   if (!strncmp(s, ":ud", 3))
      s += 3;
   return !s[strspn(s, " \t")];
}

typedef struct label_pos {
   char *name;
   unsigned at, wide_at; /* instructions, and wide ones, before it */
} label_pos;

static unsigned label_find(const label_pos *l, unsigned n, const char *name, size_t len)
{
   for (unsigned i = 0; i < n; i++)
      if (strlen(l[i].name) == len && !strncmp(l[i].name, name, len))
         return i;
   return UINT32_MAX;
}

/* One instruction line (label lines are handled by the caller). */
static void instruction(counter *c, char *s, label_pos *labels, unsigned nlabels, xe_isa_counts *k)
{
   char *comment = strstr(s, "//");
   if (comment)
      *comment = 0, comment += 2;
   else
      comment = "";
   char *body = s;
   while (isspace((unsigned char)*body))
      body++;
   bool predicated = false;
   regmatch_t m[4];
   if (!regexec(&c->pred, body, 1, m, 0)) {
      predicated = !(m[0].rm_eo >= 3 && !strncmp(body, "(W)", 3) &&
                     strspn(body + 3, " \t") == (size_t)m[0].rm_eo - 3);
      body += m[0].rm_eo;
   }
   size_t blen = strlen(body);
   while (blen && isspace((unsigned char)body[blen - 1]))
      body[--blen] = 0;
   if (!*body || !strncmp(body, "illegal", 7))
      return;
   k->instructions++;
   size_t oplen = strcspn(body, " \t"), baselen = strcspn(body, ". \t");
   unsigned n = 1;
   char *rest = body + oplen;
   if (!regexec(&c->exec, body, 2, m, 0)) {
      n = (unsigned)strtoul(body + m[1].rm_so, NULL, 10);
      rest = body + m[0].rm_eo;
   }
   if (n > 16)
      k->wide++;
   if ((baselen == 4 && !strncmp(body, "call", 4)) || (baselen == 5 && !strncmp(body, "calla", 5)))
      k->calls++;
   bool divergent = is_divergent(body, baselen);
   /* A branch to a label already seen closes a loop: the instructions from
    * that label through the branch run once per iteration. */
   if (divergent || (baselen == 4 && !strncmp(body, "jmpi", 4))) {
      for (const char *p = body; !regexec(&c->label, p, 4, m, 0); p += m[2].rm_eo) {
         unsigned i = label_find(labels, nlabels, p + m[2].rm_so, (size_t)(m[2].rm_eo - m[2].rm_so));
         if (i != UINT32_MAX && k->instructions - labels[i].at > k->loop) {
            k->loop = k->instructions - labels[i].at;
            k->loop_wide = k->wide - labels[i].wide_at;
         }
      }
   }
   for (char *p = rest; (p = strchr(p, '{'));) {
      char *e = strchr(p, '}');
      if (!e)
         break;
      memset(p, ' ', (size_t)(e - p + 1));
   }
   blank_all(&c->cond, rest);
   char *toks[16];
   unsigned nt = 0;
   for (char *save = NULL, *t = strtok_r(rest, " \t", &save); t && nt < 16; t = strtok_r(NULL, " \t", &save))
      toks[nt++] = t;
   bool send = (baselen == 4 && !strncmp(body, "send", 4)) || (baselen == 5 && !strncmp(body, "sendc", 5)) ||
               (baselen == 5 && !strncmp(body, "sends", 5)) || (baselen == 6 && !strncmp(body, "sendsc", 6));
   if (send) {
      k->sends++;
      const char *msg = strchr(comment, ';');
      msg = msg ? msg + 1 : comment;
      while (isspace((unsigned char)*msg))
         msg++;
      unsigned src0_len = 1, dst_len = 1;
      if (!regexec(&c->wr, comment, 2, m, 0))
         src0_len = (unsigned)strtoul(comment + m[1].rm_so, NULL, 10);
      if (!regexec(&c->rd, comment, 2, m, 0))
         dst_len = (unsigned)strtoul(comment + m[1].rm_so, NULL, 10);
      uint8_t tags = nt >= 2 ? whole_grfs(c, toks[1], src0_len, false) : 0;
      if (nt >= 1)
         whole_grfs(c, toks[0], dst_len, true);
      classify(c, msg, tags, k);
      return;
   }
   if (!nt)
      return;
   uint8_t tags = 0;
   bool r00 = false, mask = false;
   for (unsigned i = 1; i < nt; i++) {
      if (!strncmp(toks[i], "sr0", 3))
         tags |= TAG_PRIVATE;
      operand(c, toks[i], n, gather, &tags);
      r00 |= !strncmp(toks[i], "r0.0", 4);
      mask |= !strncasecmp(toks[i], "0xFFFFFFC0", 10);
   }
   if (r00 && mask)
      tags |= TAG_ARGS;
   operand(c, toks[0], n, predicated ? add : assign, &tags);
}

bool xe_isa_count(enum xe_device d, char *text, xe_isa_counts *k)
{
   memset(k, 0, sizeof(*k));
   counter c;
   if (!counter_init(&c, d))
      return false;
   /* Lines, trimmed; the heap's trailing nop/illegal padding dropped
    * (subroutines may follow the EOT, so the cut is not at the EOT). */
   unsigned nl = 0, cap = 0;
   char **lines = NULL;
   for (char *s = text, *e; s && *s; s = e ? e + 1 : NULL) {
      if ((e = strchr(s, '\n')))
         *e = 0;
      while (isspace((unsigned char)*s))
         s++;
      size_t len = strlen(s);
      while (len && isspace((unsigned char)s[len - 1]))
         s[--len] = 0;
      if (!*s)
         continue;
      if (nl == cap) {
         cap = cap ? cap * 2 : 256;
         char **grown = realloc(lines, cap * sizeof(char *));
         if (!grown) {
            free(lines);
            counter_free(&c);
            return false;
         }
         lines = grown;
      }
      lines[nl++] = s;
   }
   while (nl && (((!strncmp(lines[nl - 1], "nop", 3) || !strncmp(lines[nl - 1], "illegal", 7)) &&
                  strcspn(lines[nl - 1], " \t") == (lines[nl - 1][0] == 'n' ? 3u : 7u)) ||
                 padding_mov(lines[nl - 1])))
      nl--;
   label_pos *labels = calloc(nl + 1, sizeof(label_pos));
   unsigned nlabels = 0;
   bool ok = labels != NULL;
   for (unsigned i = 0; ok && i < nl; i++) {
      char *s = lines[i];
      size_t len = strlen(s);
      if (len >= 3 && s[0] == 'L' && s[len - 1] == ':' && strspn(s + 1, "0123456789") == len - 2) {
         s[len - 1] = 0;
         unsigned j = label_find(labels, nlabels, s, len - 1);
         if (j == UINT32_MAX)
            j = nlabels++;
         labels[j] = (label_pos){ s, k->instructions, k->wide };
         continue;
      }
      instruction(&c, s, labels, nlabels, k);
   }
   free(labels);
   free(lines);
   counter_free(&c);
   return ok;
}

unsigned xe_isa_ptm_simd(const char *ptm, const char *kernel)
{
   size_t kl = strlen(kernel);
   const char *k = ptm;
   /* "KernelName NAME" on a line of its own (a prefix of another name is
    * not a match). */
   while ((k = strstr(k, "KernelName ")) != NULL) {
      k += strlen("KernelName ");
      if (!strncmp(k, kernel, kl) && (k[kl] == '\n' || k[kl] == '\r' || k[kl] == 0))
         break;
   }
   if (!k)
      return 0;
   const char *next = strstr(k, "KernelName ");
   const char *t = strstr(k, "Token 23\n");
   if (!t || (next && t > next))
      return 0;
   const char *h = strstr(t, "Hex ");
   if (!h || (next && h > next))
      return 0;
   h += 4;
   unsigned byte[16];
   for (int b = 0; b < 16; b++) {
      char *end;
      unsigned long v = strtoul(h, &end, 16);
      if (end == h || v > 255)
         return 0;
      byte[b] = (unsigned)v;
      h = end;
   }
   return byte[12] | byte[13] << 8 | byte[14] << 16 | byte[15] << 24;
}

/* Kernel's entry in the top-level list `section` of ocloc 26's .ze_info
 * text zi: [*from, *to), from its "- name:" to the next entry or the end
 * of the list (the next line that starts in column 0).  A name that is a
 * prefix of another, or the same name in another list, is not a match.
 * False when absent. */
static bool zeinfo_entry(const char *zi, const char *section, const char *kernel, const char **from,
                         const char **to)
{
   size_t kl = strlen(kernel), sl = strlen(section);
   const char *s = zi;
   while ((s = strstr(s, section)) && !(s[sl] == ':' && (s == zi || s[-1] == '\n')))
      s += sl;
   if (!s)
      return false;
   const char *end = s + strlen(s);
   for (const char *p = strchr(s, '\n'); p && p[1]; p = strchr(p + 1, '\n'))
      if (p[1] != ' ' && p[1] != '\t') {
         end = p;
         break;
      }
   const char *k = s;
   while ((k = strstr(k, "- name:")) != NULL && k < end) {
      k += strlen("- name:");
      k += strspn(k, " \t");
      const char *q = *k == '\'' || *k == '"' ? k++ : NULL;
      if (!strncmp(k, kernel, kl) && (q ? k[kl] == *q : (k[kl] == '\n' || k[kl] == '\r' || k[kl] == ' ' || !k[kl])))
         break;
   }
   if (!k || k >= end)
      return false;
   const char *next = strstr(k, "- name:");
   *from = k;
   *to = next && next < end ? next : end;
   return true;
}

unsigned xe_isa_zeinfo_simd(const char *zi, const char *kernel)
{
   const char *k, *next;
   if (!zeinfo_entry(zi, "kernels", kernel, &k, &next))
      return 0;
   const char *f = strstr(k, "simd_size:");
   if (!f || f > next)
      return 0;
   return (unsigned)strtoul(f + strlen("simd_size:"), NULL, 10);
}

/* The numbers after each "KEY:" line of the text [from, to), in order,
 * into v (at most max of them).  Returns how many. */
static unsigned zeinfo_fields(const char *from, const char *to, const char *key, double *v, unsigned max)
{
   unsigned n = 0;
   size_t kl = strlen(key);
   for (const char *p = from; p < to && (p = strstr(p, key)) != NULL && p < to; p += kl) {
      /* a field name, not the tail of another one (C: vs kcm_...C:) */
      if (p > from && p[-1] != ' ' && p[-1] != '-')
         continue;
      if (n < max)
         v[n] = strtod(p + kl, NULL);
      n++;
   }
   return n;
}

/* What the loops of cost entry *at's subtree add to an estimate that counts
 * each block once: each loop's cycles times (the trips of it and of the
 * loops around it, mult included) - 1.  *at moves past the subtree. */
static double zeinfo_weigh(const double *cycle, const double *nloops, unsigned ncost, const double *factor,
                           const double *argsym, const double *c, unsigned nexp, unsigned *at, double mult,
                           double trips, unsigned depth)
{
   unsigned i = (*at)++;
   if (i >= ncost || depth > 64) {
      *at = ncost + 1;
      return 0;
   }
   double sum = 0;
   if (i > 0) {
      /* loop i - 1: a constant count, or as the model assumes */
      unsigned e = i - 1;
      bool constant = e < nexp && argsym[e] < 0 && factor[e] == 0 && c[e] > 0;
      mult *= constant ? c[e] : trips;
      sum = cycle[i] * (mult - 1);
   }
   for (unsigned k = 0; k < (unsigned)nloops[i]; k++) {
      if (*at >= ncost) {
         *at = ncost + 1; /* more child loops than entries: not a tree */
         return 0;
      }
      sum += zeinfo_weigh(cycle, nloops, ncost, factor, argsym, c, nexp, at, mult, trips, depth + 1);
   }
   return sum;
}

bool xe_isa_zeinfo_loop_cycles(const char *zi, const char *kernel, double trips, double *extra)
{
   *extra = 0;
   const char *k, *next;
   if (!zeinfo_entry(zi, "kernels_cost_info", kernel, &k, &next))
      return false;
   enum { MAX = 4096 };
   double *v = malloc(5 * MAX * sizeof(double));
   if (!v)
      xe_out_of_memory();
   double *cycle = v, *nloops = v + MAX, *factor = v + 2 * MAX, *argsym = v + 3 * MAX, *c = v + 4 * MAX;
   unsigned ncost = zeinfo_fields(k, next, "cycle:", cycle, MAX);
   unsigned nl = zeinfo_fields(k, next, "num_loops:", nloops, MAX);
   unsigned nf = zeinfo_fields(k, next, "factor:", factor, MAX);
   unsigned na = zeinfo_fields(k, next, "argsym_index:", argsym, MAX);
   unsigned nc = zeinfo_fields(k, next, "C:", c, MAX);
   bool ok = false;
   /* One cost for the blocks outside loops and one per loop.  The counts
    * pair with the loops only when there is one per loop: IGC writes none
    * for some kernels (testdata histogram_private, a 256-trip loop:
    * `kcm_loop_count_exps: []`) and the same unknown counts for every
    * kernel of others (darktable's basic.spv through ocloc 26: four
    * `factor: 1, argsym_index: -1, C: 0` in each of its 60 kernels, most
    * of them without a loop).  Unpaired, every loop runs `trips` times. */
   if (ncost && ncost <= MAX && nl == ncost && nf == na && na == nc) {
      unsigned at = 0;
      *extra = zeinfo_weigh(cycle, nloops, ncost, factor, argsym, c, nf + 1 == ncost ? nf : 0, &at, 1,
                            trips, 0);
      ok = at == ncost; /* the tree covers the list */
      if (!ok)
         *extra = 0;
   }
   free(v);
   return ok;
}
