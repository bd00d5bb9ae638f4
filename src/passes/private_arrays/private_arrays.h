/*
 * private-arrays, shared between its files (src/passes/private_arrays/):
 * a candidate array, what its uses are (access.c), and one entry per
 * rewrite, each in its own file.  pass.c drives them; see its header for
 * the pass as a whole.
 *
 * Every function here takes the module the array lives in; edits go
 * through the IR's edit functions, so a rewrite leaves the cached analyses
 * of the function it changed stale by itself (generation counters).
 */
#ifndef XEOPT_PRIVATE_ARRAYS_H
#define XEOPT_PRIVATE_ARRAYS_H

#include "pass.h"

/* A Function-storage array variable and its uses, filled by pa_collect.
 * The arrays are malloc'd and owned by the caller. */
typedef struct parr {
   xe_inst *var;
   uint32_t elem, len;          /* element type id, length */
   xe_inst **chains;            /* element access chains */
   unsigned nchains;
   xe_inst **casts;             /* OpBitcast of the variable */
   unsigned ncasts;
   /* Copies, one per path that makes them: a function versioned by
    * subgroup-versioning has each in both copies of its body. */
   xe_inst **zero_init;         /* OpCopyMemorySized from a zero constant */
   unsigned nzero_init;
   uint64_t zero_bytes;         /* the most bytes one of them zeroes */
   xe_inst **copy_out;          /* OpCopyMemorySized of the whole array */
   unsigned ncopy_out;
   xe_inst **dead;              /* unused casts and chains of its addresses */
   unsigned ndead;
   const char *escape;          /* why nothing can be proven, or NULL */
   xe_inst *escape_at;
} parr;

/* ---- access.c: the array's uses ---- */

/* Fills a's chains, casts, zero_init, copy_out, dead and escape from the uses of
 * a->var (var, elem and len set by the caller). */
void pa_collect(xe_module *m, parr *a);
/* The array index of an element access chain c of the variable, 0 when
 * the chain has another shape. */
uint32_t pa_chain_index(xe_module *m, xe_inst *c);
/* The constant vector component c selects after the element: -1 for the
 * whole element, INT_MAX when not a constant that fits. */
int pa_chain_comp(xe_module *m, xe_inst *c);
/* Deletes a's unused address casts and chains (a->dead); whether any. */
bool pa_drop_dead(xe_module *m, parr *a);
/* Deletes the lifetime markers on a's byte casts. */
void pa_drop_lifetimes(xe_module *m, parr *a);
/* Retypes a->var as elem[len] and records both in a. */
void pa_set_var_type(xe_module *m, parr *a, uint32_t elem, uint32_t len);
/* The variable's OpName, or "(unnamed)", for remarks. */
const char *pa_var_name(xe_module *m, parr *a);
/* The instructions of f using id, one entry per use, malloc'd (*n set). */
xe_inst **pa_local_users(xe_function *f, uint32_t id, uint32_t *n);
/* Kills id's definition (with names and decorations) when no instruction
 * in a function uses it; returns whether it did. */
bool pa_delete_if_dead(xe_module *m, uint32_t id);

/* ---- the rewrites: each returns whether it changed the module, and
 * writes a remark (r may be NULL) for kernel kn when it applies or when
 * it is the reason nothing applies. ---- */

/* length.c: every index below K < len -> elem[K]. */
bool pa_shrink_length(xe_module *m, xe_function *f, const char *kn, xe_remarks *r, parr *a);
/* The length pa_shrink_length would give, 0 for none; no remarks, no edits. */
uint32_t pa_plan_length(xe_module *m, xe_function *f, parr *a);
/* narrow.c: bounded integer elements -> a narrower integer type. */
bool pa_narrow(xe_module *m, xe_function *f, const char *kn, xe_remarks *r, parr *a);
/* The element size in bytes pa_narrow would give, 0 for none; no edits. */
uint32_t pa_plan_bytes(xe_module *m, xe_function *f, parr *a);
/* split.c: an array of vectors -> one scalar array per component. */
bool pa_split(xe_module *m, const char *kn, xe_remarks *r, parr *a);
/* Whether pa_split would apply, without remarks or edits: *comps gets the
 * vector's component count, *used a bit per component some access reads
 * or writes (a whole-vector access uses all). */
bool pa_plan_split(xe_module *m, parr *a, uint32_t *comps, uint32_t *used);
/* scalarise.c: indexed only by constants -> one scalar per element. */
bool pa_scalarise(xe_module *m, const char *kn, xe_remarks *r, parr *a);
/* drop_volatile.c: Volatile dropped from f's Function-storage accesses,
 * except those into the variables listed in keep (nkeep ids, may be NULL:
 * arrays the cost model says must stay in private memory). */
bool pa_drop_volatile(xe_module *m, xe_function *f, const char *kn, xe_remarks *r,
                      const uint32_t *keep, unsigned nkeep);
/* The Function-storage OpVariable a pointer derives from through access
 * chains, bitcasts and copies; NULL if none. */
xe_inst *pa_root_var(xe_module *m, uint32_t ptr);

#endif
