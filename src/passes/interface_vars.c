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

static bool listed(const xe_inst *ep, unsigned first, uint32_t id)
{
   for (unsigned k = first; k < xe_nops(ep); k++) {
      if (xe_op(ep, k) == id)
         return true;
   }
   return false;
}

/* Is id among ep's interface operands first .. k-1 (a repeated listing)? */
static bool listed_before(const xe_inst *ep, unsigned first, unsigned k, uint32_t id)
{
   for (unsigned j = first; j < k; j++) {
      if (xe_op(ep, j) == id)
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

static void *grow(void *p, unsigned *cap, unsigned n, size_t size)
{
   if (n < *cap)
      return p;
   *cap = *cap ? 2 * *cap : 8;
   p = realloc(p, *cap * size);
   if (!p)
      xe_out_of_memory();
   return p;
}

/*
 * How the pass finds what is missing without reading every function.  At a
 * few thousand kernels a walk of every function (or of every call) is a
 * cache miss per function in a pass that otherwise has little to do, so the
 * work is driven from the variables that can be missing:
 *
 * 1. A global variable that every entry point lists can be missing from
 *    none.  One walk of the entry-point section counts the listings; the
 *    other global variables (the IR's index of them, not a walk of the
 *    types and constants) are the candidates (llvm-spirv lists its built-ins everywhere
 *    they are used, so typically only the constant-initializer arrays and a
 *    few built-ins remain).
 * 2. Each use of a candidate in a function g is missing from every entry
 *    point whose call tree reaches g and does not list it.  Those entry
 *    points are found by walking up from g through its callers (the call
 *    uses of g's id) to the OpEntryPoint instructions that name a function
 *    (uses of its id, operand 1); the set is remembered per function.
 * 3. Each entry point with something missing gets the ids in the order the
 *    interface had always been completed in (the order of the whole-module
 *    algorithm this replaced, so outputs did not change): functions in the
 *    depth-first order of its call tree, callees in call order, and uses in
 *    layout order within a function.  When every missing use lies in one
 *    function the order is that function's layout order and no call tree
 *    is walked.
 */

/* A use of a candidate variable that entry point ep does not list. */
typedef struct miss {
   xe_inst *ep;
   xe_use use;
   xe_function *fn;      /* the function holding use */
   unsigned pos;         /* fn's position in ep's call tree (step 3) */
} miss;

/* The entry points reaching one function (step 2), by fn->mark - 1: eps,
 * or for a seed of one entry point (nearly all), one, with no allocation. */
typedef struct reached {
   xe_inst **eps;
   unsigned n;
   xe_inst *one;
} reached;

static xe_inst *const *eps_of(const reached *re)
{
   return re->eps ? re->eps : &re->one;
}

typedef struct fn_list {
   xe_function **v;
   unsigned n, cap;
} fn_list;

typedef struct walk {
   xe_module *m;
   reached *memo;
   unsigned nmemo, capmemo;
   /* The functions whose mark, and those whose def->aux, the pass set:
    * both are cleared at the end without a walk of every function.  Two
    * lists, so that a function the pass only marks (most, see
    * seed_kernels) never has its OpFunction read, a cache miss each. */
   fn_list marked, stamped;
   uint32_t stamp;         /* def->aux of the functions the current walk visited */
} walk;

static void note(fn_list *l, xe_function *f)
{
   l->v = grow(l->v, &l->cap, l->n, sizeof(*l->v));
   l->v[l->n++] = f;
}

/* Gives f (unmarked) the next memo entry, out. */
static void set_mark(walk *w, xe_function *f, reached out)
{
   note(&w->marked, f);
   w->memo = grow(w->memo, &w->capmemo, w->nmemo, sizeof(*w->memo));
   w->memo[w->nmemo++] = out;
   f->mark = w->nmemo;
}

/* A depth-first stack of functions in which each function is pushed once
 * per walk (def->aux holds the walk's stamp). */
static void push_new(walk *w, fn_list *s, xe_function *f, uint32_t stamp)
{
   if (f->def->aux == stamp)
      return;
   if (!f->def->aux)
      note(&w->stamped, f);
   f->def->aux = stamp;
   note(s, f);
}

/* The entry points whose call tree reaches g. */
static const reached *reaching(walk *w, xe_function *g)
{
   if (g->mark)
      return &w->memo[g->mark - 1];
   reached out = { NULL, 0, NULL };
   unsigned cap = 0;
   fn_list st = { NULL, 0, 0 };
   uint32_t stamp = ++w->stamp;
   push_new(w, &st, g, stamp);
   while (st.n) {
      xe_function *f = st.v[--st.n];
      uint32_t nu;
      const xe_use *u = xe_uses_unordered(w->m, xe_function_id(f), &nu);
      for (uint32_t k = 0; k < nu; k++) {
         /* Word 1 names the function in OpName, OpDecorate and
          * OpExecutionMode: skipped without reading the instruction. */
         if (u[k].word < 2)
            continue;
         xe_inst *i = u[k].inst;
         if (i->opcode == SpvOpEntryPoint && i->list == &w->m->sec[XE_SEC_ENTRY_POINT] &&
             u[k].word == i->first_op + 1) {
            out.eps = grow(out.eps, &cap, out.n, sizeof(*out.eps));
            out.eps[out.n++] = i;
         } else if (xe_use_is_call(&u[k]) && i->block) {
            push_new(w, &st, i->block->fn, stamp);
         }
      }
   }
   free(st.v);
   set_mark(w, g, out);
   return &w->memo[g->mark - 1];
}

/* Adds ep to the entry points known to reach f (a seed of the memo). */
static void seed(walk *w, xe_function *f, xe_inst *ep)
{
   if (!f->mark)
      set_mark(w, f, (reached){ NULL, 0, NULL });
   reached *re = &w->memo[f->mark - 1];
   if (!re->n) {
      re->one = ep;
      re->n = 1;
      return;
   }
   /* Two entry points name one function: rare, so an allocation each. */
   xe_inst **v = realloc(re->eps, (re->n + 1) * sizeof(*v));
   if (!v)
      xe_out_of_memory();
   if (!re->eps)
      v[0] = re->one;
   re->eps = v;
   re->eps[re->n++] = ep;
}

/* Seeds the memo from the remembered kernel list when every entry point
 * is a kernel and no call reaches an entry function: then an entry
 * function is reached by the entry points that name it alone, and so is
 * the body of a wrapper that is its one caller (no entry point names the
 * body: it has a caller).  Those are where nearly every use of a built-in
 * sits, and the list has them without reading each function's callers
 * (at a few thousand kernels, several cache misses per kernel).  Valid
 * modules always qualify (spirv-val: "a function may not be targeted by
 * both an OpEntryPoint instruction and an OpFunctionCall instruction");
 * others take the walk, as before. */
static void seed_kernels(walk *w, unsigned neps)
{
   unsigned nk;
   xe_kernel *ks = xe_kernels_all(w->m, &nk);
   bool simple = nk == neps;
   for (unsigned k = 0; k < nk && simple; k++)
      simple = ks[k].fn && !ks[k].fn_callers;
   if (simple) {
      for (unsigned k = 0; k < nk; k++) {
         seed(w, ks[k].fn, ks[k].entry);
         if (ks[k].body != ks[k].fn && ks[k].body_callers == 1)
            seed(w, ks[k].body, ks[k].entry);
      }
   }
   free(ks);
}

static int miss_cmp(const void *pa, const void *pb)
{
   const miss *a = pa, *b = pb;
   if (a->ep != b->ep)
      return xe_layout_before(a->ep, b->ep) ? -1 : 1;
   if (a->pos != b->pos)
      return a->pos < b->pos ? -1 : 1;
   if (a->use.inst == b->use.inst)
      return (int)a->use.word - (int)b->use.word;
   return xe_layout_before(a->use.inst, b->use.inst) ? -1 : 1;
}

/* Numbers the functions of ep's call tree that hold misses (ms[0..n)) by
 * their depth-first position (pos; stack order as before: the last callee
 * pushed is visited next).  The call tree is read from the instructions of
 * the functions in it. */
static void tree_positions(walk *w, xe_inst *ep, miss *ms, unsigned n)
{
   xe_function *root = xe_function_by_id(w->m, xe_op(ep, 1));
   if (!root)
      return;
   uint32_t stamp = ++w->stamp;
   unsigned pos = 0;
   fn_list st = { NULL, 0, 0 };
   push_new(w, &st, root, stamp);
   while (st.n) {
      xe_function *g = st.v[--st.n];
      pos++;
      for (unsigned k = 0; k < n; k++) {
         if (ms[k].fn == g)
            ms[k].pos = pos;
      }
      xe_foreach_block(b, g) {
         xe_foreach_inst(i, &b->insts) {
            xe_function *callee = i->opcode == SpvOpFunctionCall ?
                                  xe_function_by_id(w->m, xe_op(i, 0)) : NULL;
            if (callee)
               push_new(w, &st, callee, stamp);
         }
      }
   }
   free(st.v);
}

static bool fix_entry(xe_module *m, walk *w, miss *ms, unsigned nms, xe_remarks *r)
{
   xe_inst *ep = ms[0].ep;
   bool one_fn = true;
   for (unsigned k = 1; k < nms; k++)
      one_fn &= ms[k].fn == ms[0].fn;
   if (!one_fn)
      tree_positions(w, ep, ms, nms);
   qsort(ms, nms, sizeof(*ms), miss_cmp);
   unsigned first = interface_start(ep);
   uint32_t *add = NULL;
   unsigned nadd = 0;
   for (unsigned k = 0; k < nms; k++) {
      /* Read now: rename_low may have renumbered the variable. */
      uint32_t id = ms[k].use.inst->words[ms[k].use.word];
      if (!is_global_var(m, id) || listed(ep, first, id))
         continue;
      bool dup = false;
      for (unsigned j = 0; j < nadd; j++)
         dup |= add[j] == id;
      if (dup)
         continue;
      add = realloc(add, (nadd + 1) * sizeof(*add));
      add[nadd++] = id;
   }
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

/* Declares SPV_INTEL_fp_fast_math_mode where its capability is used
 * without it; returns whether it did. */
static bool declare_fast_math(xe_module *m, xe_remarks *r)
{
   if (xe_has_capability(m, SpvCapabilityFPFastMathModeINTEL) &&
       !xe_has_extension(m, "SPV_INTEL_fp_fast_math_mode")) {
      xe_add_extension(m, "SPV_INTEL_fp_fast_math_mode");
      xe_remark(r, NULL, XE_REMARK_APPLIED, "declared the extension SPV_INTEL_fp_fast_math_mode "
                "that the capability FPFastMathModeINTEL needs (Intel's front end omits it)");
      return true;
   }
   return false;
}

/* Step 1: the global variables some entry point does not list (counted
 * in their aux, which is zero again after), malloc'd, *ncand of them;
 * *neps gets the number of entry points. */
static xe_inst **unlisted_vars(xe_module *m, unsigned *neps, unsigned *ncand)
{
   *neps = 0;
   xe_foreach_inst(ep, &m->sec[XE_SEC_ENTRY_POINT]) {
      (*neps)++;
      unsigned first = interface_start(ep);
      for (unsigned k = first; k < xe_nops(ep); k++) {
         uint32_t id = xe_op(ep, k);
         if (is_global_var(m, id) && !listed_before(ep, first, k, id))
            xe_def(m, id)->aux++;
      }
   }
   xe_inst **cand = NULL;
   unsigned capcand = 0;
   *ncand = 0;
   uint32_t nvars;
   xe_inst *const *vars = xe_global_variables(m, &nvars);
   for (uint32_t k = 0; k < nvars; k++) {
      xe_inst *v = vars[k];
      if (v->aux < *neps) {
         cand = grow(cand, &capcand, *ncand, sizeof(*cand));
         cand[(*ncand)++] = v;
      }
      v->aux = 0;
   }
   return cand;
}

/* Step 2: the uses of the candidates (ncand) that some entry point
 * reaching them misses, malloc'd, *nms of them. */
static miss *missed_uses(xe_module *m, walk *w, xe_inst **cand, unsigned ncand, unsigned *nms)
{
   miss *ms = NULL;
   unsigned capms = 0;
   *nms = 0;
   for (unsigned c = 0; c < ncand; c++) {
      uint32_t nu;
      const xe_use *u = xe_uses_unordered(m, cand[c]->result_id, &nu);
      for (uint32_t k = 0; k < nu; k++) {
         xe_inst *i = u[k].inst;
         if (!i->block || u[k].word < i->first_op || xe_kinds(i)[u[k].word] != XE_W_ID)
            continue;
         const reached *re = reaching(w, i->block->fn);
         xe_inst *const *eps = eps_of(re);
         for (unsigned e = 0; e < re->n; e++) {
            if (listed(eps[e], interface_start(eps[e]), cand[c]->result_id))
               continue;
            ms = grow(ms, &capms, *nms, sizeof(*ms));
            ms[(*nms)++] = (miss){ eps[e], u[k], i->block->fn, 0 };
         }
      }
   }
   return ms;
}

/* Clears the marks and stamps w left and frees what it holds. */
static void walk_free(walk *w)
{
   for (unsigned k = 0; k < w->marked.n; k++)
      w->marked.v[k]->mark = 0;
   for (unsigned k = 0; k < w->stamped.n; k++)
      w->stamped.v[k]->def->aux = 0;
   free(w->marked.v);
   free(w->stamped.v);
   for (unsigned k = 0; k < w->nmemo; k++)
      free(w->memo[k].eps);
   free(w->memo);
}

bool xeopt_pass_interface_vars(xe_ctx *ctx)
{
   xe_module *m = ctx->module;
   xe_remarks *r = ctx->remarks;
   bool progress = declare_fast_math(m, r);
   if (m->version < 0x10400)
      return progress;
   unsigned neps, ncand;
   xe_inst **cand = unlisted_vars(m, &neps, &ncand);
   walk w = { .m = m };
   if (ncand)
      seed_kernels(&w, neps);
   unsigned nms;
   miss *ms = missed_uses(m, &w, cand, ncand, &nms);
   free(cand);

   /* Step 3: per entry point, in section order (rename_low's choices
    * depend on it). */
   if (nms)   /* qsort's base must not be NULL, even for 0 elements */
      qsort(ms, nms, sizeof(*ms), miss_cmp);
   for (unsigned a = 0, b; a < nms; a = b) {
      for (b = a + 1; b < nms && ms[b].ep == ms[a].ep; b++)
         ;
      progress |= fix_entry(m, &w, ms + a, b - a, r);
   }
   free(ms);
   walk_free(&w);
   return progress;
}
