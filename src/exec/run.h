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

uint8_t *xe_run_mem(xe_run *r, xe_wi *w, const dinst *d, uint64_t ptr, uint64_t n, bool write);
/* xe_run_mem with flags: XE_MEM_WRITE, XE_MEM_ATOMIC (an atomic access,
 * for race detection), XE_MEM_UNTRACKED (bounds check only: sub-group
 * block reads/writes record each lane's bytes themselves); val as for
 * xe_race_access. */
enum { XE_MEM_WRITE = 1, XE_MEM_ATOMIC = 2, XE_MEM_UNTRACKED = 4 };
uint8_t *xe_run_mem_ex(xe_run *r, xe_wi *w, const dinst *d, uint64_t ptr, uint64_t n, unsigned flags,
                       const uint8_t *val);
bool xe_run_fail(xe_run *r, const dinst *d, const char *msg);
/* Everything the main switch does not handle: ALU, composites, atomics. */
bool xe_run_other(xe_run *r, xe_wi *w, const dinst *d);
/* Images and samplers (image.c): OpSampledImage, OpImageSampleExplicitLod,
 * OpImageRead, OpImageWrite, OpImageQuery{Size,SizeLod,Format,Order}. */
bool xe_run_image(xe_run *r, xe_wi *w, const dinst *d);
/* Executes a sub-group collective for the n lanes starting at lanes. */
bool xe_run_collective(xe_run *r, xe_wi *lanes, unsigned n, const dinst *d);

/* Race detection (race.c).  begin allocates the state for a launch (false
 * when the launch is too large to track); group starts a work-group;
 * barrier applies a work-group (subgroup < 0) or sub-group barrier with the
 * given memory semantics; access checks and records n bytes at ptr by w,
 * adding each newly found racing instruction pair to l->races, l->race and
 * l->race_log.  mem: the bytes at ptr (before a write); val: the bytes a write stores (NULL: unknown), so that a
 * write of the value already there is not a write-write race. */
bool xe_race_begin(xe_run *r);
void xe_race_end(xe_run *r);
void xe_race_group(xe_run *r, uint64_t group);
void xe_race_barrier(xe_run *r, int64_t subgroup, uint32_t semantics);
void xe_race_access(xe_run *r, const xe_wi *w, const dinst *d, uint64_t ptr, const uint8_t *mem,
                    uint64_t n, bool write,
                    bool atomic, const uint8_t *val);

#endif
