/*
 * Per-lane global accesses that may become sub-group block reads/writes
 * (cl_intel_subgroups), decided on the lane facts of lanes.h, and the
 * wide form's address decomposition: loads of p[base + k*SG + lane],
 * k = 0..n-1, read one vector block when lane 0's addresses share a key
 * and step by SG elements.  block_access.c describes the proof.
 */
#ifndef XEOPT_BLOCK_ACCESS_H
#define XEOPT_BLOCK_ACCESS_H

#include "lanes.h"

/* A CrossWorkgroup load or store, filled by the caller (inst, ptr,
 * elem_type, store, width 1) and by xe_block_access_decide; the grouping
 * fields belong to the caller. */
typedef struct xe_block_access {
   xe_inst *inst;
   uint32_t ptr, elem_type;
   bool store;
   bool use_offset;   /* needs the assumed-offset facts */
   bool use_argalign; /* needs --assume-aligned for the argument */
   uint32_t root;
   unsigned width;    /* > 1: first load of a merged group of width loads */
   struct xe_block_access *next_in_group;
   bool merged;       /* a later member of a group: rewritten with the first */
} xe_block_access;

/* Decides one access: NULL when it may become a block access (a->root,
 * use_offset and use_argalign set), else the reason, a static string or
 * why (n bytes).  plain: the lane facts; assumed: the facts with the global
 * offset a multiple of the sub-group size (XE_LANES_ASSUME_OFFSET), used
 * only when assume_aligned (--assume-aligned) is set. */
const char *xe_block_access_decide(xe_module *m, bool assume_aligned, const xe_lanes *plain,
                                   const xe_lanes *assumed, xe_block_access *a, char *why,
                                   size_t n);

/* ---- wide form ----
 * Lane 0's address of a load, written as key + offset, where key is (base
 * pointer, the index's non-constant terms, sign-extended?) and offset a
 * constant number of bytes.  Loads with the same key whose offsets step by
 * SG elements read one vector block (component k of lane i = p[k*SG + i],
 * the cl_intel_subgroups layout). */
#define XE_LANE0_ADDR_LEAVES 4

typedef struct xe_lane0_addr {
   uint32_t base;
   uint32_t leaf[XE_LANE0_ADDR_LEAVES];   /* sorted, 0-padded: the sum's non-constant terms */
   bool sext, ok;                         /* ok: the decomposition exists */
   int64_t off;                           /* bytes */
} xe_lane0_addr;

/* The decomposition of pointer ptr (a PtrAccessChain base[index]); .ok
 * false when it has no such form or the sign extension may wrap in lane 0. */
xe_lane0_addr xe_lane0_addr_of(xe_module *m, const xe_lanes *l, uint32_t ptr);
bool xe_lane0_addr_same_key(const xe_lane0_addr *a, const xe_lane0_addr *b);
/* Loads may merge across i: it writes no memory and orders none
 * (src/ir/opinfo.h). */
bool xe_inst_no_memory_write(const xe_module *m, const xe_inst *i);

#endif
