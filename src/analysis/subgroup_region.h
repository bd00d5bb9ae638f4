/*
 * Sub-group versioning's recognition (src/analysis/subgroup_region.c): for a
 * region R of a kernel body entered from a sub-group uniform block B, which
 * values can be computed at the end of B, whether R may be duplicated, and
 * which of R's global loads and stores a fast copy can make sub-group block
 * accesses whose contiguity and alignment B tests at run time.  The
 * subgroup-versioning pass (src/passes/subgroup_versioning/) builds the
 * test and the copy; its header comment describes the transformation.
 *
 * Memory: the caller allocates in_r (cfg->n bytes), empties hmemo
 * (xe_idtab_free) for each new B, and frees them, c (malloc'd by
 * xe_sgv_collect) and typical (xe_lanes_free, when set).
 */
#ifndef XEOPT_SUBGROUP_REGION_H
#define XEOPT_SUBGROUP_REGION_H

#include "cfg.h"
#include "idmap.h"
#include "lanes.h"

/* The size rule: a region of more instructions is not duplicated. */
#define XE_SGV_MAX_REGION_INSTS 2000
#define XE_SGV_MAX_HOIST_DEPTH 32
/* Uniform terms peeled off a tested index (xe_sgv_cand.uterm). */
#define XE_SGV_MAX_UTERMS 4

/* xe_sgv_hoistable's answers, memoised in hmemo. */
enum { XE_SGV_H_UNKNOWN = 0, XE_SGV_H_AVAILABLE, XE_SGV_H_REEMIT, XE_SGV_H_NO };

/* An access the fast copy makes a block access. */
typedef struct xe_sgv_cand {
   xe_inst *inst;
   uint32_t ptr, elem_type;
   bool store;
   unsigned width;      /* bits */
   uint32_t base;       /* the tested sub-group base pointer, built at B */
   xe_inst *clone;
   /* Address not computable at B (in a loop: base[uniform + i]): the
    * index i tested at B (key, mode as in xe_sgv_index_form); base is then
    * 0 and the fast copy broadcasts lane 0's address at the access. */
   uint32_t loop_key;
   int loop_mode;
   uint32_t loop_u, loop_base;   /* the uniform term and the base parameter */
   uint32_t loop_x0;             /* lane 0's value of loop_key, built at B */
   /* The lane analysis under the kernel's own SubgroupSize and LocalSize
    * (xe_sgv.declared) proves the address lane 0's plus one element per
    * lane in every full sub-group of a work-group whose local size x is
    * the declared one: no per-lane test is needed (xe_sgv_uniform_test). */
   bool proved;
   /* proved only if lane 0's 32-bit index is far enough from the wrap
    * point of its extension (1: sign-, 2: zero-extended; 0: no check):
    * base[ext(i)] with i moving by one per lane modulo 2^32, the idiom
    * `int i = get_global_id(0)`, whose extension the analysis cannot prove
    * without a promise about the global offset.  The uniform test checks
    * it (one comparison of lane 0's index). */
   int wrap_mode;
   /* The general test's split of the tested index (xe_sgv_index_form's
    * key): key == lane_key + the uniform terms (OpIAdd, or OpISub when
    * uneg, of values the same in every lane; modulo 2^width), so accesses
    * whose indices differ by uniform amounts (a stencil's i - w, i, i + 1)
    * share one per-lane test of lane_key; each adds only uniform checks.
    * lane_key 0: no split (loop forms, or nothing to peel). */
   uint32_t lane_key;
   uint32_t uterm[XE_SGV_MAX_UTERMS];
   bool uneg[XE_SGV_MAX_UTERMS];
   unsigned nuterm;
   /* Every peeled OpIAdd/OpISub carries the no-wrap decoration of the
    * key's extension (NoSignedWrap for a sign extension, NoUnsignedWrap
    * for a zero extension): every lane of the fast copy runs them (they
    * dominate the access, in a block all lanes take together), so the
    * key is lane 0's plus k exactly when the lane key is, and only the
    * lane key needs the wrap check. */
   bool terms_nowrap;
} xe_sgv_cand;

typedef struct xe_sgv {
   xe_module *m;
   xe_kernel *k;
   xe_function *f;      /* k's body */
   const xe_cfg *cfg;
   uint8_t *in_r;       /* by CFG index */
   uint32_t b;          /* CFG index of B */
   bool no_guard;       /* B is the entry, split after its variables */
   xe_idtab hmemo;      /* by id (sparse: tables of the module's bound per kernel
                           and candidate made the pass quadratic) */
   xe_idtab emitted;    /* by id: the id hoisted to B (the pass's) */
   xe_inst *at;         /* hoisted code goes before this (the pass's) */
   xe_sgv_cand *c;
   unsigned nc;
   /* The kernel declares SubgroupSize S and LocalSize L with L.x a
    * multiple of S, and the lane facts given to xe_sgv_collect were
    * computed with them (the caller sets it). */
   bool declared;
   /* The lanes as in a typical launch (sub-group 16, local size 16x1x1,
    * offset a multiple of 16), where lane k's global id x is lane 0's plus
    * k: an access whose address is not one element per lane there fails the
    * run-time test in nearly every launch (in[i * 64 + k]), so a fast copy
    * for it would be dead code.  Used only to drop candidates; computed
    * when a candidate's own fact is not enough (lanes_typical). */
   xe_lanes *typical;
} xe_sgv;

/* Told about an access of R that stays per-lane, and why (static text). */
typedef void (*xe_sgv_missed_fn)(void *arg, bool store, uint32_t ptr, const char *why);

/* Can id be computed at the end of B?  XE_SGV_H_AVAILABLE (defined there),
 * XE_SGV_H_REEMIT (pure operations on such values, re-emitted at B) or
 * XE_SGV_H_NO; depth: 0 for callers. */
int xe_sgv_hoistable(xe_sgv *c, uint32_t id, unsigned depth);
/* Why R (in_r) cannot be duplicated (barrier, call, work-group copy or
 * collective, the size rule), or NULL; the text is static or why. */
const char *xe_sgv_region_why(xe_sgv *c, char *why, size_t n);
/* Appends R's candidate accesses to c->c under the lane facts l (those of
 * the edge B -> H, or the body's without a guard); missed (may be NULL)
 * hears about the others. */
void xe_sgv_collect(xe_sgv *c, const xe_lanes *l, xe_sgv_missed_fn missed, void *arg);
/* Is a's address base[idx] (OpPtrAccessChain with one index) with base
 * the same in every lane and elements of the access's size?  Then *key is
 * the index to test: idx itself (64-bit, *mode 0) or the 32-bit value it
 * sign- (*mode 1) or zero-extends (*mode 2). */
bool xe_sgv_index_form(xe_sgv *c, const xe_sgv_cand *a, uint32_t *base, uint32_t *key,
                       int *mode);
/* The index the general test compares lane by lane for a: a loop form's
 * key (*mode its loop_mode, *base 0) or xe_sgv_index_form's; false when
 * a has neither.  *lane_key: the value whose per-lane comparison covers
 * it, a->lane_key when uniform terms were peeled off (never for a loop
 * form), else *key. */
bool xe_sgv_tested_key(xe_sgv *c, const xe_sgv_cand *a, uint32_t *base, uint32_t *key, int *mode,
                       uint32_t *lane_key);
/* The cost model's count of the general test's per-lane checks: one per
 * access (accesses with the same key count one each, as the fit of
 * version_access did) except those whose key only adds uniform terms to
 * the lane key of an earlier access with another key: *shared gets those,
 * *wraps those of them that need a wrap check of their own (32-bit index,
 * terms without the no-wrap promise). */
unsigned xe_sgv_lane_tests(xe_sgv *c, unsigned *shared, unsigned *wraps);
/* Can the test be the uniform one: every candidate proved (none in a
 * loop form), so the sub-group needs no per-lane comparison, only that its
 * work-group is full in x, that each lane-0 base is aligned and that the
 * guard holds in every lane (docs/cost-model.md, "Versioning")? */
bool xe_sgv_uniform_test(const xe_sgv *c);
/* Does a's own Aligned memory operand already give lane 0's address the
 * alignment its block access needs (4 bytes for reads, 16 for writes)?
 * Every lane runs the access whenever the fast copy runs its block form
 * (a uniform block), lane 0 included, so the operand's promise holds for
 * the base and the test need not check it. */
bool xe_sgv_align_known(const xe_sgv_cand *a);
/* The checks the uniform test makes: alignment for candidates without
 * xe_sgv_align_known, and wrap_mode checks (what the cost model charges
 * version_uaccess for). */
unsigned xe_sgv_uniform_checks(const xe_sgv *c);
/* Candidate q shares the lane-0 base of an earlier candidate with the same
 * address and direction, when there is one. */
bool xe_sgv_reuse_base(xe_sgv *c, unsigned q);

#endif
