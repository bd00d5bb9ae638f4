/*
 * The state of one run (one launch of one kernel), shared by the run loop
 * (run.c) and everything it dispatches to: the work-items' contexts, the
 * work-group being run, the first failure.  Below every other file of the
 * run: it calls none of them.
 */
#ifndef XEOPT_EXEC_STATE_H
#define XEOPT_EXEC_STATE_H

#include "internal.h"

#define XE_MAX_DEPTH 32
enum { WI_RUN, WI_BARRIER, WI_SG, WI_WG, WI_DONE };

typedef struct xe_wi {
   uint8_t *v;        /* value area */
   uint8_t *priv;     /* private memory */
   uint32_t pc, block;
   unsigned state, depth, lane;
   uint32_t id;       /* launch-linear id: group linear index * group size + lin */
   uint32_t lin;      /* linear local id */
   struct { uint32_t pc, block; } stack[XE_MAX_DEPTH];
} xe_wi;

typedef struct xe_race xe_race;

typedef struct xe_run {
   const xe_prog *p;
   const xe_launch *l;
   const char *kernel;
   uint64_t local[3];       /* this work-group's actual size (smaller in a partial group) */
   uint64_t enq_local[3];   /* the enqueued local size */
   uint64_t sg;
   uint64_t group_linear;   /* linear index of the running work-group */
   xe_wi *wi;
   uint8_t *vmem, *pmem, *phi_tmp, *local_mem;
   uint8_t *local_args[XE_EXEC_MAX_ARGS];
   uint64_t steps;
   xe_race *race;     /* race-detection state (race.c), NULL unless l->racecheck */
   bool failed;
   xe_fault fault;
   uint8_t *scratch[2];     /* measuring runs: where out-of-bounds accesses go */
   uint64_t scratch_size[2];
   unsigned scratch_next;
   uint64_t reach[XE_EXEC_MAX_ARGS];
   char err[512];
} xe_run;

/* Records the run's first failure at d (NULL: no instruction) in r->err,
 * with r->fault.kind XE_FAULT_OTHER unless the caller set a kind; a later
 * failure is dropped.  Returns false, for `return xe_run_fail(...)`. */
bool xe_run_failf(xe_run *r, const dinst *d, const char *fmt, ...)
   __attribute__((format(printf, 3, 4)));
bool xe_run_fail(xe_run *r, const dinst *d, const char *msg);

#endif
