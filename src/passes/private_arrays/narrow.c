/*
 * private-arrays, rewrite "narrow": integer elements whose stored values
 * are constants or `load of the array + constant`, executed a bounded
 * number of times, stay below 2^w -> w-bit elements, widened (OpUConvert)
 * at loads.  The largest element never exceeds max(initial, constants) +
 * the sum over increment stores of (increment x executions), so every
 * widened load reads back the value the wide array held.  Floats are never
 * narrowed.  A whole-array copy-out is expanded into element copies, and a
 * zero-init copy becomes a store of OpConstantNull (the bytes differ).
 */
#include <inttypes.h>
#include <stdlib.h>

#include "builder.h"
#include "cfg.h"
#include "private_arrays.h"
#include "ranges.h"

static xe_inst *type_def(xe_module *m, uint32_t id) { return xe_def(m, id); }

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
static void expand_copy_out(xe_module *m, parr *a, xe_inst *cp, uint32_t wide)
{
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
}

static void set_mem_align(xe_inst *i, unsigned mask_op, uint32_t align)
{
   if (xe_nops(i) > mask_op + 1 && (xe_op(i, mask_op) & SpvMemoryAccessAlignedMask))
      xe_set_op(i, mask_op + 1, align);
}

/* a's zero-init copies (now of nsize-byte elements) become stores of
 * OpConstantNull; the zero constants they read go when unused. */
static void zero_init_to_null(xe_module *m, parr *a, uint32_t nsize)
{
   uint32_t null = 0;
   for (unsigned k = 0; k < a->nzero_init; k++) {
      xe_inst *zi = a->zero_init[k];
      if (!null) {
         uint32_t arr = xe_def(m, a->var->type_id)->words[3];
         null = xe_global_append(m, SpvOpConstantNull, arr, 0, NULL, NULL);
      }
      xe_builder b = xe_builder_before(m, zi);
      xe_build_store(&b, a->var->result_id, null, SpvMemoryAccessAlignedMask, nsize);
      uint32_t src = xe_op(zi, 1);
      xe_inst_delete(m, zi);
      /* The zero constant the copy read from is now often unused. */
      while (src) {
         xe_inst *d = xe_def(m, src);
         uint32_t up = d && d->opcode == SpvOpBitcast ? xe_op(d, 0) : 0;
         if (!d || !pa_delete_if_dead(m, src))
            break;
         src = up;
      }
   }
   a->nzero_init = 0;
}

/* a's element chains point to nt (nsize bytes; np: the Function pointer
 * to it) now: stores convert their value to nt, loads load nt and widen it
 * back to wide under their old result id. */
static void narrow_accesses(xe_module *m, parr *a, uint32_t np, uint32_t nt, uint32_t wide,
                            uint32_t nsize)
{
   for (unsigned c = 0; c < a->nchains; c++) {
      xe_inst *ch = a->chains[c];
      xe_set_type(ch, np);
      uint32_t n;
      xe_inst **us = pa_local_users(ch->block->fn, ch->result_id, &n);
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
}

bool pa_narrow(xe_module *m, xe_function *f, const char *kn, xe_remarks *r, parr *a)
{
   xe_inst *et = type_def(m, a->elem);
   if (!et || et->opcode != SpvOpTypeInt)
      return false; /* floats, vectors, structs: never */
   unsigned w = xe_op(et, 0);
   if (w <= 8)
      return false;
   if (a->escape) {
      xe_remark(r, kn, XE_REMARK_MISSED, "narrow '%s': %s (%s)", pa_var_name(m, a), a->escape,
                xe_opcode_name(a->escape_at->opcode));
      return false;
   }
   uint64_t bound;
   xe_inst *at = NULL;
   const char *why = NULL;
   if (!value_bound(m, f, a, &bound, &at, &why)) {
      xe_remark(r, kn, XE_REMARK_MISSED, "narrow '%s': the store of %%%u %s", pa_var_name(m, a),
                xe_op(at, 1), why);
      return false;
   }
   unsigned need = bits_for(bound), nw = need <= 8 ? 8 : need <= 16 ? 16 : need <= 32 ? 32 : 64;
   if (nw >= w) {
      xe_remark(r, kn, XE_REMARK_MISSED, "narrow '%s': values up to %" PRIu64 " need %u bits",
                pa_var_name(m, a), bound, need);
      return false;
   }
   if (nw == 8 && !xe_has_capability(m, SpvCapabilityInt8))
      xe_add_capability(m, SpvCapabilityInt8);
   if (nw == 16 && !xe_has_capability(m, SpvCapabilityInt16))
      xe_add_capability(m, SpvCapabilityInt16);
   uint32_t wide = a->elem, nt = xe_type_int(m, nw);
   uint32_t np = xe_type_pointer(m, SpvStorageClassFunction, nt);
   uint32_t nsize = nw / 8;
   pa_set_var_type(m, a, nt, a->len);
   for (unsigned k = 0; k < a->ncopy_out; k++)
      expand_copy_out(m, a, a->copy_out[k], wide);
   a->ncopy_out = 0;
   zero_init_to_null(m, a, nsize);
   narrow_accesses(m, a, np, nt, wide, nsize);
   xe_remark(r, kn, XE_REMARK_APPLIED,
             "narrow: '%s' elements %u -> %u bits: values stay below %" PRIu64 " (constants and "
             "bounded increments)", pa_var_name(m, a), w, nw, bound + 1);
   return true;
}

uint32_t pa_plan_bytes(xe_module *m, xe_function *f, parr *a)
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
