/*
 * Bounds-check guards: `if (i < n)` on the work-item ids, recognised as
 * compares of an increasing affine expression with a uniform bound, and
 * the proofs that the work-items the guard excludes may run the guarded
 * region too (they write only padding or repeat an included item's
 * stores), given padded buffers in distinct allocations.  The padding pass
 * removes the guards that pass; bounds_guard.c describes the proofs.
 *
 * Memory: a guard owns its region (xe_region_free(&g->reg)); the affine
 * expressions its leaves point to belong to the context's xe_affine_ctx.
 * Strings returned are malloc'd and the caller's.
 */
#ifndef XEOPT_BOUNDS_GUARD_H
#define XEOPT_BOUNDS_GUARD_H

#include "affine.h"
#include "cfg.h"
#include "region.h"

#define XE_GUARD_MAX_LEAF 4

/* A bounds-check compare: `expr < bound` in the in-bounds direction. */
typedef struct xe_guard_leaf {
   const xe_affine *expr, *bound;
   const char *op;             /* "<" or "<=", static */
} xe_guard_leaf;

typedef struct xe_guard {
   xe_block *b;                /* the block ending in the guard */
   unsigned nleaf;
   xe_guard_leaf leaves[XE_GUARD_MAX_LEAF];
   /* in = the in-bounds successor, out = the other one (the merge J);
    * why says why the guard must stay */
   xe_region reg;
   const char *proof;          /* "disjoint" / "same_index" */
   bool in_when_true;          /* the guard branches in bounds when cond is true */
   uint32_t cond;              /* the guard's condition */
   /* Narrowing: the guard stays on the edge split -> split_to (a part of
    * the region with effects the excluded items must not have). */
   xe_block *split, *split_to;
   char split_why[256];
} xe_guard;

/* The kernel body the guards are in, set by the caller. */
typedef struct xe_guard_ctx {
   xe_module *m;
   xe_function *f;             /* the kernel body */
   const xe_cfg *cfg;          /* f's CFG, current */
   xe_affine_ctx *aff;         /* affine ids of f */
   unsigned nparams;
   const char **names;         /* argument names */
   uint32_t *param_ids;        /* f's parameters */
} xe_guard_ctx;

/* Parses the guard condition id into g's leaves (depth: 0 for the caller,
 * the recursion's limit); *in_when_true tells which branch is in bounds.
 * False when id is not a bounds check of the recognised shape. */
bool xe_guard_parse_cond(xe_guard_ctx *c, uint32_t id, xe_guard *g, bool *in_when_true,
                         int depth);
/* A compare of an increasing affine expression of the ids with a value
 * loaded from kernel memory (a parameter, or constant indices into one:
 * hashcat's `gid >= kernel_param->gid_max`): a bounds check whose bound
 * the affine analysis cannot name, so xe_guard_parse_cond refuses it.
 * Returns the condition as text for a remark ("get_global_id(0) <
 * load(%gid_max)", in-bounds direction, malloc'd), or NULL when id is not such a compare. */
char *xe_guard_loaded_bound(xe_guard_ctx *c, uint32_t id);
/* The condition as text, malloc'd: "x < n && y < m" with
 * XE_AFF_SPELL_SHORT (the manifest's), "get_global_id(0) < n && ..." with
 * XE_AFF_SPELL_OPENCL (remarks). */
char *xe_guard_text(xe_guard_ctx *c, const xe_guard *g, xe_aff_spelling sp);
/* The source position of the guard's branch (file without its folder);
 * false when it has no OpLine. */
bool xe_guard_line(xe_guard_ctx *c, const xe_guard *g, const char **file, uint32_t *line);
/* Collects the region g->reg.in .. g->reg.out (set by the caller) and runs
 * the proofs, narrowing when the whole region fails.  True with g->proof
 * set when one holds; false with the reason in g->reg.why. */
bool xe_guard_analyze(xe_guard_ctx *c, xe_guard *g);

#endif
