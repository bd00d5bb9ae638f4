/*
 * generic-address: give Generic pointers the storage class they really hold.
 *
 * Guide: REWRITES.md section 5 (seed opencl20-generic-address-space).  Every
 * access through a Generic pointer costs IGC a run-time check of the address
 * range unless it can resolve the space.  Where src/address_spaces.c proves
 * that only one storage class reaches a Generic value, the value and the
 * chain that builds it (access chains, bitcasts, OpPhi, OpSelect) are
 * retyped to that class, OpPtrCastToGeneric becomes a same-class bitcast,
 * and OpGenericCastToPtr[Explicit] of a known value folds (to the pointer,
 * or to null when to_global()/to_local()/to_private() asks another class).
 *
 * Preconditions proved: the one-space fact for each retyped value; uses that
 * need a Generic operand (calls, stores of the pointer, OpReturnValue, ...)
 * get a fresh OpPtrCastToGeneric, so they see the same pointer as before.
 * Helpers called with different spaces are cloned per combination (at
 * most MAX_VERSIONS, each copy named for it: `f.CrossWorkgroup.Workgroup`);
 * an exported helper (LinkageAttributes Export) stays as
 * it is, since other modules may call it with any space, and the calls in
 * this module go to internal copies.
 * Not done (remarked): values two spaces reach; pointers loaded from
 * memory other than a private slot that never escapes.
 * Remarks on a helper name the kernel that runs it, when only one does.
 * Cost: where no call is DontInline and generic pointers are only loaded
 * or stored through, IGC inlines every call and resolves these spaces
 * itself, so a kernel whose model is asked is left to IGC (a note says
 * so; xeopt_pass_generic_address).
 * Host contract: unchanged.
 */
#include <stdio.h>
#include <stdlib.h>

#include "address_spaces.h"
#include "builder.h"
#include "passes.h"

static const char *space_name(int s)
{
   switch (s) {
   case SpvStorageClassCrossWorkgroup: return "CrossWorkgroup";
   case SpvStorageClassWorkgroup: return "Workgroup";
   case SpvStorageClassFunction: return "Function";
   default: return "other";
   }
}

static bool retypable(uint16_t op)
{
   switch (op) {
   case SpvOpPtrCastToGeneric: case SpvOpAccessChain: case SpvOpInBoundsAccessChain:
   case SpvOpPtrAccessChain: case SpvOpInBoundsPtrAccessChain: case SpvOpBitcast:
   case SpvOpCopyObject: case SpvOpSelect: case SpvOpPhi:
      return true;
   default:
      return false;
   }
}

/* Only the three spaces that the generic space aliases are inferred. */
static bool specific(int s)
{
   return s == SpvStorageClassCrossWorkgroup || s == SpvStorageClassWorkgroup ||
          s == SpvStorageClassFunction;
}

static uint32_t const_null(xe_module *m, uint32_t type)
{
   xe_foreach_inst(g, &m->sec[XE_SEC_GLOBAL])
      if (g->opcode == SpvOpConstantNull && g->type_id == type)
         return g->result_id;
   return xe_global_append(m, SpvOpConstantNull, type, 0, NULL, NULL);
}

/* Does the use at operand word w of user accept a pointer of any class? */
static bool use_accepts_specific(const xe_as_info *a, xe_inst *u, unsigned w, bool retyped_user)
{
   if (retyped_user)
      return true;
   unsigned k = w - u->first_op;
   switch (u->opcode) {
   case SpvOpLoad: return k == 0;
   case SpvOpStore: return k == 0;
   case SpvOpConvertPtrToU: return true;
   case SpvOpAtomicLoad: case SpvOpAtomicStore: case SpvOpAtomicExchange:
   case SpvOpAtomicCompareExchange: case SpvOpAtomicIIncrement: case SpvOpAtomicIDecrement:
   case SpvOpAtomicIAdd: case SpvOpAtomicISub: case SpvOpAtomicSMin: case SpvOpAtomicUMin:
   case SpvOpAtomicSMax: case SpvOpAtomicUMax: case SpvOpAtomicAnd: case SpvOpAtomicOr:
   case SpvOpAtomicXor:
      return k == 0;
   default:
      (void)a;
      return false;
   }
}


/* At most this many versions of one function (original included). */
#define MAX_VERSIONS 4
/* At most this many rounds of cloning, i.e. levels of nested helpers. */
#define MAX_ROUNDS 4

/* Arguments a call-site key encodes: 4 bits each (the space + 4: the
 * storage classes go up to Function, 7), the first argument the most
 * significant (collect_sites). */
#define KEY_ARGS 15

/* A copy of f with fresh ids, appended to the module, named for the
 * spaces of its Generic arguments at the calls it serves (key, of a call
 * with nargs arguments): `copy.CrossWorkgroup.Workgroup`.  The name says
 * what the copy is for and is the same whichever ids the producer gave:
 * remarks that name the copy (simplify-cfg's) then compare across front
 * ends. */
static xe_function *clone_function(xe_module *m, xe_function *f, uint64_t key, unsigned nargs)
{
   xe_function *nf = xe_function_clone(m, f);
   const char *n = xe_name(m, xe_function_id(f));
   if (n) {
      char buf[256];
      int l = snprintf(buf, sizeof buf, "%s", n);
      if (nargs > KEY_ARGS)
         nargs = KEY_ARGS;
      for (unsigned k = 0; k < nargs && l > 0 && (size_t)l < sizeof buf; k++) {
         int sp = (int)((key >> (4 * (nargs - 1 - k))) & 15) - 4;
         if (sp == -3)
            continue;   /* not a Generic pointer */
         l += snprintf(buf + l, sizeof buf - (size_t)l, ".%s",
                       specific(sp) ? space_name(sp) : "Generic");
      }
      xe_set_name(m, xe_function_id(nf), buf);
   }
   return nf;
}

/* One call of a function being specialized, and its argument-space key. */
typedef struct call_site {
   xe_inst *call;
   uint64_t key;
   bool known;   /* some Generic argument has a specific space */
} call_site;

typedef struct candidate {
   xe_function *f;
   bool exported;
   call_site *sites;
   unsigned nsites;
} candidate;

/* Which functions to specialize: those whose Generic parameters get
 * different spaces from different call sites and, since other modules may
 * call them with anything, exported ones with Generic parameters. */
static unsigned find_candidates(xe_module *m, uint32_t nps, const uint8_t *pconf, candidate **out)
{
   unsigned n = 0;
   candidate *c = NULL;
   xe_foreach_fn(f, m) {
      bool conflicted = false, generic = false;
      xe_foreach_inst(p, &f->params) {
         if (p->result_id && p->result_id < nps && pconf[p->result_id])
            conflicted = true;
         generic |= xe_is_generic_ptr_type(m, p->type_id);
      }
      bool exported = generic && xe_function_callers(m, f) && xe_is_exported(m, xe_function_id(f));
      if ((!conflicted && !exported) || !f->first)
         continue;
      c = realloc(c, (n + 1) * sizeof(*c));
      c[n++] = (candidate){ .f = f, .exported = exported };
   }
   *out = c;
   return n;
}

/* Records the calls of candidates in caller, analysing it once. */
static void collect_sites(xe_module *m, xe_function *caller, const int *ps, uint32_t nps,
                          candidate *cs, const uint32_t *cand_of, uint32_t ncand_of)
{
   xe_as_info a = { 0 };
   xe_foreach_block(b, caller) {
      xe_foreach_inst(i, &b->insts) {
         if (i->opcode != SpvOpFunctionCall || xe_op(i, 0) >= ncand_of || !cand_of[xe_op(i, 0)])
            continue;
         if (!a.space)
            xe_as_analyze(m, caller, ps, nps, &a);
         candidate *c = &cs[cand_of[xe_op(i, 0)] - 1];
         call_site s = { .call = i };
         for (unsigned k = 1; k < xe_nops(i) && k <= KEY_ARGS; k++) {
            uint32_t arg = xe_op(i, k);
            int sp = arg < a.n && xe_def(m, arg) && xe_is_generic_ptr_type(m, xe_def(m, arg)->type_id)
                        ? xe_as_space(&a, arg) : -3;
            s.known |= specific(sp);
            s.key = s.key * 16 + (uint64_t)(sp + 4);
         }
         c->sites = realloc(c->sites, (c->nsites + 1) * sizeof(call_site));
         c->sites[c->nsites++] = s;
      }
   }
   if (a.space)
      xe_as_free(&a);
}

/* clang -O0 marks every function DontInline (its optnone needs noinline),
 * so in such a module the hint is not the author's: the copies, each
 * called from one combination of spaces, are left to IGC to inline.  Where
 * only some functions are DontInline, the copies keep the request. */
static bool all_dont_inline(xe_module *m)
{
   xe_foreach_fn(f, m)
      if (f->first && !(xe_op(f->def, 0) & SpvFunctionControlDontInlineMask))
         return false;
   return true;
}

/* Does IGC keep a call here: is a called function DontInline?  Without
 * one, IGC inlines every call and resolves each space this pass can prove
 * itself. */
static bool calls_kept(xe_module *m)
{
   xe_foreach_fn(f, m)
      if (f->first && (xe_op(f->def, 0) & SpvFunctionControlDontInlineMask) &&
          xe_function_callers(m, f))
         return true;
   return false;
}

/* Is every Generic pointer here only loaded or stored through, offset,
 * cast, merged (OpPhi, OpSelect) or passed to a function of the module?
 * Then IGC, once it has inlined the calls, resolves each space itself
 * (measured: testdata's generic_address_O2).  Past that (copies, atomics,
 * built-ins, a pointer stored as a value) the pass runs as before the
 * gate: dpnp's HistWithLocalCopies, which copies a SYCL range out of its
 * Generic `this` (OpCopyMemorySized) and loads through it, compiles 9
 * instructions shorter on every device under IGC 2.40 when retyped (an
 * empty loop of 6 divergent branches gone). */
static bool igc_resolves_all(xe_module *m)
{
   xe_foreach_fn(f, m) {
      xe_foreach_block(b, f) {
         xe_foreach_inst(i, &b->insts) {
            /* A DebugValue of a pointer is no use of it; an OpLine's
             * column is no id (-g, column 23 and %23 Generic, made the
             * gate miss). */
            if (xe_inst_is_source_info(m, i))
               continue;
            for (unsigned k = 0; k < xe_nops(i); k++) {
               if (xe_op_kind(i, k) != XE_W_ID)
                  continue;
               xe_inst *d = xe_def(m, xe_op(i, k));
               if (!d || !d->type_id || !xe_is_generic_ptr_type(m, d->type_id))
                  continue;
               switch (i->opcode) {
               case SpvOpStore:
                  if (k != 0)
                     return false; /* the pointer itself is stored */
                  break;
               case SpvOpFunctionCall: {
                  xe_function *callee = xe_function_by_id(m, xe_op(i, 0));
                  if (!callee || !callee->first)
                     return false; /* an import */
                  break;
               }
               case SpvOpLoad: case SpvOpAccessChain: case SpvOpInBoundsAccessChain:
               case SpvOpPtrAccessChain: case SpvOpInBoundsPtrAccessChain: case SpvOpBitcast:
               case SpvOpCopyObject: case SpvOpPhi: case SpvOpSelect:
               case SpvOpGenericCastToPtr: case SpvOpGenericCastToPtrExplicit:
               case SpvOpReturnValue: case SpvOpLifetimeStart: case SpvOpLifetimeStop:
               case SpvOpConvertPtrToU: case SpvOpPtrEqual: case SpvOpPtrNotEqual:
               case SpvOpPtrDiff:
                  break;
               default:
                  return false;
               }
            }
         }
      }
   }
   return true;
}

/* Gives each combination of argument spaces among c's calls its own
 * version (the original serves the first, unless exported). */
static bool version_calls(xe_module *m, candidate *c, bool drop_dont_inline, const char *owner,
                          xe_remarks *r)
{
   bool progress = false;
   uint64_t keys[MAX_VERSIONS];
   xe_function *versions[MAX_VERSIONS];
   unsigned nv = 0;
   bool too_many = false;
   for (unsigned k = 0; k < c->nsites; k++) {
      call_site *s = &c->sites[k];
      /* A copy would know no more than the exported original. */
      if (c->exported && !s->known)
         continue;
      unsigned v = 0;
      while (v < nv && keys[v] != s->key)
         v++;
      if (v == nv) {
         if (nv == MAX_VERSIONS - (unsigned)c->exported) {
            too_many = true;
            continue;
         }
         keys[nv] = s->key;
         versions[nv] = nv || c->exported ? clone_function(m, c->f, s->key, xe_nops(s->call) - 1)
                                          : c->f;
         if (versions[nv] != c->f && drop_dont_inline)
            xe_set_op(versions[nv]->def, 0,
                      xe_op(versions[nv]->def, 0) & ~(uint32_t)SpvFunctionControlDontInlineMask);
         nv++;
      }
      if (versions[v] != c->f) {
         xe_set_op(s->call, 0, xe_function_id(versions[v]));
         progress = true;
      }
   }
   const char *fn = xe_name(m, xe_function_id(c->f));
   if (c->exported && nv)
      xe_remark(r, owner, XE_REMARK_APPLIED,
                "%s is exported, so it stays as it is for other modules; its calls here go to %u "
                "internal %s",
                fn ? fn : "?", nv,
                nv == 1 ? "copy" : "copies, one per combination of argument address spaces");
   else if (nv > 1)
      xe_remark(r, owner, XE_REMARK_APPLIED,
                "%s cloned into %u versions, one per combination of argument address spaces",
                fn ? fn : "?", nv);
   if (too_many)
      xe_remark(r, owner, XE_REMARK_MISSED,
                "%s: more than %u combinations of argument address spaces, the rest stay generic",
                fn ? fn : "?", MAX_VERSIONS);
   return progress;
}

static const char **kernel_owners(xe_module *m, const xe_kernel *ks, unsigned nk);

/* One round of specialization: each caller is analysed once, then each
 * candidate's calls are versioned.  Copies made here are callers in the
 * next round.  Returns whether a call now goes elsewhere. */
static bool specialize_calls(xe_module *m, const int *ps, uint32_t nps, const uint8_t *pconf,
                             bool drop_dont_inline, const xe_kernel *ks, unsigned nk,
                             xe_remarks *r)
{
   candidate *cs;
   unsigned nc = find_candidates(m, nps, pconf, &cs);
   if (!nc)
      return false;
   uint32_t ncand_of = m->bound;
   uint32_t *cand_of = calloc(ncand_of, sizeof(uint32_t));
   for (unsigned k = 0; k < nc; k++)
      cand_of[xe_function_id(cs[k].f)] = k + 1;
   xe_foreach_fn(caller, m)
      if (caller->first)
         collect_sites(m, caller, ps, nps, cs, cand_of, ncand_of);
   bool progress = false;
   uint32_t nown = m->bound;
   const char **own = kernel_owners(m, ks, nk);
   for (unsigned k = 0; k < nc; k++) {
      uint32_t id = xe_function_id(cs[k].f);
      progress |= version_calls(m, &cs[k], drop_dont_inline, id < nown ? own[id] : NULL, r);
      free(cs[k].sites);
   }
   free(own);
   free(cand_of);
   free(cs);
   return progress;
}

/* kernel_name[function id]: the kernel a function is the entry point or
 * body of, NULL for helpers (an array, so many kernels stay linear). */
static const char **kernel_names(xe_module *m, const xe_kernel *ks, unsigned nk)
{
   const char **names = calloc(m->bound, sizeof(char *));
   if (!names)
      xe_out_of_memory();
   for (unsigned k = nk; k-- > 0;) {
      if (ks[k].body)
         names[xe_function_id(ks[k].body)] = ks[k].name;
      if (ks[k].fn)
         names[xe_function_id(ks[k].fn)] = ks[k].name;
   }
   return names;
}

/* owner[function id]: the one kernel whose work-items run the function:
 * its entry point or body, or a helper that only that kernel's body
 * reaches through calls; NULL for a helper two kernels reach.  A helper's
 * remarks name that kernel, as they would had the front end inlined the
 * helper (clang 15 inlines where ocloc keeps the call): the kernel's code
 * is what changed. */
static const char **kernel_owners(xe_module *m, const xe_kernel *ks, unsigned nk)
{
   uint32_t n = m->bound;
   const char **own = calloc(n, sizeof(char *));
   uint8_t *shared = calloc(n, 1);
   unsigned *seen = calloc(n, sizeof(unsigned));
   xe_function **stack = NULL;
   unsigned depth = 0, cap = 0;
   if (!own || !shared || !seen)
      xe_out_of_memory();
   for (unsigned k = 0; k < nk; k++) {
      xe_function *roots[2] = { ks[k].body, ks[k].fn };
      for (unsigned q = 0; q < 2; q++) {
         if (!roots[q])
            continue;
         if (depth == cap) {
            cap = cap ? 2 * cap : 16;
            stack = realloc(stack, cap * sizeof(*stack));
         }
         stack[depth++] = roots[q];
      }
      while (depth) {
         xe_function *f = stack[--depth];
         uint32_t id = xe_function_id(f);
         if (id >= n || seen[id] == k + 1)
            continue;
         seen[id] = k + 1;
         if (own[id] && own[id] != ks[k].name)
            shared[id] = 1;
         own[id] = ks[k].name;
         xe_foreach_block(b, f) {
            xe_foreach_inst(i, &b->insts) {
               if (i->opcode != SpvOpFunctionCall)
                  continue;
               xe_function *g = xe_function_by_id(m, xe_op(i, 0));
               if (!g || !g->first)
                  continue;
               if (depth == cap) {
                  cap = cap ? 2 * cap : 16;
                  stack = realloc(stack, cap * sizeof(*stack));
               }
               stack[depth++] = g;
            }
         }
      }
   }
   for (uint32_t id = 0; id < n; id++)
      if (shared[id])
         own[id] = NULL;
   /* A kernel's own functions are its own, even when another kernel
    * calls its entry point. */
   for (unsigned k = nk; k-- > 0;) {
      if (ks[k].body)
         own[xe_function_id(ks[k].body)] = ks[k].name;
      if (ks[k].fn)
         own[xe_function_id(ks[k].fn)] = ks[k].name;
   }
   free(stack);
   free(seen);
   free(shared);
   return own;
}

static void where(xe_module *m, xe_function *f, xe_inst *i, char *buf, size_t n)
{
   const char *fn = xe_name(m, xe_function_id(f));
   unsigned line = 0;
   for (xe_inst *p = i; p; p = p->prev)
      if (p->opcode == SpvOpLine) {
         line = xe_op(p, 1);
         break;
      }
   const char *pn = xe_name(m, xe_op(i, 0));
   int l = snprintf(buf, n, "in %s, pointer %%%s", fn ? fn : "?", pn ? pn : "?");
   if (line && l > 0 && (size_t)l < n)
      snprintf(buf + l, n - l, " (line %u)", line);
}

static int cmp_u32(const void *pa, const void *pb)
{
   uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
   return a < b ? -1 : a > b;
}

/* The ids of a map marked in sel (by index), ascending; *n of them
 * (malloc'd). */
static uint32_t *sorted_ids(const xe_idmap *map, const uint8_t *sel, uint32_t *n)
{
   uint32_t *v = malloc((map->n ? map->n : 1) * sizeof(uint32_t));
   if (!v)
      xe_out_of_memory();
   *n = 0;
   for (uint32_t k = 0; k <= map->mask; k++)
      if (map->keys[k] && sel[map->vals[k]])
         v[(*n)++] = map->keys[k];
   qsort(v, *n, sizeof(uint32_t), cmp_u32);
   return v;
}

/* The index of one of f's own ids in a's tables. */
static uint32_t local_index(const xe_as_info *a, uint32_t id)
{
   uint32_t k = xe_idmap_find(&a->ids, id);
   if (k == XE_IDMAP_NONE)
      xe_out_of_memory();   /* only f's ids get here: a bug otherwise */
   return k;
}

/* Is id one of f's values chosen for retyping (retype: by index in a's map)? */
static bool is_retyped(const xe_as_info *a, const uint8_t *retype, uint32_t id)
{
   uint32_t k = xe_idmap_find(&a->ids, id);
   return k != XE_IDMAP_NONE && retype[k];
}


/* The first instruction of an entry block after its OpVariables (SPIR-V
 * 2.16.1: they must come first in the function; DPC++'s helpers have some,
 * and a cast placed before them made an invalid module). */
static xe_inst *after_variables(const xe_module *m, xe_block *entry)
{
   xe_inst *i = xe_block_first_non_phi(m, entry);
   while (i && (i->opcode == SpvOpVariable || xe_inst_is_source_info(m, i)))
      i = i->next;
   return i;
}
static bool run_function(xe_module *m, xe_function *f, const char *kernel, const int *ps,
                         uint32_t nps,
                         const uint8_t *pconf, xe_remarks *r)
{
   xe_as_info a;
   xe_as_analyze(m, f, ps, nps, &a);
   bool progress = false;
   uint32_t bound = a.n;
   /* The tables are indexed by f's ids through the analysis's map (LOC),
    * not by id: one function costs what it holds, not the module's bound. */
   uint32_t nl = a.ids.n;
#define LOC(id) local_index(&a, (id))
   uint8_t *retype = calloc(nl ? nl : 1, 1);
   uint32_t *orig_type = calloc(nl ? nl : 1, sizeof(uint32_t));
   uint32_t *alias = calloc(nl ? nl : 1, sizeof(uint32_t));
   const char *fname = xe_name(m, xe_function_id(f)) ? xe_name(m, xe_function_id(f)) : "?";

   xe_foreach_inst(p, &f->params) {
      if (!p->result_id || !xe_is_generic_ptr_type(m, p->type_id) || specific(xe_as_space(&a, p->result_id)))
         continue;
      const char *pn = xe_name(m, p->result_id);
      if (p->result_id < nps && pconf[p->result_id])
         xe_remark(r, kernel, XE_REMARK_MISSED,
                   "parameter %%%s of %s stays generic: callers pass pointers of different address spaces (more combinations than versions allowed)",
                   pn ? pn : "?", fname);
      else
         xe_remark(r, kernel, XE_REMARK_MISSED,
                   "parameter %%%s of %s stays generic: a caller passes a pointer of unknown space",
                   pn ? pn : "?", fname);
   }

   /* Remarks first, on the accesses that stay generic. */
   xe_foreach_block(b, f) {
      xe_foreach_inst(i, &b->insts) {
         if (i->opcode != SpvOpLoad && i->opcode != SpvOpStore)
            continue;
         uint32_t p = xe_op(i, 0);
         xe_inst *d = xe_def(m, p);
         if (!d || !xe_is_generic_ptr_type(m, d->type_id) || p >= bound || specific(xe_as_space(&a, p)))
            continue;
         char w[256];
         where(m, f, i, w, sizeof w);
         if (xe_as_conflict(&a, p))
            xe_remark(r, kernel, XE_REMARK_MISSED, "%s stays generic: two address spaces reach it", w);
         else
            xe_remark(r, kernel, XE_REMARK_MISSED,
                      "%s stays generic: its space comes from a parameter, load or call not traced", w);
      }
   }

   xe_foreach_block(b, f) {
      xe_foreach_inst(i, &b->insts) {
         uint32_t id = i->result_id;
         if (id && id < bound && xe_is_generic_ptr_type(m, i->type_id) && specific(xe_as_space(&a, id)) &&
             (retypable(i->opcode) || i->opcode == SpvOpLoad))
            retype[LOC(id)] = 1;
      }
   }
   xe_foreach_inst(p, &f->params)
      if (p->result_id && xe_is_generic_ptr_type(m, p->type_id) && specific(xe_as_space(&a, p->result_id)))
         retype[LOC(p->result_id)] = 1;
   /* The candidates in increasing id order: the loops over values below
    * visit them so (remarks and the ids of new casts follow that order);
    * marks are only taken away from here on. */
   uint32_t nids;
   uint32_t *ids = sorted_ids(&a.ids, retype, &nids);

   /* Keep only values that end in an access or a foldable cast: retyping a
    * value whose every use wants it Generic again only adds casts. */
   for (bool changed = true; changed;) {
      changed = false;
      for (uint32_t j = 0; j < nids; j++) {
         uint32_t id = ids[j];
         if (!retype[LOC(id)])
            continue;
         uint32_t n;
         const xe_use *us = xe_uses(m, id, &n);
         bool useful = false;
         for (uint32_t k = 0; k < n && !useful; k++) {
            xe_inst *u = us[k].inst;
            if (!u->block)
               continue;
            if (is_retyped(&a, retype, u->result_id))
               useful = true;
            else if (u->opcode == SpvOpGenericCastToPtrExplicit || u->opcode == SpvOpGenericCastToPtr)
               useful = true;
            else if (u->opcode != SpvOpConvertPtrToU && use_accepts_specific(&a, u, us[k].word, false))
               useful = true;
         }
         if (!useful) {
            retype[LOC(id)] = 0;
            changed = true;
         }
      }
   }

   /* Retype, remembering the Generic type for casts back. */
   unsigned nretyped = 0;
   /* Roots (parameters, loaded pointers) keep their Generic value; a cast
    * to the proven space right after them feeds the accesses. */
   xe_foreach_inst(p, &f->params) {
      uint32_t id = p->result_id;
      if (!is_retyped(&a, retype, id))
         continue;
      xe_inst *gt = xe_def(m, p->type_id);
      uint32_t nt = xe_type_pointer(m, (SpvStorageClass)xe_as_space(&a, id), xe_op(gt, 1));
      xe_builder bd = xe_builder_before(m, after_variables(m, f->first));
      alias[LOC(id)] = xe_build1(&bd, SpvOpGenericCastToPtr, nt, id);
      orig_type[LOC(id)] = p->type_id;
      const char *pn = xe_name(m, id);
      xe_remark(r, kernel, XE_REMARK_APPLIED, "parameter %%%s of %s is always %s: accesses use it directly",
                pn ? pn : "?", fname, space_name(xe_as_space(&a, id)));
      nretyped++;
   }
   xe_foreach_block(b, f) {
      xe_foreach_inst_safe(i, nx, &b->insts) {
         uint32_t id = i->result_id;
         if (!is_retyped(&a, retype, id) || i->opcode != SpvOpLoad)
            continue;
         xe_inst *gt = xe_def(m, i->type_id);
         uint32_t nt = xe_type_pointer(m, (SpvStorageClass)xe_as_space(&a, id), xe_op(gt, 1));
         uint32_t ops[1] = { id };
         xe_inst *c = xe_inst_create(SpvOpGenericCastToPtr, nt, xe_fresh_id(m), ops, 1, NULL);
         xe_list_insert_after(m, i, c);
         alias[LOC(id)] = c->result_id;
         orig_type[LOC(id)] = i->type_id;
         nretyped++;
      }
   }
   xe_foreach_block(b, f) {
      xe_foreach_inst(i, &b->insts) {
         uint32_t id = i->result_id;
         if (!is_retyped(&a, retype, id) || alias[LOC(id)])
            continue;
         xe_inst *gt = xe_def(m, i->type_id);
         uint32_t nt = xe_type_pointer(m, (SpvStorageClass)xe_as_space(&a, id), xe_op(gt, 1));
         orig_type[LOC(id)] = i->type_id;
         xe_set_type(i, nt);
         nretyped++;
         if (i->opcode == SpvOpPtrCastToGeneric)
            xe_set_opcode(i, SpvOpBitcast);
         /* Null operands of a retyped phi/select must have the new type. */
         unsigned from = i->opcode == SpvOpSelect ? 1 : 0;
         if (i->opcode == SpvOpSelect || i->opcode == SpvOpPhi) {
            for (unsigned k = from; k < xe_nops(i); k += (i->opcode == SpvOpPhi ? 2 : 1)) {
               xe_inst *d = xe_def(m, xe_op(i, k));
               if (d && d->opcode == SpvOpConstantNull)
                  xe_set_op(i, k, const_null(m, nt));
            }
         }
      }
   }

   /* Fix the uses that are not retyped themselves. */
   for (uint32_t j = 0; j < nids; j++) {
      uint32_t id = ids[j];
      if (!retype[LOC(id)])
         continue;
      uint32_t n;
      /* Tables are indexed by id; a root's uses now take val, its cast
       * (alias), whose id is past the tables. */
      uint32_t val = alias[LOC(id)] ? alias[LOC(id)] : id;
      const xe_use *us = xe_uses(m, id, &n);
      xe_use *copy = malloc(sizeof(xe_use) * (n ? n : 1));
      for (uint32_t k = 0; k < n; k++)
         copy[k] = us[k];
      for (uint32_t k = 0; k < n; k++) {
         xe_inst *u = copy[k].inst;
         unsigned w = copy[k].word;
         if (!u->block)
            continue;   /* names and decorations */
         if (val != id) {
            if (u->result_id == val)
               continue;   /* the cast itself */
            xe_set_word(u, w, val);
         }
         bool ru = is_retyped(&a, retype, u->result_id);
         if (u->opcode == SpvOpGenericCastToPtrExplicit || u->opcode == SpvOpGenericCastToPtr) {
            xe_inst *tt = xe_def(m, u->type_id);
            int want = (int)xe_op(tt, 0);
            char wbuf[256];
            where(m, f, u, wbuf, sizeof wbuf);
            if (want == xe_as_space(&a, id)) {
               /* The cast always succeeds: same pointer, maybe retyped pointee. */
               xe_set_opcode(u, SpvOpBitcast);
               xe_set_ops(u, &val, 1, NULL);
               xe_remark(r, kernel, XE_REMARK_APPLIED, "%s: cast to %s folded, the pointer is %s",
                         wbuf, space_name(want), space_name(want));
               progress = true;
               continue;
            }
            if (u->opcode == SpvOpGenericCastToPtrExplicit) {
               /* to_global() and friends return null for another space. */
               xe_replace_all_uses(m, u->result_id, const_null(m, u->type_id));
               xe_remark(r, kernel, XE_REMARK_APPLIED, "%s: cast to %s folded to null, the pointer is %s",
                         wbuf, space_name(want), space_name(xe_as_space(&a, id)));
               xe_inst_delete(m, u);
               progress = true;
               continue;
            }
         }
         if (use_accepts_specific(&a, u, w, ru))
            continue;
         /* Give this use the Generic pointer it had: a root's own value,
          * else a cast back. */
         if (val != id) {
            xe_set_word(u, w, id);
            continue;
         }
         xe_inst *pos = u;
         if (u->opcode == SpvOpPhi) {
            xe_inst *lab = xe_def(m, u->words[w + 1]);
            pos = xe_block_terminator(lab->block);
         }
         xe_builder bd = xe_builder_before(m, pos);
         uint32_t g = xe_build1(&bd, SpvOpPtrCastToGeneric, orig_type[LOC(id)], id);
         xe_set_word(u, w, g);
      }
      free(copy);
   }
   /* Every edit above went through the IR's edit functions, which keep
    * the use lists current and stamp f's analyses stale; only the copies
    * xe_uses handed out need freeing (bumping the module epoch here, as
    * before, dropped every function's CFG once per retyped value). */
   xe_uses_release(m);
   if (nretyped) {
      xe_remark(r, kernel, XE_REMARK_APPLIED, "in %s: %u generic pointer values given a specific storage class",
                xe_name(m, xe_function_id(f)) ? xe_name(m, xe_function_id(f)) : "?", nretyped);
      progress = true;
   }
#undef LOC
   free(ids);
   free(retype);
   free(orig_type);
   free(alias);
   xe_as_free(&a);
   return progress;
}

bool xeopt_pass_generic_address(xe_ctx *ctx)
{
   xe_module *m = ctx->module;
   xe_remarks *r = ctx->remarks;
   /* Without a Generic pointer type there is nothing to infer; the
    * analyses below cost a table of the module's ids per function. */
   bool any = false;
   xe_foreach_inst(g, &m->sec[XE_SEC_GLOBAL])
      any |= g->opcode == SpvOpTypePointer && xe_op(g, 0) == SpvStorageClassGeneric;
   if (!any)
      return false;
   unsigned nk;
   xe_kernel *ks = xe_kernels_all(m, &nk);
   bool progress = false;
   uint8_t *pconf;
   /* ps and pconf are indexed by the ids that exist now; passes add more. */
   uint32_t nps = m->bound;
   int *ps = xe_as_param_spaces(m, &pconf);
   /* Copies of an outer helper pass known spaces to the helpers it calls:
    * one more round per level of the call graph (bounded: OpenCL C has no
    * recursion, and each round only adds copies of what is called). */
   bool drop = all_dont_inline(m);
   /* The model's say (issue 30).  Where IGC inlines every call and each
    * generic pointer is only loaded or stored through, IGC resolves every
    * space this pass proves itself: IGC 2.40 (dg2, pvc, bmg, lnl, ptl)
    * and IGC 22.43 (dg2, pvc) compile testdata's generic_address_O2 to
    * the same code with the rewrite and without.  The gain is nil, and
    * the rewrite keeps canonicalize's forms in its kernels, which move
    * IGC's other choices (as in hashcat's m00400_init through clang's
    * backend, dg2 90,527 -> 90,813 by the ISA estimate), so a kernel
    * whose model is asked is left as it is.  The gains measured come
    * from calls IGC keeps (DontInline; clang -O0 makes every function so: a
    * copy without it is inlined, gas_global_only dg2 58 -> 18 per 8
    * work-items) and from igc_resolves_all's exceptions. */
   /* Nor where the rewrite would copy helpers (exported ones, or ones
    * called with different spaces): a helper's callers move IGC's
    * inlining (docs/cost-model.md, "Known limits"), and without a
    * DontInline call the copies win nothing IGC does not do itself.
    * clang's SPIR-V backend exports every helper: hashcat's
    * m00000_a0-optimized through it, pvc 171,096 -> 173,670 (m00000_s04,
    * ISA estimate per work-item) with its copies. */
   unsigned nasked = 0;
   for (unsigned k = 0; k < nk; k++)
      nasked += xe_judge_rewritable(ctx, ks[k].name) &&
                xe_judge_devices(ctx, ks[k].name);
   candidate *cands = NULL;
   unsigned ncands = 0;
   bool gate = nasked && !calls_kept(m);
   if (gate) {
      ncands = find_candidates(m, nps, pconf, &cands);
      free(cands);
      gate = ncands || igc_resolves_all(m);
   }
   unsigned nleft = gate ? nasked : 0;
   if (nleft)
      xe_remark(r, NULL, XE_REMARK_NOTE,
                "%u kernel%s left to IGC: no call here is DontInline, so IGC inlines every "
                "call and resolves itself each address space this pass proves; %s "
                "(--target=none makes it)",
                nleft, nleft == 1 ? "" : "s",
                ncands ? "the rewrite would copy helpers, which moves IGC's inlining"
                       : "every generic pointer is only loaded or stored through, so the "
                         "rewrite gains nothing and moves IGC's other choices");
   /* A kernel excluded from rewriting (--isa-check kept its original), or
    * left to IGC, may share helpers with the others: then no helper is
    * copied. */
   bool excluded = xe_judge_keeps_any(ctx) || nleft;
   for (int round = 0; round < MAX_ROUNDS && !excluded && specialize_calls(m, ps, nps, pconf, drop, ks, nk, r); round++) {
      if (!progress && drop)
         xe_remark(r, NULL, XE_REMARK_NOTE,
                   "the copies are not DontInline: every function here is, as clang -O0 makes "
                   "them, so the hint is not the author's and IGC may inline each copy");
      progress = true;
      /* The clones and redirected calls were made by the edit functions
       * (xe_function_clone, xe_set_op): the use lists and the callers'
       * generations are current, so nothing is invalidated by hand; the
       * round's use-list copies are freed. */
      xe_uses_release(m);
      free(ps);
      free(pconf);
      nps = m->bound;
      ps = xe_as_param_spaces(m, &pconf);
   }
   const char **kname = kernel_names(m, ks, nk);
   const char **own = kernel_owners(m, ks, nk);
   uint32_t nkname = m->bound;
   xe_foreach_fn(f, m) {
      const char *kn = xe_function_id(f) < nkname ? kname[xe_function_id(f)] : NULL;
      /* Dead helpers (inlined everywhere) only make noise. */
      if (!f->first || (!kn && !xe_function_callers(m, f)) ||
          (kn && !xe_judge_rewritable(ctx, kn)) || (!kn && excluded) ||
          (kn && gate && xe_judge_devices(ctx, kn)))
         continue;
      const char *owner = xe_function_id(f) < nkname ? own[xe_function_id(f)] : NULL;
      progress |= run_function(m, f, owner, ps, nps, pconf, r);
   }
   free(own);
   free(kname);
   free(ks);
   free(ps);
   free(pconf);
   return progress;
}
