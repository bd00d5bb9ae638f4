/*
 * Kernel states and their arguments (docs/layer.md, "Launch facts and
 * variants"): the state the layer keeps for every kernel of a program it
 * optimized or left unchanged -- the parameters' kinds, read from the
 * module, and the arguments the application sets, kept to be replayed on
 * a variant's kernel.  Apart from launch.c so that the launch's own file
 * holds only the launch.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "cl_layer.h"
#include "launch_internal.h"
#include "ptrmap.h"

typedef cl_int(CL_API_CALL *usm_arg_fn)(cl_kernel, cl_uint, const void *);

static xl_ptrmap kstates;
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

kstate *xl_find_kstate(cl_kernel k)
{
   pthread_mutex_lock(&xl_launch_lock);
   kstate *ks = xl_ptrmap_get(&kstates, k);
   pthread_mutex_unlock(&xl_launch_lock);
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

void xl_unref(kstate *ks)
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
      xl_unref(ks);
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
   pthread_mutex_lock(&xl_launch_lock);
   bool ok = xl_ptrmap_put(&kstates, k, ks);
   pthread_mutex_unlock(&xl_launch_lock);
   if (!ok)
      xl_unref(ks);
}

void xl_launch_clone(cl_kernel from, cl_kernel to)
{
   kstate *src = xl_find_kstate(from);
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
   pthread_mutex_lock(&xl_launch_lock);
   ok = ok && xl_ptrmap_put(&kstates, to, ks);
   pthread_mutex_unlock(&xl_launch_lock);
   if (!ok)
      xl_unref(ks);
}

bool xl_launch_tracked(cl_kernel k)
{
   return xl_find_kstate(k) != NULL;
}

void xl_launch_forget(cl_kernel k)
{
   pthread_mutex_lock(&xl_launch_lock);
   kstate *ks = xl_ptrmap_take(&kstates, k);
   pthread_mutex_unlock(&xl_launch_lock);
   if (ks)
      xl_unref(ks);
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
      xl_arg *a = &ks->args[i];
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

cl_int CL_API_CALL xl_set_kernel_arg(cl_kernel k, cl_uint i, size_t size, const void *value)
{
   cl_int err = xl_next->clSetKernelArg(k, i, size, value);
   kstate *ks = err == CL_SUCCESS ? xl_find_kstate(k) : NULL;
   if (ks)
      record_arg(ks, i, ARG_VALUE, size, value, NULL);
   return err;
}

cl_int CL_API_CALL xl_set_kernel_arg_svm(cl_kernel k, cl_uint i, const void *ptr)
{
   cl_int err = xl_next->clSetKernelArgSVMPointer(k, i, ptr);
   kstate *ks = err == CL_SUCCESS ? xl_find_kstate(k) : NULL;
   if (ks)
      record_arg(ks, i, ARG_SVM, 0, NULL, ptr);
   return err;
}

static cl_int CL_API_CALL set_kernel_arg_usm(cl_kernel k, cl_uint i, const void *ptr)
{
   usm_arg_fn next = __atomic_load_n(&next_usm_arg, __ATOMIC_ACQUIRE);
   cl_int err = next(k, i, ptr);
   kstate *ks = err == CL_SUCCESS ? xl_find_kstate(k) : NULL;
   if (ks)
      record_arg(ks, i, ARG_USM, 0, NULL, ptr);
   return err;
}

cl_int CL_API_CALL xl_set_kernel_exec_info(cl_kernel k, cl_kernel_exec_info name, size_t size,
                                               const void *value)
{
   cl_int err = xl_next->clSetKernelExecInfo(k, name, size, value);
   kstate *ks = err == CL_SUCCESS ? xl_find_kstate(k) : NULL;
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
bool xl_replay(kstate *ks, variant *v)
{
   if (v->gen == ks->gen)
      return true;
   cl_int err = CL_SUCCESS;
   usm_arg_fn usm = __atomic_load_n(&next_usm_arg, __ATOMIC_ACQUIRE);
   for (cl_uint i = 0; i < ks->nparams && err == CL_SUCCESS; i++) {
      const xl_arg *a = &ks->args[i];
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
