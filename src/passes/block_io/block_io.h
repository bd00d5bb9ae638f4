/*
 * block-io, shared between its files (src/passes/block_io/): pass.c
 * gathers the candidates per kernel, decides (legality, then the cost
 * model) and writes the remarks and the manifest; wide.c groups loads
 * into wide block reads; rewrite.c builds lane 0's base and rewrites each
 * access.  The per-access proof is src/analysis/block_access.c.
 */
#ifndef XEOPT_BLOCK_IO_H
#define XEOPT_BLOCK_IO_H

#include "block_access.h"
#include "lanes.h"
#include "passes.h"

#define SCOPE_SUBGROUP 3

/* The candidates, decided by src/analysis/block_access.h. */
typedef xe_block_access access;

/* ---- wide.c: the wide form ---- */

/* Groups acc's loads (those whose inst is set) into wide block reads:
 * first->width, the later members' merged and next_in_group.  plain,
 * assumed: the lane facts without and with the global offset assumed;
 * sg: the sub-group size. */
void bio_merge_loads(xe_module *m, access *acc, unsigned nacc, const xe_lanes *plain,
                     const xe_lanes *assumed, uint32_t sg);
/* The applied remark of each group bio_merge_loads made, for kernel. */
void bio_remark_merges(xe_module *m, xe_remarks *r, const char *kernel, const access *acc,
                       unsigned nacc);

/* ---- rewrite.c: lane 0's base and the block accesses ---- */

/* Rewrites every access of acc still set (inst) that is not merged into
 * the one before it as a sub-group block read or write, its base lane 0's
 * address built from plain's facts. */
void bio_rewrite_accesses(xe_module *m, const xe_lanes *plain, access *acc, unsigned nacc);

#endif
