/*
 * IGC's SIMD width for a kernel, predicted from the SPIR-V.
 *
 * IGC 2.40 (OpenCLKernelCodeGen.cpp: checkSIMDCompileConds for dg2,
 * checkSIMDCompileCondsForMin16 for pvc, bmg, lnl, ptl) compiles the widest
 * width first and keeps the first that passes; a width is refused by
 * these facts, all visible in the SPIR-V (docs/cost-model.md, "SIMD
 * width", has the rules with their sources and how often this prediction
 * matches ocloc 26):
 *  - a SubgroupSize execution mode fixes the width on every device;
 *  - a call IGC does not inline (a DontInline or OptNone callee other
 *    than the kernel's body, recursion): dg2 8, the others 16;
 *  - dg2 only: a sub-group shuffle, broadcast or block read/write makes
 *    SIMD32 unprofitable; so do a work-group of at most 16 work-items
 *    (LocalSize, LocalSizeHint; at most 8: SIMD8), a top-level loop whose
 *    exit is divergent and not a constant count under 100, and more than
 *    8,000 instructions;
 *  - pvc, bmg, lnl, ptl: an image media block read/write gives SIMD16;
 *  - registers: dg2 drops a width that spills (128 registers of 32
 *    bytes); bmg and lnl drop SIMD32 when IGC's pressure estimate at
 *    SIMD32 passes 128 registers of 64 bytes; ptl when it passes 256, or
 *    160 while SIMD16's stays under 120; pvc keeps SIMD32 and spills,
 *    unless it passes 1,000 (ForceSIMDRPELimit, every device).
 */
#ifndef XEOPT_SIMD_H
#define XEOPT_SIMD_H

#include "cost.h"
#include "ir.h"
#include "pressure.h"

/* What IGC's choice reads, gathered once per kernel (xe_simd_facts_of). */
typedef struct xe_simd_facts {
   uint32_t subgroup_size;   /* SubgroupSize execution mode, 0 when none */
   uint32_t group_size;      /* LocalSize x*y*z, else LocalSizeHint's, 0 when neither */
   bool subroutine;          /* a call IGC will not inline */
   bool subgroup_func;       /* a shuffle, broadcast or block read/write (dg2's list) */
   bool media_block;         /* an image block read/write */
   bool divergent_loop;      /* a top-level loop that dg2 finds unprofitable at SIMD32 */
   unsigned instructions;    /* of the kernel and its callees, each call counted */
   xe_pressure pressure;
} xe_simd_facts;

/* The facts of kernel k as it is. */
xe_simd_facts xe_simd_facts_of(xe_module *m, const xe_kernel *k);

/* The width (8, 16 or 32) IGC 2.40 compiles a kernel with these facts at
 * on d. */
unsigned xe_simd_predict(enum xe_device d, const xe_simd_facts *f);

/* Does a kernel with these facts spill at width simd on d: its registers
 * at that width over IGC_GRF_COUNT? */
bool xe_simd_spills(enum xe_device d, const xe_simd_facts *f, unsigned simd);

#endif
