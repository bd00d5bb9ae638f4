/*
 * SpecIds of a module's specialization constants.  A pass adding spec
 * constants must pick ids that no existing constant uses: DPC++ and
 * hand-written modules already carry some, and two constants sharing a
 * SpecId would be set together by the runtime.
 */
#ifndef XEOPT_SPEC_IDS_H
#define XEOPT_SPEC_IDS_H

#include "ir.h"

/* Is SpecId id decorated on anything in m (OpDecorate, including through
 * decoration groups, whose OpDecorate targets the group)? */
bool xe_spec_id_used(const xe_module *m, uint32_t id);
/* The lowest SpecId at or above from that m does not use.  Decorating the
 * result before asking again gives the next one. */
uint32_t xe_spec_id_fresh(const xe_module *m, uint32_t from);

#endif
