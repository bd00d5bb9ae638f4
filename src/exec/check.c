/*
 * What the interpreter may assume.  The decoder trusts what spvValidate
 * guarantees (composite indices in range, operand types that fit), so a
 * module is run only if it validates once the two llvm-spirv-15 defects
 * that xeopt repairs anyway are repaired on a copy: blocks before their
 * dominators and global variables missing from entry-point interfaces.
 * Neither changes what a kernel computes.  Nor does a third: ocloc's
 * front end declares the capability FPFastMathModeINTEL without the
 * extension SPV_INTEL_fp_fast_math_mode that enables it (fast-math flags on
 * float instructions, which the interpreter computes exactly anyway);
 * interface-vars declares it.  A fourth is llvm-spirv 21's printf format
 * given as a pointer to the whole char array, which canonicalize chains to
 * its first char (the interpreter does not run printf: such a kernel is
 * reported as not verified, not as an invalid module).
 */
#include <stdlib.h>

#include "exec.h"
#include "io.h"
#include "passes.h"

bool xe_exec_check_module(const xe_module *m, char **err)
{
   size_t n;
   uint32_t *w = xe_write(m, &n, true);
   if (!w)
      abort();
   xe_module *c = xe_read(w, n * 4, err);
   free(w);
   if (!c)
      return false;
   xe_options o;
   xe_options_init(&o);
   xe_ctx ctx = { .module = c, .options = &o, .remarks = NULL };
   xeopt_pass_canonicalize(&ctx);
   xe_module_invalidate(c);
   xeopt_pass_interface_vars(&ctx);
   xe_module_invalidate(c);
   xeopt_pass_block_order(&ctx);
   bool ok = xe_validate(c, err);
   xe_options_free(&o);
   xe_module_free(c);
   return ok;
}
