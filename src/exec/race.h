/* Race detection (race.c). */
#ifndef XEOPT_EXEC_RACE_H
#define XEOPT_EXEC_RACE_H

#include "state.h"

/* begin allocates the state for a launch (false when the launch is too
 * large to track); group starts a work-group; barrier applies a work-group
 * (subgroup < 0) or sub-group barrier with the given memory semantics;
 * access checks and records n bytes at ptr by w, adding each newly found
 * racing instruction pair to l->races, l->race and l->race_log.  mem: the
 * bytes at ptr (before a write); val: the bytes a write stores (NULL:
 * unknown), so that a write of the value already there is not a
 * write-write race. */
bool xe_race_begin(xe_run *r);
void xe_race_end(xe_run *r);
void xe_race_group(xe_run *r, uint64_t group);
void xe_race_barrier(xe_run *r, int64_t subgroup, uint32_t semantics);
void xe_race_access(xe_run *r, const xe_wi *w, const dinst *d, uint64_t ptr, const uint8_t *mem,
                    uint64_t n, bool write,
                    bool atomic, const uint8_t *val);

#endif
