/*
 * Shadow programs (cl_layer.h): the device's facts, the module for it
 * (the application's IL, or its source through the front end), xeopt's
 * output, and the driver's build of it.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl_layer.h"
#include "frontend.h"

#ifndef CL_DEVICE_IP_VERSION_INTEL
#define CL_DEVICE_IP_VERSION_INTEL 0x4250
#endif

/* A device query's value, malloc'd and nul-terminated; NULL on failure. */
static void *device_info(cl_device_id d, cl_device_info what, size_t *size)
{
   size_t n = 0;
   if (xl_next->clGetDeviceInfo(d, what, 0, NULL, &n) != CL_SUCCESS)
      return NULL;
   char *v = calloc(n + 1, 1);
   if (v && xl_next->clGetDeviceInfo(d, what, n, v, NULL) != CL_SUCCESS) {
      free(v);
      return NULL;
   }
   if (size)
      *size = n;
   return v;
}

/* The cost model's name for an Intel GPU, from its IP version
 * (cl_intel_device_attribute_query: architecture << 22 | release << 14 |
 * revision); NULL for a device the model has no weights for. */
static const char *model_target(cl_device_id d)
{
   cl_uint ip = 0;
   if (xl_next->clGetDeviceInfo(d, CL_DEVICE_IP_VERSION_INTEL, sizeof ip, &ip, NULL) != CL_SUCCESS)
      return NULL;
   unsigned arch = ip >> 22, release = (ip >> 14) & 0xff;
   if (arch == 12 && release >= 55 && release <= 59)
      return "dg2";
   if (arch == 12 && release >= 60 && release <= 61)
      return "pvc";
   if (arch == 20 && release >= 1 && release <= 2)
      return "bmg";
   if (arch == 20 && release == 4)
      return "lnl";
   if (arch == 30 && release <= 1)
      return "ptl";
   return NULL;
}

/* CL_DEVICE_EXTENSIONS plus the OpenCL C 3.0 feature names
 * (CL_DEVICE_OPENCL_C_FEATURES), space-separated. */
static char *extensions(cl_device_id d)
{
   char *ext = device_info(d, CL_DEVICE_EXTENSIONS, NULL);
   size_t n = 0;
   cl_name_version *f = device_info(d, CL_DEVICE_OPENCL_C_FEATURES, &n);
   size_t count = f ? n / sizeof *f : 0;
   size_t len = ext ? strlen(ext) : 0;
   char *all = malloc(len + count * (CL_NAME_VERSION_MAX_NAME_SIZE + 1) + 2);
   if (all) {
      strcpy(all, ext ? ext : "");
      for (size_t i = 0; i < count; i++) {
         strcat(all, " ");
         strncat(all, f[i].name, CL_NAME_VERSION_MAX_NAME_SIZE);
      }
   }
   free(ext);
   free(f);
   return all;
}

cl_device_id *xl_context_devices(cl_context ctx, cl_uint *n)
{
   size_t size = 0;
   cl_device_id *d = NULL;
   if (xl_next->clGetContextInfo(ctx, CL_CONTEXT_DEVICES, 0, NULL, &size) != CL_SUCCESS || !size ||
       !(d = malloc(size)) ||
       xl_next->clGetContextInfo(ctx, CL_CONTEXT_DEVICES, size, d, NULL) != CL_SUCCESS) {
      free(d);
      return NULL;
   }
   *n = (cl_uint)(size / sizeof *d);
   return d;
}

typedef struct facts {
   xl_device dev;
   char *name, *extensions;
   cl_device_id *list;         /* the build's devices */
   cl_uint n;
   bool same_extensions;
} facts;

static bool gather(facts *f, cl_context ctx, cl_uint ndev, const cl_device_id *devices)
{
   memset(f, 0, sizeof *f);
   if (ndev && devices) {
      f->list = malloc(ndev * sizeof *f->list);
      if (!f->list)
         return false;
      memcpy(f->list, devices, ndev * sizeof *f->list);
      f->n = ndev;
   } else if (!(f->list = xl_context_devices(ctx, &f->n))) {
      return false;
   }
   f->dev.is_gpu = true;
   f->same_extensions = true;
   for (cl_uint i = 0; i < f->n; i++) {
      cl_device_type type = 0;
      xl_next->clGetDeviceInfo(f->list[i], CL_DEVICE_TYPE, sizeof type, &type, NULL);
      f->dev.is_gpu &= (type & CL_DEVICE_TYPE_GPU) != 0;
      const char *t = model_target(f->list[i]);
      if (i == 0)
         f->dev.target = t;
      else if (!t || !f->dev.target || strcmp(t, f->dev.target))
         f->dev.target = NULL;
      char *e = extensions(f->list[i]);
      if (i == 0)
         f->extensions = e;
      else {
         f->same_extensions &= e && f->extensions && !strcmp(e, f->extensions);
         free(e);
      }
   }
   f->name = device_info(f->list[0], CL_DEVICE_NAME, NULL);
   f->dev.name = f->name;
   f->dev.extensions = f->extensions;
   return true;
}

static void release_facts(facts *f)
{
   free(f->name);
   free(f->extensions);
   free(f->list);
}

void xl_record_kernels(xl_core *core, xl_cl_program *p, cl_program built)
{
   size_t n = 0;
   if (xl_next->clGetProgramInfo(built, CL_PROGRAM_KERNEL_NAMES, 0, NULL, &n) != CL_SUCCESS)
      return;
   char *names = calloc(n + 1, 1);
   if (names && xl_next->clGetProgramInfo(built, CL_PROGRAM_KERNEL_NAMES, n, names, NULL) == CL_SUCCESS)
      xl_program_set_kernels(core, p->rec, names);
   free(names);
}

/* The module to optimize: the application's IL, or its source compiled. */
static void *input_module(xl_core *core, xl_cl_program *p, const facts *f, const char *options,
                          size_t *size, bool *owned)
{
   *owned = false;
   if (p->origin == XL_ORIGIN_IL) {
      *size = p->il_size;
      return p->il;
   }
   if (options && strstr(options, "-cl-kernel-arg-info")) {
      /* argument names and type names as written come from the source;
       * a program built from SPIR-V may not have them */
      xl_program_set_result(core, p->rec, XL_PASSED_THROUGH,
                            "-cl-kernel-arg-info: the source's argument info is kept");
      return NULL;
   }
   if (!f->same_extensions) {
      xl_program_set_result(core, p->rec, XL_PASSED_THROUGH,
                            "devices with different extensions: one front end run cannot serve them");
      return NULL;
   }
   *owned = true;
   return xl_compile_source(core, p->rec, &f->dev, p->source, options, size);
}

/* The driver's build of xeopt's output; NULL with the reason recorded. */
static cl_program build(xl_core *core, xl_cl_program *p, const facts *f, const void *out,
                        size_t size, const char *options, bool compile_only)
{
   cl_int err = CL_SUCCESS;
   char why[160];
   cl_program s = xl_next->clCreateProgramWithIL(p->context, out, size, &err);
   if (!s || err != CL_SUCCESS) {
      snprintf(why, sizeof why, "the driver refused xeopt's output (clCreateProgramWithIL: %d)", err);
      xl_program_set_result(core, p->rec, XL_FAILED, why);
      return NULL;
   }
   for (size_t i = 0; i < p->nspecs && err == CL_SUCCESS; i++)
      err = xl_next->clSetProgramSpecializationConstant(s, p->specs[i].id, p->specs[i].size,
                                                        p->specs[i].value);
   if (err != CL_SUCCESS) {
      snprintf(why, sizeof why, "clSetProgramSpecializationConstant on xeopt's output: %d", err);
      xl_program_set_result(core, p->rec, XL_FAILED, why);
      xl_next->clReleaseProgram(s);
      return NULL;
   }
   char *opts = p->origin == XL_ORIGIN_SOURCE ? xl_frontend_il_build_options(options)
                                              : strdup(options ? options : "");
   char *faulty = NULL;
   if (opts && xl_core_fault(core, "build") && asprintf(&faulty, "%s -xeopt-layer-test-fault", opts) >= 0) {
      free(opts);
      opts = faulty;
   }
   double t0 = xl_now();
   if (!opts)
      err = CL_OUT_OF_HOST_MEMORY;
   else if (compile_only)
      err = xl_next->clCompileProgram(s, f->n, f->list, opts, 0, NULL, NULL, NULL, NULL);
   else
      err = xl_next->clBuildProgram(s, f->n, f->list, opts, NULL, NULL);
   xl_program_add_build_seconds(core, p->rec, xl_now() - t0);
   free(opts);
   if (err != CL_SUCCESS) {
      snprintf(why, sizeof why, "the driver could not build xeopt's output (%s: %d)",
               compile_only ? "clCompileProgram" : "clBuildProgram", err);
      xl_program_set_result(core, p->rec, XL_FAILED, why);
      xl_next->clReleaseProgram(s);
      return NULL;
   }
   return s;
}

bool xl_shadow_build(xl_core *core, xl_cl_program *p, cl_uint ndev, const cl_device_id *devices,
                     const char *options, bool compile_only)
{
   facts f;
   if (!gather(&f, p->context, ndev, devices)) {
      xl_program_set_result(core, p->rec, XL_PASSED_THROUGH, "the build's devices could not be read");
      release_facts(&f);
      return false;
   }
   if (!xl_core_acts_on(core, f.dev.is_gpu)) {
      xl_program_set_result(core, p->rec, XL_PASSED_THROUGH, "not a device the layer acts on");
      release_facts(&f);
      return false;
   }
   size_t size = 0, out_size = 0;
   bool owned;
   void *in = input_module(core, p, &f, options, &size, &owned);
   void *out = in ? xl_optimize(core, p->rec, &f.dev, in, size, &out_size) : NULL;
   cl_program s = out ? build(core, p, &f, out, out_size, options, compile_only) : NULL;
   free(p->module);
   p->module = NULL;
   if (in && !compile_only && (s || (!out && xl_program_result(core, p->rec) == XL_UNCHANGED))) {
      void *copy = owned ? in : malloc(size);
      if (copy && !owned)
         memcpy(copy, in, size);
      if (copy)
         xl_launch_keep_module(core, p, copy, size, s ? out : in, s ? out_size : size, &f.dev,
                               f.list, f.n, options);
      owned = false;
   }
   if (s) {
      p->shadow = s;
      p->shadow_compiled = compile_only;
      xl_program_set_result(core, p->rec, XL_OPTIMIZED, NULL);
      if (!compile_only)
         xl_record_kernels(core, p, s);
   }
   free(out);
   if (owned)
      free(in);
   release_facts(&f);
   return s != NULL;
}
