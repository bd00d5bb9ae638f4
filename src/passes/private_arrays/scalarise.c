/*
 * private-arrays, rewrite "scalarise": an array indexed only by constants
 * (at most 64 elements, never copied as bytes) becomes one scalar Function
 * variable per element used, named NAME.INDEX.
 */
#include <stdio.h>
#include <stdlib.h>

#include "builder.h"
#include "private_arrays.h"

/* ---- rewrite 4: scalarise ---- */
bool pa_scalarise(xe_module *m, const char *kn, xe_remarks *r, parr *a)
{
   uint64_t v;
   if (a->escape || a->ncopy_out || a->nzero_init || a->len > 64)
      return false;
   for (unsigned c = 0; c < a->nchains; c++) {
      if (!xe_const_uint(m, pa_chain_index(m, a->chains[c]), &v) || v >= a->len ||
          pa_chain_comp(m, a->chains[c]) >= 0)
         return false;
   }
   uint32_t *vars = calloc(a->len, sizeof(uint32_t));
   uint32_t pt = xe_type_pointer(m, SpvStorageClassFunction, a->elem);
   unsigned used = 0;
   for (unsigned c = 0; c < a->nchains; c++) {
      xe_const_uint(m, pa_chain_index(m, a->chains[c]), &v);
      if (!vars[v]) {
         uint32_t sc = SpvStorageClassFunction;
         uint8_t kind = XE_W_LIT;
         xe_inst *nv = xe_inst_create(SpvOpVariable, pt, xe_fresh_id(m), &sc, 1, &kind);
         xe_list_insert_after(m, a->var, nv);
         vars[v] = nv->result_id;
         used++;
         char name[96];
         snprintf(name, sizeof(name), "%s.%u", pa_var_name(m, a), (unsigned)v);
         xe_set_name(m, nv->result_id, name);
      }
      xe_replace_all_uses(m, a->chains[c]->result_id, vars[v]);
      xe_inst_delete(m, a->chains[c]);
   }
   xe_remark(r, kn, XE_REMARK_APPLIED,
             "scalarise: '%s[%u]' is indexed only by constants -> %u scalar variables",
             pa_var_name(m, a), a->len, used);
   free(vars);
   a->nchains = 0;
   return true;
}
