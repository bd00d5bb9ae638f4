/*
 * Level Zero host support for xeopt's specialization constants.
 *
 * The loop-spec-constants pass gives every kernel argument that bounds a
 * loop two specialization constants: a flag (bool) and a value (the
 * argument's integer type), listed in the manifest section
 * `spec_constants` (docs/manifest.md).  When the flag is true the kernel
 * uses the value instead of the argument, and IGC folds it when
 * zeModuleCreate builds the module.  This helper turns "kernel K, argument
 * A, value V" requests into the ze_module_constants_t that zeModuleCreate
 * takes in ze_module_desc_t.pConstants:
 *
 *    xeopt_ze_value want[] = { { "sum", "inner", 0, 16 } };
 *    xeopt_ze_constants c;
 *    char err[256];
 *    if (xeopt_ze_constants_from_json(manifest_text, want, 1, &c, err, sizeof(err)))
 *       fail(err);
 *    desc.pConstants = &c.desc;
 *    zeModuleCreate(ctx, dev, &desc, &module, &log);
 *    xeopt_ze_constants_free(&c);          // after zeModuleCreate returns
 *
 * Shapes.  For each request the result holds two constants: the flag's
 * SpecId with a pointer to a one-byte true (IGC sizes a bool constant as
 * one byte) and the value's SpecId with a pointer to the value stored in
 * the argument's size (1, 2, 4 or 8 bytes, host byte order).  Every other
 * argument listed in the manifest gets its flag set to false, so the module
 * reads those arguments at launch even if it was specialized offline
 * (`--specialize`): the only host guarantee left is the one for the
 * requested values, namely that each requested argument is passed at launch
 * with exactly the requested value.
 *
 * Ownership.  The ids, the pointer array and the values live in memory the
 * xeopt_ze_constants owns; c.desc points into it.  It must stay alive until
 * zeModuleCreate returns and be released with xeopt_ze_constants_free.  The
 * manifest and the request array are not referenced after the call.
 *
 * Errors.  A status other than XEOPT_ZE_OK leaves *out empty (nothing to
 * free, desc.numConstants == 0) and writes a one-line message to err when
 * err_size > 0.
 *
 * Depends on the Level Zero headers only (Debian libze-dev), not on the
 * loader: nothing here calls into Level Zero.
 */
#ifndef XEOPT_LEVEL_ZERO_H
#define XEOPT_LEVEL_ZERO_H

#include <stddef.h>
#include <stdint.h>

#include <level_zero/ze_api.h>

#ifdef __cplusplus
extern "C" {
#endif

struct cJSON;

/* One value the host wants: kernel name, argument by name (or, when
 * argument is NULL, by its zero-based index) and the value it will pass. */
typedef struct xeopt_ze_value {
   const char *kernel;
   const char *argument;
   unsigned index;
   int64_t value;     /* unsigned values above INT64_MAX: their two's complement */
} xeopt_ze_value;

typedef struct xeopt_ze_constants {
   ze_module_constants_t desc;   /* give &desc to ze_module_desc_t.pConstants */
   /* Storage behind desc; owned, released by xeopt_ze_constants_free. */
   uint32_t *ids;
   const void **values;
   uint64_t *slots;
} xeopt_ze_constants;

typedef enum xeopt_ze_status {
   XEOPT_ZE_OK = 0,
   XEOPT_ZE_BAD_MANIFEST,      /* not JSON, not a manifest of version 1 ("xeopt_manifest"),
                                  or an entry of a section xeopt defines breaks
                                  docs/manifest.md; err says which kernel, entry and field */
   XEOPT_ZE_UNKNOWN_KERNEL,    /* the manifest has no spec constants for that kernel */
   XEOPT_ZE_UNKNOWN_ARGUMENT,  /* the kernel has no spec constants for that argument */
   XEOPT_ZE_OUT_OF_RANGE,      /* the value does not fit the argument's type */
   XEOPT_ZE_CONFLICT,          /* one argument requested twice with different values */
   XEOPT_ZE_NO_MEMORY,
} xeopt_ze_status;

/* From the manifest's JSON text (as xeopt writes it next to the module). */
xeopt_ze_status xeopt_ze_constants_from_json(const char *manifest_json,
                                             const xeopt_ze_value *want, unsigned nwant,
                                             xeopt_ze_constants *out, char *err,
                                             size_t err_size);
/* From a parsed manifest (cJSON); the manifest is only read. */
xeopt_ze_status xeopt_ze_constants_from_cjson(const struct cJSON *manifest,
                                              const xeopt_ze_value *want, unsigned nwant,
                                              xeopt_ze_constants *out, char *err,
                                              size_t err_size);
/* Releases the storage and empties c; c may be empty already. */
void xeopt_ze_constants_free(xeopt_ze_constants *c);
/* A constant name for a status ("XEOPT_ZE_OK", ...). */
const char *xeopt_ze_status_name(xeopt_ze_status s);

#ifdef __cplusplus
}
#endif

#endif
