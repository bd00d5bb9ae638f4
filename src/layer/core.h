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
xl_result xl_program_result(xl_core *core, const xl_program *p);
void xl_program_set_kernels(xl_core *core, xl_program *p, const char *semicolon_list);
void xl_program_add_build_seconds(xl_core *core, xl_program *p, double seconds);

/* A test-only fault (XEOPT_LAYER_TEST_FAULT=NAME): "xeopt", "driver",
 * "build" or "frontend"; false when not set. */
bool xl_core_fault(const xl_core *core, const char *name);

/* ---- launch facts and variants (docs/layer.md, "Launch facts") ---------- */

/* XEOPT_LAYER_SPECIALIZE: 0 off, 1 (the default) variants judged by the
 * driver and the clock, "always" a variant for every launch whose facts
 * allow one, unmeasured (for tests). */
typedef enum xl_spec_mode { XL_SPEC_OFF, XL_SPEC_MEASURE, XL_SPEC_ALWAYS } xl_spec_mode;
xl_spec_mode xl_core_specialize(const xl_core *core);
/* XEOPT_LAYER_PROMISES=padded: variants may also promise --assume-padded. */
bool xl_core_promises_padded(const xl_core *core);
/* Launches of each (base, variant) the clock takes before it judges
 * (XEOPT_LAYER_SAMPLES, default 10). */
unsigned xl_core_samples(const xl_core *core);

/* xeopt on il[0..size) for dev with the configured options and the
 * promises (blank-separated options), through the cache; the record is
 * not touched.  Returns the output (malloc'd) when xeopt changed the
 * module, else NULL with *failed set when xeopt failed (*why: the reason,
 * malloc'd).  *remarks: xeopt's remarks JSON (malloc'd) or NULL. */
void *xl_optimize_variant(xl_core *core, const xl_device *dev, const void *il, size_t size,
                          const char *promises, size_t *out_size, char **remarks, bool *failed,
                          char **why);

/* The clock's decisions, in the cache: `identity` names a device, a
 * kernel (its program's hash and name) and a key.  A decision is a short
 * word ("kept", "dropped_by_clock", ...). */
char *xl_decision_read(xl_core *core, const char *identity);
void xl_decision_write(xl_core *core, const char *identity, const char *decision);

/* One kernel's launches, per key, as the log reports them.  The fields
 * are written under xl_core_lock. */
typedef struct xl_key_rec {
   char *key;                 /* the facts, as text */
   char *promises;            /* the variant's xeopt options, NULL when none */
   const char *state;         /* "base", "pending", "no_change", "failed", "budget",
                                 "dropped_by_driver", "measuring", "kept",
                                 "dropped_by_clock", "always" */
   const char *decided_by;    /* "measured", "remembered", "driver", or NULL */
   char *reason;
   unsigned long launches, specialized;
   unsigned base_samples, variant_samples;
   double base_us, variant_us; /* medians of the timed launches */
   struct xl_key_rec *next;
} xl_key_rec;

typedef struct xl_kernel_rec {
   unsigned program;          /* the program record's id */
   char *name;
   unsigned nkeys;
   xl_key_rec *keys;
   struct xl_kernel_rec *next;
} xl_kernel_rec;

xl_kernel_rec *xl_kernel_rec_new(xl_core *core, const xl_program *p, const char *name);
/* The kernel's record of key (made on first use); NULL when out of memory. */
xl_key_rec *xl_key_rec_get(xl_core *core, xl_kernel_rec *k, const char *key);
void xl_core_lock(xl_core *core);
void xl_core_unlock(xl_core *core);
/* The program's cache key (hex) and id, for the decisions' identity. */
void xl_program_hash(xl_core *core, const xl_program *p, char out[33]);
/* Counts a variant built ("variants"), or a decision about one. */
enum { XL_COUNT_VARIANT, XL_COUNT_DROPPED_BY_DRIVER, XL_COUNT_KEPT, XL_COUNT_DROPPED_BY_CLOCK,
       XL_NCOUNTS };
void xl_core_count(xl_core *core, int what);

/* Seconds since an arbitrary start (CLOCK_MONOTONIC). */
double xl_now(void);

#endif
