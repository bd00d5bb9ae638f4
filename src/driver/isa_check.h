/*
 * --isa-check=DEVICE[,DEVICE]: IGC in the loop.  After the pipeline, the
 * input and the output are compiled by IGC (ocloc compile -spirv_input,
 * ocloc disasm, iga64 -d), each changed kernel's ISA is counted
 * (instructions; scattered, block and private messages) and scored with
 * the cost model's weights (xe_cost_isa), and a kernel whose output
 * scores worse than its input on any named device keeps its original:
 * the pipeline runs again with that kernel on the options' exclusion
 * list, until no kernel is added.  docs/cost-model.md has the details.
 *
 * Tools: the ocloc is $XEOPT_OCLOC (--ocloc=PATH sets it), else $OCLOC,
 * else ocloc on PATH; ocloc 22.x (IGC 1.0) and ocloc 26 (IGC 2.x) are both
 * read.  iga64 ($IGA64, else on PATH) is needed for ocloc 22.x only, whose
 * disasm leaves kernel heaps; ocloc 26 writes the assembly itself.
 */
#ifndef XEOPT_ISA_CHECK_H
#define XEOPT_ISA_CHECK_H

#include "cost.h"
#include "driver.h"

/* "ocloc 26.27.039122 (PATH, IGC 2.x)": the IGC that judges (malloc'd). */
char *xe_isa_judge(void);

/* False with *err (malloc'd) when a tool --isa-check needs is missing. */
bool xe_isa_check_tools(char **err);

/* Runs optimize (the driver's one-shot optimizer) under the check; fills r
 * like optimize does, plus one "isa-check" remark per changed kernel. */
typedef void (*xe_optimize_fn)(xeopt_result *r, const xe_options *o, const void *bytes,
                               size_t size, const xe_pipeline_hooks *h);
void xe_isa_check_optimize(xeopt_result *r, const xe_options *o, const void *bytes, size_t size,
                           const xe_pipeline_hooks *h, xe_optimize_fn optimize);

/* Per-kernel ISA counts of a module file for device d (name-sorted); false
 * with *err when a tool fails.  *out is malloc'd, names too. */
typedef struct xe_isa_kernel {
   char *name;
   xe_isa_counts c;
} xe_isa_kernel;
bool xe_isa_module_counts(const char *spv_path, enum xe_device d, const char *workdir,
                          xe_isa_kernel **out, unsigned *n, char **err);
void xe_isa_kernels_free(xe_isa_kernel *k, unsigned n);

#endif
