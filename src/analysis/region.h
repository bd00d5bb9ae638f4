/*
 * What a single-entry region of a kernel body does to memory: the region
 * an edge guards (the blocks reached from its target before a merge
 * block), every load and store in it as `buffer argument[affine index]`
 * (affine.h), and whether it has other effects (atomics, barriers, calls,
 * memory built-ins) or shares buffers with the rest of the kernel.
 *
 * Used by the padding pass to decide whether work-items that skipped the
 * region may run it.  Buffer arguments are assumed not to alias each other
 * (the callers turn that into a host contract).  Every query fails with a
 * sentence in `why` naming the reason, for remarks.
 */
#ifndef XEOPT_REGION_H
#define XEOPT_REGION_H

#include "affine.h"
#include "cfg.h"

#define XE_REGION_MAX_ACCESS 64

typedef struct xe_access {
   int arg;              /* kernel argument (body parameter) index */
   bool store;
   xe_affine off;        /* index in elements of elem, coefficients >= 0 */
   uint32_t elem;        /* pointee type of the argument */
   uint32_t value;       /* the stored value, or the load's result */
} xe_access;

typedef struct xe_region {
   /* Set by the caller. */
   xe_module *m;
   xe_function *f;                /* the kernel body */
   const xe_cfg *cfg;
   xe_affine_ctx *aff;
   unsigned nparams;
   const uint32_t *param_ids;     /* body parameters = kernel arguments */
   const char *const *names;      /* argument names for messages */
   xe_block *in, *out;            /* region entry; merge block it must leave to */
   /* Results. */
   uint8_t *blocks;               /* by CFG index: 1 if in the region */
   unsigned nacc;
   xe_access acc[XE_REGION_MAX_ACCESS];
   char why[256];
} xe_region;

/* The blocks reached from in without passing out.  Fails unless in has one
 * predecessor, the region is loop-free, dominated by in, leaves only to out
 * (at least once) or returns, and out's phis are unused. */
bool xe_region_collect(xe_region *r);
/* Fills acc; fails on any effect other than plain loads and stores of
 * CrossWorkgroup arguments at non-negative affine indices. */
bool xe_region_scan(xe_region *r);
/* Fails if an argument with stored[arg] set is used outside the region, or
 * code outside writes through a pointer not derived from an argument or a
 * variable. */
bool xe_region_buffers_private(xe_region *r, const uint8_t *stored);
/* True if anything in the body may write through argument arg. */
bool xe_region_buffer_written(xe_region *r, int arg);
/* The argument a pointer derives from; -1 for variables, -2 if unknown. */
int xe_region_pointer_root(xe_region *r, uint32_t id);
void xe_region_free(xe_region *r);

/* Instructions with no effect beyond their result. */
bool xe_pure_opcode(const xe_module *m, const xe_inst *i);
/* Pointee of a pointer type (0 if not one); *sc gets its storage class. */
uint32_t xe_pointee(const xe_module *m, uint32_t ptr_type, uint32_t *sc);

#endif
