/*
 * Formulas of the launch: the number of elements a buffer needs so that
 * every index an affine offset (affine.h) takes over a launch is in range.
 *
 * A formula is a sum of monomials  coeff · [argument] · [launch quantity],
 * the launch quantities being global_size[d], global_offset[d] and
 * local_size[d].  The largest value of an offset with non-negative
 * coefficients is at the largest ids: global id d ranges up to
 * global_size[d] + global_offset[d] - 1 and local id d up to
 * local_size[d] - 1, so offset `y*w + x` needs
 *    w*global_size[1] + w*global_offset[1] + global_size[0] + global_offset[0] - w
 * elements.  The JSON form (docs/manifest.md) is what the interpreter's
 * --verify evaluates; both it and xe_formula_eval read and evaluate it
 * with the manifest layer (src/manifest/manifest.h).
 */
#ifndef XEOPT_LAUNCH_FORMULA_H
#define XEOPT_LAUNCH_FORMULA_H

#include "affine.h"

struct cJSON;
struct xe_mf_formula;

enum xe_launch_q { XE_Q_ONE, XE_Q_GLOBAL_SIZE, XE_Q_GLOBAL_OFFSET, XE_Q_LOCAL_SIZE };

typedef struct xe_monomial {
   int64_t coeff;
   int arg;               /* -1 when none */
   enum xe_launch_q q;
   int dim;               /* 0..2 when q != XE_Q_ONE */
} xe_monomial;

#define XE_FORMULA_MAX 24
typedef struct xe_formula {
   unsigned n;
   xe_monomial t[XE_FORMULA_MAX];
} xe_formula;

/* max(offset) + 1 over the launch; false if it does not fit.  The offset
 * must have non-negative coefficients. */
bool xe_formula_min_elements(const xe_affine *offset, xe_formula *out);
/* True if a >= b for every launch and non-negative arguments: every
 * monomial of a - b has a non-negative coefficient, except that a
 * negative constant may be covered by a positive size term (sizes >= 1). */
bool xe_formula_dominates(const xe_formula *a, const xe_formula *b);

/* {"text": "...", "terms": [{"coeff":1, "launch":"global_size", "dim":0}, ...]} */
struct cJSON *xe_formula_json(const xe_formula *f, const char *const *arg_names);
char *xe_formula_text(const xe_formula *f, const char *const *arg_names);

/* The maximum of formulas none of which dominates another: what a buffer
 * accessed at several indices needs (`in[i]`, `in[i + 1]` keep only the
 * second; `a[x]`, `a[w*y]` keep both). */
#define XE_FORMULA_MAX_ALT 4
typedef struct xe_formula_max {
   unsigned n;
   xe_formula alt[XE_FORMULA_MAX_ALT];
} xe_formula_max;
/* Adds f unless dominated, dropping what f dominates; false if full. */
bool xe_formula_max_add(xe_formula_max *m, const xe_formula *f);
char *xe_formula_max_text(const xe_formula_max *m, const char *const *arg_names);
/* The manifest's record of m (manifest.h): the single formula's terms, or
 * max_of the alternatives when there are several, each with its text as
 * xe_formula_text and xe_formula_max_text spell it.  m->n must be at least
 * 1.  *out is the caller's, released with xe_mf_formula_free;
 * xe_out_of_memory when out of memory. */
void xe_formula_max_record(const xe_formula_max *m, const char *const *arg_names,
                           struct xe_mf_formula *out);
/* The single formula's object, or {"text", "max_of": [...]}: the record
 * above as the manifest layer renders it. */
struct cJSON *xe_formula_max_json(const xe_formula_max *m, const char *const *arg_names);

typedef struct xe_launch {
   uint64_t global_size[3], global_offset[3], local_size[3];
} xe_launch;
/* Evaluates a formula object ({"terms"} or {"max_of": [...]}) with the
 * argument values args[0..nargs); false if it names a missing argument. */
bool xe_formula_eval(const struct cJSON *f, const xe_launch *l, const int64_t *args,
                     unsigned nargs, int64_t *value);

#endif
