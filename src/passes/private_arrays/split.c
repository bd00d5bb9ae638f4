/*
 * private-arrays, rewrite "split": an array of vectors accessed whole or
 * per constant component becomes one scalar array per component; whole
 * loads and stores become per-component ones (OpCompositeExtract /
 * OpCompositeConstruct).
 */
#include <stdlib.h>

#include "builder.h"
#include "private_arrays.h"

/* ---- rewrite 3: split an array of vectors ---- */
bool pa_plan_split(xe_module *m, parr *a, uint32_t *comps, uint32_t *used)
{
   xe_inst *vt = xe_def(m, a->elem);
   if (!vt || vt->opcode != SpvOpTypeVector || a->escape || a->ncopy_out || a->nzero_init)
      return false;
   uint32_t nc = xe_op(vt, 1);
   if (nc > 16)
      return false;
   *comps = nc;
   *used = 0;
   for (unsigned c = 0; c < a->nchains; c++) {
      int comp = pa_chain_comp(m, a->chains[c]);
      if (comp >= (int)nc)
         return false;
      *used |= comp < 0 ? (1u << nc) - 1 : 1u << comp;
   }
   return true;
}

bool pa_split(xe_module *m, const char *kn, xe_remarks *r, parr *a)
{
   xe_inst *vt = xe_def(m, a->elem);
   if (!vt || vt->opcode != SpvOpTypeVector || a->escape)
      return false;
   if (a->ncopy_out || a->nzero_init) {
      xe_remark(r, kn, XE_REMARK_MISSED, "split '%s': copied as bytes", pa_var_name(m, a));
      return false;
   }
   uint32_t st = xe_op(vt, 0), nc = xe_op(vt, 1);
   uint32_t ssize = (uint32_t)xe_type_size(m, st);
   for (unsigned c = 0; c < a->nchains; c++) {
      if (pa_chain_comp(m, a->chains[c]) >= (int)nc)
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
      uint32_t idx = pa_chain_index(m, ch);
      int comp = pa_chain_comp(m, ch);
      if (comp >= 0) {
         uint32_t ops[3] = { vars[comp], zero, idx };
         xe_set_opcode(ch, SpvOpInBoundsPtrAccessChain);
         xe_set_ops(ch, ops, 3, NULL);
         continue;
      }
      uint32_t n;
      xe_inst **us = pa_local_users(ch->block->fn, ch->result_id, &n);
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
      pa_delete_if_dead(m, ch->result_id);
   }
   xe_remark(r, kn, XE_REMARK_APPLIED, "split: '%s[%u]' of %u-component vectors -> %u scalar arrays",
             pa_var_name(m, a), a->len, nc, nc);
   a->nchains = 0;
   return true;
}
