/*
 * The core's state, shared by core.c and log.c only.
 */
#ifndef XEOPT_LAYER_INTERNAL_H
#define XEOPT_LAYER_INTERNAL_H

#include <pthread.h>

#include "core.h"

/* One program the layer saw, as the log reports it. */
struct xl_program {
   unsigned id;
   xl_origin origin;
   xl_result result;
   char *reason;          /* why not optimized, or what failed */
   char *kernels;         /* the built program's CL_PROGRAM_KERNEL_NAMES */
   char *remarks;         /* xeopt's remarks JSON */
   char *options;         /* xeopt's options for it */
   char *device;
   char *frontend;        /* "ocloc" or "clang" for a source program */
   char *report;          /* the HTML report page, under XEOPT_LAYER_REPORT */
   const char *cache;     /* "hit", "miss", "off", or NULL when xeopt was not asked */
   char hash[33];         /* the cache key of xeopt's run */
   size_t input_bytes;
   double seconds_xeopt, seconds_frontend, seconds_build;
   struct xl_program *next;
};

struct xl_core {
   pthread_mutex_t lock;  /* the records and counters below */
   bool ready;
   char *options, *devices, *cache, *log_path, *report_path, *frontend, *fault;
   char *error;           /* a configuration error: the layer acts on nothing */
   bool verbose, user_target, act_gpu, act_other;
   unsigned nprograms, cache_hits;
   xl_program *programs, *tail;
   xl_spec_mode specialize;
   bool promises_padded;
   unsigned samples;
   unsigned long counts[XL_NCOUNTS];
   xl_kernel_rec *kernels, *kernels_tail;
};

const char *xl_result_name(xl_result r);
/* The core if something configured it, else NULL (at exit). */
xl_core *xl_core_peek(void);

#endif
