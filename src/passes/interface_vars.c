/*
 * interface-vars: list every global variable an entry point uses in its
 * OpEntryPoint interface.
 *
 * From SPIR-V 1.4 the interface of an entry point must name every global
 * OpVariable that the entry point's static call tree references (2.16.1 of
 * the spec; spirv-val checks it).  llvm-spirv-15 omits the UniformConstant
 * arrays it makes for constant initializers (a private array's initial
 * values, copied with OpCopyMemorySized), so such modules do not validate,
 * though IGC takes them.  Adding the missing ids changes nothing else.
 *
 * IGC 22.43 (the ocloc and Level Zero compiler Debian 12 ships) fails on an
 * OpEntryPoint whose interface names an id above 65536 ("IGC SPIRV Consumer
 * does not support the following opcode: N", or a crash; found on the
 * hashcat kernels Intel's front end compiles, whose constant tables get ids
 * above 100,000: the same module with the variable renamed to 65536
 * compiles, to 65537 does not).  Ids are only names, so a variable the pass
 * adds with such an id trades it for a lower one (rename_low).
 *
 * Host contract: none.  Before 1.4 only Input and Output variables belong
 * in the interface, and the pass does nothing for them (llvm-spirv lists
 * its built-ins).
 *
 * The other declaration a front end leaves out: Intel's (ocloc -spv_only)
 * declares the capability FPFastMathModeINTEL without the extension
 * SPV_INTEL_fp_fast_math_mode that enables it, so spirv-val rejects its
 * modules (IGC takes them, and takes them with the extension too).  The
 * pass declares the extension, at any version.
 */
#include <stdlib.h>
#include <string.h>

#include "passes.h"

static bool is_global_var(const xe_module *m, uint32_t id)
{
   xe_inst *d = xe_def(m, id);
   return d && d->opcode == SpvOpVariable && !d->block && xe_op(d, 0) != SpvStorageClassFunction;
}

/* The largest id IGC 22.43 accepts in an entry-point interface. */
#define IGC_MAX_INTERFACE_ID 65536u

/* Renames every occurrence of id from (definition and uses) to to. */
static void rename_id(xe_module *m, uint32_t from, uint32_t to)
{
   xe_inst *d = xe_def(m, from);
   xe_replace_all_uses(m, from, to);
   xe_set_result(d, to);
}

/* Gives global variable id an id of at most IGC_MAX_INTERFACE_ID: a free
 * one when there is one, else it swaps ids with the result of an
 * instruction inside a function (never an interface variable).  Returns the
 * new id, or id when neither exists. */
static uint32_t rename_low(xe_module *m, uint32_t id)
{
   uint32_t top = m->bound - 1 < IGC_MAX_INTERFACE_ID ? m->bound - 1 : IGC_MAX_INTERFACE_ID;
   for (uint32_t k = 1; k <= top; k++) {
      if (!xe_def(m, k) && !xe_use_count(m, k)) {
         rename_id(m, id, k);
         return k;
      }
   }
   for (uint32_t k = top; k >= 1; k--) {
      xe_inst *d = xe_def(m, k);
      if (!d || !d->block)
         continue;
      uint32_t tmp = xe_fresh_id(m);
      rename_id(m, id, tmp);
      rename_id(m, k, id);
      rename_id(m, tmp, k);
      return k;
   }
   return id;
}

/* What the pass needs of one function, gathered once from the use lists
 * (of the global variables and of the functions), so that each entry point
 * costs the size of its call tree's references, not a walk of every
 * instruction in it: at a few thousand kernels such walks, one per entry
 * point, no longer fit in the cache.  Both lists are sorted into layout
 * order, the order in which a walk of the function's blocks meets them
 * (the use lists are read unordered: sorting a variable's uses across all
 * kernels would cost more than sorting each function's few). */
typedef struct fn_call {
   xe_inst *inst;            /* the OpFunctionCall */
   xe_function *callee;
} fn_call;

typedef struct fn_refs {
   xe_use *vars;             /* operands naming a global variable */
   unsigned nvars, capvars;
   fn_call *calls;
   unsigned ncalls, capcalls;
   uint32_t stamp;           /* entry point that last reached the function */
} fn_refs;

typedef struct refs {
   fn_refs *of;              /* by xe_function.mark - 1 */
   unsigned nfns;
} refs;

static void *grow(void *p, unsigned *cap, unsigned n, size_t size)
{
   if (n < *cap)
      return p;
   *cap = *cap ? 2 * *cap : 4;
   p = realloc(p, *cap * size);
   if (!p)
      abort();
   return p;
}

static int use_cmp(const void *pa, const void *pb)
{
   const xe_use *a = pa, *b = pb;
   if (a->inst == b->inst)
      return (int)a->word - (int)b->word;
   return xe_layout_before(a->inst, b->inst) ? -1 : 1;
}

static int call_cmp(const void *pa, const void *pb)
{
   const fn_call *a = pa, *b = pb;
   return a->inst == b->inst ? 0 : xe_layout_before(a->inst, b->inst) ? -1 : 1;
}

/* Numbers the functions (mark = index + 1) and fills r from the use lists. */
static void refs_build(xe_module *m, refs *r)
{
   unsigned n = 0;
   xe_foreach_fn(f, m)
      f->mark = ++n;
   r->nfns = n;
   r->of = calloc(n ? n : 1, sizeof(*r->of));
   if (!r->of)
      abort();
   xe_foreach_inst(v, &m->sec[XE_SEC_GLOBAL]) {
      if (!is_global_var(m, v->result_id))
         continue;
      uint32_t nu;
      const xe_use *u = xe_uses_unordered(m, v->result_id, &nu);
      for (uint32_t k = 0; k < nu; k++) {
         xe_inst *i = u[k].inst;
         if (!i->block || u[k].word < i->first_op || i->kinds[u[k].word] != XE_W_ID)
            continue;
         fn_refs *fr = &r->of[i->block->fn->mark - 1];
         fr->vars = grow(fr->vars, &fr->capvars, fr->nvars, sizeof(*fr->vars));
         fr->vars[fr->nvars++] = u[k];
      }
   }
   xe_foreach_fn(g, m) {
      uint32_t nu;
      const xe_use *u = xe_uses_unordered(m, xe_function_id(g), &nu);
      for (uint32_t k = 0; k < nu; k++) {
         xe_inst *i = u[k].inst;
         if (!xe_use_is_call(&u[k]) || !i->block)
            continue;
         fn_refs *fr = &r->of[i->block->fn->mark - 1];
         fr->calls = grow(fr->calls, &fr->capcalls, fr->ncalls, sizeof(*fr->calls));
         fr->calls[fr->ncalls++] = (fn_call){ i, g };
      }
   }
   for (unsigned f = 0; f < n; f++) {
      fn_refs *fr = &r->of[f];
      if (fr->nvars)   /* qsort's base must not be NULL, even for 0 elements */
         qsort(fr->vars, fr->nvars, sizeof(*fr->vars), use_cmp);
      if (fr->ncalls)
         qsort(fr->calls, fr->ncalls, sizeof(*fr->calls), call_cmp);
   }
}

static void refs_free(refs *r)
{
   for (unsigned f = 0; f < r->nfns; f++) {
      free(r->of[f].vars);
      free(r->of[f].calls);
   }
   free(r->of);
}

/* Collects the functions reachable from f (depth first, callees in call
 * order), marking them with stamp. */
static void reach(refs *r, xe_function *f, uint32_t stamp, xe_function ***seen, unsigned *n)
{
   xe_function **stack = NULL;
   unsigned sp = 0;
   r->of[f->mark - 1].stamp = stamp;
   stack = realloc(stack, sizeof(*stack));
   stack[sp++] = f;
   while (sp) {
      xe_function *g = stack[--sp];
      *seen = realloc(*seen, (*n + 1) * sizeof(**seen));
      (*seen)[(*n)++] = g;
      const fn_refs *gr = &r->of[g->mark - 1];
      for (unsigned k = 0; k < gr->ncalls; k++) {
         xe_function *callee = gr->calls[k].callee;
         if (r->of[callee->mark - 1].stamp != stamp) {
            r->of[callee->mark - 1].stamp = stamp;
            stack = realloc(stack, (sp + 1) * sizeof(*stack));
            stack[sp++] = callee;
         }
      }
   }
   free(stack);
}

static bool listed(const xe_inst *ep, unsigned first, uint32_t id)
{
   for (unsigned k = first; k < xe_nops(ep); k++) {
      if (xe_op(ep, k) == id)
         return true;
   }
   return false;
}

/* Index of the first interface operand: after the name's words. */
static unsigned interface_start(const xe_inst *ep)
{
   unsigned k = 2;
   while (k < xe_nops(ep) && xe_op_kind(ep, k) == XE_W_LIT)
      k++;
   return k;
}

static bool fix_entry(xe_module *m, refs *rf, xe_inst *ep, uint32_t stamp, xe_remarks *r)
{
   xe_function *fn = xe_function_by_id(m, xe_op(ep, 1));
   if (!fn)
      return false;
   unsigned nfn = 0;
   xe_function **seen = NULL;
   reach(rf, fn, stamp, &seen, &nfn);
   unsigned first = interface_start(ep);
   uint32_t *add = NULL;
   unsigned nadd = 0;
   for (unsigned f = 0; f < nfn; f++) {
      const fn_refs *fr = &rf->of[seen[f]->mark - 1];
      for (unsigned v = 0; v < fr->nvars; v++) {
         /* Read now: rename_low may have renumbered the variable. */
         uint32_t id = fr->vars[v].inst->words[fr->vars[v].word];
         if (!is_global_var(m, id) || listed(ep, first, id))
            continue;
         bool dup = false;
         for (unsigned k = 0; k < nadd; k++)
            dup |= add[k] == id;
         if (dup)
            continue;
         add = realloc(add, (nadd + 1) * sizeof(*add));
         add[nadd++] = id;
      }
   }
   free(seen);
   if (!nadd)
      return false;
   unsigned renamed = 0;
   for (unsigned k = 0; k < nadd; k++) {
      if (add[k] > IGC_MAX_INTERFACE_ID) {
         uint32_t low = rename_low(m, add[k]);
         renamed += low != add[k];
         add[k] = low;
      }
   }
   unsigned n = xe_nops(ep);
   uint32_t *ops = malloc((n + nadd) * sizeof(uint32_t));
   uint8_t *kinds = malloc(n + nadd);
   for (unsigned k = 0; k < n; k++) {
      ops[k] = xe_op(ep, k);
      kinds[k] = xe_op_kind(ep, k);
   }
   for (unsigned k = 0; k < nadd; k++) {
      ops[n + k] = add[k];
      kinds[n + k] = XE_W_ID;
   }
   bool ok = xe_set_ops(ep, ops, n + nadd, kinds);
   if (ok)
      xe_remark(r, xe_op_string(ep, 2), XE_REMARK_APPLIED,
                "added %u global variable%s the kernel uses to its entry-point interface "
                "(required from SPIR-V 1.4)", nadd, nadd == 1 ? "" : "s");
   if (ok && renamed)
      xe_remark(r, xe_op_string(ep, 2), XE_REMARK_NOTE,
                "renumbered %u of them to ids of at most %u: IGC 22.43 fails on larger ids in "
                "an entry-point interface", renamed, IGC_MAX_INTERFACE_ID);
   free(ops);
   free(kinds);
   free(add);
   return ok;
}

bool xeopt_pass_interface_vars(xe_ctx *ctx)
{
   xe_module *m = ctx->module;
   xe_remarks *r = ctx->remarks;
   bool progress = false;
   if (xe_has_capability(m, SpvCapabilityFPFastMathModeINTEL) &&
       !xe_has_extension(m, "SPV_INTEL_fp_fast_math_mode")) {
      xe_add_extension(m, "SPV_INTEL_fp_fast_math_mode");
      xe_remark(r, NULL, XE_REMARK_APPLIED, "declared the extension SPV_INTEL_fp_fast_math_mode "
                "that the capability FPFastMathModeINTEL needs (Intel's front end omits it)");
      progress = true;
   }
   if (m->version < 0x10400)
      return progress;
   uint32_t stamp = 0;
   refs rf;
   refs_build(m, &rf);
   xe_foreach_inst(ep, &m->sec[XE_SEC_ENTRY_POINT])
      progress |= fix_entry(m, &rf, ep, ++stamp, r);
   refs_free(&rf);
   xe_foreach_fn(f, m)
      f->mark = 0;
   return progress;
}
