/*
 * Reference interpreter for SPIR-V compute kernels (Kernel execution
 * model, Physical64 addressing).  It exists so that xeopt can prove that an
 * optimized module computes the same bytes as its input (--verify) and so
 * that users can try a kernel on the CPU (`xeopt run`).
 *
 * Usage: check that the module is runnable (xe_exec_check_module on a
 * repaired copy, which the caller makes: the interpreter runs no pass;
 * xe_check_runnable in src/driver/runnable.h does it), fill an xe_launch
 * (kernel name, sizes, arguments), call xe_exec_run(); buffer arguments are read and written in place.  On any
 * failure (unsupported instruction, out-of-bounds access, division by zero,
 * barrier deadlock) it returns false and *err is a malloc'd message naming
 * the kernel and, where there is one, the instruction.
 */
#ifndef XEOPT_EXEC_H
#define XEOPT_EXEC_H

#include <stdio.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ir.h"

enum xe_arg_kind {
   XE_ARG_NONE = 0,
   XE_ARG_BUFFER,   /* CrossWorkgroup (or Constant) buffer: data, size bytes */
   XE_ARG_SCALAR,   /* by-value argument: its bytes in data (size bytes) */
   XE_ARG_LOCAL,    /* local-memory pointer argument of size bytes */
   XE_ARG_IMAGE,    /* image memory object: texels in data (size bytes), see image */
   XE_ARG_SAMPLER,  /* sampler_t argument: an XE_SAMPLER value in data (4 bytes) */
};

/* An image argument (docs/exec.md, "Images"): width * height * depth
 * texels, x fastest, then y, then z, rows packed (no pitch).  A texel is
 * xe_image_channels(order) components of xe_image_channel_size(type)
 * bytes, in the order's memory order (BGRA: b first).  1-D images have
 * height = depth = 1, 2-D depth = 1.  Arrays and 1-D image buffers are not
 * supported. */
typedef struct xe_image_desc {
   uint32_t order;          /* SPIR-V ImageChannelOrder (SpvImageChannelOrderRGBA ...) */
   uint32_t type;           /* SPIR-V ImageChannelDataType (SpvImageChannelDataTypeFloat ...) */
   unsigned dims;           /* 1, 2 or 3 */
   uint64_t width, height, depth;
} xe_image_desc;

/* A sampler value: SPIR-V's SamplerAddressingMode (0 None, 1 ClampToEdge,
 * 2 Clamp, 3 Repeat, 4 RepeatMirrored), whether coordinates are
 * normalized, and SamplerFilterMode (0 Nearest, 1 Linear), the operands of
 * OpConstantSampler. */
#define XE_SAMPLER(addressing, normalized, filter) \
   ((uint32_t)(addressing) | (uint32_t)(normalized) << 4 | (uint32_t)(filter) << 8)
#define XE_SAMPLER_ADDRESSING(s) ((s) & 0xfu)
#define XE_SAMPLER_NORMALIZED(s) (((s) >> 4) & 1u)
#define XE_SAMPLER_FILTER(s) (((s) >> 8) & 1u)

/* Components per texel of a channel order (0: not supported), bytes per
 * component of a channel data type (0: a packed or unsupported type). */
unsigned xe_image_channels(uint32_t order);
unsigned xe_image_channel_size(uint32_t type);

typedef struct xe_exec_arg {
   enum xe_arg_kind kind;
   uint8_t *data;
   uint64_t size;
   /* Buffers: the kernel's pointer is data + start (a sub-buffer, or a
    * buffer that does not start 16-byte aligned); the bytes before it are
    * the host's, and an access there is out of bounds.  0 for the others. */
   uint64_t start;
   xe_image_desc image;     /* XE_ARG_IMAGE: the format and extent; size is their product */
} xe_exec_arg;

/* Why xe_exec_run failed, for callers that retry with another launch. */
enum xe_fault_kind {
   XE_FAULT_NONE = 0,
   XE_FAULT_OTHER,          /* see the message */
   XE_FAULT_BOUNDS,         /* out-of-bounds access (fault.arg, fault.end); also an image
                               read or write at a coordinate outside the image where the
                               result is undefined (fault.arg the image, fault.end 0) */
   XE_FAULT_STEPS,          /* the step limit */
   XE_FAULT_BLOCK_IO,       /* block read/write in a partial sub-group, or misaligned */
};

typedef struct xe_fault {
   enum xe_fault_kind kind;
   unsigned arg;            /* BOUNDS on a buffer or local-memory argument: its index,
                               else ~0u */
   uint64_t end;            /* BOUNDS: the allocation size the access needed (bytes); 0
                               when the access was below the start or not in a buffer */
   bool local_memory;       /* BOUNDS: the access was to local memory */
} xe_fault;

#define XE_EXEC_MAX_ARGS 64
#define XE_EXEC_MAX_SPEC 64

typedef struct xe_launch {
   const char *kernel;
   uint64_t global[3];      /* work-items per dimension (unused dims = 1) */
   uint64_t local[3];       /* 0 = the kernel's LocalSize, else 1/16 per dim */
   uint64_t offset[3];      /* global offset */
   unsigned dims;           /* 1..3, for NumWorkgroups etc. (informative) */
   unsigned subgroup_size;  /* 0 = module's SubgroupSize, else 16 */
   unsigned nargs;
   xe_exec_arg args[XE_EXEC_MAX_ARGS];
   unsigned nspec;
   uint32_t spec_id[XE_EXEC_MAX_SPEC];
   uint64_t spec_value[XE_EXEC_MAX_SPEC];   /* integer value, or double bits when spec_float */
   bool spec_float[XE_EXEC_MAX_SPEC];      /* converted to the constant's float width */
   uint64_t max_steps;      /* 0 = unlimited; else error after this many instructions */
   uint64_t steps;          /* out: work-item instructions executed */
   /* Data-race detection (docs/exec.md, "Races"): when racecheck is set,
    * every pair of instructions found racing is counted in races, the first
    * one's line ("kernel K: data race (write-write) at argument 0 byte 4:
    * OpStore in block %12 by work-item (0,0,0) and ...") kept in race, and
    * each one written to race_log (not owned; NULL: not written).  A race is
    * not an error: xe_exec_run still returns true. */
   bool racecheck;
   FILE *race_log;
   uint64_t races;          /* out */
   char race[512];          /* out: the first race, "" if none */
   xe_fault fault;          /* out: the failure's kind, when xe_exec_run fails */
   /* Measuring run (in): an access past the end of a buffer or local-memory
    * argument is not an error but recorded in reach[k] (the allocation
    * size in bytes the run needed; 0 when every access was in bounds); such
    * loads read zeros and such stores go nowhere.  For sizing buffers:
    * the results of a measuring run are not the kernel's. */
   bool measure;
   uint64_t reach[XE_EXEC_MAX_ARGS];   /* out, with measure */
} xe_launch;

/* Whether the interpreter may run a module (check.c): spvValidate must
 * accept `repaired`, a copy of it the caller repaired (block order,
 * entry-point interfaces, canonicalize, SPV_INTEL_memory_access_aliasing
 * dropped: the repair passes, which sit above this layer).  Else false
 * with *err (malloc'd) the validator's message.  xe_check_runnable
 * (src/driver/runnable.h) makes the copy, repairs and checks it.
 *
 * Precondition of every function below that takes a module: the module
 * is runnable, i.e. its repaired copy passed this check.  The interpreter
 * runs the module itself, not the copy, so step counts and the
 * instructions its messages name are the module's own. */
bool xe_exec_check_module(const xe_module *repaired, char **err);

/* Runs the kernel over the whole NDRange.  true on success.  The module
 * must be runnable (above).  A global size that is not a multiple of
 * the local size is an OpenCL 2.0 non-uniform NDRange (the last work-group
 * of a dimension is partial; WorkgroupSize is its actual size,
 * EnqueuedWorkgroupSize the local size given). */
bool xe_exec_run(xe_module *m, xe_launch *l, char **err);

/* Facts about a kernel's parameters, for front ends that build launches:
 * for parameter k, *kind is XE_ARG_BUFFER (CrossWorkgroup/Generic/Constant
 * pointer), XE_ARG_LOCAL (Workgroup pointer), XE_ARG_IMAGE (OpTypeImage),
 * XE_ARG_SAMPLER (OpTypeSampler) or XE_ARG_SCALAR, *elem the size of the
 * pointee / scalar in bytes (images: the dimensions, 1..3; samplers: 4),
 * *is_float whether it is a float (images: whether the module reads or
 * writes images of its type with float texels, read_imagef/write_imagef).
 * Returns the number of parameters (at most max), or -1 when there is no
 * such kernel. */
int xe_exec_params(xe_module *m, const char *kernel, enum xe_arg_kind *kind,
                   unsigned *elem, bool *is_float, unsigned max);

/* --verify: compares every kernel of a and b on n synthesized launches
 * (src/exec/verify.c says how they are chosen), after the user's launches
 * of that kernel (user: a JSON array of `xeopt run --launch` objects, or
 * NULL; a malformed one returns 2).
 * Both modules must be runnable (above; --verify checks them first,
 * xe_verify_modules in src/driver/runnable.h).
 * Returns 0 when equal, 1 on a difference, 2 when the user's launches or
 * b's manifest cannot be used.  Writes one line per finding to log: the
 * difference with its launch ("kernel K: argument 1 differs at element
 * ..." then "  launch: ..."), "warning: kernel K NOT verified: ...", and,
 * unless quiet, "note: ..." for launch slots the input itself cannot run
 * and per kernel "note: kernel K: V of N launches verified". */
int xe_exec_verify(xe_module *a, xe_module *b, unsigned n, bool quiet, FILE *log);
struct cJSON;
struct xe_options;
/* The same with the user's launches (NULL: none) and the pipeline options
 * (NULL: none), whose --subgroup-size and --local-size for a kernel fix
 * its launches like the module's SubgroupSize and LocalSize do. */
int xe_exec_verify_ex(xe_module *a, xe_module *b, unsigned n, const struct cJSON *user,
                      const struct xe_options *o, bool quiet, FILE *log);

#endif
