/*
 * IGC through ocloc: compiling a module for a device and counting each
 * kernel's ISA, for --isa-check (isa_check.h), bench/isa's tests and the
 * sweeps.  ocloc compile -spirv_input, then ocloc disasm; ocloc 22.x (IGC
 * 1.0) leaves kernel heaps that iga64 -d prints, ocloc 26 (IGC 2.x) writes
 * the assembly itself and, with its -igc_opts, IGC's own cycle estimates.
 *
 * Tools: the ocloc is $XEOPT_OCLOC (--ocloc=PATH sets it), else $OCLOC,
 * else ocloc on PATH.  iga64 ($IGA64, else on PATH) is needed for ocloc
 * 22.x only.
 */
#ifndef XEOPT_OCLOC_H
#define XEOPT_OCLOC_H

#include "cost.h"

/* "ocloc 26.27.039122 (PATH, IGC 2.x)": the IGC that judges (malloc'd). */
char *xe_isa_judge(void);

/* False with *err (malloc'd) when a tool --isa-check needs is missing. */
bool xe_isa_check_tools(char **err);

/* Per-kernel ISA counts of a module file for device d (name-sorted); false
 * with *err (malloc'd) when a tool fails.  workdir is the caller's; the
 * files of an earlier call for d there are replaced.  *out is malloc'd,
 * names too: free with xe_isa_kernels_free. */
typedef struct xe_isa_kernel {
   char *name;
   xe_isa_counts c;
} xe_isa_kernel;
bool xe_isa_module_counts(const char *spv_path, enum xe_device d, const char *workdir,
                          xe_isa_kernel **out, unsigned *n, char **err);
void xe_isa_kernels_free(xe_isa_kernel *k, unsigned n);

/* A new directory $TMPDIR/xeopt-WHAT.XXXXXX (malloc'd path), NULL when it
 * cannot be made; remove it with xe_rm_rf. */
char *xe_isa_workdir(const char *what);
/* Removes path and everything under it. */
void xe_rm_rf(const char *path);

#endif
