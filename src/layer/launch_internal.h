/*
 * The state shared by the launch files of the layer (docs/layer.md,
 * "Launch facts and variants"): launch.c (the launch itself),
 * launch_kernel.c (kernel states and their arguments), launch_variant.c
 * (the key, the variants and the driver judge) and launch_clock.c (the
 * clock judge and the queues it times on).  Internal to those files; the
 * rest of the layer sees only cl_layer.h's xl_launch_* entries.
 */
#ifndef XEOPT_LAYER_LAUNCH_INTERNAL_H
#define XEOPT_LAYER_LAUNCH_INTERNAL_H

#include <pthread.h>
#include <stdint.h>

#include "cl_layer.h"

/* Variants the driver builds per kernel object and in all (docs/layer.md;
 * XEOPT_LAYER_VARIANTS=PER_KERNEL,IN_ALL); launch.c sets them. */
extern unsigned xl_budget_per_kernel, xl_budget_in_all;
/* Launches with a key before its variant is made (mode 1). */
#define MAKE_AFTER 2
/* A scalar enters the key once it had the same value in this many
 * consecutive launches. */
#define SCALAR_REPEATS 2
/* The clock keeps a variant whose median is at least this much faster
 * than the base's, and faster by more than twice the larger spread. */
#define MIN_GAIN 0.02
/* Keys kept per kernel object; a launch with a new key past them runs the
 * base, uncounted in the keys. */
#define MAX_KEYS 64

enum { ARG_UNSET, ARG_VALUE, ARG_SVM, ARG_USM };
enum { PK_OTHER, PK_GLOBAL, PK_LOCAL, PK_INT };

typedef struct xl_arg {
   int how;
   size_t size;
   void *value;              /* a copy of clSetKernelArg's value (NULL: none) */
   const void *ptr;          /* an SVM or USM pointer */
   unsigned align;           /* buffer arguments: alignment class, 1..16 (16: 16 or more) */
   uint64_t scalar;          /* integer arguments: the value */
   uint64_t last;            /* the value at the previous launch */
   unsigned repeats;         /* consecutive launches with that value */
} xl_arg;

typedef struct exec_info {
   cl_kernel_exec_info name;
   size_t size;
   void *value;
   struct exec_info *next;
} exec_info;

typedef enum vstate {
   V_WAIT,                   /* seen, not made yet */
   V_NONE,                   /* no variant: the base runs (rec->state says why) */
   V_MEASURE,                /* the clock judges it */
   V_KEPT,                   /* runs for every launch with the key */
} vstate;

typedef struct variant {
   char *key;
   cl_device_id dev;
   xl_key_rec *rec;
   vstate st;
   unsigned seen;
   cl_program prog;
   cl_kernel kern;
   unsigned long gen;         /* the argument generation replayed on kern */
   unsigned enq_base, enq_var, nb, nv;
   double *tb, *tv;
   char *identity;            /* the decision's name in the cache */
   size_t local[3];           /* the launch's local size (dim 0: none) */
   cl_uint dim;
   struct variant *next;
} variant;

typedef struct kstate {
   pthread_mutex_t lock;
   xl_cl_program *prog;
   cl_kernel k;
   char *name;
   bool name_ok;              /* usable in xeopt's KERNEL:... options */
   unsigned nparams;
   unsigned char *pk;
   xl_arg *args;
   exec_info *exec;
   unsigned long gen;
   uint64_t nospec;           /* arguments that bound no loop xeopt can specialize */
   unsigned base_align;
   variant *variants;
   unsigned made, nkeys;
   xl_kernel_rec *rec;
   unsigned refs;             /* the kernel, and each timed launch in flight */
   /* the sub-group size for the last local size asked about */
   size_t sg_local[3], sg;
   cl_uint sg_dim;
   cl_device_id sg_dev;
} kstate;

typedef struct qinfo {
   cl_command_queue_properties app_props;
   cl_queue_properties *app_array;     /* clCreateCommandQueueWithProperties' list, as given */
   size_t app_array_bytes;
   cl_device_id dev;
} qinfo;


/* Guards the kernel states' and queues' maps, and the variants made in all. */
extern pthread_mutex_t xl_launch_lock;
extern unsigned xl_made_in_all;

/* the facts' text (launch_variant.c) */
typedef struct text {
   char s[2048];
   size_t n;
   bool full;
} text;


/* a timed launch, for its event's callback (launch_clock.c) */
typedef struct xl_sample {
   kstate *ks;
   variant *v;
   bool variant;
} xl_sample;

/* launch_kernel.c */
kstate *xl_find_kstate(cl_kernel k);
void xl_unref(kstate *ks);
cl_int CL_API_CALL xl_set_kernel_arg(cl_kernel k, cl_uint i, size_t size, const void *value);
cl_int CL_API_CALL xl_set_kernel_arg_svm(cl_kernel k, cl_uint i, const void *ptr);
cl_int CL_API_CALL xl_set_kernel_exec_info(cl_kernel k, cl_kernel_exec_info name, size_t size,
                                           const void *value);
bool xl_replay(kstate *ks, variant *v);

/* launch_variant.c */
void xl_add(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool xl_facts(kstate *ks, cl_device_id dev, cl_uint dim, const size_t *offset,
              const size_t *global, const size_t *local, text *key, text *promises);
void xl_set_state(xl_core *core, variant *v, vstate st, const char *state, const char *by,
                  const char *reason);
bool xl_make_variant(xl_core *core, kstate *ks, variant *v, const char *promises);
variant *xl_find_variant(xl_core *core, kstate *ks, cl_device_id dev, const char *key,
                         const char *promises, cl_uint dim, const size_t *local);

/* launch_clock.c */
void CL_CALLBACK xl_timed(cl_event ev, cl_int status, void *data);
qinfo *xl_find_queue(cl_command_queue q);
bool xl_measuring(void);
cl_command_queue CL_API_CALL xl_create_queue(cl_context ctx, cl_device_id dev,
                                             cl_command_queue_properties props, cl_int *errcode);
cl_command_queue CL_API_CALL xl_create_queue_with_properties(cl_context ctx, cl_device_id dev,
                                                             const cl_queue_properties *props,
                                                             cl_int *errcode);
cl_int CL_API_CALL xl_get_queue_info(cl_command_queue q, cl_command_queue_info what, size_t size,
                                     void *value, size_t *size_ret);
cl_int CL_API_CALL xl_release_queue(cl_command_queue q);
cl_int CL_API_CALL xl_get_event_profiling_info(cl_event ev, cl_profiling_info what, size_t size,
                                               void *value, size_t *size_ret);
bool xl_profiled(cl_command_queue q, qinfo *i);

#endif
