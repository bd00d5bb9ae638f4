/*
 * Integer SSA values as affine functions of the work-item ids.
 *
 * A value is described as a sum of terms  coeff * [var] * [arg]  where var
 * is one of the global ids x, y, z, local ids lx, ly, lz, or the
 * group-based forms below (bx = group_id.x * local_size.x, gx = bx + lx),
 * arg is an integer
 * kernel argument (a parameter of the kernel body), and coeff a constant.
 * A term has at most one var and at most one arg, so `y * width + x` is
 * {1·gid.x, 1·gid.y·width} and `i + 4` is {1·gid.x, 4}.  Arguments are
 * the only uniform symbols: they are the same for every work-item and do
 * not change during the kernel.
 *
 * Wrap-around.  The forms are exact mathematical integers.  SPIR-V
 * arithmetic wraps at the width of its type, and OpenCL C code typically
 * truncates get_global_id() to a 32-bit int and sign-extends the result
 * back to 64 bits for the address.  The analysis looks through OpUConvert
 * and OpSConvert (both directions) and through 32-bit adds and multiplies
 * as if none of them wrapped.  That is exact only while every intermediate
 * value lies in [0, 2^(w-1)) for its width w: ids and arguments
 * non-negative and the whole index below 2^31 when a 32-bit operation took
 * part.  `min_bits` records the narrowest width seen so a client can turn
 * this into a host-contract condition (the padding pass does); nothing here
 * checks it.
 */
#ifndef XEOPT_AFFINE_H
#define XEOPT_AFFINE_H

#include "ir.h"

#define XE_AFF_MAX_TERMS 8

enum xe_aff_var {
   XE_AFF_NONE = -1,
   XE_AFF_GID_X = 0, XE_AFF_GID_Y, XE_AFF_GID_Z,
   XE_AFF_LID_X, XE_AFF_LID_Y, XE_AFF_LID_Z,
   /* get_group_id(d) * get_local_size(d): the group's first id without the
    * global offset.  Each is below global_size[d] (also for OpenCL 2.0's
    * smaller last group). */
   XE_AFF_GBASE_X, XE_AFF_GBASE_Y, XE_AFF_GBASE_Z,
   /* group base + local id, folded when both appear with one coefficient:
    * the global id without the offset, in [0, global_size[d]). */
   XE_AFF_GLIN_X, XE_AFF_GLIN_Y, XE_AFF_GLIN_Z,
   XE_AFF_NVARS
};

typedef struct xe_aff_term {
   int64_t coeff;    /* never 0 in a canonical form */
   int8_t var;       /* enum xe_aff_var */
   int16_t arg;      /* kernel argument index, -1 for none */
} xe_aff_term;

typedef struct xe_affine {
   unsigned n;                      /* terms, sorted by (var, arg), merged */
   xe_aff_term t[XE_AFF_MAX_TERMS];
   unsigned min_bits;               /* narrowest integer width in the computation */
} xe_affine;

typedef struct xe_affine_ctx xe_affine_ctx;

/* An analysis of one kernel body (parameter k = kernel argument k). */
xe_affine_ctx *xe_affine_create(xe_module *m, xe_function *body);
void xe_affine_free(xe_affine_ctx *c);
/* The form of an integer id, or NULL when it is not affine.  The pointer
 * stays valid until xe_affine_free. */
const xe_affine *xe_affine_of(xe_affine_ctx *c, uint32_t id);

/* Helpers on forms. */
int64_t xe_affine_const(const xe_affine *a);           /* the term with no var and no arg */
bool xe_affine_uses_var(const xe_affine *a, int var);
/* True if a has only the term 1·var (the id itself). */
bool xe_affine_is_var(const xe_affine *a, int var);
/* True if a has no var terms (same value for every work-item). */
bool xe_affine_is_uniform(const xe_affine *a);
/* True if every coefficient is >= 0 (then, with ids and arguments
 * non-negative, the value is non-negative). */
bool xe_affine_nonneg(const xe_affine *a);
bool xe_affine_equal(const xe_affine *a, const xe_affine *b);
/* a = b + c and a = b - c; false when the result does not fit. */
bool xe_affine_add(xe_affine *a, const xe_affine *b, const xe_affine *c);
bool xe_affine_sub(xe_affine *a, const xe_affine *b, const xe_affine *c);
/* If b == alpha·k + beta with constants alpha, beta (k without constant
 * term), stores them and returns true. */
bool xe_affine_ratio(const xe_affine *b, const xe_affine *k, int64_t *alpha, int64_t *beta);
/* How xe_affine_str spells the ids.  SHORT is the manifest's spelling
 * (docs/manifest.md: x y z, lx, bx, gx, ...); OPENCL is OpenCL C's, for
 * remarks, where a kernel argument may itself be named x:
 * get_global_id(0), get_local_id(0), get_group_id(0)*get_local_size(0)
 * and get_group_id(0)*get_local_size(0) + get_local_id(0). */
typedef enum xe_aff_spelling {
   XE_AFF_SPELL_SHORT,
   XE_AFF_SPELL_OPENCL,
} xe_aff_spelling;

/* Human-readable text ("x + 4", "y*arg3 + x"; with XE_AFF_SPELL_OPENCL
 * "get_global_id(0) + 4"); names[k] names argument k when non-NULL.
 * Returns a malloc'd string. */
char *xe_affine_str(const xe_affine *a, const char *const *names, xe_aff_spelling sp);

#endif
