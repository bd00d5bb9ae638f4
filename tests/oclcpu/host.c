/* A small OpenCL host for the second executor comparison (docs/oclcpu.md).
 *
 *   oclcpu-host MODULE.spv LAUNCH.json DUMPDIR [--seed S] [--byval I]...
 *
 * Reads an `xeopt run --launch` JSON launch, materializes every argument
 * exactly as `xeopt run` does (src/exec/launch.c: splitmix64 seeded with
 * seed * 7919 + argument index), builds the module with
 * clCreateProgramWithIL on the first CPU device of the ICD loader's
 * platforms (Intel's CPU runtime, see tests/oclcpu/compare.py for the
 * environment), runs the kernel once, and writes every buffer argument to
 * DUMPDIR/argI.bin, the layout of `xeopt run --dump DIR`.  --byval I: the
 * argument I (given as buf:uchar:SIZE:FILL, as xeopt run takes it) is a
 * struct passed by value; it is passed as bytes, and dumped unchanged.
 *
 * Also writes DUMPDIR/info.json: the sub-group size the runtime compiled
 * the kernel for (CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE at the launch's
 * local size) and the number of sub-groups per work-group, so that the
 * driver runs `xeopt run` with the same size.
 *
 * Exit status: 0 ran; 1 the runtime failed to run it (message on stderr);
 * 2 usage or a bad launch; 3 no OpenCL CPU device; 4 the runtime refused the
 * module (clBuildProgram failed; the build log on stderr).
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "launch_args.h"

#define MAX_ARGS 64
#ifndef CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL
#define CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL 0x410A
#endif

static void die(int rc, const char *what, cl_int err)
{
   fprintf(stderr, "oclcpu-host: %s (OpenCL error %d)\n", what, (int)err);
   exit(rc);
}

static void *read_file(const char *path, size_t *n)
{
   FILE *f = fopen(path, "rb");
   if (!f) { fprintf(stderr, "oclcpu-host: %s: %s\n", path, strerror(errno)); exit(2); }
   fseek(f, 0, SEEK_END);
   long sz = ftell(f);
   fseek(f, 0, SEEK_SET);
   char *p = malloc((size_t)sz + 1);
   if (!p || fread(p, 1, (size_t)sz, f) != (size_t)sz) { fprintf(stderr, "oclcpu-host: %s: read error\n", path); exit(2); }
   p[sz] = 0;
   fclose(f);
   *n = (size_t)sz;
   return p;
}

int main(int argc, char **argv)
{
   const char *pos[3];
   int npos = 0;
   uint64_t seed = 1;
   int byval[MAX_ARGS] = {0};
   for (int i = 1; i < argc; i++) {
      if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], NULL, 0);
      else if (!strcmp(argv[i], "--byval") && i + 1 < argc) {
         int k = atoi(argv[++i]);
         if (k >= 0 && k < MAX_ARGS) byval[k] = 1;
      } else if (npos < 3) pos[npos++] = argv[i];
      else npos = 4;
   }
   if (npos != 3) {
      fprintf(stderr, "usage: oclcpu-host MODULE.spv LAUNCH.json DUMPDIR [--seed S] [--byval I]...\n");
      return 2;
   }
   size_t il_size, js_size;
   void *il = read_file(pos[0], &il_size);
   char *js_text = read_file(pos[1], &js_size);
   const char *dump = pos[2];
   cJSON *js = cJSON_Parse(js_text);
   const cJSON *it;
   if (!js || !cJSON_IsString(it = cJSON_GetObjectItem(js, "kernel"))) {
      fprintf(stderr, "oclcpu-host: %s: not a launch (no \"kernel\")\n", pos[1]);
      return 2;
   }
   const char *kname = it->valuestring;
   size_t dims[3][3] = {{1, 1, 1}, {16, 1, 1}, {0, 0, 0}};
   unsigned nd = 0, have_local = 0;
   const char *dn[3] = {"global", "local", "offset"};
   for (int d = 0; d < 3; d++) {
      unsigned k = 0;
      cJSON_ArrayForEach(it, cJSON_GetObjectItem(js, dn[d])) if (k < 3) dims[d][k++] = (size_t)it->valuedouble;
      if (d == 0) nd = k;
      if (d == 1) have_local = k > 0;
   }
   if (!nd) { fprintf(stderr, "oclcpu-host: no \"global\" size\n"); return 2; }
   if (cJSON_GetObjectItem(js, "spec")) {
      fprintf(stderr, "oclcpu-host: \"spec\" (specialization constants) is not supported\n");
      return 2;
   }
   struct arg args[MAX_ARGS];
   unsigned na = 0;
   cJSON_ArrayForEach(it, cJSON_GetObjectItem(js, "args")) {
      if (na == MAX_ARGS || !cJSON_IsString(it) ||
          !parse_arg(it->valuestring, &args[na], seed * 7919 + na)) {
         fprintf(stderr, "oclcpu-host: bad argument %u\n", na);
         return 2;
      }
      na++;
   }

   /* The first CPU device of any platform the ICD loader offers. */
   cl_platform_id plats[16];
   cl_uint nplat = 0;
   cl_int err = clGetPlatformIDs(16, plats, &nplat);
   if (err || !nplat) die(3, "no OpenCL platform", err);
   cl_device_id dev = NULL;
   for (cl_uint p = 0; p < nplat && !dev; p++)
      if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_CPU, 1, &dev, NULL)) dev = NULL;
   if (!dev) die(3, "no OpenCL CPU device", CL_DEVICE_NOT_FOUND);
   cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
   if (err) die(1, "clCreateContext", err);
   cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
   if (err) die(1, "clCreateCommandQueueWithProperties", err);
   cl_program prog = clCreateProgramWithIL(ctx, il, il_size, &err);
   if (err) die(4, "clCreateProgramWithIL", err);
   err = clBuildProgram(prog, 1, &dev, "", NULL, NULL);
   if (err) {
      size_t n = 0;
      clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
      char *log = calloc(n + 1, 1);
      clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, n, log, NULL);
      fprintf(stderr, "oclcpu-host: build log:\n%s\n", log);
      die(4, "clBuildProgram", err);
   }
   cl_kernel k = clCreateKernel(prog, kname, &err);
   if (err) die(4, "clCreateKernel", err);
   cl_uint kargs = 0;
   clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof kargs, &kargs, NULL);
   if (kargs != na) {
      fprintf(stderr, "oclcpu-host: kernel %s has %u arguments, the launch gives %u\n", kname, kargs, na);
      return 2;
   }
   for (unsigned i = 0; i < na; i++) {
      struct arg *a = &args[i];
      if (a->kind == ARG_LOCAL) err = clSetKernelArg(k, i, a->size, NULL);
      else if (a->kind == ARG_SCALAR || byval[i]) err = clSetKernelArg(k, i, a->size, a->data);
      else {
         a->mem = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, a->size ? a->size : 1,
                                 a->data, &err);
         if (err) die(1, "clCreateBuffer", err);
         err = clSetKernelArg(k, i, sizeof a->mem, &a->mem);
      }
      if (err) {
         fprintf(stderr, "oclcpu-host: clSetKernelArg %u (OpenCL error %d)\n", i, (int)err);
         return 1;
      }
   }
   if (!have_local)
      for (int d = 1; d < 3; d++) dims[1][d] = 1;
   size_t sg = 0, nsg = 0, compiled = 0;
   clGetKernelSubGroupInfo(k, dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, nd * sizeof(size_t), dims[1],
                           sizeof sg, &sg, NULL);
   clGetKernelSubGroupInfo(k, dev, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, nd * sizeof(size_t), dims[1],
                           sizeof nsg, &nsg, NULL);
   clGetKernelSubGroupInfo(k, dev, CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, 0, NULL, sizeof compiled, &compiled,
                           NULL);
   err = clEnqueueNDRangeKernel(q, k, nd, dims[2], dims[0], dims[1], 0, NULL, NULL);
   if (err) die(1, "clEnqueueNDRangeKernel", err);
   for (unsigned i = 0; i < na; i++)
      if (args[i].mem) {
         err = clEnqueueReadBuffer(q, args[i].mem, CL_TRUE, 0, args[i].size, args[i].data, 0, NULL, NULL);
         if (err) die(1, "clEnqueueReadBuffer", err);
      }
   err = clFinish(q);
   if (err) die(1, "clFinish", err);
   mkdir(dump, 0777);
   for (unsigned i = 0; i < na; i++) {
      if (args[i].kind != ARG_BUF) continue;
      char name[32];
      snprintf(name, sizeof name, "arg%u.bin", i);
      write_dump("oclcpu-host", dump, name, args[i].data, args[i].size);
   }
   char info[256];
   int n = snprintf(info, sizeof info,
                    "{\"subgroup_size\": %zu, \"subgroups_per_group\": %zu, \"compile_subgroup_size\": %zu}\n",
                    sg, nsg, compiled);
   write_dump("oclcpu-host", dump, "info.json", info, (size_t)n);
   for (unsigned i = 0; i < na; i++) {
      if (args[i].mem) clReleaseMemObject(args[i].mem);
      free(args[i].data);
   }
   clReleaseKernel(k);
   clReleaseProgram(prog);
   clReleaseCommandQueue(q);
   clReleaseContext(ctx);
   cJSON_Delete(js);
   free(il);
   free(js_text);
   return 0;
}
