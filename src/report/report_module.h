/*
 * The report's reading of a SPIR-V module (report_module.c): the words of
 * the input and output modules as the HTML report needs them, with the
 * source locations of OpenCL.DebugInfo.100 and
 * NonSemantic.Shader.DebugInfo.100 (DebugSource, DebugLine,
 * DebugFunction) and of OpLine, which xeopt's IR does not keep.  Internal
 * to src/report/report_html.c.
 */
#ifndef XEOPT_REPORT_MODULE_H
#define XEOPT_REPORT_MODULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct rep_loc {
   uint32_t file;   /* OpString id of the file name; 0: none */
   uint32_t line;   /* 0: none */
} rep_loc;

typedef struct rep_fn {
   uint32_t id;
   unsigned first, last;     /* instruction indices of OpFunction, OpFunctionEnd */
   size_t wfirst, wend;      /* word range */
   uint32_t *calls;
   unsigned ncalls;
   uint32_t line;            /* DebugFunction's line, 0 if none */
   uint32_t file;
} rep_fn;

typedef struct rep_ep {
   uint32_t fn;
   char *name;
   size_t wfirst, wend;      /* the OpEntryPoint instruction */
} rep_ep;

typedef struct rep_module {
   uint32_t *w;
   size_t n;
   uint32_t bound;
   unsigned ninst;
   size_t *inst_word;        /* [ninst] */
   rep_loc *inst_loc;        /* [ninst] */
   char **str;               /* [bound] OpString */
   char **name;              /* [bound] first OpName */
   uint32_t *by_name;        /* the named ids, sorted by name then id */
   uint32_t nnamed;
   uint32_t *strings;        /* the OpString ids */
   uint32_t nstrings;
   size_t *modes;            /* word offsets of OpExecutionMode(Id) */
   unsigned nmodes;
   char **src_text;          /* [bound] by file string id: source text in the module */
   uint8_t *set;             /* [bound] ext inst set kind */
   uint8_t *isconst;         /* [bound] */
   uint32_t *cval;           /* [bound] */
   uint32_t *dsrc_file;      /* [bound] DebugSource id -> file string id */
   rep_loc *idloc;           /* [bound] */
   int32_t *idinst;          /* [bound] defining instruction, -1 */
   rep_fn *fns;
   unsigned nfn;
   rep_ep *eps;
   unsigned nep;
} rep_module;

/* Reads the size bytes of a module into m (zeroed first; owns a copy of
 * the words); false when they are not a SPIR-V module (SPIR-V 2.3: magic
 * number, either byte order).  Free with rep_module_free, also after
 * false. */
bool rep_module_read(rep_module *m, const void *bytes, size_t size);
void rep_module_free(rep_module *m);

/* The first index in m->by_name whose name is tok[0..n), or m->nnamed. */
uint32_t rep_name_lower_bound(const rep_module *m, const char *tok, size_t n);
/* Whether the k-th id of m->by_name is named tok[0..n). */
bool rep_name_is(const rep_module *m, uint32_t k, const char *tok, size_t n);

/* The functions a kernel runs: entry (a function id) and what it calls,
 * transitively; up to max pointers into m->fns in out.  Returns how many. */
unsigned rep_reachable(rep_module *m, uint32_t entry, rep_fn **out, unsigned max);

#endif
