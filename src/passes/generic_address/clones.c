/*
 * generic-address: helpers called with different spaces get a copy per
 * combination of argument spaces (at most MAX_VERSIONS, each named for
 * it), so the inference in each copy knows its parameters' spaces.  An
 * exported helper stays as it is for other modules; the calls here go to
 * internal copies.
 */
#include <stdio.h>
#include <stdlib.h>

#include "generic_address.h"

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
                       ga_specific(sp) ? ga_space_name(sp) : "Generic");
      }
      xe_set_name(m, xe_function_id(nf), buf);
   }
   return nf;
}

/* Which functions to specialize: those whose Generic parameters get
 * different spaces from different call sites and, since other modules may
 * call them with anything, exported ones with Generic parameters. */
unsigned ga_find_candidates(xe_module *m, uint32_t nps, const uint8_t *pconf, candidate **out)
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
            s.known |= ga_specific(sp);
            s.key = s.key * 16 + (uint64_t)(sp + 4);
         }
         c->sites = realloc(c->sites, (c->nsites + 1) * sizeof(call_site));
         c->sites[c->nsites++] = s;
      }
   }
   if (a.space)
      xe_as_free(&a);
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

/* One round of specialization: each caller is analysed once, then each
 * candidate's calls are versioned.  Copies made here are callers in the
 * next round.  Returns whether a call now goes elsewhere. */
bool ga_specialize_calls(xe_module *m, const int *ps, uint32_t nps, const uint8_t *pconf,
                         bool drop_dont_inline, const xe_kernel *ks, unsigned nk,
                         xe_remarks *r)
{
   candidate *cs;
   unsigned nc = ga_find_candidates(m, nps, pconf, &cs);
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
   const char **own = ga_kernel_owners(m, ks, nk);
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
