/*
 * Fuzz target 1: the reader on arbitrary bytes.  Beyond "no crash, no
 * sanitizer report", it checks the reader's contract: whatever it accepts
 * (and found in layout order) it writes back byte for byte.  What it
 * rejects goes through xe_read_unknown, the passthrough check.
 */
#include <stdlib.h>
#include <string.h>

#include "io.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
   char *err = NULL;
   xe_module *m = xe_read(data, size, &err);
   if (!m) {
      if (!err || !*err)
         __builtin_trap(); /* every rejection must say why */
      free(err);
      /* The passthrough check runs on exactly such rejected bytes. */
      free(xe_read_unknown(data, size));
      return 0;
   }
   size_t n;
   uint32_t *w = xe_write(m, &n, false);
   if (!m->reordered && (n * 4 != size || memcmp(w, data, size)))
      __builtin_trap();
   free(w);
   xe_module_free(m);
   return 0;
}
