/* Run state shared by run.c, collective.c and the ALU glue. */
#ifndef XEOPT_EXEC_RUN_H
#define XEOPT_EXEC_RUN_H

#include "internal.h"

#define XE_MAX_DEPTH 32
enum { WI_RUN, WI_BARRIER, WI_SG, WI_WG, WI_DONE };

typedef struct xe_wi {
   uint8_t *v;        /* value area */
   uint8_t *priv;     /* private memory */
   uint32_t pc, block;
   unsigned state, depth, lane;
   struct { uint32_t pc, block; } stack[XE_MAX_DEPTH];
} xe_wi;

typedef struct xe_run {
   const xe_prog *p;
   const xe_launch *l;
   const char *kernel;
   uint64_t local[3];       /* this work-group's actual size (smaller in a partial group) */
   uint64_t enq_local[3];   /* the enqueued local size */
   uint64_t sg;
   xe_wi *wi;
   uint8_t *vmem, *pmem, *phi_tmp, *local_mem;
   uint8_t *local_args[XE_EXEC_MAX_ARGS];
   uint64_t steps;
   bool failed;
   xe_fault fault;
   uint8_t *scratch[2];     /* measuring runs: where out-of-bounds accesses go */
   uint64_t scratch_size[2];
   unsigned scratch_next;
   uint64_t reach[XE_EXEC_MAX_ARGS];
   char err[512];
} xe_run;

uint8_t *xe_run_mem(xe_run *r, xe_wi *w, const dinst *d, uint64_t ptr, uint64_t n, bool write);
bool xe_run_fail(xe_run *r, const dinst *d, const char *msg);
/* Everything the main switch does not handle: ALU, composites, atomics. */
bool xe_run_other(xe_run *r, xe_wi *w, const dinst *d);
/* Executes a sub-group collective for the n lanes starting at lanes. */
bool xe_run_collective(xe_run *r, xe_wi *lanes, unsigned n, const dinst *d);

#endif
