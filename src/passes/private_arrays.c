/*
 * private-arrays: shrink per-work-item (Function storage) arrays so IGC
 * can keep them in registers instead of private (scratch) memory.
 *
 * Guide: register pressure, "use the smallest type, never make private
 * variables volatile" (shared/docs/REWRITES.md §3).  Rewrites, each proven
 * before it is applied, on the kernel body (called once per work-item):
 *  - volatile: Function-storage loads/stores lose Volatile; private memory
 *    is visible to no one else.
 *  - length: every index of T a[N] provably in [0, K), K < N -> T a[K].
 *  - narrow: integer elements whose stored values are constants or
 *    `load of the array + constant`, executed a bounded number of times,
 *    stay below 2^w -> w-bit elements, widened (OpUConvert) at loads.  The
 *    largest element never exceeds max(initial, constants) + the sum over
 *    increment stores of (increment x executions), so every widened load
 *    reads back the value the wide array held.  Floats are never narrowed.
 *  - scalarise: an array indexed only by constants becomes one scalar
 *    Function variable per element.
 * An array whose address escapes (any use other than element access
 * chains feeding loads/stores, lifetime markers, and whole-array copies
 * from a zero constant or to another pointer) is left alone with a remark.
 * Lifetime markers of rewritten arrays are dropped (hints; their sizes
 * would be stale).
 *
 *  - split: an array of vectors accessed whole or per constant component
 *    becomes one scalar array per component.
 * Host contract: none.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builder.h"
#include "cfg.h"
#include "cost.h"
#include "passes.h"
#include "ranges.h"

typedef struct parr {
   xe_inst *var;
   uint32_t elem, len;          /* element type id, length */
   xe_inst **chains;            /* element access chains */
   unsigned nchains;
   xe_inst **casts;             /* OpBitcast of the variable */
   unsigned ncasts;
   xe_inst *zero_init;          /* OpCopyMemorySized from a zero constant */
   uint64_t zero_bytes;
   xe_inst *copy_out;           /* OpCopyMemorySized of the whole array */
   const char *escape;          /* why nothing can be proven, or NULL */
   xe_inst *escape_at;
} parr;

static xe_inst *type_def(xe_module *m, uint32_t id) { return xe_def(m, id); }

static bool is_function_ptr(xe_module *m, uint32_t type)
{
   xe_inst *t = type_def(m, type);
   return t && t->opcode == SpvOpTypePointer && xe_op(t, 0) == SpvStorageClassFunction;
}

static bool is_chain(uint16_t op)
{
   return op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain ||
          op == SpvOpPtrAccessChain || op == SpvOpInBoundsPtrAccessChain;
}

/* The array index of a chain into the variable: `var 0 idx [comp]` for
 * the pointer forms, `var idx [comp]` otherwise, comp a constant vector
 * component; 0 when the chain has another shape. */
static uint32_t chain_index(xe_module *m, xe_inst *c)
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
static int chain_comp(xe_module *m, xe_inst *c)
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

static void set_escape(parr *a, const char *why, xe_inst *at)
{
   if (!a->escape) {
      a->escape = why;
      a->escape_at = at;
   }
}

static void collect(xe_module *m, parr *a)
{
   uint32_t n;
   const xe_use *u = xe_uses(m, a->var->result_id, &n);
   uint64_t bytes = xe_type_size(m, a->elem) * a->len;
   for (uint32_t k = 0; k < n; k++) {
      xe_inst *i = u[k].inst;
      if (!i->block)
         continue; /* names and decorations */
      if (is_chain(i->opcode) && u[k].word == i->first_op && chain_index(m, i)) {
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
         if (!ok)
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
         if (i->opcode != SpvOpCopyMemorySized || !xe_const_uint(m, xe_op(i, 2), &size)) {
            set_escape(a, "a byte-cast address is used", i);
         } else if (xe_op(i, 0) == a->casts[c]->result_id && is_zero_source(m, xe_op(i, 1)) &&
                    !a->zero_init && size <= bytes) {
            a->zero_init = i;
            a->zero_bytes = size;
         } else if (xe_op(i, 1) == a->casts[c]->result_id && xe_op(i, 0) != xe_op(i, 1) &&
                    !a->copy_out && size == bytes && is_pointer_value(m, xe_op(i, 0))) {
            a->copy_out = i;
         } else {
            set_escape(a, "a memory copy other than zero-init or whole copy-out", i);
         }
      }
   }
}

static void drop_lifetimes(xe_module *m, parr *a)
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

static void set_var_type(xe_module *m, parr *a, uint32_t elem, uint32_t len)
{
   uint32_t u64 = xe_type_int(m, 64);
   uint32_t arr = xe_type_array(m, elem, xe_const_int(m, u64, len));
   xe_set_type(a->var, xe_type_pointer(m, SpvStorageClassFunction, arr));
   a->elem = elem;
   a->len = len;
}

static const char *var_name(xe_module *m, parr *a)
{
   const char *n = xe_name(m, a->var->result_id);
   return n ? n : "(unnamed)";
}

/* ---- rewrite 1: length ---- */
static bool shrink_length(xe_module *m, xe_function *f, const char *kn, xe_remarks *r, parr *a)
{
   uint64_t maxhi = 0;
   xe_function_loops(f); /* block indices for the range analysis */
   for (unsigned c = 0; c < a->nchains; c++) {
      xe_range rg = xe_range_of(m, f, chain_index(m, a->chains[c]));
      if (!rg.known || rg.hi >= a->len) {
         if (!rg.known)
            xe_remark(r, kn, XE_REMARK_MISSED, "length of '%s[%u]': index %%%u has no proven range",
                      var_name(m, a), a->len, chain_index(m, a->chains[c]));
         return false;
      }
      if (rg.hi > maxhi)
         maxhi = rg.hi;
   }
   uint64_t k = maxhi + 1;
   if (k >= a->len)
      return false;
   if (a->copy_out || a->zero_bytes > k * xe_type_size(m, a->elem)) {
      xe_remark(r, kn, XE_REMARK_MISSED, "length of '%s[%u]': a whole-array copy needs all %u elements",
                var_name(m, a), a->len, a->len);
      return false;
   }
   xe_remark(r, kn, XE_REMARK_APPLIED, "length: '%s[%u]' -> [%" PRIu64 "]: every index is below %" PRIu64,
             var_name(m, a), a->len, k, k);
   set_var_type(m, a, a->elem, (uint32_t)k);
   return true;
}

/* The instructions of f that use id, one entry per use (as xe_uses), in a
 * malloc'd array.  For ids defined in f: only f, names and decorations
 * can use them, and scanning f is cheaper than rebuilding the module's
 * def-use after every edit (many kernels would make that quadratic). */
static xe_inst **local_users(xe_function *f, uint32_t id, uint32_t *n)
{
   xe_inst **us = NULL;
   uint32_t cap = 0;
   *n = 0;
   xe_foreach_block(b, f) {
      xe_foreach_inst(i, &b->insts) {
         for (unsigned w = 1; w < i->nwords; w++) {
            if (i->words[w] != id || (i->kinds[w] != XE_W_ID && i->kinds[w] != XE_W_TYPE))
               continue;
            if (*n == cap) {
               cap = cap ? 2 * cap : 8;
               us = realloc(us, cap * sizeof(xe_inst *));
               if (!us)
                  abort();
            }
            us[(*n)++] = i;
         }
      }
   }
   return us;
}

/* Deletes id's definition and its names and decorations when nothing in
 * a function uses it any more; returns whether it did. */
static bool delete_if_dead(xe_module *m, uint32_t id)
{
   uint32_t n;
   const xe_use *u = xe_uses(m, id, &n);
   for (uint32_t k = 0; k < n; k++) {
      if (u[k].inst->block || (u[k].inst->opcode != SpvOpName && u[k].inst->opcode != SpvOpDecorate))
         return false;
   }
   xe_inst_kill(m, xe_def(m, id));
   return true;
}

/* ---- rewrite 2: narrow the element type ---- */

/* Is id an OpLoad through one of a's chains? */
static bool loads_from(xe_module *m, parr *a, uint32_t id)
{
   xe_inst *l = xe_def(m, id);
   if (!l || l->opcode != SpvOpLoad)
      return false;
   for (unsigned c = 0; c < a->nchains; c++) {
      if (a->chains[c]->result_id == xe_op(l, 0))
         return true;
   }
   return false;
}

/* Bound on every element's value, or false (with the store that defeats
 * the proof in *why_at). */
static bool value_bound(xe_module *m, xe_function *f, parr *a, uint64_t *bound, xe_inst **why_at,
                        const char **why)
{
   uint64_t consts = 0, incs = 0;
   xe_function_loops(f); /* sets the block indices used below */
   for (unsigned c = 0; c < a->nchains; c++) {
      uint32_t n;
      const xe_use *u = xe_uses(m, a->chains[c]->result_id, &n);
      for (uint32_t k = 0; k < n; k++) {
         xe_inst *s = u[k].inst, *v;
         uint64_t cv, inc, times;
         if (s->opcode != SpvOpStore)
            continue;
         *why_at = s;
         if (xe_const_uint(m, xe_op(s, 1), &cv)) {
            consts = cv > consts ? cv : consts;
            continue;
         }
         v = xe_def(m, xe_op(s, 1));
         if (!v || v->opcode != SpvOpIAdd) {
            *why = "stores a value that is neither a constant nor load + constant";
            return false;
         }
         int li = loads_from(m, a, xe_op(v, 0)) ? 0 : loads_from(m, a, xe_op(v, 1)) ? 1 : -1;
         if (li < 0 || !xe_const_uint(m, xe_op(v, 1 - li), &inc)) {
            *why = "stores a value that is neither a constant nor load + constant";
            return false;
         }
         if (inc > (UINT64_MAX >> 1)) {
            *why = "adds a negative or huge constant";
            return false;
         }
         if (!xe_block_exec_bound(m, f, s->block->index, &times)) {
            *why = "runs in a loop without a constant trip count";
            return false;
         }
         if (times && inc > (UINT64_MAX >> 2) / times) {
            *why = "may add more than 2^62";
            return false;
         }
         incs += inc * times;
         if (incs > (UINT64_MAX >> 2)) {
            *why = "may add more than 2^62";
            return false;
         }
      }
   }
   *bound = consts + incs;
   return true;
}

static unsigned bits_for(uint64_t v)
{
   unsigned b = 0;
   while (v) {
      b++;
      v >>= 1;
   }
   return b;
}

static uint32_t min_align(uint32_t a, uint64_t off)
{
   uint32_t low = off ? (uint32_t)(off & (0 - off)) : a;
   return low < a ? low : a;
}

/* Replaces the whole-array copy to dst by element loads, widenings and
 * stores, since the bytes of the narrow array are not those of the wide. */
static void expand_copy_out(xe_module *m, parr *a, uint32_t wide)
{
   xe_inst *cp = a->copy_out;
   xe_inst *dt = xe_def(m, xe_def(m, xe_op(cp, 0))->type_id);
   uint32_t sc = xe_op(dt, 0);
   uint32_t align = 1, mask = xe_nops(cp) > 3 ? xe_op(cp, 3) : 0;
   if ((mask & SpvMemoryAccessAlignedMask) && xe_nops(cp) > 4)
      align = xe_op(cp, 4);
   uint32_t u64 = xe_type_int(m, 64), zero = xe_const_int(m, u64, 0);
   uint32_t wsize = (uint32_t)xe_type_size(m, wide), nsize = (uint32_t)xe_type_size(m, a->elem);
   xe_builder b = xe_builder_before(m, cp);
   uint32_t dst = xe_build1(&b, SpvOpBitcast, xe_type_pointer(m, sc, wide), xe_op(cp, 0));
   uint32_t np = xe_type_pointer(m, SpvStorageClassFunction, a->elem);
   uint32_t wp = xe_type_pointer(m, sc, wide);
   for (uint32_t k = 0; k < a->len; k++) {
      uint32_t kc = xe_const_int(m, u64, k);
      uint32_t ops[3] = { a->var->result_id, zero, kc };
      uint32_t src = xe_build(&b, SpvOpInBoundsPtrAccessChain, np, 3, ops)->result_id;
      uint32_t v = xe_build_load(&b, a->elem, src, SpvMemoryAccessAlignedMask, nsize);
      uint32_t w = xe_build1(&b, SpvOpUConvert, wide, v);
      uint32_t d = xe_build2(&b, SpvOpInBoundsPtrAccessChain, wp, dst, kc);
      xe_build_store(&b, d, w, SpvMemoryAccessAlignedMask, min_align(align, (uint64_t)k * wsize));
   }
   xe_inst_delete(m, cp);
   a->copy_out = NULL;
}

static void set_mem_align(xe_inst *i, unsigned mask_op, uint32_t align)
{
   if (xe_nops(i) > mask_op + 1 && (xe_op(i, mask_op) & SpvMemoryAccessAlignedMask))
      xe_set_op(i, mask_op + 1, align);
}

static bool narrow(xe_module *m, xe_function *f, const char *kn, xe_remarks *r, parr *a)
{
   xe_inst *et = type_def(m, a->elem);
   if (!et || et->opcode != SpvOpTypeInt)
      return false; /* floats, vectors, structs: never */
   unsigned w = xe_op(et, 0);
   if (w <= 8)
      return false;
   if (a->escape) {
      xe_remark(r, kn, XE_REMARK_MISSED, "narrow '%s': %s (%s)", var_name(m, a), a->escape,
                xe_opcode_name(a->escape_at->opcode));
      return false;
   }
   uint64_t bound;
   xe_inst *at = NULL;
   const char *why = NULL;
   if (!value_bound(m, f, a, &bound, &at, &why)) {
      xe_remark(r, kn, XE_REMARK_MISSED, "narrow '%s': the store of %%%u %s", var_name(m, a),
                xe_op(at, 1), why);
      return false;
   }
   unsigned need = bits_for(bound), nw = need <= 8 ? 8 : need <= 16 ? 16 : need <= 32 ? 32 : 64;
   if (nw >= w) {
      xe_remark(r, kn, XE_REMARK_MISSED, "narrow '%s': values up to %" PRIu64 " need %u bits",
                var_name(m, a), bound, need);
      return false;
   }
   if (nw == 8 && !xe_has_capability(m, SpvCapabilityInt8))
      xe_add_capability(m, SpvCapabilityInt8);
   if (nw == 16 && !xe_has_capability(m, SpvCapabilityInt16))
      xe_add_capability(m, SpvCapabilityInt16);
   uint32_t wide = a->elem, nt = xe_type_int(m, nw);
   uint32_t np = xe_type_pointer(m, SpvStorageClassFunction, nt);
   uint32_t nsize = nw / 8;
   set_var_type(m, a, nt, a->len);
   if (a->copy_out)
      expand_copy_out(m, a, wide);
   if (a->zero_init) {
      uint32_t arr = xe_def(m, a->var->type_id)->words[3];
      uint32_t null = xe_global_append(m, SpvOpConstantNull, arr, 0, NULL, NULL);
      xe_builder b = xe_builder_before(m, a->zero_init);
      xe_build_store(&b, a->var->result_id, null, SpvMemoryAccessAlignedMask, nsize);
      uint32_t src = xe_op(a->zero_init, 1);
      xe_inst_delete(m, a->zero_init);
      /* The zero constant the copy read from is now often unused. */
      while (src) {
         xe_inst *d = xe_def(m, src);
         uint32_t up = d && d->opcode == SpvOpBitcast ? xe_op(d, 0) : 0;
         if (!d || !delete_if_dead(m, src))
            break;
         src = up;
      }
      a->zero_init = NULL;
   }
   for (unsigned c = 0; c < a->nchains; c++) {
      xe_inst *ch = a->chains[c];
      xe_set_type(ch, np);
      uint32_t n;
      xe_inst **us = local_users(ch->block->fn, ch->result_id, &n);
      for (uint32_t k = 0; k < n; k++) {
         xe_inst *i = us[k];
         if (!i->block)
            continue; /* names */
         if (i->opcode == SpvOpStore) {
            uint64_t cv;
            uint32_t v = xe_op(i, 1);
            xe_builder b = xe_builder_before(m, i);
            v = xe_const_uint(m, v, &cv) ? xe_const_int(m, nt, cv) : xe_build1(&b, SpvOpUConvert, nt, v);
            xe_set_op(i, 1, v);
            set_mem_align(i, 2, nsize);
         } else {
            /* The load keeps its result id as the widened value. */
            uint32_t old = i->result_id, fresh = xe_fresh_id(m);
            xe_inst *next = i->next;
            xe_inst_remove(m, i);
            xe_set_result(i, fresh);
            xe_set_type(i, nt);
            set_mem_align(i, 1, nsize);
            xe_list_insert_before(m, next, i);
            xe_list_insert_before(m, next, xe_inst_create(SpvOpUConvert, wide, old, &fresh, 1, NULL));
         }
      }
      free(us);
   }
   xe_remark(r, kn, XE_REMARK_APPLIED,
             "narrow: '%s' elements %u -> %u bits: values stay below %" PRIu64 " (constants and "
             "bounded increments)", var_name(m, a), w, nw, bound + 1);
   return true;
}

/* ---- rewrite 4: scalarise ---- */
static bool scalarise(xe_module *m, const char *kn, xe_remarks *r, parr *a)
{
   uint64_t v;
   if (a->escape || a->copy_out || a->zero_init || a->len > 64)
      return false;
   for (unsigned c = 0; c < a->nchains; c++) {
      if (!xe_const_uint(m, chain_index(m, a->chains[c]), &v) || v >= a->len ||
          chain_comp(m, a->chains[c]) >= 0)
         return false;
   }
   uint32_t *vars = calloc(a->len, sizeof(uint32_t));
   uint32_t pt = xe_type_pointer(m, SpvStorageClassFunction, a->elem);
   unsigned used = 0;
   for (unsigned c = 0; c < a->nchains; c++) {
      xe_const_uint(m, chain_index(m, a->chains[c]), &v);
      if (!vars[v]) {
         uint32_t sc = SpvStorageClassFunction;
         uint8_t kind = XE_W_LIT;
         xe_inst *nv = xe_inst_create(SpvOpVariable, pt, xe_fresh_id(m), &sc, 1, &kind);
         xe_list_insert_after(m, a->var, nv);
         vars[v] = nv->result_id;
         used++;
         char name[96];
         snprintf(name, sizeof(name), "%s.%u", var_name(m, a), (unsigned)v);
         xe_set_name(m, nv->result_id, name);
      }
      xe_replace_all_uses(m, a->chains[c]->result_id, vars[v]);
      xe_inst_delete(m, a->chains[c]);
   }
   xe_remark(r, kn, XE_REMARK_APPLIED,
             "scalarise: '%s[%u]' is indexed only by constants -> %u scalar variables",
             var_name(m, a), a->len, used);
   free(vars);
   a->nchains = 0;
   return true;
}

/* ---- rewrite 3: split an array of vectors ---- */
static bool split(xe_module *m, const char *kn, xe_remarks *r, parr *a)
{
   xe_inst *vt = xe_def(m, a->elem);
   if (!vt || vt->opcode != SpvOpTypeVector || a->escape)
      return false;
   if (a->copy_out || a->zero_init) {
      xe_remark(r, kn, XE_REMARK_MISSED, "split '%s': copied as bytes", var_name(m, a));
      return false;
   }
   uint32_t st = xe_op(vt, 0), nc = xe_op(vt, 1);
   uint32_t ssize = (uint32_t)xe_type_size(m, st);
   for (unsigned c = 0; c < a->nchains; c++) {
      if (chain_comp(m, a->chains[c]) >= (int)nc)
         return false;
   }
   uint32_t u64 = xe_type_int(m, 64), zero = xe_const_int(m, u64, 0);
   uint32_t arr = xe_type_array(m, st, xe_const_int(m, u64, a->len));
   uint32_t at = xe_type_pointer(m, SpvStorageClassFunction, arr);
   uint32_t sp = xe_type_pointer(m, SpvStorageClassFunction, st);
   uint32_t vars[16];
   if (nc > 16)
      return false;
   for (uint32_t c = nc; c-- > 0;) {
      uint32_t sc = SpvStorageClassFunction;
      uint8_t kind = XE_W_LIT;
      xe_inst *nv = xe_inst_create(SpvOpVariable, at, xe_fresh_id(m), &sc, 1, &kind);
      xe_list_insert_after(m, a->var, nv);
      vars[c] = nv->result_id;
   }
   for (unsigned c = 0; c < a->nchains; c++) {
      xe_inst *ch = a->chains[c];
      uint32_t idx = chain_index(m, ch);
      int comp = chain_comp(m, ch);
      if (comp >= 0) {
         uint32_t ops[3] = { vars[comp], zero, idx };
         xe_set_opcode(ch, SpvOpInBoundsPtrAccessChain);
         xe_set_ops(ch, ops, 3, NULL);
         continue;
      }
      uint32_t n;
      xe_inst **us = local_users(ch->block->fn, ch->result_id, &n);
      for (uint32_t k = 0; k < n; k++) {
         xe_inst *i = us[k];
         if (!i->block)
            continue;
         xe_builder b = xe_builder_before(m, i);
         uint32_t parts[16];
         for (uint32_t q = 0; q < nc; q++) {
            uint32_t ops[3] = { vars[q], zero, idx };
            uint32_t p = xe_build(&b, SpvOpInBoundsPtrAccessChain, sp, 3, ops)->result_id;
            if (i->opcode == SpvOpStore) {
               uint32_t lit = q;
               uint32_t eops[2] = { xe_op(i, 1), lit };
               uint8_t ek[2] = { XE_W_ID, XE_W_LIT };
               xe_inst *e = xe_inst_create(SpvOpCompositeExtract, st, xe_fresh_id(m), eops, 2, ek);
               xe_build_inst(&b, e);
               xe_build_store(&b, p, e->result_id, SpvMemoryAccessAlignedMask, ssize);
            } else {
               parts[q] = xe_build_load(&b, st, p, SpvMemoryAccessAlignedMask, ssize);
            }
         }
         if (i->opcode == SpvOpLoad) {
            xe_inst *cc = xe_inst_create(SpvOpCompositeConstruct, i->type_id, i->result_id, parts,
                                         nc, NULL);
            xe_inst *next = i->next;
            xe_inst_delete(m, i);
            xe_list_insert_before(m, next, cc);
         } else {
            xe_inst_delete(m, i);
         }
      }
      free(us);
      delete_if_dead(m, ch->result_id);
   }
   xe_remark(r, kn, XE_REMARK_APPLIED, "split: '%s[%u]' of %u-component vectors -> %u scalar arrays",
             var_name(m, a), a->len, nc, nc);
   a->nchains = 0;
   return true;
}

/* ---- rewrite 5: volatile ---- */
static bool drop_volatile(xe_module *m, xe_function *f, const char *kn, xe_remarks *r)
{
   unsigned n = 0;
   xe_foreach_block(b, f) {
      xe_foreach_inst(i, &b->insts) {
         unsigned mop = i->opcode == SpvOpLoad ? 1 : i->opcode == SpvOpStore ? 2 : 0;
         if (!mop || xe_nops(i) <= mop || !(xe_op(i, mop) & SpvMemoryAccessVolatileMask))
            continue;
         xe_inst *p = xe_def(m, xe_op(i, 0));
         if (!p || !is_function_ptr(m, p->type_id))
            continue;
         xe_set_op(i, mop, xe_op(i, mop) & ~(uint32_t)SpvMemoryAccessVolatileMask);
         n++;
      }
   }
   if (n)
      xe_remark(r, kn, XE_REMARK_APPLIED,
                "volatile: dropped Volatile from %u Function-storage loads/stores (private "
                "memory is visible to no one else)", n);
   return n > 0;
}

/* ---- the cost model's say (src/analysis/cost.h) ----
 * Shortening or narrowing an array can move it from private memory into
 * registers; when the array is indexed by per-lane data, IGC then emits
 * per-lane indirect moves, which on pvc cost more than the scratch
 * messages they replace (priv_len64: 651 -> 4942 instructions).  So the
 * two rewrites are planned first (what length and element width they
 * would give, without remarks or edits) and made only if the model says
 * the kernel is not slower on any target device. */
static uint32_t plan_length(xe_module *m, xe_function *f, parr *a)
{
   uint64_t maxhi = 0;
   xe_function_loops(f);
   for (unsigned c = 0; c < a->nchains; c++) {
      xe_range rg = xe_range_of(m, f, chain_index(m, a->chains[c]));
      if (!rg.known || rg.hi >= a->len)
         return 0;
      if (rg.hi > maxhi)
         maxhi = rg.hi;
   }
   uint64_t k = maxhi + 1;
   if (k >= a->len || a->copy_out || a->zero_bytes > k * xe_type_size(m, a->elem))
      return 0;
   return (uint32_t)k;
}

static uint32_t plan_bytes(xe_module *m, xe_function *f, parr *a)
{
   xe_inst *et = type_def(m, a->elem), *at = NULL;
   const char *why = NULL;
   uint64_t bound;
   if (!et || et->opcode != SpvOpTypeInt || xe_op(et, 0) <= 8 || a->escape ||
       !value_bound(m, f, a, &bound, &at, &why))
      return 0;
   unsigned need = bits_for(bound), nw = need <= 8 ? 8 : need <= 16 ? 16 : need <= 32 ? 32 : 64;
   return nw < xe_op(et, 0) ? nw / 8 : 0;
}

static bool cost_allows(xe_ctx *ctx, xe_function *kfn, xe_function *f, const char *kn, parr *a)
{
   xe_module *m = ctx->module;
   xe_cost_change ch = { .var = a->var->result_id, .len = plan_length(m, f, a),
                         .elem_bytes = plan_bytes(m, f, a) };
   if (!ch.len && !ch.elem_bytes)
      return true; /* nothing to ask: the rewrites will say why not */
   unsigned devs = xe_options_target(ctx->options);
   double before[XE_DEV_COUNT], after[XE_DEV_COUNT];
   enum xe_device worst = XE_DEV_DG2;
   if (xe_cost_compare(m, kfn, devs, &ch, before, after, &worst))
      return true;
   char est[160];
   xe_cost_format(est, sizeof(est), devs, before, after);
   xe_remark(ctx->remarks, kn, XE_REMARK_MISSED,
             "'%s[%u]' -> [%u] x %u bytes not made: the cost model says slower on %s (estimate %s "
             "cycles; a dynamically indexed array in registers costs per-lane indirect moves)",
             var_name(m, a), a->len, ch.len ? ch.len : a->len,
             ch.elem_bytes ? ch.elem_bytes : (unsigned)xe_type_size(m, a->elem),
             xe_device_name(worst), est);
   return false;
}

static bool run_function(xe_ctx *ctx, xe_function *kfn, xe_function *f, const char *kn)
{
   xe_module *m = ctx->module;
   xe_remarks *r = ctx->remarks;
   bool progress = drop_volatile(m, f, kn, r);
   if (!f->first)
      return progress;
   /* Function variables are at the top of the first block. */
   xe_inst **vars = NULL;
   unsigned nv = 0;
   xe_foreach_inst(i, &f->first->insts) {
      if (i->opcode != SpvOpVariable)
         continue;
      xe_inst *pt = xe_def(m, i->type_id);
      /* (Only a pointer type is valid here; the validator may not have run.) */
      xe_inst *at = pt && pt->opcode == SpvOpTypePointer ? xe_def(m, xe_op(pt, 1)) : NULL;
      uint64_t len;
      if (!at || at->opcode != SpvOpTypeArray || !xe_const_uint(m, xe_op(at, 1), &len) || !len ||
          len > UINT32_MAX)
         continue;
      vars = realloc(vars, (nv + 1) * sizeof(xe_inst *));
      vars[nv++] = i;
   }
   /* Def-use is rebuilt for the whole module after an invalidation, and
    * invalidating visits every function: so kernels without arrays do not
    * invalidate, and afterwards only a rewrite does (each step changes
    * nothing when it says so). */
   if (nv)
      xe_module_invalidate(m);
   for (unsigned k = 0; k < nv; k++) {
      xe_inst *at = xe_def(m, xe_op(xe_def(m, vars[k]->type_id), 1));
      uint64_t len;
      xe_const_uint(m, xe_op(at, 1), &len);
      parr a = { .var = vars[k], .elem = xe_op(at, 0), .len = (uint32_t)len };
      collect(m, &a);
      bool changed = false;
      if (a.escape) {
         xe_remark(r, kn, XE_REMARK_MISSED, "'%s[%u]' unchanged: %s (%s)", var_name(m, &a), a.len,
                   a.escape, xe_opcode_name(a.escape_at->opcode));
      } else {
         bool allowed = cost_allows(ctx, kfn, f, kn, &a);
         if (allowed && shrink_length(m, f, kn, r, &a)) {
            changed = true;
            xe_module_invalidate(m);
         }
         if (allowed && narrow(m, f, kn, r, &a)) {
            changed = true;
            xe_module_invalidate(m);
         }
         bool gone = split(m, kn, r, &a);
         if (!gone)
            gone = scalarise(m, kn, r, &a);
         if (gone)
            xe_module_invalidate(m);
         changed |= gone;
         if (changed) {
            drop_lifetimes(m, &a);
            for (unsigned c = 0; c < a.ncasts; c++)
               delete_if_dead(m, a.casts[c]->result_id);
            if (gone)
               delete_if_dead(m, a.var->result_id);
            xe_module_invalidate(m);
         }
         else if (allowed)
            xe_remark(r, kn, XE_REMARK_NOTE, "'%s[%u]' unchanged: no rewrite proven",
                      var_name(m, &a), a.len);
      }
      progress |= changed;
      free(a.chains);
      free(a.casts);
   }
   free(vars);
   return progress;
}

bool xeopt_pass_private_arrays(xe_ctx *ctx)
{
   xe_module *m = ctx->module;
   xe_remarks *r = ctx->remarks;
   unsigned nk;
   xe_kernel *ks = xe_kernels_all(m, &nk);
   bool progress = false;
   for (unsigned k = 0; k < nk; k++) {
      if (!xe_kernel_rewritable(ctx->options, ks[k].name))
         continue;
      /* Execution bounds count per call: the body must run once per
       * work-item, i.e. be called from the wrapper only. */
      if (ks[k].body != ks[k].fn && ks[k].body_callers != 1) {
         xe_remark(r, ks[k].name, XE_REMARK_MISSED, "body is called %u times; not analysed",
                   ks[k].body_callers);
         continue;
      }
      progress |= run_function(ctx, ks[k].fn, ks[k].body, ks[k].name);
   }
   free(ks);
   if (progress)
      xe_module_invalidate(m);
   return progress;
}
