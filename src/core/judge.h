/*
 * The judge: who decides, kernel by kernel, whether a rewrite is made
 * (issue 30; docs/cost-model.md "Who judges").  One table in the pass
 * context; every pass asks it through xe_judge_devices and
 * xe_judge_rewritable, and the driver is the only writer:
 *
 *  - plain -O2: every kernel's rewrites are priced by the cost model for
 *    the --target devices (XE_JUDGE_MODEL), and the kernels the second run
 *    leaves as the front end wrote them carry their plain flags
 *    (src/driver/plain.h);
 *  - --isa-check: IGC judges.  Every kernel starts XE_JUDGE_IGC (rewritten
 *    without asking the model, the output compiled and scored afterwards);
 *    one IGC finds worse moves to XE_JUDGE_MODEL, then to
 *    XE_JUDGE_ORIGINAL (src/igc/isa_check.c).  A verdict only moves
 *    that way, so the rounds end.
 *
 * The options stay what the user gave; nothing here is an option.
 */
#ifndef XEOPT_JUDGE_H
#define XEOPT_JUDGE_H

#include "pass.h"

enum xe_verdict {
   XE_JUDGE_MODEL,      /* the passes ask the cost model for the target devices */
   XE_JUDGE_IGC,        /* rewritten without the model; IGC judges the output */
   XE_JUDGE_ORIGINAL,   /* no pass rewrites the kernel */
};

/* What the second plain run leaves out for a kernel (src/driver/plain.h). */
enum {
   XE_PLAIN_CFG = 1u << 0,    /* simplify-cfg: only folds and deletions */
   XE_PLAIN_CANON = 1u << 1,  /* canonicalize: only its repairs */
   XE_PLAIN_MERGE = 1u << 2,  /* simplify-cfg: folds, deletions and bypasses; no merges
                               * or selects */
};

typedef struct xe_judge_entry {
   char *kernel;
   enum xe_verdict verdict;
   unsigned plain;            /* XE_PLAIN_* */
   uint32_t hash;             /* of kernel, for the index */
} xe_judge_entry;

typedef struct xe_judge {
   unsigned target;           /* the model's devices (bit set of enum xe_device); 0: --target=none */
   enum xe_verdict fallback;  /* the verdict of a kernel not in the table */
   unsigned n, cap;
   xe_judge_entry *v;         /* in the order they were added */
   uint32_t *index;           /* by name hash: 1 + the entry's position in v; 0: empty */
   uint32_t index_cap;        /* a power of 2, at least twice n */
} xe_judge;

/* Every kernel at verdict `all`, priced for o's --target (every device the
 * model knows when none was given).  Free with xe_judge_free. */
void xe_judge_init(xe_judge *j, const xe_options *o, enum xe_verdict all);
void xe_judge_free(xe_judge *j);
/* A deep copy (the rounds of --isa-check try a verdict on a copy). */
void xe_judge_copy(xe_judge *dst, const xe_judge *src);

/* kernel's verdict; O(1). */
enum xe_verdict xe_judge_verdict(const xe_judge *j, const char *kernel);
void xe_judge_set(xe_judge *j, const char *kernel, enum xe_verdict v);
/* Every kernel, listed or not, at v. */
void xe_judge_set_all(xe_judge *j, enum xe_verdict v);
/* Adds XE_PLAIN_* flags to kernel's entry. */
void xe_judge_add_plain(xe_judge *j, const char *kernel, unsigned plain);
/* kernel's XE_PLAIN_* flags; 0 when j is NULL or kernel has no entry. */
unsigned xe_judge_plain(const xe_judge *j, const char *kernel);
/* How many kernels carry any of the flags in plain. */
unsigned xe_judge_count_plain(const xe_judge *j, unsigned plain);

/* What a pass asks.  ctx->judge NULL (unit tests, the interpreter's
 * repairs) is every kernel at XE_JUDGE_MODEL with ctx->options' target. */

/* The devices a rewrite of kernel (its name; may be NULL) must not make
 * slower by the cost model; 0: do not ask it (--target=none, or IGC judges
 * this kernel afterwards). */
unsigned xe_judge_devices(const xe_ctx *ctx, const char *kernel);
/* May passes rewrite kernel?  False at XE_JUDGE_ORIGINAL. */
bool xe_judge_rewritable(const xe_ctx *ctx, const char *kernel);
/* Does the judge keep any kernel's original (XE_JUDGE_ORIGINAL)? */
bool xe_judge_keeps_any(const xe_ctx *ctx);
/* For each of the nk kernels ks, whether its entry in j (may be NULL)
 * carries the flag plain: nk flags (malloc'd; the caller frees them), or
 * NULL when none does. */
bool *xe_judge_plain_flags(const xe_judge *j, unsigned plain, const xe_kernel *ks, unsigned nk);

#endif
