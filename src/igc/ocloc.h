/*
 * IGC through ocloc: compiling a module for a device and counting each
 * kernel's ISA, for --isa-check (isa_check.h), bench/isa's tests and the
 * sweeps.  ocloc compile -spirv_input, then ocloc disasm; ocloc 22.x (IGC
 * 1.0) leaves kernel heaps that iga64 -d prints, ocloc 26 (IGC 2.x) writes
 * the assembly itself and, with its -igc_opts, IGC's own cycle estimates.
 *
 * Tools: the ocloc is --ocloc=PATH, else $XEOPT_OCLOC, else $OCLOC, else
 * ocloc on PATH.  iga64 ($IGA64, else on PATH) is needed for ocloc 22.x
 * only.  They are found once per --isa-check (xe_isa_tools): nothing is
 * kept between calls, so threads may check modules at once.
 */
#ifndef XEOPT_OCLOC_H
#define XEOPT_OCLOC_H

#include "cost.h"

/* The tools one --isa-check runs. */
typedef struct xe_isa_tools {
   char *ocloc;        /* its path */
   char *iga;          /* iga64's path; ocloc 22.x only, else NULL */
   char version[64];   /* what ocloc --version says: "26.27.039122"; "" for ocloc 22.x */
   bool gen2;          /* ocloc 23 or later (IGC 2.x): disasm writes the text itself */
} xe_isa_tools;

/* Finds the tools, ocloc at path (--ocloc) when not NULL; false with *err
 * (malloc'd) when ocloc, or for ocloc 22.x iga64, is missing.  Free t
 * with xe_isa_tools_free. */
bool xe_isa_tools_find(xe_isa_tools *t, const char *ocloc, char **err);
void xe_isa_tools_free(xe_isa_tools *t);

/* xe_isa_tools_find without keeping the tools: false with *err when a
 * tool --isa-check needs is missing. */
bool xe_isa_check_tools(const char *ocloc, char **err);

/* Can t's IGC compile for d?  False with *err (malloc'd) saying why not
 * (bmg, lnl, ptl need ocloc 26). */
bool xe_isa_device_supported(const xe_isa_tools *t, enum xe_device d, char **err);

/* "ocloc 26.27.039122 (PATH, IGC 2.x)": the IGC that judges (malloc'd). */
char *xe_isa_judge(const xe_isa_tools *t);

/* Per-kernel ISA counts of a module file for device d (name-sorted), by
 * t's IGC; false with *err (malloc'd) when a tool fails.  simd: 0 for the
 * width IGC picks, else every kernel forced to it (IGC 2.x's
 * ForceOCLSIMDWidth; ocloc 22.x ignores it).  workdir is the
 * caller's; the files of an earlier call for d there are replaced.  *out is malloc'd,
 * names too: free with xe_isa_kernels_free. */
typedef struct xe_isa_kernel {
   char *name;
   xe_isa_counts c;
} xe_isa_kernel;
bool xe_isa_module_counts(const xe_isa_tools *t, const char *spv_path, enum xe_device d, unsigned simd,
                          const char *workdir, xe_isa_kernel **out, unsigned *n, char **err);
void xe_isa_kernels_free(xe_isa_kernel *k, unsigned n);

/* A new directory $TMPDIR/xeopt-WHAT.XXXXXX (malloc'd path), NULL when it
 * cannot be made; remove it with xe_rm_rf. */
char *xe_isa_workdir(const char *what);
/* Removes path and everything under it. */
void xe_rm_rf(const char *path);

#endif
