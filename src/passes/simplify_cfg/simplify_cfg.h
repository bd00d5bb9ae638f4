/*
 * simplify-cfg, shared between its files (src/passes/simplify_cfg/):
 * pass.c marks the kernels, runs the rewrites on each function until
 * nothing changes and writes the remarks; one file per rewrite: fold.c
 * (branches on known values, unreachable blocks), thread.c (empty-block
 * bypasses), merge.c (short-circuit chains; also the hoisting both merge.c
 * and select.c use), select.c (two-way phis to selects); ir_helpers.c the
 * pass's own IR clean-up.  See pass.c's header for the pass as a whole.
 *
 * Every rewrite edits the function c->f through the IR's edit functions,
 * so the function's cached CFG is stale after it (generation counters).
 */
#ifndef XEOPT_SIMPLIFY_CFG_H
#define XEOPT_SIMPLIFY_CFG_H

#include "pass.h"

/* Phis and variables followed for one selector (fold.c), and the largest
 * phi web deleted with it (ir_helpers.c). */
#define MAX_SEEN 64
/* Speculation limit: the second test of a chain is a compare or two
 * (merge.c; select.c for a side of a two-way phi). */
#define MAX_HOISTED 8

/* One function's run of the pass: the rewrites' switches and counts. */
typedef struct simplify {
   xe_module *m;
   xe_function *f;
   xe_remarks *r;
   /* The function's name for remarks, looked up on the first remark
    * (fname_of): most functions get none, and the lookup is a cache miss
    * per function at a few thousand kernels. */
   const char *fname;
   char fname_buf[64];
   unsigned folded, threaded, deleted, merged, selects;
   /* May every chain be merged (see pass.c's header)?  When not,
    * merge_block counts the chains into a many-compare early return it
    * leaves (kept_merges) instead of merging them. */
   bool shape;
   unsigned kept_merges;
   /* May the enabling rewrites (bypass, merge, phi-to-select) be made?
    * When not (the judge's XE_PLAIN_CFG), the function gets folds and
    * deletions only, and dry counts the enabling candidates left
    * (plain_candidates) for the remark: the rewrites then stop where they
    * would edit. */
   bool enable, dry;
   /* Without enable: may the bypasses be made (the judge's XE_PLAIN_MERGE)? */
   bool bypass;
   unsigned plain_candidates;
} simplify;

/* ---- pass.c ---- */

/* c->f's name for remarks (its OpName, else its id's text), looked up
 * once and kept in c. */
const char *scfg_fname_of(simplify *c);

/* ---- fold.c: each pass over c->f returns whether it changed it ---- */

/* Folds every branch of c->f whose outcome is known (c->folded); a switch
 * that stays gets a "missed" remark unless quiet. */
bool scfg_fold_all(simplify *c, bool quiet);
/* Deletes c->f's blocks the entry does not reach, with their phi entries
 * (c->deleted), unless a reachable instruction uses what they define. */
bool scfg_delete_unreachable(simplify *c);

/* ---- thread.c ---- */

/* Bypasses c->f's empty forwarding blocks (c->threaded); with c->dry
 * counts the candidates in c->plain_candidates instead. */
bool scfg_thread_all(simplify *c);

/* ---- merge.c ---- */

/* Merges c->f's short-circuit chains (c->merged; c->kept_merges, and
 * c->plain_candidates with c->dry, count the ones left). */
bool scfg_merge_all(simplify *c);
/* Can i run where it did not before (no side effect, no undefined
 * behaviour, no decoration but the ones scfg_hoist drops)? */
bool scfg_speculatable(xe_module *m, const xe_inst *i);
/* Moves i before pos, where it runs on every path: drops its wrap and
 * fast-math decorations, or deletes it when it is debug info. */
void scfg_hoist(xe_module *m, xe_inst *i, xe_inst *pos);

/* ---- select.c ---- */

/* Turns c->f's two-way phi branches into selects (c->selects); with
 * c->dry counts the candidates in c->plain_candidates instead. */
bool scfg_select_all(simplify *c);

/* ---- ir_helpers.c: the pass's own IR helpers ---- */

/* The block whose OpLabel is id, or NULL. */
xe_block *scfg_block_of_label(xe_module *m, uint32_t id);
/* Appends the entry (value, parent) to phi. */
void scfg_add_phi_entry(xe_inst *phi, uint32_t value, uint32_t parent);
/* The value phi takes from parent, 0 if it has no entry for it. */
uint32_t scfg_phi_value(const xe_inst *phi, uint32_t parent);
/* Is i outside every function (a name, a decoration)? */
bool scfg_is_meta(const xe_inst *i);
/* Is the memory-access mask at operand mask_op of i Volatile? */
bool scfg_volatile_access(const xe_inst *i, unsigned mask_op);
/* Is terminator t a header's (an OpSelectionMerge or OpLoopMerge before
 * it, source info aside)? */
bool scfg_has_merge(const xe_inst *t);
/* Deletes what computed the folded selector id once nothing else uses
 * it: its phi web, or its load of a slot variable and then the variable. */
void scfg_delete_dead_selector(xe_module *m, uint32_t id);

#endif
