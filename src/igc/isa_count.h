/*
 * Counting a kernel's ISA as IGC wrote it: the text `iga64 -d` prints for
 * one kernel heap (ocloc disasm's <kernel>_KernelHeap.dat), read with the
 * rules of bench/isa's header comment, which the sweep, the README tables
 * and --isa-check all share: every instruction line (labels and the heap's
 * trailing padding are not: nop, illegal, and
 * under IGC 2.x four `(W) mov (16|M0) null<1>:ud 0x...` lines), every send, and each memory
 * message as private (scratch surface, or on dg2 an address computed from
 * the hardware thread id sr0), block (one address per message) or
 * scattered (one per lane); the prologue's argument loads are not
 * classified.  `loop` is the longest loop body, in instructions.
 */
#ifndef XEOPT_ISA_COUNT_H
#define XEOPT_ISA_COUNT_H

#include <stdbool.h>

#include "cost.h"

/* Counts the iga64 text of one kernel for device d into *c.  text is
 * modified (split into lines in place); it stays the caller's.  False only
 * when memory runs out (then *c is zero). */
bool xe_isa_count(enum xe_device d, char *text, xe_isa_counts *c);

/* The SIMD width IGC dispatches kernel at, read from ptm, the text of the
 * PTM.txt that `ocloc disasm -dump` writes (IGC 22.43's patch-token
 * listing): the LargestCompiledSIMDSize field, bytes 12-15 of the
 * kernel's execution-environment token (Token 23).  0 when the kernel or
 * the field is not found. */
unsigned xe_isa_ptm_simd(const char *ptm, const char *kernel);

/* The same from ocloc 26's .ze_info (IGC 2.x, zebin): the simd_size of
 * kernel's execution_env in the `kernels:` list.  0 when not found. */
unsigned xe_isa_zeinfo_simd(const char *zeinfo, const char *kernel);

/* What kernel's loops add to IGC 2.x's numCycles, which counts each block
 * once (a loop body once), into *extra (cycles per thread): from the
 * `kernels_cost_info` list of ocloc 26's .ze_info, written under -igc_opts
 * 'EnableKernelCostInfo=1' (IGC's zeinfo spec, "Kernel Cost Attributes").
 * Kcm_loop_costs holds one entry for the blocks outside loops, then every
 * loop in pre-order, each with its body's cycles and num_loops, its
 * immediate child loops; kcm_loop_count_exps holds each loop's trip count
 * as factor * argument + C, used when there is one per loop.  A
 * loop whose count is a constant (no argument, factor 0) runs that many
 * times, any other `trips` times, as
 * the cost model assumes (XE_COST_ASSUMED_TRIPS); its body then adds its
 * cycles times (its trips and those of the loops around it) - 1.  False
 * (and *extra 0) when the kernel has no entry or it does not parse. */
bool xe_isa_zeinfo_loop_cycles(const char *zeinfo, const char *kernel, double trips, double *extra);

#endif
