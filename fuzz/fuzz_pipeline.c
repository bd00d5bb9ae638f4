/*
 * Fuzz target 2: the whole -O2 pipeline with --validate.  On inputs that
 * parse, xeopt must not crash; on inputs that validate, no pass may turn
 * them invalid (the driver reports that as an internal error, which this
 * target turns into a crash so the fuzzer keeps it).
 */
#include <stdlib.h>

#include "driver.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
   xe_options o;
   xe_options_init(&o);
   o.level = 2;
   o.validate = true;
   xeopt_result *r = xe_optimize_ex(&o, data, size, NULL);
   if (xeopt_result_status(r) == XEOPT_ERROR_INTERNAL)
      __builtin_trap();
   xeopt_result_destroy(r);
   xe_options_free(&o);
   return 0;
}
