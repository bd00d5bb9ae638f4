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
} xl_cl_program;

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
