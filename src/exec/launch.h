/* Argument descriptions shared by `xeopt run` and --verify. */
#ifndef XEOPT_EXEC_LAUNCH_H
#define XEOPT_EXEC_LAUNCH_H

#include <cjson/cJSON.h>
#include "exec.h"

enum xe_fill { FILL_ZERO, FILL_RANDOM, FILL_IOTA, FILL_CONST };

typedef struct xe_arg_spec {
   enum xe_arg_kind kind;
   const char *type_name;
   unsigned elem;            /* element / scalar size in bytes */
   bool is_float, is_signed;
   uint64_t count;           /* buffer elements, or local bytes */
   enum xe_fill fill;
   double value;             /* scalar value or const fill */
   uint64_t range;           /* random integers are in [0, range); 0 = 256 */
   xe_image_desc image;      /* XE_ARG_IMAGE (count: components, elem: component bytes) */
   uint32_t sampler;         /* XE_ARG_SAMPLER: an XE_SAMPLER value */
} xe_arg_spec;

/* "buf:int:1024:random", "int:5", "local:4096",
 * "image:rgba:float:64x32[:FILL]" (ORDER:TYPE:W[xH[xD]], docs/exec.md),
 * "sampler:clamp_to_edge:unnormalized:nearest"; false when malformed. */
bool xe_arg_spec_parse(const char *s, xe_arg_spec *a);
/* Allocates and fills the argument (seeded, deterministic). */
void xe_arg_materialize(const xe_arg_spec *a, xe_exec_arg *out, uint64_t seed);
/* Reads a launch in the `xeopt run --launch` JSON format (docs/exec.md):
 * "kernel", "global", "local", "offset", "subgroup_size", "args" (argument
 * strings as above, into specs[0..*nspecs)), "spec" (SpecId -> value; the
 * value is stored as a double, spec_float set).  Sets l->kernel (pointing
 * into js), sizes, dims and spec constants; allocates nothing.  false with
 * *err (malloc'd) when a field is malformed. */
bool xe_launch_from_json(const cJSON *js, xe_launch *l, xe_arg_spec *specs, unsigned *nspecs,
                         char **err);
/* The names of image channel orders and data types in argument strings
 * ("rgba", "unorm8"): the SPIR-V enumerant, or -1 when unknown; and back
 * (NULL when the value has no name). */
int xe_image_order_parse(const char *s, size_t n);
int xe_image_type_parse(const char *s, size_t n);
const char *xe_image_order_name(uint32_t order);
const char *xe_image_type_name(uint32_t type);
/* An image argument's spec from its description and fill. */
void xe_image_spec(xe_arg_spec *a, const xe_image_desc *im, enum xe_fill fill);
/* The argument string of a sampler value ("sampler:clamp:normalized:linear"). */
const char *xe_sampler_string(uint32_t s, char *buf, size_t n);
/* Deterministic generator (splitmix64). */
uint64_t xe_rand(uint64_t *state);

#endif
