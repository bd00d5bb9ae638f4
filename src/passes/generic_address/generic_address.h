/*
 * generic-address, shared between its files (src/passes/generic_address/):
 * pass.c drives the pass (see its header for the pass as a whole) and asks
 * the cost question (gate.c); clones.c gives helpers called with different
 * spaces a copy per combination, owners.c says which kernel runs a
 * function; infer.c chooses, per function, the values to retype, which
 * retype.c retypes and casts.c fixes the uses of (folding the casts that
 * become known).  spaces.c holds what several of them use.
 *
 * Edits go through the IR's edit functions, so use lists stay current and
 * a changed function's cached analyses go stale by themselves.
 */
#ifndef XEOPT_GENERIC_ADDRESS_H
#define XEOPT_GENERIC_ADDRESS_H

#include "address_spaces.h"
#include "builder.h"
#include "passes.h"

/* At most this many versions of one function (original included). */
#define MAX_VERSIONS 4
/* At most this many rounds of cloning, i.e. levels of nested helpers. */
#define MAX_ROUNDS 4

/* Arguments a call-site key encodes: 4 bits each (the space + 4: the
 * storage classes go up to Function, 7), the first argument the most
 * significant (collect_sites in clones.c). */
#define KEY_ARGS 15

/* ---- spaces.c: what the files share ---- */

/* The storage class's name in remarks ("other" past the three below). */
const char *ga_space_name(int s);
/* Is s one of the three spaces the generic space aliases (CrossWorkgroup,
 * Workgroup, Function)?  Only those are inferred. */
bool ga_specific(int s);
/* Can an instruction of this opcode be retyped to a specific class (casts,
 * access chains, OpCopyObject, OpSelect, OpPhi)? */
bool ga_retypable(uint16_t op);
/* The module's OpConstantNull of type, made when there is none. */
uint32_t ga_const_null(xe_module *m, uint32_t type);
/* Does the use at operand word w of u accept a pointer of any class?
 * retyped_user: u is retyped itself (then always). */
bool ga_use_accepts_specific(const xe_as_info *a, xe_inst *u, unsigned w, bool retyped_user);
/* "in F, pointer %P (line L)" for i (operand 0 the pointer) in f, into buf
 * of n bytes, for remarks. */
void ga_where(xe_module *m, xe_function *f, xe_inst *i, char *buf, size_t n);

/* ---- gate.c: the cost question ---- */

/* Is every function of m DontInline (as clang -O0 makes them)? */
bool ga_all_dont_inline(xe_module *m);
/* Does IGC keep a call here: is a called function DontInline? */
bool ga_calls_kept(xe_module *m);
/* Is every Generic pointer of m only loaded or stored through, offset,
 * cast, merged or passed to a function of the module? */
bool ga_igc_resolves_all(xe_module *m);

/* ---- owners.c: which kernel runs a function ---- */

/* own[function id] (m->bound entries, calloc'd, the caller frees): the one
 * kernel whose work-items run the function, NULL for a helper two kernels
 * reach. */
const char **ga_kernel_owners(xe_module *m, const xe_kernel *ks, unsigned nk);

/* ---- clones.c: a copy of a helper per combination of spaces ---- */

/* One call of a function being specialized, and its argument-space key. */
typedef struct call_site {
   xe_inst *call;
   uint64_t key;
   bool known;   /* some Generic argument has a specific space */
} call_site;

/* A function to specialize and its calls (sites: malloc'd, the caller
 * frees). */
typedef struct candidate {
   xe_function *f;
   bool exported;
   call_site *sites;
   unsigned nsites;
} candidate;

/* The functions to specialize (*out: malloc'd, the caller frees; sites
 * not yet collected); how many.  ps, pconf: xe_as_param_spaces's, for
 * ids below nps. */
unsigned ga_find_candidates(xe_module *m, uint32_t nps, const uint8_t *pconf, candidate **out);
/* One round of specialization over every caller in m; whether a call now
 * goes elsewhere.  drop_dont_inline: the copies lose DontInline.  Remarks
 * name the kernel that owns each helper (ks, nk). */
bool ga_specialize_calls(xe_module *m, const int *ps, uint32_t nps, const uint8_t *pconf,
                         bool drop_dont_inline, const xe_kernel *ks, unsigned nk,
                         xe_remarks *r);

/* ---- infer.c, retype.c, casts.c: one function's values ---- */

/* What the steps over one function share.  The tables are indexed by f's
 * ids through the analysis's map (ga_loc), not by id: one function costs
 * what it holds, not the module's bound. */
typedef struct ga_fn {
   xe_module *m;
   xe_function *f;
   const char *kernel;     /* the owner its remarks name, or NULL */
   const char *fname;      /* f's name, "?" without one */
   xe_remarks *r;
   xe_as_info a;           /* the spaces in f */
   uint8_t *retype;        /* [local index]: chosen for retyping */
   uint32_t *orig_type;    /* [local index]: its Generic type */
   uint32_t *alias;        /* [local index]: a root's cast to its space */
   uint32_t *ids;          /* the chosen ids, ascending (nids of them) */
   uint32_t nids;
   unsigned nretyped;
   bool progress;
} ga_fn;

/* Infers the spaces in f, retypes the values proven to hold one and folds
 * the casts that become known; whether f changed.  kernel: the kernel its
 * remarks name.  ps, nps, pconf: as for ga_find_candidates. */
bool ga_run_function(xe_module *m, xe_function *f, const char *kernel, const int *ps,
                     uint32_t nps, const uint8_t *pconf, xe_remarks *r);
/* The index of one of f's own ids in s's tables. */
uint32_t ga_loc(const ga_fn *s, uint32_t id);
/* Is id one of f's values chosen for retyping? */
bool ga_is_retyped(const ga_fn *s, uint32_t id);
/* Roots (parameters, loaded pointers) keep their Generic value; each gets
 * a cast to its proven space (s->alias) that feeds the accesses. */
void ga_retype_roots(ga_fn *s);
/* Retypes the other chosen values in place (recording s->orig_type). */
void ga_retype_values(ga_fn *s);
/* Fixes the uses of the retyped values that are not retyped themselves:
 * casts of a known value fold, other uses that need a Generic pointer get
 * one back. */
void ga_fix_uses(ga_fn *s);

#endif
