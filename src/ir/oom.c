/*
 * Out of memory (ir.h): a failed allocation anywhere in the library ends
 * the call that made it, not the process.  xe_optimize_ex (the driver)
 * arms a jump back to its own frame for the thread it runs on; without
 * one (the command line outside xeopt_optimize, a unit test) the message
 * is printed and the process exits with 2, the status of
 * XEOPT_ERROR_INTERNAL: never an abort.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ir.h"

static _Thread_local jmp_buf *oom_target;

jmp_buf *xe_oom_arm(jmp_buf *target)
{
   jmp_buf *prev = oom_target;
   oom_target = target;
   return prev;
}

_Noreturn void xe_out_of_memory(void)
{
   jmp_buf *t = oom_target;
   if (t) {
      oom_target = NULL;
      longjmp(*t, 1);
   }
   fputs("xeopt: error: out of memory\n", stderr);
   exit(2);
}

void *xe_calloc(size_t n, size_t size)
{
   void *p = calloc(n ? n : 1, size);
   if (!p)
      xe_out_of_memory();
   return p;
}
