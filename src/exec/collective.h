/* Sub-group and work-group collectives (collective.c). */
#ifndef XEOPT_EXEC_COLLECTIVE_H
#define XEOPT_EXEC_COLLECTIVE_H

#include "state.h"

/* Executes a sub-group collective for the n lanes starting at lanes. */
bool xe_run_collective(xe_run *r, xe_wi *lanes, unsigned n, const dinst *d);

#endif
