/*
 * Generic address space inference: an optimistic forward data-flow over
 * the SSA values of one function, iterated to a fixed point because OpPhi
 * may see its operands later than itself.
 */
#include <stdlib.h>
#include <string.h>

#include "address_spaces.h"

bool xe_is_generic_ptr_type(const xe_module *m, uint32_t type_id)
{
   xe_inst *t = xe_def(m, type_id);
   return t && t->opcode == SpvOpTypePointer && xe_op(t, 0) == SpvStorageClassGeneric;
}

static int storage_of_value(const xe_module *m, uint32_t id)
{
   xe_inst *d = xe_def(m, id);
   if (!d)
      return XE_AS_UNKNOWN;
   xe_inst *t = xe_def(m, d->type_id);
   if (!t || t->opcode != SpvOpTypePointer)
      return XE_AS_UNKNOWN;
   return (int)xe_op(t, 0);
}

static int join(int a, int b, bool *conflict)
{
   if (a == XE_AS_NONE)
      return b;
   if (b == XE_AS_NONE || a == b)
      return a;
   if (a >= 0 && b >= 0)
      *conflict = true;
   return XE_AS_UNKNOWN;
}

/* The space an operand contributes: null constants nothing, Generic values
 * their lattice value, anything else of Generic type unknown. */
static int operand_space(const xe_module *m, const xe_as_info *a, uint32_t id)
{
   xe_inst *d = xe_def(m, id);
   if (!d)
      return XE_AS_UNKNOWN;
   if (d->opcode == SpvOpConstantNull)
      return XE_AS_NONE;
   if (!xe_is_generic_ptr_type(m, d->type_id))
      return storage_of_value(m, id);
   return xe_as_space(a, id);
}

/* A Function variable holding a pointer: the join of what is stored into
 * it, provided it never escapes (every use a load or the pointer operand
 * of a store), so that no store is hidden from us. */
static int load_space(const xe_module *m, const xe_as_info *a, xe_inst *ld, bool *conflict)
{
   xe_inst *v = xe_def(m, xe_op(ld, 0));
   if (!v || v->opcode != SpvOpVariable || xe_op(v, 0) != SpvStorageClassFunction)
      return XE_AS_UNKNOWN;
   uint32_t n;
   const xe_use *us = xe_uses((xe_module *)m, v->result_id, &n);
   int s = XE_AS_NONE;
   bool c = false;
   if (xe_nops(v) > 1)   /* an initializer is one more store */
      s = operand_space(m, a, xe_op(v, 1));
   for (uint32_t k = 0; k < n; k++) {
      xe_inst *u = us[k].inst;
      if (!u->block)
         continue;   /* names, decorations */
      unsigned w = us[k].word - u->first_op;
      if (u->opcode == SpvOpLoad && w == 0)
         continue;
      if (u->opcode != SpvOpStore || w != 0)
         return XE_AS_UNKNOWN;
      s = join(s, operand_space(m, a, xe_op(u, 1)), &c);
      if (xe_as_conflict(a, xe_op(u, 1)))
         c = true;
   }
   *conflict |= c;
   return s;
}

static int transfer(const xe_module *m, const xe_as_info *a, xe_inst *i, bool *conflict)
{
   switch (i->opcode) {
   case SpvOpPtrCastToGeneric:
      return storage_of_value(m, xe_op(i, 0));
   case SpvOpAccessChain:
   case SpvOpInBoundsAccessChain:
   case SpvOpPtrAccessChain:
   case SpvOpInBoundsPtrAccessChain:
   case SpvOpBitcast:
   case SpvOpCopyObject:
      if (!xe_is_generic_ptr_type(m, xe_def(m, xe_op(i, 0)) ? xe_def(m, xe_op(i, 0))->type_id : 0))
         return XE_AS_UNKNOWN;   /* e.g. integer to pointer bitcast */
      /* Carry the conflict down the chain so the access is blamed right. */
      if (xe_as_conflict(a, xe_op(i, 0)))
         *conflict = true;
      return operand_space(m, a, xe_op(i, 0));
   case SpvOpSelect:
      return join(operand_space(m, a, xe_op(i, 1)), operand_space(m, a, xe_op(i, 2)), conflict);
   case SpvOpPhi: {
      int s = XE_AS_NONE;
      for (unsigned k = 0; k + 1 < xe_nops(i); k += 2)
         s = join(s, operand_space(m, a, xe_op(i, k)), conflict);
      return s;
   }
   case SpvOpLoad:
      return load_space(m, a, i, conflict);
   default:
      return XE_AS_UNKNOWN;
   }
}

void xe_as_analyze(xe_module *m, xe_function *f, const int *params, uint32_t nparams,
                   xe_as_info *a)
{
   a->n = m->bound;
   memset(&a->ids, 0, sizeof(a->ids));
   xe_idmap_add_function(&a->ids, f);
   uint32_t nl = a->ids.n;
   a->space = malloc(sizeof(int) * (nl ? nl : 1));
   a->conflict = calloc(nl ? nl : 1, 1);
   if (!a->space || !a->conflict)
      xe_out_of_memory();
   for (uint32_t k = 0; k < nl; k++)
      a->space[k] = XE_AS_NONE;
   xe_foreach_inst(p, &f->params)
      if (p->result_id && p->result_id < a->n)
         a->space[xe_idmap_find(&a->ids, p->result_id)] =
            params && p->result_id < nparams ? params[p->result_id] : XE_AS_UNKNOWN;
   /* Values only go down the lattice NONE -> space -> UNKNOWN, so this
    * terminates after at most two changes per value. */
   for (bool changed = true; changed;) {
      changed = false;
      xe_foreach_block(b, f) {
         xe_foreach_inst(i, &b->insts) {
            if (!i->result_id || !xe_is_generic_ptr_type(m, i->type_id))
               continue;
            bool c = false;
            int s = transfer(m, a, i, &c);
            uint32_t k = xe_idmap_find(&a->ids, i->result_id);
            int old = a->space[k];
            int nw = join(old, s, &c);
            if (nw != old) {
               a->space[k] = nw;
               changed = true;
            }
            if (c && !a->conflict[k]) {
               a->conflict[k] = 1;
               changed = true;
            }
         }
      }
   }
}

void xe_as_free(xe_as_info *a)
{
   free(a->space);
   free(a->conflict);
   xe_idmap_free(&a->ids);
   a->space = NULL;
   a->conflict = NULL;
}

static int layout_cmp(const void *pa, const void *pb)
{
   const xe_inst *a = *(xe_inst *const *)pa, *b = *(xe_inst *const *)pb;
   return a == b ? 0 : xe_layout_before(a, b) ? -1 : 1;
}

int *xe_as_param_spaces(xe_module *m, uint8_t **conflict_out)
{
   uint32_t n = m->bound;
   int *ps = malloc(sizeof(int) * n);
   uint8_t *conf = calloc(n, 1);
   for (uint32_t k = 0; k < n; k++)
      ps[k] = XE_AS_UNKNOWN;
   /* Optimistic start for called functions; kernels keep UNKNOWN, and so
    * do exported functions, which other modules may call with anything. */
   xe_foreach_fn(f, m)
      if (xe_function_callers(m, f) && !xe_is_exported(m, xe_function_id(f)))
         xe_foreach_inst(p, &f->params)
            if (p->result_id)
               ps[p->result_id] = XE_AS_NONE;
   /* The calls to a function of this module, from the functions' use
    * lists, sorted into layout order here: the rounds below visit only
    * them (and analyse only their callers), not every instruction of the
    * module per round, which at a few thousand kernels no longer fits in
    * the cache. */
   xe_inst **calls = NULL;
   size_t ncalls = 0, cap = 0;
   xe_foreach_fn(g, m) {
      uint32_t nu;
      const xe_use *u = xe_uses_unordered(m, xe_function_id(g), &nu);
      for (uint32_t k = 0; k < nu; k++) {
         xe_inst *i = u[k].inst;
         if (!xe_use_is_call(&u[k]) || !i->block)
            continue;
         if (ncalls == cap) {
            cap = cap ? 2 * cap : 64;
            calls = realloc(calls, cap * sizeof(*calls));
            if (!calls)
               xe_out_of_memory();
         }
         calls[ncalls++] = i;
      }
   }
   qsort(calls, ncalls, sizeof(*calls), layout_cmp);
   /* OpenCL C forbids recursion, so this settles; the bound is a guard. */
   for (int round = 0; round < 16; round++) {
      bool changed = false;
      for (size_t c0 = 0, c1; c0 < ncalls; c0 = c1) {
         xe_function *f = calls[c0]->block->fn;
         for (c1 = c0 + 1; c1 < ncalls && calls[c1]->block->fn == f;)
            c1++;
         /* Analysed once per round, as its calls see it at the start of
          * their function's turn: most kernels call nothing. */
         xe_as_info a = { 0 };
         xe_as_analyze(m, f, ps, n, &a);
         for (size_t ci = c0; ci < c1; ci++) {
            xe_inst *i = calls[ci];
            xe_function *callee = xe_function_by_id(m, xe_op(i, 0));
            unsigned k = 1;
            xe_foreach_inst(p, &callee->params) {
               if (p->opcode != SpvOpFunctionParameter)
                  continue;
               if (k >= xe_nops(i))
                  break;
               uint32_t arg = xe_op(i, k++);
               if (!xe_is_generic_ptr_type(m, p->type_id))
                  continue;
               bool c = false;
               int s = join(ps[p->result_id], operand_space(m, &a, arg), &c);
               if (xe_as_conflict(&a, arg))
                  c = true;
               if (s != ps[p->result_id] || (c && !conf[p->result_id])) {
                  ps[p->result_id] = s;
                  conf[p->result_id] |= c;
                  changed = true;
               }
            }
         }
         xe_as_free(&a);
      }
      if (!changed)
         break;
   }
   free(calls);
   /* Parameters no call reaches with a pointer stay unknown. */
   for (uint32_t k = 0; k < n; k++)
      if (ps[k] == XE_AS_NONE)
         ps[k] = XE_AS_UNKNOWN;
   if (conflict_out)
      *conflict_out = conf;
   else
      free(conf);
   return ps;
}
