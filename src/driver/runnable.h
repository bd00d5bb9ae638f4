/*
 * What the interpreter (src/exec/exec.h) may run, decided above it: the
 * repairs that let llvm-spirv output validate are passes, and the
 * interpreter sits below the passes.  Used by --verify (xe_verify_modules,
 * called by driver.c), `xeopt run` (src/tool/run.c) and the tests.
 */
#ifndef XEOPT_DRIVER_RUNNABLE_H
#define XEOPT_DRIVER_RUNNABLE_H

#include <stdbool.h>
#include <stdio.h>
#include "exec.h"
#include "pass.h"

/* Whether the interpreter may run m: a copy of m (m is not changed) is
 * repaired (runnable.c says how) and must pass xe_exec_check_module.
 * Else false with *err (malloc'd) the validator's message, or the
 * reader's when m's words do not read back. */
bool xe_check_runnable(const xe_module *m, char **err);

/* Runs every kernel of before and after on o->verify launches (and the
 * user's, o->verify_launches) and compares the buffers the host can see
 * (xe_exec_verify_ex).  Returns true when equal; otherwise *report
 * (malloc'd) says so.  The findings (the kernel, the launch and the first
 * differing element; kernels not verified; a module that is not runnable,
 * xe_check_runnable) go to log, one per line. */
bool xe_verify_modules(const xe_module *before, const xe_module *after, const xe_options *o,
                       FILE *log, char **report);

#endif
