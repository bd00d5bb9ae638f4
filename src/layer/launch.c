/*
 * Launch facts and variants (docs/layer.md, "Launch facts and variants").
 *
 * Every kernel the application gets from a program the layer optimized (or
 * left unchanged) has a state here: the arguments set on it, kept to be
 * replayed, and its variants.  At clEnqueueNDRangeKernel the launch's
 * facts make a key: the local size (when the application gives one) and
 * whether the work-groups are uniform, the driver's sub-group size for it,
 * each buffer argument's alignment class, a non-zero global offset, and
 * the integer arguments whose value repeated.  A variant is xeopt with the
 * facts as promises (--local-size, --subgroup-size, --assume-aligned,
 * --specialize), built by the driver for the queue's device; a launch runs
 * it only when its key is exactly the variant's.  The driver judges a
 * variant first (private memory, spills, SIMD width), then the clock:
 * launches with the key alternate between base and variant, timed with
 * profiling events, and after XEOPT_LAYER_SAMPLES of each the variant stays
 * only if it is faster beyond the noise.  Decisions persist in the cache.
 *
 * Whatever fails (xeopt, the driver's build, the variant's enqueue), the
 * launch is the application's, exactly as asked.
 */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "cl_layer.h"
#include "frontend.h"
#include "ptrmap.h"

#ifndef CL_KERNEL_SPILL_MEM_SIZE_INTEL
#define CL_KERNEL_SPILL_MEM_SIZE_INTEL 0x4109
#endif

/* Variants the driver builds per kernel object and in all (docs/layer.md;
 * XEOPT_LAYER_VARIANTS=PER_KERNEL,IN_ALL). */
static unsigned budget_per_kernel = 4, budget_in_all = 64;
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

typedef struct arg {
   int how;
   size_t size;
   void *value;              /* a copy of clSetKernelArg's value (NULL: none) */
   const void *ptr;          /* an SVM or USM pointer */
   unsigned align;           /* buffer arguments: alignment class, 1..16 (16: 16 or more) */
   uint64_t scalar;          /* integer arguments: the value */
   uint64_t last;            /* the value at the previous launch */
   unsigned repeats;         /* consecutive launches with that value */
} arg;

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
   arg *args;
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

typedef cl_int(CL_API_CALL *usm_arg_fn)(cl_kernel, cl_uint, const void *);

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static xl_ptrmap kstates, queues;
static unsigned made_in_all;
static usm_arg_fn next_usm_arg;

/* ---- the kernel's parameters, from the module ----------------------------- */

static char *kernel_name(cl_kernel k)
{
   size_t n = 0;
   if (xl_next->clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, 0, NULL, &n) != CL_SUCCESS || !n)
      return NULL;
   char *s = calloc(n + 1, 1);
   if (s && xl_next->clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, n, s, NULL) != CL_SUCCESS) {
      free(s);
      s = NULL;
   }
   return s;
}

/* The kinds of kernel `name`'s parameters in SPIR-V module w[0..nw);
 * malloc'd, *n of them; NULL when the module does not say. */
static unsigned char *param_kinds(const uint32_t *w, size_t nw, const char *name, unsigned *n)
{
   if (nw < 5 || w[0] != 0x07230203 || w[3] > (1u << 24))
      return NULL;
   uint32_t bound = w[3], fn = 0;
   unsigned char *type = calloc(bound, 1), *kinds = NULL;
   unsigned count = 0;
   bool in = false;
   for (size_t i = 5; type && i < nw;) {
      uint32_t op = w[i] & 0xffff, len = w[i] >> 16;
      if (!len || i + len > nw)
         break;
      const uint32_t *o = w + i;
      if (op == 15 && len > 3 && o[1] == 6 && !fn &&
          !strncmp((const char *)(o + 3), name, (len - 3) * 4) &&
          strnlen((const char *)(o + 3), (len - 3) * 4) == strlen(name))
         fn = o[2];
      else if (op == 21 && len >= 3 && o[1] < bound)
         type[o[1]] = PK_INT;
      else if (op == 32 && len >= 4 && o[1] < bound)
         type[o[1]] = o[2] == 5 || o[2] == 0 ? PK_GLOBAL : o[2] == 4 ? PK_LOCAL : PK_OTHER;
      else if (op == 54 && len >= 5)
         in = fn && o[2] == fn;
      else if (op == 55 && in && len >= 3) {
         unsigned char *g = realloc(kinds, count + 1);
         if (!g)
            break;
         kinds = g;
         kinds[count++] = o[1] < bound ? type[o[1]] : PK_OTHER;
      } else if (op == 56 && in)
         break;
      i += len;
   }
   free(type);
   *n = count;
   return kinds;
}

static bool usable_name(const char *s)
{
   for (; *s; s++)
      if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
            *s == '_' || *s == '$' || *s == '.'))
         return false;
   return true;
}

/* ---- kernel states ---------------------------------------------------------- */

static kstate *find_kstate(cl_kernel k)
{
   pthread_mutex_lock(&lock);
   kstate *ks = xl_ptrmap_get(&kstates, k);
   pthread_mutex_unlock(&lock);
   return ks;
}

static void free_variant(variant *v)
{
   if (v->kern)
      xl_next->clReleaseKernel(v->kern);
   if (v->prog)
      xl_next->clReleaseProgram(v->prog);
   free(v->key);
   free(v->tb);
   free(v->tv);
   free(v->identity);
   free(v);
}

static void unref(kstate *ks)
{
   pthread_mutex_lock(&ks->lock);
   bool last = --ks->refs == 0;
   pthread_mutex_unlock(&ks->lock);
   if (!last)
      return;
   for (variant *v = ks->variants, *n; v; v = n) {
      n = v->next;
      free_variant(v);
   }
   for (unsigned i = 0; i < ks->nparams; i++)
      free(ks->args[i].value);
   for (exec_info *e = ks->exec, *n; e; e = n) {
      n = e->next;
      free(e->value);
      free(e);
   }
   free(ks->args);
   free(ks->pk);
   free(ks->name);
   pthread_mutex_destroy(&ks->lock);
   free(ks);
}

static kstate *new_kstate(xl_cl_program *e, cl_kernel k)
{
   kstate *ks = calloc(1, sizeof *ks);
   if (!ks)
      return NULL;
   pthread_mutex_init(&ks->lock, NULL);
   ks->refs = 1;
   ks->prog = e;
   ks->k = k;
   ks->name = kernel_name(k);
   ks->pk = ks->name ? param_kinds(e->module, e->module_size / 4, ks->name, &ks->nparams) : NULL;
   ks->args = ks->pk ? calloc(ks->nparams, sizeof *ks->args) : NULL;
   if (!ks->args) {
      unref(ks);
      return NULL;
   }
   ks->name_ok = usable_name(ks->name);
   cl_uint bits = 0;
   xl_next->clGetDeviceInfo(e->build_device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, NULL);
   ks->base_align = bits / 8 ? bits / 8 : 1;
   ks->rec = xl_kernel_rec_new(xl_core_get(), e->rec, ks->name);
   return ks;
}

void xl_launch_track(xl_cl_program *e, cl_kernel k)
{
   if (!e || !e->module || !k || xl_core_specialize(xl_core_get()) == XL_SPEC_OFF)
      return;
   kstate *ks = new_kstate(e, k);
   if (!ks)
      return;
   pthread_mutex_lock(&lock);
   bool ok = xl_ptrmap_put(&kstates, k, ks);
   pthread_mutex_unlock(&lock);
   if (!ok)
      unref(ks);
}

void xl_launch_clone(cl_kernel from, cl_kernel to)
{
   kstate *src = find_kstate(from);
   if (!src || !to)
      return;
   kstate *ks = new_kstate(src->prog, to);
   if (!ks)
      return;
   pthread_mutex_lock(&src->lock);
   bool ok = true;
   for (unsigned i = 0; i < ks->nparams && i < src->nparams; i++) {
      ks->args[i] = src->args[i];
      ks->args[i].value = NULL;
      if (src->args[i].value && (ks->args[i].value = malloc(src->args[i].size)))
         memcpy(ks->args[i].value, src->args[i].value, src->args[i].size);
      else if (src->args[i].value)
         ok = false;
   }
   /* exec info is not copied by clCloneKernel's contract either way: it is
    * the kernel's; without it the clone's variants are not used */
   ok &= src->exec == NULL;
   ks->nospec = src->nospec;
   pthread_mutex_unlock(&src->lock);
   pthread_mutex_lock(&lock);
   ok = ok && xl_ptrmap_put(&kstates, to, ks);
   pthread_mutex_unlock(&lock);
   if (!ok)
      unref(ks);
}

bool xl_launch_tracked(cl_kernel k)
{
   return find_kstate(k) != NULL;
}

void xl_launch_forget(cl_kernel k)
{
   pthread_mutex_lock(&lock);
   kstate *ks = xl_ptrmap_take(&kstates, k);
   pthread_mutex_unlock(&lock);
   if (ks)
      unref(ks);
}

void xl_launch_keep_module(xl_core *core, xl_cl_program *e, void *module, size_t size,
                           const void *base, size_t base_size, const xl_device *dev,
                           const cl_device_id *devices, cl_uint ndev, const char *options)
{
   free(e->module);
   free(e->build_options);
   e->module = NULL;
   e->build_options = NULL;
   if (xl_core_specialize(core) == XL_SPEC_OFF || ndev != 1 || !devices ||
       !(e->build_options = strdup(options ? options : ""))) {
      free(module);
      return;
   }
   e->module = module;
   e->module_size = size;
   e->device = (xl_device){ .target = dev->target, .is_gpu = dev->is_gpu };
   e->build_device = devices[0];
   const void *parts[] = { base };
   xl_key key = xl_key_of(parts, &base_size, 1);
   memcpy(e->base_key, &key, sizeof e->base_key);
}

/* ---- arguments ---------------------------------------------------------------- */

static unsigned align_class(uintptr_t v)
{
   if (!v)
      return 16;
   unsigned a = 1;
   while (a < 16 && !(v & a))
      a <<= 1;
   return a;
}

static unsigned mem_align(kstate *ks, cl_mem m)
{
   if (!m)
      return 16;
   cl_mem parent = NULL;
   size_t origin = 0;
   unsigned a = ks->base_align;
   if (xl_next->clGetMemObjectInfo(m, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, NULL) ==
          CL_SUCCESS && parent &&
       xl_next->clGetMemObjectInfo(m, CL_MEM_OFFSET, sizeof origin, &origin, NULL) == CL_SUCCESS &&
       origin) {
      unsigned o = align_class(origin);
      a = o < a ? o : a;
   }
   return a > 16 ? 16 : a;
}

/* Records argument i as set (a copy that cannot be made leaves it unset:
 * the kernel's variants are then not used until it is set again). */
static void record_arg(kstate *ks, cl_uint i, int how, size_t size, const void *value,
                       const void *ptr)
{
   pthread_mutex_lock(&ks->lock);
   ks->gen++;
   if (i < ks->nparams) {
      arg *a = &ks->args[i];
      free(a->value);
      a->value = NULL;
      a->how = how;
      a->size = size;
      a->ptr = ptr;
      if (how == ARG_VALUE && value) {
         if ((a->value = malloc(size ? size : 1)))
            memcpy(a->value, value, size);
         else
            a->how = ARG_UNSET;
      }
      if (ks->pk[i] == PK_GLOBAL)
         a->align = how == ARG_VALUE ? (size == sizeof(cl_mem) ? mem_align(ks, value ? *(const cl_mem *)value : NULL) : 0)
                                     : align_class((uintptr_t)ptr);
      if (ks->pk[i] == PK_INT && how == ARG_VALUE && value && size <= 8) {
         uint64_t v = 0;
         memcpy(&v, value, size); /* little-endian hosts */
         a->scalar = v;
      }
   }
   pthread_mutex_unlock(&ks->lock);
}

static cl_int CL_API_CALL set_kernel_arg(cl_kernel k, cl_uint i, size_t size, const void *value)
{
   cl_int err = xl_next->clSetKernelArg(k, i, size, value);
   kstate *ks = err == CL_SUCCESS ? find_kstate(k) : NULL;
   if (ks)
      record_arg(ks, i, ARG_VALUE, size, value, NULL);
   return err;
}

static cl_int CL_API_CALL set_kernel_arg_svm(cl_kernel k, cl_uint i, const void *ptr)
{
   cl_int err = xl_next->clSetKernelArgSVMPointer(k, i, ptr);
   kstate *ks = err == CL_SUCCESS ? find_kstate(k) : NULL;
   if (ks)
      record_arg(ks, i, ARG_SVM, 0, NULL, ptr);
   return err;
}

static cl_int CL_API_CALL set_kernel_arg_usm(cl_kernel k, cl_uint i, const void *ptr)
{
   usm_arg_fn next = __atomic_load_n(&next_usm_arg, __ATOMIC_ACQUIRE);
   cl_int err = next(k, i, ptr);
   kstate *ks = err == CL_SUCCESS ? find_kstate(k) : NULL;
   if (ks)
      record_arg(ks, i, ARG_USM, 0, NULL, ptr);
   return err;
}

static cl_int CL_API_CALL set_kernel_exec_info(cl_kernel k, cl_kernel_exec_info name, size_t size,
                                               const void *value)
{
   cl_int err = xl_next->clSetKernelExecInfo(k, name, size, value);
   kstate *ks = err == CL_SUCCESS ? find_kstate(k) : NULL;
   if (!ks)
      return err;
   pthread_mutex_lock(&ks->lock);
   ks->gen++;
   exec_info *e = ks->exec;
   while (e && e->name != name)
      e = e->next;
   if (!e && (e = calloc(1, sizeof *e))) {
      e->name = name;
      e->next = ks->exec;
      ks->exec = e;
   }
   if (e) {
      free(e->value);
      e->size = size;
      if ((e->value = malloc(size ? size : 1)) && value)
         memcpy(e->value, value, size);
      else
         e->size = (size_t)-1; /* not replayable: no variant runs */
   }
   pthread_mutex_unlock(&ks->lock);
   return err;
}

void *xl_launch_wrap_extension(const char *name, void *fn)
{
   if (fn && name && !strcmp(name, "clSetKernelArgMemPointerINTEL")) {
      __atomic_store_n(&next_usm_arg, (usm_arg_fn)fn, __ATOMIC_RELEASE);
      return (void *)set_kernel_arg_usm;
   }
   return fn;
}

/* Sets the application's arguments on the variant's kernel. */
static bool replay(kstate *ks, variant *v)
{
   if (v->gen == ks->gen)
      return true;
   cl_int err = CL_SUCCESS;
   usm_arg_fn usm = __atomic_load_n(&next_usm_arg, __ATOMIC_ACQUIRE);
   for (cl_uint i = 0; i < ks->nparams && err == CL_SUCCESS; i++) {
      const arg *a = &ks->args[i];
      if (a->how == ARG_VALUE)
         err = xl_next->clSetKernelArg(v->kern, i, a->size, a->value);
      else if (a->how == ARG_SVM)
         err = xl_next->clSetKernelArgSVMPointer(v->kern, i, a->ptr);
      else if (a->how == ARG_USM && usm)
         err = usm(v->kern, i, a->ptr);
      else
         err = CL_INVALID_KERNEL_ARGS;
   }
   for (exec_info *e = ks->exec; e && err == CL_SUCCESS; e = e->next)
      err = e->size == (size_t)-1 ? CL_OUT_OF_HOST_MEMORY
                                  : xl_next->clSetKernelExecInfo(v->kern, e->name, e->size, e->value);
   if (err == CL_SUCCESS)
      v->gen = ks->gen;
   return err == CL_SUCCESS;
}

/* ---- facts and the key ----------------------------------------------------------- */

typedef struct text {
   char s[2048];
   size_t n;
   bool full;
} text;

static void add(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(text *t, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   int k = vsnprintf(t->s + t->n, sizeof t->s - t->n, fmt, ap);
   va_end(ap);
   if (k < 0 || (size_t)k >= sizeof t->s - t->n)
      t->full = true;
   else
      t->n += (size_t)k;
}

static size_t subgroup_size(kstate *ks, cl_device_id dev, cl_uint dim, const size_t *local)
{
   if (ks->sg_dev == dev && ks->sg_dim == dim && !memcmp(ks->sg_local, local, dim * sizeof *local))
      return ks->sg;
   size_t sg = 0;
   if (xl_next->clGetKernelSubGroupInfo(ks->k, dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                        dim * sizeof *local, local, sizeof sg, &sg, NULL) != CL_SUCCESS)
      sg = 0;
   ks->sg_dev = dev;
   ks->sg_dim = dim;
   memcpy(ks->sg_local, local, dim * sizeof *local);
   ks->sg = sg;
   return sg;
}

/* The launch's key and the promises it allows (empty: none). */
static bool facts(kstate *ks, cl_device_id dev, cl_uint dim, const size_t *offset,
                  const size_t *global, const size_t *local, text *key, text *promises)
{
   if (dim < 1 || dim > 3 || !global)
      return false;
   const char *k = ks->name;
   bool uniform = false;
   size_t sg = 0;
   if (local) {
      uniform = true;
      for (cl_uint d = 0; d < dim; d++)
         uniform &= local[d] && global[d] % local[d] == 0;
      size_t l[3] = { 1, 1, 1 };
      memcpy(l, local, dim * sizeof *l);
      add(key, "local=%zu,%zu,%zu%s", l[0], l[1], l[2], uniform ? "" : " nonuniform");
      if (uniform)
         add(promises, " --local-size=%s:%zu,%zu,%zu", k, l[0], l[1], l[2]);
      sg = subgroup_size(ks, dev, dim, local);
      if (sg)
         add(key, " sg=%zu", sg);
      if (sg == 8 || sg == 16 || sg == 32) /* the sizes xeopt takes (Intel's GPUs) */
         add(promises, " --subgroup-size=%s:%zu", k, sg);
   }
   bool offset0 = true;
   for (cl_uint d = 0; offset && d < dim; d++)
      offset0 &= offset[d] == 0;
   if (!offset0)
      add(key, "%soffset=%zu", key->n ? " " : "", offset[0]);
   bool aligned = true, buffers = false;
   for (unsigned i = 0; i < ks->nparams; i++) {
      if (ks->pk[i] != PK_GLOBAL)
         continue;
      add(key, "%s%u", buffers ? "," : key->n ? " align=" : "align=", ks->args[i].align);
      aligned &= ks->args[i].align >= 16;
      buffers = true;
   }
   if (buffers && aligned && (offset0 || (sg && offset[0] % sg == 0)))
      add(promises, " --assume-aligned");
   for (unsigned i = 0; i < ks->nparams; i++) {
      const arg *a = &ks->args[i];
      if (ks->pk[i] != PK_INT || a->how != ARG_VALUE || a->size > 8 || (i < 64 && (ks->nospec >> i) & 1) ||
          a->repeats < SCALAR_REPEATS)
         continue;
      add(key, "%sarg%u=%llu", key->n ? " " : "", i, (unsigned long long)a->scalar);
      add(promises, " --specialize=%s:%u=%llu", k, i, (unsigned long long)a->scalar);
   }
   if (xl_core_promises_padded(xl_core_get()) && uniform)
      add(promises, " --assume-padded=%s", k);
   return !key->full && !promises->full && ks->name_ok;
}

/* ---- making a variant --------------------------------------------------------------- */

static char *device_name(cl_device_id d)
{
   size_t n = 0;
   if (xl_next->clGetDeviceInfo(d, CL_DEVICE_NAME, 0, NULL, &n) != CL_SUCCESS)
      return strdup("?");
   char *s = calloc(n + 1, 1);
   if (s)
      xl_next->clGetDeviceInfo(d, CL_DEVICE_NAME, n, s, NULL);
   return s;
}

static void set_state(xl_core *core, variant *v, vstate st, const char *state, const char *by,
                      const char *reason)
{
   v->st = st;
   xl_core_lock(core);
   v->rec->state = state;
   if (by)
      v->rec->decided_by = by;
   if (reason) {
      free(v->rec->reason);
      v->rec->reason = strdup(reason);
   }
   xl_core_unlock(core);
}

/* Arguments xeopt's remarks say bound no loop: no longer specialized. */
static bool unused_specializations(kstate *ks, const char *remarks)
{
   cJSON *r = remarks ? cJSON_Parse(remarks) : NULL, *it;
   bool changed = false;
   cJSON_ArrayForEach(it, r) {
      const cJSON *m = cJSON_GetObjectItem(it, "message");
      const char *s = cJSON_IsString(m) ? m->valuestring : NULL;
      if (!s || strncmp(s, "--specialize ", 13) || !strstr(s, "bounds no loop"))
         continue;
      const char *eq = strchr(s, '='), *colon = eq ? memrchr(s, ':', (size_t)(eq - s)) : NULL;
      unsigned i = colon ? (unsigned)strtoul(colon + 1, NULL, 10) : 64;
      if (i < 64 && !((ks->nospec >> i) & 1)) {
         ks->nospec |= 1ull << i;
         changed = true;
      }
   }
   cJSON_Delete(r);
   return changed;
}

/* The driver's build of a variant module for dev. */
static cl_program build_variant(xl_core *core, xl_cl_program *e, cl_device_id dev,
                                const void *bytes, size_t size, char *why, size_t whyn)
{
   cl_int err = CL_SUCCESS;
   cl_program p = xl_next->clCreateProgramWithIL(e->context, bytes, size, &err);
   if (!p || err != CL_SUCCESS) {
      snprintf(why, whyn, "clCreateProgramWithIL: %d", err);
      return NULL;
   }
   for (size_t i = 0; i < e->nspecs && err == CL_SUCCESS; i++)
      err = xl_next->clSetProgramSpecializationConstant(p, e->specs[i].id, e->specs[i].size,
                                                        e->specs[i].value);
   char *opts = e->origin == XL_ORIGIN_SOURCE ? xl_frontend_il_build_options(e->build_options)
                                              : strdup(e->build_options);
   char *faulty = NULL;
   if (opts && xl_core_fault(core, "variant-build") &&
       asprintf(&faulty, "%s -xeopt-layer-test-fault", opts) >= 0) {
      free(opts);
      opts = faulty;
   }
   if (err == CL_SUCCESS)
      err = opts ? xl_next->clBuildProgram(p, 1, &dev, opts, NULL, NULL) : CL_OUT_OF_HOST_MEMORY;
   free(opts);
   if (err != CL_SUCCESS) {
      snprintf(why, whyn, "the driver could not build the variant (%d)", err);
      xl_next->clReleaseProgram(p);
      return NULL;
   }
   return p;
}

/* The driver as first judge: NULL when the variant may run, else why not. */
static const char *driver_judge(xl_core *core, kstate *ks, variant *v, char *why, size_t whyn)
{
   cl_ulong pb = 0, pv = 0, sb = 0, sv = 0;
   size_t wb = 0, wv = 0;
   xl_next->clGetKernelWorkGroupInfo(ks->k, v->dev, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof pb, &pb, NULL);
   xl_next->clGetKernelWorkGroupInfo(v->kern, v->dev, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof pv, &pv, NULL);
   bool spills = xl_next->clGetKernelWorkGroupInfo(ks->k, v->dev, CL_KERNEL_SPILL_MEM_SIZE_INTEL,
                                                   sizeof sb, &sb, NULL) == CL_SUCCESS &&
                 xl_next->clGetKernelWorkGroupInfo(v->kern, v->dev, CL_KERNEL_SPILL_MEM_SIZE_INTEL,
                                                   sizeof sv, &sv, NULL) == CL_SUCCESS;
   /* the SIMD width: the sub-group size for the launch's local size, else
    * the preferred work-group multiple (Intel's GPUs: the SIMD width) */
   bool sg = v->dim &&
             xl_next->clGetKernelSubGroupInfo(ks->k, v->dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                              v->dim * sizeof(size_t), v->local, sizeof wb, &wb, NULL) == CL_SUCCESS &&
             xl_next->clGetKernelSubGroupInfo(v->kern, v->dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                              v->dim * sizeof(size_t), v->local, sizeof wv, &wv, NULL) == CL_SUCCESS;
   if (!sg) {
      wb = wv = 0;
      xl_next->clGetKernelWorkGroupInfo(ks->k, v->dev, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                        sizeof wb, &wb, NULL);
      xl_next->clGetKernelWorkGroupInfo(v->kern, v->dev, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                        sizeof wv, &wv, NULL);
   }
   if (xl_core_fault(core, "spill-variant")) {
      spills = true;
      sv = sb + 1024;
   }
   if (spills && sv > sb)
      snprintf(why, whyn, "spill memory %llu bytes, the base %llu", (unsigned long long)sv,
               (unsigned long long)sb);
   else if (pv > pb)
      snprintf(why, whyn, "private memory %llu bytes, the base %llu", (unsigned long long)pv,
               (unsigned long long)pb);
   else if (wv < wb)
      snprintf(why, whyn, "SIMD width %zu, the base %zu", wv, wb);
   else
      return NULL;
   return why;
}

/* Makes v's variant (ks->lock held).  Returns false when the key must be
 * computed again (an argument turned out not to be worth specializing). */
static bool make_variant(xl_core *core, kstate *ks, variant *v, const char *promises)
{
   char why[256];
   size_t size = 0;
   char *remarks = NULL, *error = NULL;
   bool failed = false;
   void *bytes = xl_optimize_variant(core, &ks->prog->device, ks->prog->module, ks->prog->module_size,
                                     promises, &size, &remarks, &failed, &error);
   bool respec = !failed && unused_specializations(ks, remarks);
   free(remarks);
   if (failed) {
      set_state(core, v, V_NONE, "failed", NULL, error ? error : "xeopt failed");
      free(error);
      return true;
   }
   if (respec) {
      free(bytes);
      set_state(core, v, V_NONE, "no_change", NULL, "a specialized argument bounds no loop");
      return false;
   }
   xl_key key = { 0, 0 };
   if (bytes) {
      const void *parts[] = { bytes };
      key = xl_key_of(parts, &size, 1);
   }
   if (!bytes || !memcmp(&key, ks->prog->base_key, sizeof key)) {
      free(bytes);
      set_state(core, v, V_NONE, "no_change", NULL, "xeopt made no other rewrite with these facts");
      if (xl_core_specialize(core) == XL_SPEC_MEASURE)
         xl_decision_write(core, v->identity, "no_change");
      return true;
   }
   pthread_mutex_lock(&lock);
   bool budget = ks->made < budget_per_kernel && made_in_all < budget_in_all;
   if (budget) {
      ks->made++;
      made_in_all++;
   }
   pthread_mutex_unlock(&lock);
   if (!budget) {
      free(bytes);
      set_state(core, v, V_NONE, "budget", NULL, "the variant budget is spent");
      return true;
   }
   cl_int err = CL_SUCCESS;
   v->prog = build_variant(core, ks->prog, v->dev, bytes, size, why, sizeof why);
   free(bytes);
   if (v->prog && (!(v->kern = xl_next->clCreateKernel(v->prog, ks->name, &err)) || err != CL_SUCCESS)) {
      snprintf(why, sizeof why, "clCreateKernel on the variant: %d", err);
      v->kern = NULL;
   }
   if (!v->kern) {
      set_state(core, v, V_NONE, "failed", NULL, why);
      return true;
   }
   xl_core_count(core, XL_COUNT_VARIANT);
   if (driver_judge(core, ks, v, why, sizeof why)) {
      xl_core_count(core, XL_COUNT_DROPPED_BY_DRIVER);
      set_state(core, v, V_NONE, "dropped_by_driver", "driver", why);
      if (xl_core_specialize(core) == XL_SPEC_MEASURE)
         xl_decision_write(core, v->identity, "dropped_by_driver");
      return true;
   }
   switch (xl_core_specialize(core)) {
   case XL_SPEC_ALWAYS:
      set_state(core, v, V_KEPT, "always", NULL, NULL);
      break;
   default:
      if (v->st == V_KEPT) /* remembered */
         set_state(core, v, V_KEPT, "kept", "remembered", NULL);
      else if ((v->tb = calloc(xl_core_samples(core), sizeof *v->tb)) &&
               (v->tv = calloc(xl_core_samples(core), sizeof *v->tv)))
         set_state(core, v, V_MEASURE, "measuring", NULL, NULL);
      else
         set_state(core, v, V_NONE, "failed", NULL, "out of memory");
   }
   return true;
}

static variant *find_variant(xl_core *core, kstate *ks, cl_device_id dev, const char *key,
                             const char *promises, cl_uint dim, const size_t *local)
{
   variant *v = ks->variants;
   while (v && (v->dev != dev || strcmp(v->key, key)))
      v = v->next;
   if (v)
      return v;
   if (ks->nkeys >= MAX_KEYS)
      return NULL;
   ks->nkeys++;
   if (!(v = calloc(1, sizeof *v)) || !(v->key = strdup(key)) ||
       !(v->rec = xl_key_rec_get(core, ks->rec, key))) {
      if (v)
         free(v->key);
      free(v);
      return NULL;
   }
   v->dev = dev;
   if (local && dim <= 3) {
      v->dim = dim;
      memcpy(v->local, local, dim * sizeof *local);
   }
   v->next = ks->variants;
   ks->variants = v;
   char hash[33] = "", *dname = device_name(dev);
   xl_program_hash(core, ks->prog->rec, hash);
   if (asprintf(&v->identity, "%s|%s|%s|%s", dname ? dname : "?", hash, ks->name, key) < 0)
      v->identity = NULL;
   free(dname);
   xl_core_lock(core);
   free(v->rec->promises);
   v->rec->promises = *promises ? strdup(promises + 1) : NULL;
   xl_core_unlock(core);
   if (!*promises) {
      set_state(core, v, V_NONE, "base", NULL, NULL);
      return v;
   }
   set_state(core, v, V_WAIT, "pending", NULL, NULL);
   if (xl_core_specialize(core) == XL_SPEC_MEASURE && v->identity) {
      char *d = xl_decision_read(core, v->identity);
      if (d && !strcmp(d, "kept"))
         v->st = V_KEPT; /* made at its first launch, still judged by the driver */
      else if (d && (!strcmp(d, "dropped_by_clock") || !strcmp(d, "dropped_by_driver") ||
                     !strcmp(d, "no_change")))
         set_state(core, v, V_NONE, !strcmp(d, "dropped_by_clock") ? "dropped_by_clock"
                                    : !strcmp(d, "dropped_by_driver") ? "dropped_by_driver"
                                                                      : "no_change",
                   "remembered", NULL);
      free(d);
   }
   return v;
}

/* ---- the clock --------------------------------------------------------------------------- */

typedef struct sample {
   kstate *ks;
   variant *v;
   bool variant;
} sample;

static int cmp_double(const void *a, const void *b)
{
   double x = *(const double *)a, y = *(const double *)b;
   return x < y ? -1 : x > y;
}

/* median and median absolute deviation of t[0..n) (sorted in place) */
static void stats(double *t, unsigned n, double *med, double *mad)
{
   qsort(t, n, sizeof *t, cmp_double);
   *med = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
   double *d = malloc(n * sizeof *d);
   if (!d) {
      *mad = *med;
      return;
   }
   for (unsigned i = 0; i < n; i++)
      d[i] = t[i] > *med ? t[i] - *med : *med - t[i];
   qsort(d, n, sizeof *d, cmp_double);
   *mad = n % 2 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2;
   free(d);
}

/* Both sides have their samples: keep or drop (ks->lock held). */
static void judge(xl_core *core, variant *v)
{
   double mb, madb, mv, madv;
   stats(v->tb, v->nb, &mb, &madb);
   stats(v->tv, v->nv, &mv, &madv);
   double noise = 2 * (madb > madv ? madb : madv);
   bool keep = mv < mb * (1 - MIN_GAIN) && mb - mv > noise;
   char why[160];
   snprintf(why, sizeof why, "median %.1f us against the base's %.1f us (spread %.1f us)", mv * 1e6,
            mb * 1e6, noise / 2 * 1e6);
   xl_core_lock(core);
   v->rec->base_us = mb * 1e6;
   v->rec->variant_us = mv * 1e6;
   xl_core_unlock(core);
   xl_core_count(core, keep ? XL_COUNT_KEPT : XL_COUNT_DROPPED_BY_CLOCK);
   set_state(core, v, keep ? V_KEPT : V_NONE, keep ? "kept" : "dropped_by_clock", "measured", why);
   if (v->identity)
      xl_decision_write(core, v->identity, keep ? "kept" : "dropped_by_clock");
}

static void CL_CALLBACK timed(cl_event ev, cl_int status, void *data)
{
   sample *s = data;
   xl_core *core = xl_core_get();
   cl_ulong t0 = 0, t1 = 0;
   bool ok = status == CL_COMPLETE &&
             xl_next->clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL) == CL_SUCCESS &&
             xl_next->clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL) == CL_SUCCESS &&
             t1 >= t0;
   double t = (double)(t1 - t0) * 1e-9;
   /* test hooks: the clock sees one side four times slower */
   if (xl_core_fault(core, s->variant ? "slow-variant" : "slow-base"))
      t = t * 4 + 200e-6;
   kstate *ks = s->ks;
   variant *v = s->v;
   unsigned n = xl_core_samples(core);
   pthread_mutex_lock(&ks->lock);
   if (ok && v->st == V_MEASURE) {
      double *arr = s->variant ? v->tv : v->tb;
      unsigned *cnt = s->variant ? &v->nv : &v->nb;
      if (*cnt < n)
         arr[(*cnt)++] = t;
      xl_core_lock(core);
      v->rec->base_samples = v->nb;
      v->rec->variant_samples = v->nv;
      xl_core_unlock(core);
      if (v->nb >= n && v->nv >= n)
         judge(core, v);
   } else if (!ok && v->st == V_MEASURE) {
      /* a launch that failed or cannot be timed: take another */
      if (s->variant)
         v->enq_var--;
      else
         v->enq_base--;
   }
   pthread_mutex_unlock(&ks->lock);
   xl_next->clReleaseEvent(ev);
   free(s);
   unref(ks);
}

/* ---- queues: profiling on, as the application set it in the answers -------------------------- */

static qinfo *find_queue(cl_command_queue q)
{
   pthread_mutex_lock(&lock);
   qinfo *i = xl_ptrmap_get(&queues, q);
   pthread_mutex_unlock(&lock);
   return i;
}

static void remember_queue(cl_command_queue q, cl_device_id dev, cl_command_queue_properties props,
                           const cl_queue_properties *array)
{
   qinfo *i = calloc(1, sizeof *i);
   if (!i)
      return;
   i->app_props = props;
   i->dev = dev;
   if (array) {
      size_t n = 0;
      while (array[n])
         n += 2;
      i->app_array_bytes = (n + 1) * sizeof *array;
      if ((i->app_array = malloc(i->app_array_bytes)))
         memcpy(i->app_array, array, i->app_array_bytes);
   }
   pthread_mutex_lock(&lock);
   qinfo *old = xl_ptrmap_take(&queues, q);
   bool ok = xl_ptrmap_put(&queues, q, i);
   pthread_mutex_unlock(&lock);
   if (old) {
      free(old->app_array);
      free(old);
   }
   if (!ok) {
      free(i->app_array);
      free(i);
   }
}

static bool measuring(void)
{
   return xl_core_specialize(xl_core_get()) == XL_SPEC_MEASURE;
}

static cl_command_queue CL_API_CALL create_queue(cl_context ctx, cl_device_id dev,
                                                 cl_command_queue_properties props, cl_int *errcode)
{
   cl_int err = CL_SUCCESS;
   cl_command_queue q = NULL;
   if (measuring() && !(props & CL_QUEUE_PROFILING_ENABLE)) {
      q = xl_next->clCreateCommandQueue(ctx, dev, props | CL_QUEUE_PROFILING_ENABLE, &err);
      if (q && err == CL_SUCCESS)
         remember_queue(q, dev, props, NULL);
   }
   if (!q || err != CL_SUCCESS)
      q = xl_next->clCreateCommandQueue(ctx, dev, props, &err);
   if (errcode)
      *errcode = err;
   return q;
}

static cl_command_queue CL_API_CALL create_queue_with_properties(cl_context ctx, cl_device_id dev,
                                                                 const cl_queue_properties *props,
                                                                 cl_int *errcode)
{
   cl_int err = CL_SUCCESS;
   cl_command_queue q = NULL;
   if (measuring()) {
      size_t n = 0, at = (size_t)-1;
      while (props && props[n]) {
         if (props[n] == CL_QUEUE_PROPERTIES)
            at = n + 1;
         n += 2;
      }
      cl_queue_properties *mine = malloc((n + 3) * sizeof *mine);
      cl_command_queue_properties app = at != (size_t)-1 ? (cl_command_queue_properties)props[at] : 0;
      if (mine && !(app & CL_QUEUE_PROFILING_ENABLE)) {
         if (n)
            memcpy(mine, props, n * sizeof *mine);
         if (at != (size_t)-1)
            mine[at] |= CL_QUEUE_PROFILING_ENABLE;
         else {
            mine[n++] = CL_QUEUE_PROPERTIES;
            mine[n++] = CL_QUEUE_PROFILING_ENABLE;
         }
         mine[n] = 0;
         q = xl_next->clCreateCommandQueueWithProperties(ctx, dev, mine, &err);
         if (q && err == CL_SUCCESS)
            remember_queue(q, dev, app, props);
      }
      free(mine);
   }
   if (!q || err != CL_SUCCESS)
      q = xl_next->clCreateCommandQueueWithProperties(ctx, dev, props, &err);
   if (errcode)
      *errcode = err;
   return q;
}

static cl_int CL_API_CALL get_queue_info(cl_command_queue q, cl_command_queue_info what, size_t size,
                                         void *value, size_t *size_ret)
{
   qinfo *i = what == CL_QUEUE_PROPERTIES || what == CL_QUEUE_PROPERTIES_ARRAY ? find_queue(q) : NULL;
   if (!i)
      return xl_next->clGetCommandQueueInfo(q, what, size, value, size_ret);
   const void *src = what == CL_QUEUE_PROPERTIES ? (const void *)&i->app_props : i->app_array;
   size_t n = what == CL_QUEUE_PROPERTIES ? sizeof i->app_props : i->app_array_bytes;
   if (what == CL_QUEUE_PROPERTIES_ARRAY && !i->app_array)
      n = 0; /* clCreateCommandQueue, or a NULL list: none */
   if (value && size < n)
      return CL_INVALID_VALUE;
   if (value && n)
      memcpy(value, src, n);
   if (size_ret)
      *size_ret = n;
   return CL_SUCCESS;
}

static cl_int CL_API_CALL release_queue(cl_command_queue q)
{
   cl_uint refs = 0;
   qinfo *i = find_queue(q);
   if (i && xl_next->clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs, NULL) ==
                CL_SUCCESS && refs == 1) {
      pthread_mutex_lock(&lock);
      i = xl_ptrmap_take(&queues, q);
      pthread_mutex_unlock(&lock);
      if (i) {
         free(i->app_array);
         free(i);
      }
   }
   return xl_next->clReleaseCommandQueue(q);
}

/* An event of a queue whose profiling the application did not ask for
 * answers as it would have. */
static cl_int CL_API_CALL get_event_profiling_info(cl_event ev, cl_profiling_info what, size_t size,
                                                   void *value, size_t *size_ret)
{
   cl_command_queue q = NULL;
   if (xl_next->clGetEventInfo(ev, CL_EVENT_COMMAND_QUEUE, sizeof q, &q, NULL) == CL_SUCCESS && q) {
      qinfo *i = find_queue(q);
      if (i && !(i->app_props & CL_QUEUE_PROFILING_ENABLE))
         return CL_PROFILING_INFO_NOT_AVAILABLE;
   }
   return xl_next->clGetEventProfilingInfo(ev, what, size, value, size_ret);
}

static bool profiled(cl_command_queue q, qinfo *i)
{
   if (i)
      return true;
   cl_command_queue_properties p = 0;
   return xl_next->clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof p, &p, NULL) == CL_SUCCESS &&
          (p & CL_QUEUE_PROFILING_ENABLE);
}

/* ---- the launch ------------------------------------------------------------------------------------ */

static void count_launch(xl_core *core, variant *v, bool specialized)
{
   xl_core_lock(core);
   v->rec->launches++;
   v->rec->specialized += specialized;
   xl_core_unlock(core);
}

static cl_int CL_API_CALL enqueue_nd_range(cl_command_queue q, cl_kernel k, cl_uint dim,
                                           const size_t *offset, const size_t *global,
                                           const size_t *local, cl_uint nwait, const cl_event *wait,
                                           cl_event *event)
{
   kstate *ks = find_kstate(k);
   if (!ks)
      return xl_next->clEnqueueNDRangeKernel(q, k, dim, offset, global, local, nwait, wait, event);
   xl_core *core = xl_core_get();
   xl_spec_mode mode = xl_core_specialize(core);
   qinfo *qi = find_queue(q);
   cl_device_id dev = qi ? qi->dev : NULL;
   if (!dev)
      xl_next->clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL);
   pthread_mutex_lock(&ks->lock);
   /* the scalars' repeats */
   for (unsigned i = 0; i < ks->nparams; i++) {
      arg *a = &ks->args[i];
      if (ks->pk[i] == PK_INT && a->how == ARG_VALUE) {
         a->repeats = a->repeats && a->last == a->scalar ? a->repeats + 1 : 1;
         a->last = a->scalar;
      }
   }
   variant *v = NULL;
   bool run_variant = false, timed_launch = false;
   for (int attempt = 0; attempt < 2 && !v; attempt++) {
      text key = { .n = 0 }, promises = { .n = 0 };
      key.s[0] = promises.s[0] = 0;
      if (!dev || !facts(ks, dev, dim, offset, global, local, &key, &promises))
         break;
      if (!key.n)
         add(&key, "none");
      v = find_variant(core, ks, dev, key.s, promises.s, dim, local);
      if (!v)
         break;
      v->seen++;
      bool make = !v->kern && (v->st == V_WAIT || v->st == V_KEPT) &&
                  (mode == XL_SPEC_ALWAYS || v->st == V_KEPT || v->seen >= MAKE_AFTER);
      if (make && !make_variant(core, ks, v, promises.s)) {
         v->seen--;
         v = NULL; /* the key again, without the arguments that bound no loop */
      }
   }
   unsigned n = xl_core_samples(core);
   if (v && v->kern && (v->st == V_KEPT || v->st == V_MEASURE)) {
      bool ready = replay(ks, v);
      if (v->st == V_KEPT)
         run_variant = ready;
      else if (ready && profiled(q, qi) && (v->enq_var < n || v->enq_base < n)) {
         run_variant = v->enq_var <= v->enq_base && v->enq_var < n;
         timed_launch = true;
         if (run_variant)
            v->enq_var++;
         else
            v->enq_base++;
      }
   }
   if (timed_launch)
      ks->refs++;
   pthread_mutex_unlock(&ks->lock);

   cl_event mine = NULL, *ev = timed_launch ? (event ? event : &mine) : event;
   cl_int err = CL_INVALID_KERNEL;
   bool timed_variant = run_variant;
   if (run_variant) {
      err = xl_next->clEnqueueNDRangeKernel(q, v->kern, dim, offset, global, local, nwait, wait, ev);
      if (err != CL_SUCCESS) {
         /* the variant could not be enqueued: it goes, the application's launch runs */
         char why[64];
         snprintf(why, sizeof why, "clEnqueueNDRangeKernel on the variant: %d", err);
         pthread_mutex_lock(&ks->lock);
         set_state(core, v, V_NONE, "failed", NULL, why);
         pthread_mutex_unlock(&ks->lock);
         run_variant = false;
      }
   }
   if (!run_variant)
      err = xl_next->clEnqueueNDRangeKernel(q, k, dim, offset, global, local, nwait, wait, ev);
   if (v)
      count_launch(core, v, run_variant && err == CL_SUCCESS);
   if (!timed_launch)
      return err;
   sample *s = err == CL_SUCCESS && timed_variant == run_variant ? malloc(sizeof *s) : NULL;
   if (s) {
      *s = (sample){ .ks = ks, .v = v, .variant = run_variant };
      if (ev != &mine)
         xl_next->clRetainEvent(*ev); /* the callback's reference */
      if (xl_next->clSetEventCallback(*ev, CL_COMPLETE, timed, s) == CL_SUCCESS)
         return err;
      if (ev != &mine)
         xl_next->clReleaseEvent(*ev);
      free(s);
   }
   /* not timed after all */
   pthread_mutex_lock(&ks->lock);
   if (v->st == V_MEASURE) {
      if (timed_variant)
         v->enq_var--;
      else
         v->enq_base--;
   }
   pthread_mutex_unlock(&ks->lock);
   if (mine)
      xl_next->clReleaseEvent(mine);
   unref(ks);
   return err;
}

void xl_launch_install(struct _cl_icd_dispatch *d)
{
   if (xl_core_specialize(xl_core_get()) == XL_SPEC_OFF)
      return;
   const char *b = getenv("XEOPT_LAYER_VARIANTS");
   unsigned per = 0, all = 0;
   if (b && sscanf(b, "%u,%u", &per, &all) == 2) {
      budget_per_kernel = per;
      budget_in_all = all;
   }
   d->clSetKernelArg = set_kernel_arg;
   d->clSetKernelArgSVMPointer = set_kernel_arg_svm;
   d->clSetKernelExecInfo = set_kernel_exec_info;
   d->clEnqueueNDRangeKernel = enqueue_nd_range;
   if (measuring()) {
      d->clCreateCommandQueue = create_queue;
      d->clCreateCommandQueueWithProperties = create_queue_with_properties;
      d->clGetCommandQueueInfo = get_queue_info;
      d->clReleaseCommandQueue = release_queue;
      d->clGetEventProfilingInfo = get_event_profiling_info;
   }
}
