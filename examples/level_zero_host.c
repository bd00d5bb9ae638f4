/*
 * Level Zero host for a module from xeopt's loop-spec-constants pass.
 *
 *    xeopt -O2 sum.spv -o out.spv          # writes out.spv and out.json
 *    level_zero_host out.spv out.json [INNER]
 *
 * Runs the guide's sum kernel (testdata/kernels/loop_spec_constants_sum.cl:
 * `sum(const float *a, float *out, int inner)`) with the loop bound
 * specialized to INNER (default 16) at zeModuleCreate, through the spec
 * constants named in the manifest, and checks every result against the
 * host.  The manifest and constants are prepared before Level Zero is
 * touched, so a machine without a driver or GPU still checks that part;
 * then it says there is no device and exits 0.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <level_zero/ze_api.h>

#include "xeopt/level_zero.h"

#define GROUP 16
#define ROWS 1024

static void *slurp(const char *path, size_t *n)
{
   FILE *f = fopen(path, "rb");
   if (!f)
      return NULL;
   fseek(f, 0, SEEK_END);
   long len = ftell(f);
   fseek(f, 0, SEEK_SET);
   char *p = len >= 0 ? malloc((size_t)len + 1) : NULL;
   if (p && fread(p, 1, (size_t)len, f) != (size_t)len) {
      free(p);
      p = NULL;
   }
   fclose(f);
   if (p) {
      p[len] = 0;
      *n = (size_t)len;
   }
   return p;
}

#define CHECK(call)                                                                   \
   do {                                                                               \
      ze_result_t r_ = (call);                                                        \
      if (r_ != ZE_RESULT_SUCCESS) {                                                  \
         fprintf(stderr, "level_zero_host: %s failed: 0x%x\n", #call, (unsigned)r_); \
         return 1;                                                                    \
      }                                                                               \
   } while (0)

/* Picks the first GPU; returns 0 with *dev set, 1 when there is none. */
static int find_gpu(ze_driver_handle_t *drv, ze_device_handle_t *dev)
{
   if (zeInit(ZE_INIT_FLAG_GPU_ONLY) != ZE_RESULT_SUCCESS)
      return 1;
   uint32_t nd = 0;
   if (zeDriverGet(&nd, NULL) != ZE_RESULT_SUCCESS || nd == 0)
      return 1;
   nd = 1;
   if (zeDriverGet(&nd, drv) != ZE_RESULT_SUCCESS)
      return 1;
   uint32_t ndev = 1;
   if (zeDeviceGet(*drv, &ndev, dev) != ZE_RESULT_SUCCESS || ndev == 0)
      return 1;
   return 0;
}

static int run(const void *spv, size_t spv_size, const ze_module_constants_t *constants,
               int inner)
{
   ze_driver_handle_t drv;
   ze_device_handle_t dev;
   if (find_gpu(&drv, &dev)) {
      printf("level_zero_host: no Level Zero driver or GPU here; the module was not run\n");
      return 0;
   }
   ze_context_desc_t cdesc = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
   ze_context_handle_t ctx;
   CHECK(zeContextCreate(drv, &cdesc, &ctx));

   ze_module_desc_t mdesc = { ZE_STRUCTURE_TYPE_MODULE_DESC, NULL, ZE_MODULE_FORMAT_IL_SPIRV,
                              spv_size, spv, "", constants };
   ze_module_handle_t mod;
   ze_module_build_log_handle_t log;
   ze_result_t r = zeModuleCreate(ctx, dev, &mdesc, &mod, &log);
   if (r != ZE_RESULT_SUCCESS) {
      size_t n = 0;
      zeModuleBuildLogGetString(log, &n, NULL);
      char *text = malloc(n + 1);
      if (text && zeModuleBuildLogGetString(log, &n, text) == ZE_RESULT_SUCCESS)
         fprintf(stderr, "level_zero_host: zeModuleCreate failed (0x%x):\n%s\n", (unsigned)r,
                 text);
      free(text);
      return 1;
   }
   zeModuleBuildLogDestroy(log);

   ze_kernel_desc_t kdesc = { ZE_STRUCTURE_TYPE_KERNEL_DESC, NULL, 0, "sum" };
   ze_kernel_handle_t k;
   CHECK(zeKernelCreate(mod, &kdesc, &k));
   CHECK(zeKernelSetGroupSize(k, GROUP, 1, 1));

   ze_device_mem_alloc_desc_t dd = { ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0 };
   ze_host_mem_alloc_desc_t hd = { ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL, 0 };
   float *a, *out;
   size_t na = (size_t)ROWS * inner;
   CHECK(zeMemAllocShared(ctx, &dd, &hd, na * sizeof(float), 64, dev, (void **)&a));
   CHECK(zeMemAllocShared(ctx, &dd, &hd, ROWS * sizeof(float), 64, dev, (void **)&out));
   for (size_t i = 0; i < na; i++)
      a[i] = (float)(i % 7) - 3.0f;
   memset(out, 0, ROWS * sizeof(float));
   CHECK(zeKernelSetArgumentValue(k, 0, sizeof(a), &a));
   CHECK(zeKernelSetArgumentValue(k, 1, sizeof(out), &out));
   /* The host guarantee of the specialization: the argument equals it. */
   CHECK(zeKernelSetArgumentValue(k, 2, sizeof(inner), &inner));

   ze_command_queue_desc_t qdesc = { ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, NULL, 0, 0, 0,
                                     ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS,
                                     ZE_COMMAND_QUEUE_PRIORITY_NORMAL };
   ze_command_queue_handle_t queue;
   CHECK(zeCommandQueueCreate(ctx, dev, &qdesc, &queue));
   ze_command_list_desc_t ldesc = { ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, NULL, 0, 0 };
   ze_command_list_handle_t list;
   CHECK(zeCommandListCreate(ctx, dev, &ldesc, &list));
   ze_group_count_t groups = { ROWS / GROUP, 1, 1 };
   CHECK(zeCommandListAppendLaunchKernel(list, k, &groups, NULL, 0, NULL));
   CHECK(zeCommandListClose(list));
   CHECK(zeCommandQueueExecuteCommandLists(queue, 1, &list, NULL));
   CHECK(zeCommandQueueSynchronize(queue, UINT64_MAX));

   int bad = 0;
   for (int i = 0; i < ROWS; i++) {
      float want = 0.0f;
      for (int j = 0; j < inner; j++)
         want += a[(size_t)i * inner + j];
      if (out[i] != want && bad++ < 5)
         fprintf(stderr, "level_zero_host: out[%d] = %g, expected %g\n", i, out[i], want);
   }
   printf("level_zero_host: %d rows, inner = %d: %s\n", ROWS, inner, bad ? "WRONG" : "ok");
   zeCommandListDestroy(list);
   zeCommandQueueDestroy(queue);
   zeMemFree(ctx, a);
   zeMemFree(ctx, out);
   zeKernelDestroy(k);
   zeModuleDestroy(mod);
   zeContextDestroy(ctx);
   return bad != 0;
}

int main(int argc, char **argv)
{
   if (argc < 3) {
      fprintf(stderr, "usage: %s OUT.spv OUT.json [INNER]\n", argv[0]);
      return 2;
   }
   char *end = NULL;
   long inner_l = argc > 3 ? strtol(argv[3], &end, 0) : 16;
   if ((end && *end) || inner_l < 1 || inner_l > 4096) {
      fprintf(stderr, "level_zero_host: INNER must be an integer in 1..4096\n");
      return 2;
   }
   int inner = (int)inner_l;
   size_t spv_size, json_size;
   void *spv = slurp(argv[1], &spv_size);
   char *json = slurp(argv[2], &json_size);
   if (!spv || !json) {
      fprintf(stderr, "level_zero_host: cannot read %s\n", spv ? argv[2] : argv[1]);
      return 1;
   }
   xeopt_ze_value want = { "sum", "inner", 0, inner };
   xeopt_ze_constants c;
   char err[256];
   xeopt_ze_status s = xeopt_ze_constants_from_json(json, &want, 1, &c, err, sizeof(err));
   if (s != XEOPT_ZE_OK) {
      fprintf(stderr, "level_zero_host: %s: %s\n", xeopt_ze_status_name(s), err);
      return 1;
   }
   for (uint32_t i = 0; i < c.desc.numConstants; i++)
      printf("level_zero_host: SpecId %u <- %llu\n", c.desc.pConstantIds[i],
             (unsigned long long)c.slots[i]);
   int rc = run(spv, spv_size, &c.desc, inner);
   xeopt_ze_constants_free(&c);
   free(spv);
   free(json);
   return rc;
}
