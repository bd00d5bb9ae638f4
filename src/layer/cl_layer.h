/*
 * The OpenCL front of the layer (docs/layer.md): the programs it stands
 * behind, and the shadow programs it builds for them.
 *
 * A program the application creates (from IL or from source) stays
 * exactly as the application created it.  At clBuildProgram the layer
 * builds a shadow: a program made with clCreateProgramWithIL from xeopt's
 * output, with the application's specialization constants and options.
 * When that works, kernels and the build's queries come from the shadow;
 * when anything fails, the application's own program is built as asked.
 */
#ifndef XEOPT_LAYER_CL_LAYER_H
#define XEOPT_LAYER_CL_LAYER_H

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl_icd.h>

#include "core.h"

/* The next layer's (or the loader's) entries. */
extern const struct _cl_icd_dispatch *xl_next;

typedef struct xl_spec_constant {
   cl_uint id;
   size_t size;
   unsigned char value[8];     /* SPIR-V scalars are at most 64 bits */
} xl_spec_constant;

typedef struct xl_cl_program {
   cl_program app;
   cl_context context;
   xl_origin origin;
   void *il;                   /* the application's IL (IL programs) */
   size_t il_size;
   char *source;               /* the application's source (source programs) */
   xl_spec_constant *specs;    /* set on the application's program, replayed on the shadow */
   size_t nspecs;
   bool hands_off;             /* the layer stays out (a spec constant it cannot replay,
                                  headers it cannot give the front end) */
   cl_program shadow;          /* the built (or compiled) substitute, or NULL */
   bool shadow_compiled;       /* shadow is a compiled object for clLinkProgram */
   /* clCompileProgram's arguments, to compile the application's program
    * as asked if linking the shadow fails */
   char *compile_options;
   cl_device_id *devices;
   cl_uint ndevices;
   xl_program *rec;
   /* For launch variants (launch.c): the module xeopt was given, the
    * build's options and device, and the key of the module the base
    * kernels run; module is NULL when variants are off or the program is
    * not one xeopt optimized or left unchanged. */
   void *module;
   size_t module_size;
   char *build_options;
   xl_device device;          /* name and extensions not kept */
   cl_device_id build_device;
   unsigned char base_key[16];
} xl_cl_program;

/* launch.c, launch_*.c: launch facts, variants and their judges (docs/layer.md). */
void xl_launch_install(struct _cl_icd_dispatch *d);
void *xl_launch_wrap_extension(const char *name, void *fn);
/* A kernel the application got from program e (NULL: not one of ours). */
void xl_launch_track(xl_cl_program *e, cl_kernel k);
void xl_launch_clone(cl_kernel from, cl_kernel to);
bool xl_launch_tracked(cl_kernel k);
void xl_launch_forget(cl_kernel k);
/* Keeps what variants need of a built program (module: malloc'd, owned
 * from now on). */
void xl_launch_keep_module(xl_core *core, xl_cl_program *e, void *module, size_t size,
                           const void *base, size_t base_size, const xl_device *dev,
                           const cl_device_id *devices, cl_uint ndev, const char *options);

/* Builds p's shadow for the build (or, with compile_only, the
 * clCompileProgram) the application asked for; true when the shadow was
 * made (p->shadow set), false when the application's program must be
 * built as asked (the record says why). */
bool xl_shadow_build(xl_core *core, xl_cl_program *p, cl_uint ndev, const cl_device_id *devices,
                     const char *options, bool compile_only);

/* ctx's devices (CL_CONTEXT_DEVICES), malloc'd, *n of them; NULL when
 * the query fails. */
cl_device_id *xl_context_devices(cl_context ctx, cl_uint *n);

/* The program's kernel names (CL_PROGRAM_KERNEL_NAMES) into its record. */
void xl_record_kernels(xl_core *core, xl_cl_program *p, cl_program built);

#endif
