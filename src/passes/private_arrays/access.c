/*
 * private-arrays: what an array's uses are.  pa_collect sorts the uses of a
 * Function-storage array variable into element access chains (which may
 * only feed loads and stores), byte casts (lifetime markers, a zero-init
 * copy, a whole-array copy-out) and anything else, which makes the array
 * escape: no rewrite may then change its layout.  Also the small helpers
 * every rewrite shares.
 */
#include <limits.h>
#include <stdlib.h>

#include "builder.h"
#include "private_arrays.h"

static bool is_chain(uint16_t op)
{
   return op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain ||
          op == SpvOpPtrAccessChain || op == SpvOpInBoundsPtrAccessChain;
}

/* The array index of a chain into the variable: `var 0 idx [comp]` for
 * the pointer forms, `var idx [comp]` otherwise, comp a constant vector
 * component; 0 when the chain has another shape. */
uint32_t pa_chain_index(xe_module *m, xe_inst *c)
{
   bool ptr = c->opcode == SpvOpPtrAccessChain || c->opcode == SpvOpInBoundsPtrAccessChain;
   unsigned want = ptr ? 3 : 2;
   uint64_t z;
   if (xe_nops(c) != want && !(xe_nops(c) == want + 1 && xe_const_uint(m, xe_op(c, want), &z)))
      return 0;
   if (ptr && !(xe_const_uint(m, xe_op(c, 1), &z) && z == 0))
      return 0;
   return xe_op(c, want - 1);
}

/* The vector component a chain selects after the element: -1 for none
 * (the whole element), INT_MAX when it is not a constant that fits, so
 * that callers comparing with the component count decline. */
int pa_chain_comp(xe_module *m, xe_inst *c)
{
   bool ptr = c->opcode == SpvOpPtrAccessChain || c->opcode == SpvOpInBoundsPtrAccessChain;
   uint64_t v;
   if (xe_nops(c) == (ptr ? 3u : 2u))
      return -1;
   if (xe_nops(c) != (ptr ? 4u : 3u) || !xe_const_uint(m, xe_op(c, xe_nops(c) - 1), &v) ||
       v > INT_MAX)
      return INT_MAX;
   return (int)v;
}

/* A zero constant: OpConstantNull or a UniformConstant variable whose
 * initializer is OpConstantNull. */
static bool is_zero_source(xe_module *m, uint32_t id)
{
   xe_inst *d = xe_def(m, id);
   while (d && d->opcode == SpvOpBitcast)
      d = xe_def(m, xe_op(d, 0));
   if (!d || d->opcode != SpvOpVariable || xe_op(d, 0) != SpvStorageClassUniformConstant ||
       xe_nops(d) < 2)
      return false;
   xe_inst *init = xe_def(m, xe_op(d, 1));
   return init && init->opcode == SpvOpConstantNull;
}

/* (The validator may not have run: a copy's target must be checked.) */
static bool is_pointer_value(xe_module *m, uint32_t id)
{
   xe_inst *d = xe_def(m, id);
   xe_inst *t = d ? xe_def(m, d->type_id) : NULL;
   return t && t->opcode == SpvOpTypePointer;
}

/* An address computed from the array and then never used (clang 21
 * leaves byte casts whose only user canonicalize rewrote): it reads and
 * writes nothing, so it is no escape; pa_drop_dead deletes it before a
 * rewrite changes what it would point into. */
static bool unused_address(xe_module *m, xe_inst *i)
{
   if (i->opcode != SpvOpBitcast && i->opcode != SpvOpCopyObject && !is_chain(i->opcode))
      return false;
   uint32_t n;
   const xe_use *u = xe_uses(m, i->result_id, &n);
   for (uint32_t k = 0; k < n; k++)
      if (u[k].inst->block)
         return false;
   return true;
}

static void add_dead(parr *a, xe_inst *i)
{
   for (unsigned k = 0; k < a->ndead; k++)
      if (a->dead[k] == i)
         return;
   a->dead = realloc(a->dead, (a->ndead + 1) * sizeof(xe_inst *));
   a->dead[a->ndead++] = i;
}

static void set_escape(parr *a, const char *why, xe_inst *at)
{
   if (!a->escape) {
      a->escape = why;
      a->escape_at = at;
   }
}

void pa_collect(xe_module *m, parr *a)
{
   uint32_t n;
   const xe_use *u = xe_uses(m, a->var->result_id, &n);
   uint64_t bytes = xe_type_size(m, a->elem) * a->len;
   for (uint32_t k = 0; k < n; k++) {
      xe_inst *i = u[k].inst;
      if (!i->block)
         continue; /* names and decorations */
      if (is_chain(i->opcode) && u[k].word == i->first_op && pa_chain_index(m, i)) {
         a->chains = realloc(a->chains, (a->nchains + 1) * sizeof(xe_inst *));
         a->chains[a->nchains++] = i;
      } else if (i->opcode == SpvOpBitcast) {
         a->casts = realloc(a->casts, (a->ncasts + 1) * sizeof(xe_inst *));
         a->casts[a->ncasts++] = i;
      } else {
         set_escape(a, "the address is used whole", i);
      }
   }
   for (unsigned c = 0; c < a->nchains; c++) {
      const xe_use *cu = xe_uses(m, a->chains[c]->result_id, &n);
      for (uint32_t k = 0; k < n; k++) {
         xe_inst *i = cu[k].inst;
         if (!i->block)
            continue;
         bool ok = (i->opcode == SpvOpLoad || i->opcode == SpvOpStore) &&
                   cu[k].word == i->first_op;
         if (!ok && unused_address(m, i))
            add_dead(a, i);
         else if (!ok)
            set_escape(a, "an element address escapes", i);
      }
   }
   for (unsigned c = 0; c < a->ncasts; c++) {
      const xe_use *cu = xe_uses(m, a->casts[c]->result_id, &n);
      for (uint32_t k = 0; k < n; k++) {
         xe_inst *i = cu[k].inst;
         uint64_t size;
         if (!i->block)
            continue;
         if (i->opcode == SpvOpLifetimeStart || i->opcode == SpvOpLifetimeStop)
            continue;
         if (unused_address(m, i)) {
            add_dead(a, i);
         } else if (i->opcode != SpvOpCopyMemorySized || !xe_const_uint(m, xe_op(i, 2), &size)) {
            set_escape(a, "a byte-cast address is used", i);
         } else if (xe_op(i, 0) == a->casts[c]->result_id && is_zero_source(m, xe_op(i, 1)) &&
                    size <= bytes) {
            /* Each zero-init writes zeros to the same leading bytes, so
             * any number of them (one per copy of a versioned body) keep
             * every element's value a load or store in the same place
             * sees; the rewrites keep or rewrite each. */
            a->zero_init = realloc(a->zero_init, (a->nzero_init + 1) * sizeof(xe_inst *));
            a->zero_init[a->nzero_init++] = i;
            if (size > a->zero_bytes)
               a->zero_bytes = size;
         } else if (xe_op(i, 1) == a->casts[c]->result_id && xe_op(i, 0) != xe_op(i, 1) &&
                    size == bytes && is_pointer_value(m, xe_op(i, 0))) {
            a->copy_out = realloc(a->copy_out, (a->ncopy_out + 1) * sizeof(xe_inst *));
            a->copy_out[a->ncopy_out++] = i;
         } else {
            set_escape(a, "a memory copy other than zero-init or whole copy-out", i);
         }
      }
   }
}

bool pa_drop_dead(xe_module *m, parr *a)
{
   for (unsigned k = 0; k < a->ndead; k++)
      xe_inst_kill(m, a->dead[k]);
   bool any = a->ndead > 0;
   a->ndead = 0;
   return any;
}

void pa_drop_lifetimes(xe_module *m, parr *a)
{
   for (unsigned c = 0; c < a->ncasts; c++) {
      uint32_t n;
      const xe_use *u = xe_uses(m, a->casts[c]->result_id, &n);
      xe_inst **dead = malloc((n + 1) * sizeof(xe_inst *));
      unsigned nd = 0;
      for (uint32_t k = 0; k < n; k++) {
         if (u[k].inst->opcode == SpvOpLifetimeStart || u[k].inst->opcode == SpvOpLifetimeStop)
            dead[nd++] = u[k].inst;
      }
      for (unsigned k = 0; k < nd; k++)
         xe_inst_delete(m, dead[k]);
      free(dead);
   }
}

void pa_set_var_type(xe_module *m, parr *a, uint32_t elem, uint32_t len)
{
   uint32_t u64 = xe_type_int(m, 64);
   uint32_t arr = xe_type_array(m, elem, xe_const_int(m, u64, len));
   xe_set_type(a->var, xe_type_pointer(m, SpvStorageClassFunction, arr));
   a->elem = elem;
   a->len = len;
}

const char *pa_var_name(xe_module *m, parr *a)
{
   const char *n = xe_name(m, a->var->result_id);
   return n ? n : "(unnamed)";
}

/* The instructions of f that use id, one entry per use (as xe_uses), in a
 * malloc'd array.  For ids defined in f: only f, names and decorations
 * can use them.  (Written when def-use was a snapshot rebuilt after every
 * edit; the live use lists, xe_uses, would now answer in time proportional
 * to the uses instead of f's size.) */
xe_inst **pa_local_users(xe_function *f, uint32_t id, uint32_t *n)
{
   xe_inst **us = NULL;
   uint32_t cap = 0;
   *n = 0;
   xe_foreach_block(b, f) {
      xe_foreach_inst(i, &b->insts) {
         for (unsigned w = 1; w < i->nwords; w++) {
            if (i->words[w] != id || (xe_kinds(i)[w] != XE_W_ID && xe_kinds(i)[w] != XE_W_TYPE))
               continue;
            if (*n == cap) {
               cap = cap ? 2 * cap : 8;
               us = realloc(us, cap * sizeof(xe_inst *));
               if (!us)
                  xe_out_of_memory();
            }
            us[(*n)++] = i;
         }
      }
   }
   return us;
}

/* Deletes id's definition and its names and decorations when nothing in
 * a function uses it any more; returns whether it did.  Not
 * xe_delete_if_dead: the callers delete a variable's casts and then the
 * variable themselves (recursion would free it under them), and narrow.c
 * also deletes a global UniformConstant zero source, which is in no
 * block. */
bool pa_delete_if_dead(xe_module *m, uint32_t id)
{
   xe_inst *d = xe_def(m, id);
   if (!d || !xe_result_unused(m, id))
      return false;
   xe_inst_kill(m, d);
   return true;
}
