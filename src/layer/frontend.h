/*
 * OpenCL C to SPIR-V for programs created from source, with the front end
 * closest to the driver's:
 *   - ocloc (Intel's front end, the one IGC's driver uses) for a GPU whose
 *     model name the layer knows: `ocloc compile -spv_only -device T`, so
 *     the device's extension macros are the driver's;
 *   - clang -cc1 + llvm-spirv otherwise, told exactly the device's
 *     extensions (`-cl-ext=-all,+...` from CL_DEVICE_EXTENSIONS), so that
 *     `#ifdef cl_khr_fp64` picks the branch the driver's compiler would.
 * XEOPT_LAYER_FRONTEND=ocloc|clang|none forces one (docs/layer.md).
 */
#ifndef XEOPT_LAYER_FRONTEND_H
#define XEOPT_LAYER_FRONTEND_H

#include <stdbool.h>
#include <stddef.h>

typedef struct xl_frontend_request {
   const char *source;       /* nul-terminated */
   const char *options;      /* clBuildProgram's options, may be NULL */
   const char *target;       /* ocloc's -device, NULL when the device is not a known GPU */
   const char *extensions;   /* the device's CL_DEVICE_EXTENSIONS, space-separated, may be NULL */
   const char *forced;       /* XEOPT_LAYER_FRONTEND, NULL for the default choice */
} xl_frontend_request;

/* The front end that would compile the request ("ocloc", "clang"), or NULL
 * when none is available for it. */
const char *xl_frontend_pick(const xl_frontend_request *rq);

/* Compiles; returns malloc'd SPIR-V (*size bytes), or NULL with a one-line
 * reason in *why (malloc'd).  Runs the tools as child processes in a
 * temporary directory that it removes. */
void *xl_frontend_compile(const xl_frontend_request *rq, size_t *size, char **why);

/* The options the driver should get with the front end's SPIR-V: `options`
 * without those only a front end reads (-D, -I, -cl-std=, -x).  Malloc'd. */
char *xl_frontend_il_build_options(const char *options);

#endif
