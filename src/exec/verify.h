/*
 * --verify's local header, shared by its three files: verify.c (the
 * entry, the host contract, which dimensions a kernel reads), verify_plan.c
 * (launch synthesis: shapes, images, scalars, buffer sizes) and
 * verify_run.c (running the input and the optimized module on a launch,
 * the retries, the comparison).  verify.c says how launches are chosen.
 */
#ifndef XEOPT_EXEC_VERIFY_H
#define XEOPT_EXEC_VERIFY_H

#include <stdio.h>
#include <cjson/cJSON.h>
#include "internal.h"
#include "launch.h"
#include "manifest.h"

#define MAX_ATTEMPTS 16
#define BUFFER_CAP (64ull << 20)     /* bytes per buffer argument */
/* Work-item instructions an input run may take before the kernel counts
 * as heavy: its launches then have one work-group per dimension (plus the
 * partial one), which keeps --verify within seconds. */
#define HEAVY_STEPS 10000000ull

/* What constrains the launches of one kernel. */
typedef struct vkernel {
   const char *name;
   int np;
   enum xe_arg_kind kind[XE_EXEC_MAX_ARGS];
   unsigned elem[XE_EXEC_MAX_ARGS];
   bool isf[XE_EXEC_MAX_ARGS];
   unsigned dims;                    /* dimensions whose ids the kernel reads (1..3) */
   uint32_t local[3];                /* LocalSize of the output (else input), 0 = free */
   unsigned sg;                      /* SubgroupSize, 0 = free */
   bool uniform;                     /* manifest: uniform_work_groups */
   uint64_t offset_multiple[3];      /* manifest: global_offset multiple_of, 0 = any */
   bool aligned[XE_EXEC_MAX_ARGS];   /* manifest: argument_alignment (start 0) */
   int64_t fixed[XE_EXEC_MAX_ARGS];  /* manifest: specialized argument, else INT64_MIN */
   bool padded[XE_EXEC_MAX_ARGS];    /* manifest: padded buffer */
   const xe_mf_kernel *contract;     /* the manifest's entries for it, NULL when none */
   bool heavy;                       /* an input run took more than HEAVY_STEPS */
   /* Elements (local: bytes) per work-item the input reached on an earlier
    * launch, so that later launches start large enough. */
   double per_item[XE_EXEC_MAX_ARGS];
   /* Arguments: the kernel's np, then one hidden buffer per pointer leaf
    * (na in all): what the pointers in by-value captures and pointer
    * arrays point to (mem, hidden: the argument a leaf points into, 0 for
    * a null pointer). */
   int na;
   xe_param_mem mem[XE_EXEC_MAX_ARGS];
   uint8_t hidden[XE_EXEC_MAX_ARGS][XE_PARAM_MAX_LEAVES];
} vkernel;

/* One launch before its arguments are materialized. */
typedef struct vplan {
   unsigned dims;
   uint64_t global[3], local[3], offset[3];
   unsigned sg;
   double sval[XE_EXEC_MAX_ARGS];    /* scalar values */
   uint64_t count[XE_EXEC_MAX_ARGS]; /* buffer elements, local-memory bytes */
   uint64_t start[XE_EXEC_MAX_ARGS]; /* buffer bytes before the kernel's pointer */
   uint64_t range;                   /* random integer data in [0, range) */
   uint64_t seed;                    /* data seed */
   bool nonzero;                     /* integer data without zeros (after a division by zero) */
   double leaf[XE_EXEC_MAX_ARGS][XE_PARAM_MAX_LEAVES];  /* by-value scalars */
   xe_image_desc image[XE_EXEC_MAX_ARGS];  /* image arguments (plan_images) */
   unsigned image_scale[XE_EXEC_MAX_ARGS]; /* extent = (global + offset) * scale */
   uint32_t sampler[XE_EXEC_MAX_ARGS];     /* sampler arguments */
} vplan;

/* Launch synthesis (verify_plan.c).  The shape of launch slot `slot`
 * (sizes, offsets, sub-group size, buffer starts); plain: full sub-groups,
 * uniform, aligned, no offset; shrink: free local sizes divided by
 * 2^shrink.  Draws from *seed. */
void xe_verify_plan_shape(const vkernel *vk, unsigned slot, bool plain, unsigned shrink,
                          uint64_t *seed, vplan *p);
/* Image formats and extents and sampler values of slot `slot`, after the
 * shape. */
void xe_verify_plan_images(const vkernel *vk, unsigned slot, uint64_t *seed, vplan *p);
/* Scalar values tied to the shape; natural: every integer scalar is the
 * row length; small: small values. */
void xe_verify_plan_scalars(const vkernel *vk, vplan *p, uint64_t *seed, bool natural, bool small);
/* Buffer and local-memory sizes for the plan (what the shape and scalars
 * reach, what earlier launches reached, the contract's padding). */
void xe_verify_plan_buffers(const vkernel *vk, vplan *p);
/* Fills *l (overwritten) with the plan's launch; its argument data is
 * malloc'd, the caller frees it. */
void xe_verify_materialize(const vkernel *vk, const vplan *p, xe_launch *l);

/* Running and comparing (verify_run.c).  Launch slot `slot`: synthesizes
 * a launch the input runs on, then runs the optimized module on it and
 * compares.  Returns 1 on a difference (written to log); *valid when the
 * input ran; *unsupported when the interpreter cannot run the kernel. */
int xe_verify_one_launch(xe_module *a, xe_module *b, vkernel *vk, unsigned slot, uint64_t *seed,
                         FILE *log, bool quiet, bool *valid, bool *unsupported);
/* The user's launches (a JSON array of `xeopt run --launch` objects) of
 * kernel vk.  Returns 1 on a difference, 2 on a malformed launch (both
 * written to log); *ran counts the launches the input ran. */
int xe_verify_user_launches(xe_module *a, xe_module *b, vkernel *vk, const cJSON *launches,
                            FILE *log, unsigned *ran);

#endif
