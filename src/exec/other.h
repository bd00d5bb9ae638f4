/* The instructions the run loop's switch does not handle (other.c). */
#ifndef XEOPT_EXEC_OTHER_H
#define XEOPT_EXEC_OTHER_H

#include "state.h"

/* Everything the main switch does not handle: ALU, composites, atomics. */
bool xe_run_other(xe_run *r, xe_wi *w, const dinst *d);

#endif
