/*
 * Generic address space inference (OpenCL 2.0 generic pointers).
 *
 * For every value of Generic pointer type in a function, the one storage
 * class it can hold, found by following OpPtrCastToGeneric through access
 * chains, Generic-to-Generic bitcasts, OpPhi and OpSelect.  Values that come
 * from elsewhere (parameters, loads, calls) are unknown; values reached by
 * two spaces are conflicts.  Null constants constrain nothing.
 */
#ifndef XEOPT_ADDRESS_SPACES_H
#define XEOPT_ADDRESS_SPACES_H
#include "idmap.h"
#include "ir.h"

enum {
   XE_AS_NONE = -1,      /* nothing reaches it yet (null only) */
   XE_AS_UNKNOWN = -2,   /* reached by a value we cannot trace, or two spaces */
};

/* Per-function tables are sized by the function's own ids (a sparse map,
 * src/ir/idmap.h), not by the module's bound: analysing every kernel of a
 * module stays linear in the number of kernels.  Read them with
 * xe_as_space and xe_as_conflict. */
typedef struct xe_as_info {
   uint32_t n;           /* module bound at analysis time */
   xe_idmap ids;         /* f's ids (parameters and results) -> index */
   int *space;           /* by index: SpvStorageClass, XE_AS_NONE or XE_AS_UNKNOWN;
                          * meaningful only for Generic pointer values of f */
   uint8_t *conflict;    /* by index: two known spaces met here */
} xe_as_info;

/* The space of id: its entry for f's own ids; XE_AS_NONE for other ids
 * below the bound (nothing of f reaches them); XE_AS_UNKNOWN for ids added
 * after the analysis. */
static inline int xe_as_space(const xe_as_info *a, uint32_t id)
{
   uint32_t k = xe_idmap_find(&a->ids, id);
   if (k != XE_IDMAP_NONE)
      return a->space[k];
   return id < a->n ? XE_AS_NONE : XE_AS_UNKNOWN;
}
/* Did two known spaces meet at id (one of f's ids)? */
static inline bool xe_as_conflict(const xe_as_info *a, uint32_t id)
{
   uint32_t k = xe_idmap_find(&a->ids, id);
   return k != XE_IDMAP_NONE && a->conflict[k];
}

bool xe_is_generic_ptr_type(const xe_module *m, uint32_t type_id);
/* Analyses f; the caller frees with xe_as_free.  params, when not NULL,
 * gives the space of Generic parameters by id (see xe_as_param_spaces),
 * for ids below nparams (others count as unknown: passes add ids);
 * otherwise they are unknown.  Loads of a Generic pointer straight from a
 * Function variable whose every use is a plain load or store take the join
 * of the values stored. */
void xe_as_analyze(xe_module *m, xe_function *f, const int *params, uint32_t nparams,
                   xe_as_info *out);
/* Space of every Generic parameter of functions that are called, the join
 * over all call sites (iterated to a fixed point across the call graph);
 * XE_AS_UNKNOWN for the others and for exported functions (LinkageAttributes
 * Export: callers outside the module are not seen).  *conflict_out (may be NULL) gets a
 * per-id flag: two spaces reach the parameter.  Caller frees both. */
int *xe_as_param_spaces(xe_module *m, uint8_t **conflict_out);
void xe_as_free(xe_as_info *a);

#endif
