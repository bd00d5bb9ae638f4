/*
 * What the interpreter may assume.  The decoder trusts what spvValidate
 * guarantees (composite indices in range, operand types that fit), so a
 * module is run only if it validates once repaired.  The repairs (block
 * order, entry-point interfaces, canonicalize's, SPV_INTEL_memory_access_
 * aliasing dropped) are passes, which sit above the interpreter: the
 * caller repairs a copy and this checks it (src/driver/runnable.c,
 * xe_check_runnable, does both and says why each repair is needed).
 */
#include "exec.h"
#include "io.h"

bool xe_exec_check_module(const xe_module *repaired, char **err)
{
   return xe_validate(repaired, err);
}
