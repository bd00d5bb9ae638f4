/* A work-item's memory accesses (memory.c). */
#ifndef XEOPT_EXEC_MEMORY_H
#define XEOPT_EXEC_MEMORY_H

#include "state.h"

/* The n bytes at the tagged pointer ptr, accessed by w (NULL: no
 * work-item), or NULL after recording an invalid-pointer or out-of-bounds
 * failure.  In a measuring run an access past a buffer's end records the
 * reach and returns zeroed scratch bytes instead. */
uint8_t *xe_run_mem(xe_run *r, xe_wi *w, const dinst *d, uint64_t ptr, uint64_t n, bool write);
/* xe_run_mem with flags: XE_MEM_WRITE, XE_MEM_ATOMIC (an atomic access,
 * for race detection), XE_MEM_UNTRACKED (bounds check only: sub-group
 * block reads/writes record each lane's bytes themselves); val as for
 * xe_race_access. */
enum { XE_MEM_WRITE = 1, XE_MEM_ATOMIC = 2, XE_MEM_UNTRACKED = 4 };
uint8_t *xe_run_mem_ex(xe_run *r, xe_wi *w, const dinst *d, uint64_t ptr, uint64_t n, unsigned flags,
                       const uint8_t *val);

#endif
