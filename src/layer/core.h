/*
 * The layer's core: what it optimizes, its cache and its log, with no
 * OpenCL in it, so that a Level Zero front (an LD_PRELOAD library over the
 * loader's tracing API, replacing zeModuleCreate's module descriptor) can
 * reuse it.  The OpenCL front is cl_layer.c (docs/layer.md).
 *
 * One xl_core per process, configured once from the environment
 * (XEOPT_LAYER_*).  Every function is thread-safe.  Nothing here prints
 * unless XEOPT_LAYER_VERBOSE asks; no failure here reaches the
 * application: a failed step makes the front give the driver exactly what
 * the application asked for.
 */
#ifndef XEOPT_LAYER_CORE_H
#define XEOPT_LAYER_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What the front knows about the device a program is built for. */
typedef struct xl_device {
   const char *name;     /* the driver's name for it (CL_DEVICE_NAME), may be NULL */
   const char *target;   /* the cost model's device ("dg2", "pvc", ...), NULL when unknown */
   const char *extensions; /* CL_DEVICE_EXTENSIONS and OpenCL C feature names, space-separated */
   bool is_gpu;
} xl_device;

/* Where a program came from. */
typedef enum xl_origin { XL_ORIGIN_IL, XL_ORIGIN_SOURCE } xl_origin;

/* What became of a program (the log's "result"). */
typedef enum xl_result {
   XL_PASSED_THROUGH,  /* not given to xeopt: a device the layer does not act on, a
                          front end that refused the source, separate compilation */
   XL_UNCHANGED,       /* xeopt found nothing to change: the driver got the original */
   XL_OPTIMIZED,       /* the driver built xeopt's output */
   XL_FAILED,          /* xeopt failed, or the driver refused its output: the
                          application's program was built as it asked */
} xl_result;

typedef struct xl_core xl_core;
typedef struct xl_program xl_program;

/* The process's core, configured from the environment on first use;
 * never NULL (a configuration error leaves a core that acts on nothing,
 * with the error in the log). */
xl_core *xl_core_get(void);

/* Whether the layer acts on programs for this kind of device
 * (XEOPT_LAYER_DEVICES: "gpu", the default, or "all"). */
bool xl_core_acts_on(const xl_core *core, bool is_gpu);

/* A new log record for a program; owned by the core (it lives until the
 * log is written at exit). */
xl_program *xl_program_new(xl_core *core, xl_origin origin);

/* Compiles OpenCL C source[0..size) with `options` (clBuildProgram's) to
 * SPIR-V with the configured front end (XEOPT_LAYER_FRONTEND), through the
 * cache.  Returns malloc'd bytes (*out_size bytes) or NULL, with the reason
 * in the program's record (result XL_PASSED_THROUGH). */
void *xl_compile_source(xl_core *core, xl_program *p, const xl_device *dev, const char *source,
                        const char *options, size_t *out_size);

/* Optimizes the module il[0..size) for dev, through the cache.  Returns the
 * output (malloc'd, *out_size bytes) when xeopt changed the module; NULL
 * when it did not (XL_UNCHANGED) or failed (XL_FAILED, reason recorded). */
void *xl_optimize(xl_core *core, xl_program *p, const xl_device *dev, const void *il, size_t size,
                  size_t *out_size);

/* What the driver did with the program, for the record. */
void xl_program_set_result(xl_core *core, xl_program *p, xl_result result, const char *reason);
void xl_program_set_kernels(xl_core *core, xl_program *p, const char *semicolon_list);
void xl_program_add_build_seconds(xl_core *core, xl_program *p, double seconds);

/* A test-only fault (XEOPT_LAYER_TEST_FAULT=NAME): "xeopt", "driver",
 * "build" or "frontend"; false when not set. */
bool xl_core_fault(const xl_core *core, const char *name);

/* Seconds since an arbitrary start (CLOCK_MONOTONIC). */
double xl_now(void);

#endif
