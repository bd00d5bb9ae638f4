/*
 * Fuzz target 3: the reference interpreter on anything that parses.  Each
 * kernel runs one small launch (two work-groups of 16, 1 KiB buffers,
 * small scalars) with a bounded number of steps: the interpreter may
 * report an error (out of bounds, unsupported instruction, step limit) but
 * must never crash or trip a sanitizer.
 */
#include <stdlib.h>
#include <string.h>

#include "exec.h"
#include "io.h"
#include "runnable.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
   char *err = NULL;
   xe_module *m = xe_read(data, size, &err);
   if (!m || !xe_check_runnable(m, &err)) {
      free(err);
      xe_module_free(m);
      return 0;
   }
   xe_kernel ks[8];
   unsigned nk = xe_kernels(m, ks, 8);
   for (unsigned k = 0; k < nk && k < 8; k++) {
      enum xe_arg_kind kind[16];
      unsigned elem[16];
      bool is_float[16];
      int np = xe_exec_params(m, ks[k].name, kind, elem, is_float, 16);
      if (np < 0 || np > 16)
         continue;
      xe_launch l = { .kernel = ks[k].name, .global = { 32, 1, 1 }, .local = { 16, 1, 1 },
                      .dims = 1, .nargs = (unsigned)np, .max_steps = 200000 };
      for (int a = 0; a < np; a++) {
         l.args[a].kind = kind[a];
         l.args[a].size = kind[a] == XE_ARG_SCALAR ? (elem[a] ? elem[a] : 4) : 1024;
         l.args[a].data = calloc(1, l.args[a].size + 8);
         if (kind[a] == XE_ARG_SCALAR)
            l.args[a].data[0] = 5;
      }
      if (!xe_exec_run(m, &l, &err))
         free(err);
      err = NULL;
      for (int a = 0; a < np; a++)
         free(l.args[a].data);
   }
   xe_module_free(m);
   return 0;
}
