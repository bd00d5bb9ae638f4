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
/* What a launch must put into a pointer argument's memory beyond random
 * bytes (docs/exec.md): the scalars and pointers of one element, read from
 * the declared type.  DPC++ passes a SYCL kernel's captures by value
 * (FuncParamAttr ByVal on a Function-storage pointer): sycl::range and
 * sycl::id structs, indexers holding a dimension count and a pointer to
 * shapes and strides, USM pointers; and an argument may be a buffer of
 * pointers (`T **`).  Random bytes in such memory are wild pointers and
 * sizes no kernel expects, so no launch is ever valid. */
enum xe_leaf_kind { XE_LEAF_INT, XE_LEAF_FLOAT, XE_LEAF_PTR };
#define XE_PARAM_MAX_LEAVES 32
typedef struct xe_param_leaf {
   uint32_t offset;          /* bytes into one element of the argument */
   uint8_t kind;             /* enum xe_leaf_kind */
   uint8_t width;            /* bytes */
   /* XE_LEAF_PTR: the size of one element of what it points to (the
    * first scalar of its declared pointee; for an i8 pointee, LLVM's
    * opaque pointer, the first width the kernel loads or stores through
    * it, else 8), and whether that is a float.  Pointers in the memory it
    * points to are not followed. */
   uint8_t target_elem;
   bool target_float;
} xe_param_leaf;
typedef struct xe_param_mem {
   bool by_value;            /* FuncParamAttr ByVal: the argument is one element */
   unsigned nleaves;         /* 0: nothing to fill but random data */
   xe_param_leaf leaf[XE_PARAM_MAX_LEAVES];
} xe_param_mem;
/* The memory map of parameter k of the kernel: for a by-value aggregate
 * (a Function-storage pointer parameter: a kernel's other arguments are
 * never in private memory) every scalar and pointer leaf, the first
 * XE_PARAM_MAX_LEAVES in layout order; for a buffer, the pointer leaves of
 * its element type only (none for a plain buffer).  false when there is no
 * such kernel or parameter. */
bool xe_exec_param_memory(xe_module *m, const char *kernel, unsigned k, xe_param_mem *out);
/* The width in bytes of the first scalar the kernel loads or stores
 * through pointer parameter k itself (through casts, access chains and
 * calls), and whether it is a float; 0 when there is none or no such
 * kernel or parameter.  LLVM's opaque pointers reach SPIR-V as i8
 * pointers (clang's SPIR-V backend, llvm-spirv 20+), so a `uchar *`
 * parameter may hold structs of ints. */
unsigned xe_exec_param_access_width(xe_module *m, const char *kernel, unsigned k, bool *is_float);
/* Deterministic generator (splitmix64). */
uint64_t xe_rand(uint64_t *state);

#endif
