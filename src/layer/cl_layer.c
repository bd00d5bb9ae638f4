/*
 * libxeopt_cl_layer.so: an OpenCL loader layer (cl_loader_layers,
 * OpenCL-Docs extensions/cl_loader_layers.asciidoc) that optimizes every
 * program an application builds (docs/layer.md).
 *
 * The loader calls clInitLayer with the next layer's dispatch table and
 * takes ours; our empty slots fall through.  We fill the entries that
 * create, build and query programs and kernels: the application's program
 * objects stay its own, and a built shadow program (cl_layer.h) answers
 * for them where the build matters.  Every wrapper starts with the
 * application's own call where it can, so a failure of ours leaves the
 * application with exactly what it asked for.
 */
#define _GNU_SOURCE
#include <CL/cl_layer.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl_layer.h"
#include "ptrmap.h"

const struct _cl_icd_dispatch *xl_next;
static struct _cl_icd_dispatch dispatch;

/* programs: cl_program -> xl_cl_program; kernels made from a shadow:
 * cl_kernel -> the application's cl_program (which each retains, as a
 * kernel retains its program). */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static xl_ptrmap programs, kernels;
typedef cl_program(CL_API_CALL *create_with_il_fn)(cl_context, const void *, size_t, cl_int *);
static create_with_il_fn next_create_with_il_khr;

static xl_cl_program *find_program(cl_program p)
{
   pthread_mutex_lock(&lock);
   xl_cl_program *e = xl_ptrmap_get(&programs, p);
   pthread_mutex_unlock(&lock);
   return e;
}

static cl_program shadow_of(cl_program p)
{
   xl_cl_program *e = find_program(p);
   return e && e->shadow ? e->shadow : NULL;
}

/* Whether the layer acts on some device of ctx. */
static bool acts_on_context(xl_core *core, cl_context ctx)
{
   cl_uint n = 0;
   cl_device_id *d = xl_context_devices(ctx, &n);
   bool acts = false;
   for (cl_uint i = 0; d && i < n && !acts; i++) {
      cl_device_type type = 0;
      xl_next->clGetDeviceInfo(d[i], CL_DEVICE_TYPE, sizeof type, &type, NULL);
      acts = xl_core_acts_on(core, (type & CL_DEVICE_TYPE_GPU) != 0);
   }
   free(d);
   return acts;
}

/* Stands behind a program the application just created; on any failure
 * the program simply goes on without the layer. */
static void adopt(cl_program app, cl_context ctx, xl_origin origin, const void *il, size_t size,
                  char *source)
{
   xl_core *core = xl_core_get();
   xl_cl_program *e = NULL;
   if (!app || !acts_on_context(core, ctx) || !(e = calloc(1, sizeof *e)))
      goto fail;
   e->app = app;
   e->context = ctx;
   e->origin = origin;
   e->source = source;
   if (il && !(e->il = malloc(size)))
      goto fail;
   if (il) {
      memcpy(e->il, il, size);
      e->il_size = size;
   }
   e->rec = xl_program_new(core, origin);
   pthread_mutex_lock(&lock);
   bool ok = e->rec && xl_ptrmap_put(&programs, app, e);
   pthread_mutex_unlock(&lock);
   if (ok)
      return;
   xl_program_set_result(core, e->rec, XL_PASSED_THROUGH, "out of memory");
fail:
   if (e)
      free(e->il);
   free(e);
   free(source);
}

static void forget(xl_cl_program *e)
{
   if (e->shadow)
      xl_next->clReleaseProgram(e->shadow);
   free(e->il);
   free(e->source);
   free(e->specs);
   free(e->compile_options);
   free(e->devices);
   free(e->module);
   free(e->build_options);
   free(e);
}

/* ---- creating programs --------------------------------------------------- */

static char *join_source(cl_uint count, const char **strings, const size_t *lengths)
{
   size_t total = 0;
   for (cl_uint i = 0; i < count; i++)
      total += lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
   char *s = malloc(total + 1), *o = s;
   for (cl_uint i = 0; s && i < count; i++) {
      size_t n = lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
      memcpy(o, strings[i], n);
      o += n;
   }
   if (s)
      *o = 0;
   return s;
}

static cl_program CL_API_CALL
create_with_source(cl_context ctx, cl_uint count, const char **strings, const size_t *lengths,
                   cl_int *errcode)
{
   cl_int err = CL_SUCCESS;
   cl_program p = xl_next->clCreateProgramWithSource(ctx, count, strings, lengths, &err);
   if (errcode)
      *errcode = err;
   if (p && err == CL_SUCCESS && strings)
      adopt(p, ctx, XL_ORIGIN_SOURCE, NULL, 0, join_source(count, strings, lengths));
   return p;
}

static cl_program CL_API_CALL
create_with_il(cl_context ctx, const void *il, size_t length, cl_int *errcode)
{
   cl_int err = CL_SUCCESS;
   cl_program p = xl_next->clCreateProgramWithIL(ctx, il, length, &err);
   if (errcode)
      *errcode = err;
   if (p && err == CL_SUCCESS && il)
      adopt(p, ctx, XL_ORIGIN_IL, il, length, NULL);
   return p;
}

/* cl_khr_il_program's entry, reached through the extension queries. */
static cl_program CL_API_CALL
create_with_il_khr(cl_context ctx, const void *il, size_t length, cl_int *errcode)
{
   cl_int err = CL_SUCCESS;
   create_with_il_fn next = __atomic_load_n(&next_create_with_il_khr, __ATOMIC_ACQUIRE);
   cl_program p = next(ctx, il, length, &err);
   if (errcode)
      *errcode = err;
   if (p && err == CL_SUCCESS && il)
      adopt(p, ctx, XL_ORIGIN_IL, il, length, NULL);
   return p;
}

static void *wrap_extension(const char *name, void *fn)
{
   if (fn && name && !strcmp(name, "clCreateProgramWithILKHR")) {
      __atomic_store_n(&next_create_with_il_khr, (create_with_il_fn)fn, __ATOMIC_RELEASE);
      return (void *)create_with_il_khr;
   }
   return xl_launch_wrap_extension(name, fn);
}

static void *CL_API_CALL get_extension_function_address(const char *name)
{
   return wrap_extension(name, xl_next->clGetExtensionFunctionAddress(name));
}

static void *CL_API_CALL get_extension_function_address_for_platform(cl_platform_id platform,
                                                                      const char *name)
{
   return wrap_extension(name, xl_next->clGetExtensionFunctionAddressForPlatform(platform, name));
}

static cl_int CL_API_CALL set_specialization_constant(cl_program p, cl_uint id, size_t size,
                                                      const void *value)
{
   cl_int err = xl_next->clSetProgramSpecializationConstant(p, id, size, value);
   xl_cl_program *e = err == CL_SUCCESS ? find_program(p) : NULL;
   if (!e)
      return err;
   size_t i = 0;
   while (i < e->nspecs && e->specs[i].id != id)
      i++;
   xl_spec_constant *grown = i < e->nspecs ? e->specs : realloc(e->specs, (i + 1) * sizeof *grown);
   if (!grown || size > sizeof grown->value) {
      /* cannot replay it: the application's program is built as asked */
      e->hands_off = true;
      return err;
   }
   e->specs = grown;
   e->nspecs = i < e->nspecs ? e->nspecs : i + 1;
   grown[i].id = id;
   grown[i].size = size;
   memcpy(grown[i].value, value, size);
   return err;
}

/* ---- building ------------------------------------------------------------ */

/* A rebuild or recompile: the old shadow goes (its kernels keep it alive). */
static void drop_shadow(xl_cl_program *e)
{
   if (e && e->shadow) {
      xl_next->clReleaseProgram(e->shadow);
      e->shadow = NULL;
      e->shadow_compiled = false;
   }
}

static cl_int CL_API_CALL
build_program(cl_program p, cl_uint ndev, const cl_device_id *devices, const char *options,
              void(CL_CALLBACK *notify)(cl_program, void *), void *user_data)
{
   xl_cl_program *e = find_program(p);
   xl_core *core = xl_core_get();
   drop_shadow(e);
   if (e && !e->hands_off && xl_shadow_build(core, e, ndev, devices, options, false)) {
      if (notify)
         notify(p, user_data);
      return CL_SUCCESS;
   }
   double t0 = xl_now();
   cl_int err = xl_next->clBuildProgram(p, ndev, devices, options, notify, user_data);
   if (e) {
      xl_program_add_build_seconds(core, e->rec, xl_now() - t0);
      if (err == CL_SUCCESS && !notify)
         xl_record_kernels(core, e, p);
   }
   return err;
}

/* Remembers clCompileProgram's arguments: if linking the shadow fails,
 * the application's program is compiled with them. */
static bool remember_compile(xl_cl_program *e, cl_uint ndev, const cl_device_id *devices,
                             const char *options)
{
   free(e->compile_options);
   free(e->devices);
   e->compile_options = strdup(options ? options : "");
   e->devices = ndev ? malloc(ndev * sizeof *devices) : NULL;
   e->ndevices = devices ? ndev : 0;
   if (e->devices)
      memcpy(e->devices, devices, ndev * sizeof *devices);
   return e->compile_options && (!ndev || !devices || e->devices);
}

static cl_int CL_API_CALL
compile_program(cl_program p, cl_uint ndev, const cl_device_id *devices, const char *options,
                cl_uint nheaders, const cl_program *headers, const char **header_names,
                void(CL_CALLBACK *notify)(cl_program, void *), void *user_data)
{
   xl_cl_program *e = find_program(p);
   xl_core *core = xl_core_get();
   drop_shadow(e);
   if (e && nheaders) {
      /* embedded headers would have to reach the front end as files */
      e->hands_off = true;
      xl_program_set_result(core, e->rec, XL_PASSED_THROUGH,
                            "clCompileProgram with embedded headers is not optimized");
   }
   if (e && !e->hands_off && remember_compile(e, ndev, devices, options) &&
       xl_shadow_build(core, e, ndev, devices, options, true)) {
      if (notify)
         notify(p, user_data);
      return CL_SUCCESS;
   }
   double t0 = xl_now();
   cl_int err = xl_next->clCompileProgram(p, ndev, devices, options, nheaders, headers,
                                          header_names, notify, user_data);
   if (e)
      xl_program_add_build_seconds(core, e->rec, xl_now() - t0);
   return err;
}

/* Linking failed with the shadows: each input the layer stood in for is
 * compiled as the application asked, its record says why. */
static void compile_as_asked(xl_core *core, xl_cl_program **stood_in, cl_uint n, cl_int err)
{
   char why[96];
   snprintf(why, sizeof why, "the driver could not link xeopt's output (clLinkProgram: %d)", err);
   for (cl_uint i = 0; i < n; i++) {
      xl_cl_program *e = stood_in[i];
      if (!e)
         continue;
      drop_shadow(e);
      xl_next->clCompileProgram(e->app, e->ndevices, e->devices, e->compile_options, 0, NULL, NULL,
                                NULL, NULL);
      xl_program_set_result(core, e->rec, XL_FAILED, why);
   }
}

static cl_program CL_API_CALL
link_program(cl_context ctx, cl_uint ndev, const cl_device_id *devices, const char *options,
             cl_uint n, const cl_program *inputs, void(CL_CALLBACK *notify)(cl_program, void *),
             void *user_data, cl_int *errcode)
{
   xl_core *core = xl_core_get();
   cl_program *with = inputs ? malloc(n * sizeof *with) : NULL;
   xl_cl_program **stood_in = with ? calloc(n, sizeof *stood_in) : NULL;
   bool any = false;
   for (cl_uint i = 0; stood_in && i < n; i++) {
      xl_cl_program *e = find_program(inputs[i]);
      stood_in[i] = e && e->shadow && e->shadow_compiled ? e : NULL;
      with[i] = stood_in[i] ? e->shadow : inputs[i];
      any |= stood_in[i] != NULL;
   }
   if (any) {
      cl_int err = CL_SUCCESS;
      double t0 = xl_now();
      cl_program out = xl_next->clLinkProgram(ctx, ndev, devices, options, n, with, NULL, NULL, &err);
      for (cl_uint i = 0; i < n; i++)
         if (stood_in[i])
            xl_program_add_build_seconds(core, stood_in[i]->rec, (xl_now() - t0) / n);
      if (out && err == CL_SUCCESS) {
         for (cl_uint i = 0; i < n; i++)
            if (stood_in[i])
               xl_record_kernels(core, stood_in[i], out);
         free(with);
         free(stood_in);
         if (errcode)
            *errcode = CL_SUCCESS;
         if (notify)
            notify(out, user_data);
         return out;
      }
      if (out)
         xl_next->clReleaseProgram(out);
      compile_as_asked(core, stood_in, n, err);
   }
   free(with);
   free(stood_in);
   cl_int err = CL_SUCCESS;
   double t0 = xl_now();
   cl_program out = xl_next->clLinkProgram(ctx, ndev, devices, options, n, inputs, notify, user_data, &err);
   double seconds = xl_now() - t0;
   if (errcode)
      *errcode = err;
   for (cl_uint i = 0; inputs && i < n; i++) {
      xl_cl_program *e = find_program(inputs[i]);
      if (e)
         xl_program_add_build_seconds(core, e->rec, seconds / n);
      if (e && out && err == CL_SUCCESS && !notify)
         xl_record_kernels(core, e, out);
   }
   return out;
}

/* Queries that depend on the build go to the shadow. */
static bool build_dependent(cl_program_info what)
{
   switch (what) {
   case CL_PROGRAM_NUM_KERNELS:
   case CL_PROGRAM_KERNEL_NAMES:
   case CL_PROGRAM_BINARY_SIZES:
   case CL_PROGRAM_BINARIES:
   case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
   case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT:
      return true;
   default:
      return false;
   }
}

static cl_int CL_API_CALL get_program_info(cl_program p, cl_program_info what, size_t size,
                                           void *value, size_t *size_ret)
{
   cl_program s = build_dependent(what) ? shadow_of(p) : NULL;
   return xl_next->clGetProgramInfo(s ? s : p, what, size, value, size_ret);
}

static cl_int CL_API_CALL get_program_build_info(cl_program p, cl_device_id d,
                                                 cl_program_build_info what, size_t size,
                                                 void *value, size_t *size_ret)
{
   cl_program s = shadow_of(p);
   return xl_next->clGetProgramBuildInfo(s ? s : p, d, what, size, value, size_ret);
}

static cl_int CL_API_CALL release_program(cl_program p)
{
   xl_cl_program *e = find_program(p);
   cl_uint refs = 0;
   if (e && xl_next->clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, sizeof refs, &refs, NULL) ==
                CL_SUCCESS && refs == 1) {
      pthread_mutex_lock(&lock);
      xl_ptrmap_take(&programs, p);
      pthread_mutex_unlock(&lock);
      forget(e);
   }
   return xl_next->clReleaseProgram(p);
}

/* ---- kernels ------------------------------------------------------------- */

/* Kernel k came from p's shadow: it holds p, as a kernel holds its program. */
static void hold(cl_kernel k, cl_program p)
{
   xl_next->clRetainProgram(p);
   pthread_mutex_lock(&lock);
   bool ok = xl_ptrmap_put(&kernels, k, p);
   pthread_mutex_unlock(&lock);
   if (!ok)
      xl_next->clReleaseProgram(p);
}

static cl_kernel CL_API_CALL create_kernel(cl_program p, const char *name, cl_int *errcode)
{
   cl_program s = shadow_of(p);
   cl_kernel k = xl_next->clCreateKernel(s ? s : p, name, errcode);
   if (k && s)
      hold(k, p);
   if (k)
      xl_launch_track(find_program(p), k);
   return k;
}

static cl_int CL_API_CALL create_kernels_in_program(cl_program p, cl_uint n, cl_kernel *out,
                                                    cl_uint *n_ret)
{
   cl_program s = shadow_of(p);
   cl_uint made = 0;
   cl_int err = xl_next->clCreateKernelsInProgram(s ? s : p, n, out, &made);
   if (n_ret)
      *n_ret = made;
   for (cl_uint i = 0; s && out && err == CL_SUCCESS && i < made; i++)
      hold(out[i], p);
   xl_cl_program *e = out && err == CL_SUCCESS ? find_program(p) : NULL;
   for (cl_uint i = 0; e && i < made; i++)
      xl_launch_track(e, out[i]);
   return err;
}

static cl_program owner(cl_kernel k)
{
   pthread_mutex_lock(&lock);
   cl_program p = xl_ptrmap_get(&kernels, k);
   pthread_mutex_unlock(&lock);
   return p;
}

static cl_kernel CL_API_CALL clone_kernel(cl_kernel k, cl_int *errcode)
{
   cl_kernel c = xl_next->clCloneKernel(k, errcode);
   cl_program p = c ? owner(k) : NULL;
   if (p)
      hold(c, p);
   if (c)
      xl_launch_clone(k, c);
   return c;
}

static cl_int CL_API_CALL release_kernel(cl_kernel k)
{
   cl_program p = owner(k);
   cl_uint refs = 0;
   bool tracked = xl_launch_tracked(k);
   bool last = (p || tracked) && xl_next->clGetKernelInfo(k, CL_KERNEL_REFERENCE_COUNT, sizeof refs,
                                                          &refs, NULL) == CL_SUCCESS && refs == 1;
   cl_int err = xl_next->clReleaseKernel(k);
   if (last && err == CL_SUCCESS && tracked)
      xl_launch_forget(k);
   if (last && err == CL_SUCCESS && p) {
      pthread_mutex_lock(&lock);
      xl_ptrmap_take(&kernels, k);
      pthread_mutex_unlock(&lock);
      release_program(p);
   }
   return err;
}

static cl_int CL_API_CALL get_kernel_info(cl_kernel k, cl_kernel_info what, size_t size,
                                          void *value, size_t *size_ret)
{
   cl_program p = what == CL_KERNEL_PROGRAM ? owner(k) : NULL;
   if (!p)
      return xl_next->clGetKernelInfo(k, what, size, value, size_ret);
   if (value && size < sizeof p)
      return CL_INVALID_VALUE;
   if (value)
      memcpy(value, &p, sizeof p);
   if (size_ret)
      *size_ret = sizeof p;
   return CL_SUCCESS;
}

/* ---- the loader's entry points ------------------------------------------- */

CL_API_ENTRY cl_int CL_API_CALL clGetLayerInfo(cl_layer_info what, size_t size, void *value,
                                               size_t *size_ret)
{
   static const char name[] = "xeopt: optimizes OpenCL programs for Intel GPUs";
   const void *src;
   size_t n;
   cl_layer_api_version version = CL_LAYER_API_VERSION_100;
   switch (what) {
   case CL_LAYER_API_VERSION:
      src = &version;
      n = sizeof version;
      break;
   case CL_LAYER_NAME:
      src = name;
      n = sizeof name;
      break;
   default:
      return CL_INVALID_VALUE;
   }
   if (value && size < n)
      return CL_INVALID_VALUE;
   if (value)
      memcpy(value, src, n);
   if (size_ret)
      *size_ret = n;
   return CL_SUCCESS;
}

/* The entries this layer needs of the next one: all in ocl-icd 2.3.1's
 * 149 (a newer loader hands more, an older one fewer). */
#define ENTRY_INDEX(name) (offsetof(struct _cl_icd_dispatch, name) / sizeof(void *))
static const size_t needed = ENTRY_INDEX(clSetProgramSpecializationConstant) + 1;

CL_API_ENTRY cl_int CL_API_CALL clInitLayer(cl_uint num_entries, const struct _cl_icd_dispatch *target,
                                            cl_uint *num_entries_ret,
                                            const struct _cl_icd_dispatch **layer_dispatch_ret)
{
   if (!target || !num_entries_ret || !layer_dispatch_ret)
      return CL_INVALID_VALUE;
   /* Too old a table: no entries of ours, every call falls through. */
   if (num_entries < needed) {
      memset(&dispatch, 0, sizeof dispatch);
      *layer_dispatch_ret = &dispatch;
      *num_entries_ret = 0;
      return CL_SUCCESS;
   }
   xl_next = target;
   dispatch.clCreateProgramWithSource = create_with_source;
   dispatch.clCreateProgramWithIL = create_with_il;
   dispatch.clGetExtensionFunctionAddress = get_extension_function_address;
   dispatch.clGetExtensionFunctionAddressForPlatform = get_extension_function_address_for_platform;
   dispatch.clSetProgramSpecializationConstant = set_specialization_constant;
   dispatch.clBuildProgram = build_program;
   dispatch.clCompileProgram = compile_program;
   dispatch.clLinkProgram = link_program;
   dispatch.clGetProgramInfo = get_program_info;
   dispatch.clGetProgramBuildInfo = get_program_build_info;
   dispatch.clReleaseProgram = release_program;
   dispatch.clCreateKernel = create_kernel;
   dispatch.clCreateKernelsInProgram = create_kernels_in_program;
   dispatch.clCloneKernel = clone_kernel;
   dispatch.clReleaseKernel = release_kernel;
   dispatch.clGetKernelInfo = get_kernel_info;
   xl_launch_install(&dispatch);
   *layer_dispatch_ret = &dispatch;
   *num_entries_ret = (cl_uint)(sizeof dispatch / sizeof(void *));
   if (*num_entries_ret > num_entries)
      *num_entries_ret = num_entries;
   xl_core_get();
   return CL_SUCCESS;
}
