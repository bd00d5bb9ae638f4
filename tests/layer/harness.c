/* An OpenCL application for the layer's tests (docs/layer.md, tests/layer/harness.py).
 *
 *   layer-harness JOBS.json OUTDIR [--threads N]
 *
 * JOBS.json is an array of jobs, each one kernel launch of a program made
 * from IL or from source:
 *   {"module": "m.spv" | "source": "k.cl", "options": "-cl-std=CL2.0",
 *    "kernel": "k", "launch": {an `xeopt run --launch` object},
 *    "seed": 1, "byval": [2],
 *    "again": [{"local": [8], "args": {"2": 5}}, ...]}
 * "svm": true (optional): buffer arguments are coarse-grained SVM
 * allocations (clSVMAlloc, 64 bytes more) set with clSetKernelArgSVMPointer,
 * and an "again" entry's "svm_offset": N moves every one of them N bytes
 * into its allocation (the data copied there again), so that a launch's
 * pointers change alignment.
 * "again" (optional): more launches of the same kernel after the first,
 * each with its own local size (absent: the first's; []: none) and
 * integer values for scalar arguments (by index; the argument's size).
 * Every job creates its own program in one shared context on the first
 * CPU device (Intel's CPU runtime here), builds it (jobs 1, 5, 9, ...:
 * clCompileProgram and clLinkProgram instead), creates the kernel (by
 * name, or through clCreateKernelsInProgram on odd jobs), runs it once
 * and writes OUTDIR/I/argK.bin for each buffer argument and
 * OUTDIR/I/status.txt: "ok", or the failing call and its error code, so
 * that a run with the layer can be compared with one without, failures
 * included.  --threads N: N threads take jobs at once, each with its own
 * queue (programs created, built and enqueued concurrently).
 *
 * Exit status: 0 every job ran (failures are in status.txt); 2 usage;
 * 3 no OpenCL CPU device.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "launch_args.h"

#define MAX_ARGS 64

static cl_context context;
static cl_device_id device;
static cJSON *jobs;
static int njobs, next_job;
static const char *outdir;
static pthread_mutex_t job_lock = PTHREAD_MUTEX_INITIALIZER;

static char *read_file(const char *path, size_t *n)
{
   FILE *f = fopen(path, "rb");
   if (!f)
      return NULL;
   fseek(f, 0, SEEK_END);
   long sz = ftell(f);
   fseek(f, 0, SEEK_SET);
   char *p = malloc((size_t)sz + 1);
   if (p && fread(p, 1, (size_t)sz, f) != (size_t)sz) {
      free(p);
      p = NULL;
   }
   if (p)
      p[sz] = 0;
   fclose(f);
   *n = (size_t)sz;
   return p;
}

typedef struct job_state {
   char dir[4096];
   cl_program program;
   cl_kernel kernel;
   struct arg args[MAX_ARGS];
   unsigned nargs;
   char *svm[MAX_ARGS];
   size_t svm_offset;
} job_state;

/* SVM buffer argument i at offset off of its allocation, its data there. */
static cl_int place_svm(job_state *s, cl_command_queue q, unsigned i, size_t off)
{
   struct arg *a = &s->args[i];
   cl_int err = CL_SUCCESS;
   if (!s->svm[i] && !(s->svm[i] = clSVMAlloc(context, CL_MEM_READ_WRITE, a->size + 64, 0)))
      return CL_MEM_OBJECT_ALLOCATION_FAILURE;
   if (a->size)
      err = clEnqueueSVMMemcpy(q, CL_TRUE, s->svm[i] + off, a->data, a->size, 0, NULL, NULL);
   return err ? err : clSetKernelArgSVMPointer(s->kernel, i, s->svm[i] + off);
}

static int fail(job_state *s, const char *call, cl_int err)
{
   char text[128];
   int n = snprintf(text, sizeof text, "%s %d\n", call, (int)err);
   write_dump("layer-harness", s->dir, "status.txt", text, (size_t)n);
   return 1;
}

static int make_program(job_state *s, const cJSON *job, int separate)
{
   const cJSON *m = cJSON_GetObjectItem(job, "module"), *src = cJSON_GetObjectItem(job, "source");
   const cJSON *o = cJSON_GetObjectItem(job, "options");
   const char *path = cJSON_IsString(m) ? m->valuestring : cJSON_IsString(src) ? src->valuestring : NULL;
   size_t n = 0;
   char *bytes = path ? read_file(path, &n) : NULL;
   if (!bytes)
      return fail(s, "read", -1);
   cl_int err;
   if (cJSON_IsString(m))
      s->program = clCreateProgramWithIL(context, bytes, n, &err);
   else
      s->program = clCreateProgramWithSource(context, 1, (const char **)&bytes, NULL, &err);
   free(bytes);
   if (err)
      return fail(s, "clCreateProgram", err);
   const char *options = cJSON_IsString(o) ? o->valuestring : "";
   if (!separate) {
      err = clBuildProgram(s->program, 1, &device, options, NULL, NULL);
      return err ? fail(s, "clBuildProgram", err) : 0;
   }
   /* separate compilation, as hashcat builds its kernels */
   err = clCompileProgram(s->program, 1, &device, options, 0, NULL, NULL, NULL, NULL);
   if (err)
      return fail(s, "clCompileProgram", err);
   cl_program linked = clLinkProgram(context, 1, &device, "", 1, &s->program, NULL, NULL, &err);
   if (err)
      return fail(s, "clLinkProgram", err);
   clReleaseProgram(s->program);
   s->program = linked;
   return 0;
}

/* Odd jobs take their kernel from clCreateKernelsInProgram, so both ways
 * of getting kernels go through the layer. */
static int make_kernel(job_state *s, const char *name, int index)
{
   cl_int err = CL_SUCCESS;
   if (index % 2 == 0) {
      s->kernel = clCreateKernel(s->program, name, &err);
      return err ? fail(s, "clCreateKernel", err) : 0;
   }
   cl_uint n = 0;
   err = clCreateKernelsInProgram(s->program, 0, NULL, &n);
   cl_kernel *all = calloc(n ? n : 1, sizeof *all);
   if (!err)
      err = clCreateKernelsInProgram(s->program, n, all, NULL);
   for (cl_uint i = 0; !err && i < n; i++) {
      char kname[256] = "";
      clGetKernelInfo(all[i], CL_KERNEL_FUNCTION_NAME, sizeof kname, kname, NULL);
      if (!s->kernel && !strcmp(kname, name))
         s->kernel = all[i];
      else
         clReleaseKernel(all[i]);
   }
   free(all);
   if (err)
      return fail(s, "clCreateKernelsInProgram", err);
   cl_program owner = NULL;
   if (s->kernel)
      clGetKernelInfo(s->kernel, CL_KERNEL_PROGRAM, sizeof owner, &owner, NULL);
   if (s->kernel && owner != s->program)
      return fail(s, "CL_KERNEL_PROGRAM", -1);
   return s->kernel ? 0 : fail(s, "kernel not found", -1);
}

static int run_job(int index, cl_command_queue q)
{
   const cJSON *job = cJSON_GetArrayItem(jobs, index);
   job_state s = { 0 };
   snprintf(s.dir, sizeof s.dir, "%s/%d", outdir, index);
   mkdir(s.dir, 0777);
   const cJSON *launch = cJSON_GetObjectItem(job, "launch"), *it;
   const cJSON *kn = cJSON_GetObjectItem(launch, "kernel");
   const cJSON *sd = cJSON_GetObjectItem(job, "seed");
   uint64_t seed = cJSON_IsNumber(sd) ? (uint64_t)sd->valuedouble : 1;
   int byval[MAX_ARGS] = { 0 };
   cJSON_ArrayForEach(it, cJSON_GetObjectItem(job, "byval"))
      if (it->valueint >= 0 && it->valueint < MAX_ARGS)
         byval[it->valueint] = 1;
   if (!cJSON_IsString(kn))
      return fail(&s, "launch", -1);
   size_t dims[3][3] = { { 1, 1, 1 }, { 16, 1, 1 }, { 0, 0, 0 } };
   unsigned nd = 0, have_local = 0;
   const char *dn[3] = { "global", "local", "offset" };
   for (int d = 0; d < 3; d++) {
      unsigned k = 0;
      cJSON_ArrayForEach(it, cJSON_GetObjectItem(launch, dn[d])) if (k < 3) dims[d][k++] = (size_t)it->valuedouble;
      if (d == 0)
         nd = k;
      if (d == 1)
         have_local = k > 0;
   }
   if (!have_local)
      for (int d = 1; d < 3; d++)
         dims[1][d] = 1;
   cJSON_ArrayForEach(it, cJSON_GetObjectItem(launch, "args")) {
      if (s.nargs == MAX_ARGS || !cJSON_IsString(it) ||
          !parse_arg(it->valuestring, &s.args[s.nargs], seed * 7919 + s.nargs))
         return fail(&s, "launch argument", (cl_int)s.nargs);
      s.nargs++;
   }
   int rc = make_program(&s, job, index % 4 == 1) || make_kernel(&s, kn->valuestring, index);
   cl_int err = CL_SUCCESS;
   for (unsigned i = 0; !rc && i < s.nargs; i++) {
      struct arg *a = &s.args[i];
      if (a->kind == ARG_LOCAL)
         err = clSetKernelArg(s.kernel, i, a->size, NULL);
      else if (a->kind == ARG_SCALAR || byval[i])
         err = clSetKernelArg(s.kernel, i, a->size, a->data);
      else if (cJSON_IsTrue(cJSON_GetObjectItem(job, "svm")))
         err = place_svm(&s, q, i, 0);
      else {
         a->mem = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                 a->size ? a->size : 1, a->data, &err);
         if (!err)
            err = clSetKernelArg(s.kernel, i, sizeof a->mem, &a->mem);
      }
      if (err)
         rc = fail(&s, "clSetKernelArg", err);
   }
   if (!rc && (err = clEnqueueNDRangeKernel(q, s.kernel, nd, dims[2], dims[0], dims[1], 0, NULL, NULL)))
      rc = fail(&s, "clEnqueueNDRangeKernel", err);
   cJSON_ArrayForEach(it, cJSON_GetObjectItem(job, "again")) {
      if (rc)
         break;
      size_t local[3] = { dims[1][0], dims[1][1], dims[1][2] };
      unsigned again_local = 1, k = 0;
      const cJSON *l = cJSON_GetObjectItem(it, "local"), *v;
      if (cJSON_IsArray(l)) {
         again_local = cJSON_GetArraySize(l) > 0;
         local[1] = local[2] = 1;
         cJSON_ArrayForEach(v, l) if (k < 3) local[k++] = (size_t)v->valuedouble;
      }
      const cJSON *so = cJSON_GetObjectItem(it, "svm_offset");
      if (cJSON_IsNumber(so) && (size_t)so->valuedouble <= 64) {
         s.svm_offset = (size_t)so->valuedouble;
         for (unsigned i = 0; !rc && i < s.nargs; i++)
            if (s.svm[i] && (err = place_svm(&s, q, i, s.svm_offset)))
               rc = fail(&s, "svm", err);
      }
      cJSON_ArrayForEach(v, cJSON_GetObjectItem(it, "args")) {
         unsigned i = (unsigned)atoi(v->string);
         uint64_t value = (uint64_t)(int64_t)v->valuedouble;
         if (i < s.nargs && s.args[i].size <= 8 &&
             (err = clSetKernelArg(s.kernel, i, s.args[i].size, &value)))
            rc = fail(&s, "clSetKernelArg", err);
      }
      if (!rc && (err = clEnqueueNDRangeKernel(q, s.kernel, nd, dims[2], dims[0],
                                               again_local ? local : NULL, 0, NULL, NULL)))
         rc = fail(&s, "clEnqueueNDRangeKernel", err);
   }
   for (unsigned i = 0; !rc && i < s.nargs; i++)
      if (s.args[i].mem && (err = clEnqueueReadBuffer(q, s.args[i].mem, CL_TRUE, 0, s.args[i].size,
                                                      s.args[i].data, 0, NULL, NULL)))
         rc = fail(&s, "clEnqueueReadBuffer", err);
   for (unsigned i = 0; !rc && i < s.nargs; i++)
      if (s.svm[i] && s.args[i].size &&
          (err = clEnqueueSVMMemcpy(q, CL_TRUE, s.args[i].data, s.svm[i] + s.svm_offset,
                                    s.args[i].size, 0, NULL, NULL)))
         rc = fail(&s, "clEnqueueSVMMemcpy", err);
   for (unsigned i = 0; !rc && i < s.nargs; i++) {
      if (s.args[i].kind != ARG_BUF)
         continue;
      char name[32];
      snprintf(name, sizeof name, "arg%u.bin", i);
      write_dump("layer-harness", s.dir, name, s.args[i].data, s.args[i].size);
   }
   if (!rc)
      write_dump("layer-harness", s.dir, "status.txt", "ok\n", 3);
   for (unsigned i = 0; i < s.nargs; i++) {
      if (s.args[i].mem)
         clReleaseMemObject(s.args[i].mem);
      if (s.svm[i])
         clSVMFree(context, s.svm[i]);
      free(s.args[i].data);
   }
   if (s.kernel)
      clReleaseKernel(s.kernel);
   if (s.program)
      clReleaseProgram(s.program);
   return rc;
}

static void *worker(void *unused)
{
   (void)unused;
   cl_int err;
   cl_command_queue q = clCreateCommandQueueWithProperties(context, device, NULL, &err);
   if (err) {
      fprintf(stderr, "layer-harness: clCreateCommandQueueWithProperties: %d\n", (int)err);
      exit(1);
   }
   for (;;) {
      pthread_mutex_lock(&job_lock);
      int i = next_job++;
      pthread_mutex_unlock(&job_lock);
      if (i >= njobs)
         break;
      run_job(i, q);
   }
   clReleaseCommandQueue(q);
   return NULL;
}

int main(int argc, char **argv)
{
   int threads = 1;
   const char *pos[2];
   int npos = 0;
   for (int i = 1; i < argc; i++) {
      if (!strcmp(argv[i], "--threads") && i + 1 < argc)
         threads = atoi(argv[++i]);
      else if (npos < 2)
         pos[npos++] = argv[i];
      else
         npos = 3;
   }
   if (npos != 2 || threads < 1 || threads > 64) {
      fprintf(stderr, "usage: layer-harness JOBS.json OUTDIR [--threads N]\n");
      return 2;
   }
   size_t n;
   char *text = read_file(pos[0], &n);
   jobs = text ? cJSON_Parse(text) : NULL;
   free(text);
   if (!cJSON_IsArray(jobs)) {
      fprintf(stderr, "layer-harness: %s: not a JSON array of jobs\n", pos[0]);
      return 2;
   }
   njobs = cJSON_GetArraySize(jobs);
   outdir = pos[1];
   mkdir(outdir, 0777);
   cl_platform_id plats[16];
   cl_uint nplat = 0;
   cl_int err = clGetPlatformIDs(16, plats, &nplat);
   for (cl_uint p = 0; !err && p < nplat && !device; p++)
      if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_CPU, 1, &device, NULL))
         device = NULL;
   if (!device) {
      fprintf(stderr, "layer-harness: no OpenCL CPU device\n");
      return 3;
   }
   context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
   if (err) {
      fprintf(stderr, "layer-harness: clCreateContext: %d\n", (int)err);
      return 1;
   }
   pthread_t t[64];
   for (int i = 0; i < threads; i++)
      pthread_create(&t[i], NULL, worker, NULL);
   for (int i = 0; i < threads; i++)
      pthread_join(t[i], NULL);
   clReleaseContext(context);
   cJSON_Delete(jobs);
   return 0;
}
