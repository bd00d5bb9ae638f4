/*
 * Fuzz target: the manifest reader (src/manifest/manifest.h) on arbitrary
 * bytes.  Beyond "no crash, no sanitizer report" it checks the reader's
 * contract: a rejection says why; what it accepts, the writer writes, and
 * that reads back to the same document (write(read(write(x))) is
 * write(x), as text); the formulas it accepts evaluate.
 */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "manifest.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
   xe_mf m, again;
   char err[256];
   if (xe_mf_read_text((const char *)data, size, &m, err, sizeof err) != XE_MF_OK) {
      if (!err[0] || m.nkernels || m.kernels)
         __builtin_trap(); /* every rejection says why and leaves nothing */
      return 0;
   }
   cJSON *w = xe_mf_write(&m);
   if (!w || xe_mf_read(w, &again, err, sizeof err) != XE_MF_OK)
      __builtin_trap();
   /* As text: both come from the writer, so member order is the same, and
    * cJSON_Compare cannot compare objects with repeated names (an unknown
    * section is kept as it came). */
   cJSON *w2 = xe_mf_write(&again);
   char *t1 = cJSON_PrintUnformatted(w), *t2 = w2 ? cJSON_PrintUnformatted(w2) : NULL;
   if (!t1 || !t2 || strcmp(t1, t2))
      __builtin_trap();
   cJSON_free(t1);
   cJSON_free(t2);
   xe_mf_launch l = { { 7, 3, 2 }, { 1, 0, 5 }, { 4, 1, 2 } };
   int64_t args[4] = { 3, -2, 100, 0 }, v;
   for (unsigned k = 0; k < m.nkernels; k++)
      for (unsigned e = 0; e < m.kernels[k].npadding; e++)
         if (m.kernels[k].padding[e].kind == XE_MF_BUFFER)
            (void)xe_mf_formula_eval(&m.kernels[k].padding[e].min_elements, &l, args, 4, &v);
   cJSON_Delete(w);
   cJSON_Delete(w2);
   xe_mf_free(&again);
   xe_mf_free(&m);
   return 0;
}
