/*
 * private-arrays, rewrite "length": when every index of T a[N] is proven
 * in [0, K) with K < N (value ranges, src/analysis/ranges.h), the array
 * becomes T a[K].  A whole-array copy needs all N elements and blocks it.
 */
#include <inttypes.h>

#include "builder.h"
#include "cfg.h"
#include "private_arrays.h"
#include "ranges.h"

/* ---- rewrite 1: length ---- */
bool pa_shrink_length(xe_module *m, xe_function *f, const char *kn, xe_remarks *r, parr *a)
{
   uint64_t maxhi = 0;
   xe_function_loops(f); /* block indices for the range analysis */
   for (unsigned c = 0; c < a->nchains; c++) {
      xe_range rg = xe_range_of(m, f, pa_chain_index(m, a->chains[c]));
      if (!rg.known || rg.hi >= a->len) {
         if (!rg.known)
            xe_remark(r, kn, XE_REMARK_MISSED, "length of '%s[%u]': index %%%u has no proven range",
                      pa_var_name(m, a), a->len, pa_chain_index(m, a->chains[c]));
         return false;
      }
      if (rg.hi > maxhi)
         maxhi = rg.hi;
   }
   uint64_t k = maxhi + 1;
   if (k >= a->len)
      return false;
   if (a->ncopy_out || a->zero_bytes > k * xe_type_size(m, a->elem)) {
      xe_remark(r, kn, XE_REMARK_MISSED, "length of '%s[%u]': a whole-array copy needs all %u elements",
                pa_var_name(m, a), a->len, a->len);
      return false;
   }
   xe_remark(r, kn, XE_REMARK_APPLIED, "length: '%s[%u]' -> [%" PRIu64 "]: every index is below %" PRIu64,
             pa_var_name(m, a), a->len, k, k);
   pa_set_var_type(m, a, a->elem, (uint32_t)k);
   return true;
}

uint32_t pa_plan_length(xe_module *m, xe_function *f, parr *a)
{
   uint64_t maxhi = 0;
   xe_function_loops(f);
   for (unsigned c = 0; c < a->nchains; c++) {
      xe_range rg = xe_range_of(m, f, pa_chain_index(m, a->chains[c]));
      if (!rg.known || rg.hi >= a->len)
         return 0;
      if (rg.hi > maxhi)
         maxhi = rg.hi;
   }
   uint64_t k = maxhi + 1;
   if (k >= a->len || a->ncopy_out || a->zero_bytes > k * xe_type_size(m, a->elem))
      return 0;
   return (uint32_t)k;
}
