/*
 * The parts of the HTML report's page (docs/report.md), internal to
 * src/report/: report_html.c puts them together.  By file:
 *   html.c          the text builder (a growing string, HTML escaping,
 *                   anchors) and the box a remark is shown in;
 *   source.c        a kernel's source text (from the module or from disk)
 *                   and where a remark goes in it;
 *   requirements.c  the host requirements of a manifest entry;
 *   isa_figures.c   --isa-check's figures of a kernel;
 *   kernel.c        one kernel's section (remarks beside its source or its
 *                   disassembly, requirements, figures);
 *   summary.c       the tables at the top (per device, per kernel) and the
 *                   passes of each run of the pipeline.
 * Everything taken from the module or the remarks is written escaped.
 * Out of memory ends in xe_out_of_memory (io.h), as elsewhere.
 */
#ifndef XEOPT_REPORT_PAGE_H
#define XEOPT_REPORT_PAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "driver.h"
#include "report_module.h"

struct cJSON;

/* ---- text (html.c) ---- */

/* A growing string: s is NUL-terminated and malloc'd (NULL while nothing
 * was put); the owner frees s.  Start with sb b = { 0 }. */
typedef struct sb {
   char *s;
   size_t n, cap;
} sb;

/* Appends s[0..n), s as it is. */
void rep_sb_put(sb *b, const char *s, size_t n);
/* Appends the string s, as it is (markup). */
void rep_sb_str(sb *b, const char *s);
/* Appends printf's text of fmt: the arguments are not escaped. */
void rep_sb_fmt(sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends s HTML-escaped (nothing for NULL): tabs as four spaces, other
 * control characters but line breaks as U+FFFD. */
void rep_sb_esc(sb *b, const char *s);
/* Appends "k-" and kernel as an HTML id: letters, digits, '-' and '_'
 * as they are, any other byte as ".hh". */
void rep_sb_anchor(sb *b, const char *kernel);
/* Appends the box of remark x: its kind, pass, where (NULL: none) and
 * message. */
void rep_remark_html(sb *b, const xe_remark_entry *x, const char *where);

/* ---- source text and where remarks go (source.c) ---- */

typedef struct srcfile {
   char *text;       /* NULL: not available */
   const char **lines;
   unsigned nlines;
   const char *how;  /* "embedded in the module", "read from PATH" */
   char *path_read;
} srcfile;

/* The text of file string id file of m, split into lines: the module's
 * copy (DebugSource, OpSource), else the file on disk as named, else
 * beside input_path (may be NULL).  s->text is NULL when none is found.
 * Free with rep_srcfile_free. */
void rep_load_source(srcfile *s, const rep_module *m, uint32_t file, const char *input_path);
void rep_srcfile_free(srcfile *s);
/* The part of path p after its last '/' (p itself when none). */
const char *rep_base_name(const char *p);

/* A remark and where it goes. */
typedef struct placed {
   const xe_remark_entry *r;
   rep_loc at;              /* line 0: no line */
   int32_t inst;        /* instruction of the id named, -1 */
} placed;

/* Is instruction inst within one of the nf functions fs? */
bool rep_in_fns(rep_fn *const *fs, unsigned nf, int32_t inst);
/* Where remark x goes in the kernel whose functions are fs: the
 * "FILE:LINE" its message names, else the line of the first "%N" (or
 * "%name") it names that has one, else a block it names by OpName; inst
 * is the instruction of the first id named (for the disassembly). */
placed rep_place(const rep_module *m, const xe_remark_entry *x, rep_fn *const *fs, unsigned nf);

/* ---- host requirements (requirements.c) ---- */

/* Member k of o as a string: a string member, or an object's "text" (a
 * formula); NULL otherwise. */
const char *rep_jstr(const struct cJSON *o, const char *k);
/* Member k of o as a number; def when it is not one. */
double rep_jnum(const struct cJSON *o, const char *k, double def);
/* One requirement e of section section ("padding", "spec_constants", ...)
 * as a list item: in words where the kind is known, member by member
 * otherwise, with the raw JSON folded beside it. */
void rep_requirement_html(sb *b, const char *section, const struct cJSON *e);
/* How many requirements a kernel's manifest entry k lists. */
unsigned rep_requirements_count(const struct cJSON *k);

/* ---- ISA figures (isa_figures.c) ---- */

/* Is x one of --isa-check's verdicts, with figures (XE_DECISION_ISA_*)?
 * Only XE_DECISION_ISA_KEPT's describe the code written; the others
 * describe an output the check discarded (the kernel was rewritten again,
 * or its original kept) or compare two candidates (the probe). */
bool rep_isa_verdict(const xe_remark_entry *x);
/* The ISA figures of kernel kidx (rk: each remark of rs's kernel index):
 * the written result first, then each discarded attempt, labelled so.
 * Nothing when the kernel has none. */
void rep_isa_section(sb *b, const xe_remarks *rs, const int *rk, int kidx);

/* ---- kernels (kernel.c) ---- */

/* A kernel of the input, as the page shows it. */
typedef struct kinfo {
   int idx;                    /* its entry point's index in the input */
   const char *name;
   uint32_t entry;             /* its entry function's id */
   bool changed;               /* the output's code differs */
   unsigned applied, missed, notes;
   const struct cJSON *mf;     /* its manifest entry; NULL when none */
} kinfo;

/* The input's disassembly, made once for all the kernels without source
 * lines (zeroed at first; the owner frees text and lines). */
typedef struct dis_cache {
   bool tried;
   char **lines;
   unsigned n;
   char *text;
} dis_cache;

/* The section of kernel ki of input m: its remarks (rs; rk: each one's
 * kernel index) beside its source lines, or the disassembly (dc), else as
 * a list; its host requirements; its ISA figures.  input_path as for
 * rep_load_source. */
void rep_kernel_section(sb *b, rep_module *m, const kinfo *ki, const xe_remarks *rs, const int *rk,
                        const char *input_path, dis_cache *dc);

/* ---- summaries (summary.c) ---- */

/* The "Per device" table of result r for the input[0..size): per device
 * checked (--isa-check) or targeted, the kernels rewritten and kept and
 * the estimate of the rewritten ones before and after (IGC's, else the
 * cost model's, which reads both modules again). */
void rep_device_summary(sb *b, const xeopt_result *r, const void *input, size_t size,
                        const kinfo *ks, unsigned nk, const int *rk);
/* The "Summary" table of the nk kernels ks (nchanged of them changed):
 * per kernel, applied and missed counts, the distinct reasons refused
 * per pass, and its host requirements' count. */
void rep_kernels_summary(sb *b, const kinfo *ks, unsigned nk, unsigned nchanged,
                         const xe_remarks *rs, const int *rk);
/* The passes of each run of the pipeline (the report's "passes" array,
 * pipeline.h: xe_report_label_run): the written run's first, the others
 * folded.  Nothing when passes is empty or NULL. */
void rep_passes_html(sb *b, const struct cJSON *passes);

#endif
