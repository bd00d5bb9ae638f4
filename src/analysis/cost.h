/*
 * A static cost model per Intel GPU: an estimate of what one work-item of
 * a kernel costs, in issue cycles of one EU thread, read from the SPIR-V.
 * docs/cost-model.md explains the model and where every weight comes from;
 * the weights are data, in cost_weights.c.
 *
 * The unit: one cycle is one issued ISA instruction (in-order issue, one
 * instruction a cycle); a memory message costs its send plus a per-kind
 * weight (the message's share of the Xe-core's load/store bandwidth), so
 * the same weights also score IGC's disassembly (xe_cost_isa).  Loops are
 * weighted by their trip count, or XE_COST_ASSUMED_TRIPS when it is not a
 * constant.  Values that nothing observable uses cost nothing (IGC removes
 * them), so a rewrite that leaves dead code behind is not charged for it.
 *
 * Passes ask before they rewrite a kernel: xe_cost_kernel gives the
 * estimate as the module is, and with a what-if (xe_cost_change) as it
 * would be after the candidate rewrite; xe_cost_compare says whether that
 * is not slower on every device of a target set.
 */
#ifndef XEOPT_COST_H
#define XEOPT_COST_H

#include "ir.h"

/* The devices the model knows: Xe-HPG (dg2, Arc A), Xe-HPC (pvc), Xe2 (bmg,
 * Arc B; lnl, Lunar Lake) and Xe3 (ptl, Panther Lake).  bmg, lnl and ptl
 * are known to IGC 2.x (ocloc 26) only; Debian 12's ocloc 22.43 compiles
 * dg2 and pvc.  mtl/arl (Xe-LPG) are not separate devices: docs/cost-model.md. */
enum xe_device { XE_DEV_DG2, XE_DEV_PVC, XE_DEV_BMG, XE_DEV_LNL, XE_DEV_PTL, XE_DEV_COUNT };
#define XE_DEV_ALL ((1u << XE_DEV_COUNT) - 1)
/* The default --target: every device the model knows, since a SPIR-V
 * module is JIT-compiled for whatever GPU runs it (docs/cost-model.md,
 * "How passes ask", says what changed when it was dg2,pvc). */
#define XE_DEV_DEFAULT XE_DEV_ALL

/* Trips assumed for a loop whose count is not a constant. */
#define XE_COST_ASSUMED_TRIPS 16

const char *xe_device_name(enum xe_device d);
/* Bytes per general register file register: 32 on dg2, 64 on the others. */
unsigned xe_device_grf_bytes(enum xe_device d);
/* The iga64 platform (-p=) for ocloc 22.x's kernel heaps: "12p71" (dg2),
 * "12p72" (pvc); NULL for devices ocloc 22.x does not know. */
const char *xe_device_iga_platform(enum xe_device d);
/* Parses a device name ("dg2", "pvc", "bmg", "lnl", "ptl"), "all", or a comma-separated list into a bit set of
 * (1 << enum xe_device); false on an unknown or empty name. */
bool xe_device_parse_set(const char *s, unsigned *set);

/* The weights of one device, in cycles (cost_weights.c; the sources of
 * their values: docs/cost-model.md, "The weights"). */
typedef struct xe_cost_weights {
   double alu;            /* 32-bit integer or float ALU, per component */
   double alu64;          /* 64-bit integer ALU (dg2: emulated) */
   double fp64;           /* double precision (dg2: emulated) */
   double mul64;          /* 64-bit integer multiply */
   double math;           /* extended math: div, sqrt, exp, sin ... */
   double branch;         /* a conditional branch (goto/join pair) */
   double builtin;        /* reading a work-item id built-in */
   double send;           /* issuing any message */
   double msg_scattered;  /* per scattered (one address per lane) message */
   double msg_block;      /* per sub-group block message */
   double msg_private;    /* per private (scratch) message */
   double msg_slm;        /* per shared local memory message */
   double msg_atomic;     /* per atomic message */
   double priv_addr;      /* per-lane address of a private (scratch) access */
   double generic_check;  /* run-time address-space test of a Generic access */
   double priv_byte;      /* per element byte moved by a private (scratch) access */
   double reg_indirect;   /* per element byte of a dynamically indexed array in registers, per access */
   double reg_limit;      /* bytes per work-item up to which IGC keeps a private array in registers */
   double reg_total;      /* bytes per work-item of all private arrays IGC keeps in registers
                           * together (asked for the parts of a split array) */
   double lane0_base;     /* a block access's sub-group base (broadcast of lane 0, scalar arithmetic) */
   double lane0_shared;   /* extra when the per-lane address stays live for another access */
   double lane0_lane;     /* a block access whose address depends on a y/z invocation id: IGC
                           * computes it per lane anyway (kept live) and moves lane 0's out;
                           * replaces lane0_base */
   double igc_block;      /* 1 when IGC makes a kernel's contiguous global accesses block
                           * messages itself once the kernel declares LocalSize
                           * (reqd_work_group_size): converting one there gains no message
                           * and adds lane0_base, the per-lane address staying live; else 0 */
   double broadcast;      /* OpGroupBroadcast / shuffle */
   double reduce;         /* sub-group reduction or vote */
   double version_test;   /* subgroup-versioning's run-time test, fixed part */
   double version_access; /* the same test, per access it checks */
   double version_shared; /* the same test, per access whose index another's per-lane check
                           * covers (a uniform term added to lane 0's index, its base) */
   double version_utest;  /* the uniform test (kernels with declared SubgroupSize and LocalSize:
                           * work-group full in x), fixed part */
   double version_uaccess;/* the uniform test, per tested access (lane 0's base, 32-bit AND) */
   double version_uguard; /* the uniform test's all-lanes vote on a guard */
   double simd_halving;   /* factor on a kernel's cost per work-item when IGC compiles it at
                           * half the SIMD width (xe_cost_simd_change; the width is predicted
                           * by simd.h: dg2 drops SIMD32 for sub-group block accesses and
                           * broadcasts, every device for register pressure) */
   double barrier;        /* work-group barrier */
} xe_cost_weights;

const xe_cost_weights *xe_cost_weights_of(enum xe_device d);

/* The estimate, with the part of it that memory messages take. */
typedef struct xe_cost {
   double cycles;                          /* total */
   double scattered, block, priv, slm;     /* messages (frequency-weighted) */
   double reg_indirect;                    /* cycles of in-register dynamic indexing */
} xe_cost;

/* A candidate rewrite, for estimating a kernel as it would be after it.
 * Zero-initialise and set what the rewrite changes. */
typedef struct xe_cost_change {
   /* A Function-storage array (OpVariable id) reshaped: new element size
    * in bytes and length (0 = unchanged); not_volatile: its accesses lose
    * Volatile. */
   uint32_t var;
   uint32_t elem_bytes, len;
   bool not_volatile;
   /* Every Function-storage variable of function not_volatile_fn (an
    * OpFunction id; 0 = none), arrays and scalars, loses Volatile, except
    * the nvolatile_kept variables (OpVariable ids) of volatile_kept:
    * private-arrays' drop of Volatile, asked as one change. */
   uint32_t not_volatile_fn;
   const uint32_t *volatile_kept;
   unsigned nvolatile_kept;
   /* var, an array of split_comps-component vectors, split into one
    * scalar array per component (private-arrays' split); split_used: bit
    * c set when component c is accessed (the other parts are dead).  The
    * parts live over the same range, so they take IGC's register budget
    * together, with the function's other private arrays: when all of
    * them exceed reg_total the parts are in private memory and a
    * whole-vector access becomes split_comps scalar accesses; otherwise
    * the split is priced as the array was (docs/cost-model.md). */
   uint32_t split_comps, split_used;
   /* Global loads/stores that become sub-group block reads/writes. */
   xe_inst *const *block;
   unsigned nblock;
   /* Loads of block that the wide form merges into the one before them
    * (one wide block read for the group). */
   xe_inst *const *merged;
   unsigned nmerged;
   /* The kernel declares LocalSize (not a host promise): on devices with
    * igc_block, IGC already makes the block accesses itself, one message
    * each, so only merged loads gain there. */
   bool local_size_declared;
} xe_cost_change;

/* Whether on device d IGC makes change's block accesses block messages
 * itself (weight igc_block, and the kernel declares LocalSize): there a
 * conversion gains no message unless the wide form merges it. */
bool xe_cost_igc_blocks(const xe_cost_change *ch, enum xe_device d);

/* Estimate of kernel entry function fn (callees counted once per call) on
 * device d; change may be NULL. */
xe_cost xe_cost_function(xe_module *m, xe_function *fn, enum xe_device d,
                         const xe_cost_change *change);

/* The liveness of the functions estimated for one question, kept across
 * its estimates: it depends on the function, the change and, with a
 * change, on one device weight (igc_block), so the estimates of a function
 * on five devices share it.  Start zeroed, pass it to the _memo forms
 * while the IR does not change, then release it. */
typedef struct xe_cost_memo {
   struct xe_cost_live *v;
   unsigned n, cap;
} xe_cost_memo;
void xe_cost_memo_release(xe_cost_memo *memo);
/* xe_cost_function with memo (may be NULL). */
xe_cost xe_cost_function_memo(xe_module *m, xe_function *fn, enum xe_device d,
                              const xe_cost_change *change, xe_cost_memo *memo);

/* For each device in the set: the estimate as is (before[d]) and after
 * change (after[d]).  Returns true when the change is not slower on any
 * device of the set; otherwise *worst is the first device where it is. */
bool xe_cost_compare(xe_module *m, xe_function *fn, unsigned devices,
                     const xe_cost_change *change, double before[XE_DEV_COUNT],
                     double after[XE_DEV_COUNT], enum xe_device *worst);

/* For the estimates of xe_cost_compare: true when on every device of the
 * set the change leaves the estimate as it is or lowers it by at least
 * XE_COST_MIN_GAIN of it; otherwise *thin is the first device where the
 * estimate moves by less (or rises).  True for the empty set
 * (--target=none: the model is not asked). */
bool xe_cost_clear_gain(unsigned devices, const double before[XE_DEV_COUNT],
                        const double after[XE_DEV_COUNT], enum xe_device *thin);

/* For the estimates of xe_cost_compare: true when on some device of the
 * set the change lowers the estimate by at least XE_COST_MIN_GAIN of it,
 * or when it leaves the estimate as it is on every one (within
 * XE_COST_TIE); false for a thin move, a gain under XE_COST_MIN_GAIN
 * everywhere (or a rise).  True for the empty set (--target=none).  Used
 * where one device's clear gain is worth the rewrite (private-arrays). */
bool xe_cost_some_clear_gain(unsigned devices, const double before[XE_DEV_COUNT],
                             const double after[XE_DEV_COUNT]);

/* xe_cost_some_clear_gain without its unmoved case: true only when on
 * some device of the set the estimate falls by at least XE_COST_MIN_GAIN
 * (or for the empty set).  Used where an estimate that does not move means
 * the model does not price the change (private-arrays' drop of Volatile). */
bool xe_cost_any_clear_gain(unsigned devices, const double before[XE_DEV_COUNT],
                            const double after[XE_DEV_COUNT]);

/* "dg2 120 -> 96, pvc/bmg 80 -> 85" for the devices of the set (devices
 * with the same rounded estimates in one entry), into buf (n bytes,
 * truncated to fit). */
void xe_cost_format(char *buf, size_t n, unsigned devices, const double before[XE_DEV_COUNT],
                    const double after[XE_DEV_COUNT]);

/* The ISA-level estimate with the same weights, from counts read from
 * IGC's disassembly: every instruction one cycle (sends included), the
 * instructions of the longest loop body (loop) XE_COST_ASSUMED_TRIPS - 1
 * more times, plus the per-kind message weights.  Per thread: the counts
 * cover simd work-items (the dispatch width IGC chose, 8, 16 or 32; 0 when
 * unknown). */
typedef struct xe_isa_counts {
   unsigned instructions, sends, scattered, block, priv, loop;
   /* Of instructions and of loop, those that run more than 16 lanes: two
    * passes of a 16-lane ALU (xe_cost_isa_at). */
   unsigned wide, loop_wide;
   /* call/calla instructions: subroutines, whose code numCycles and
    * kernels_cost_info do not weigh as the kernel's (no igc_estimate). */
   unsigned calls;
   unsigned simd;
   /* IGC's own estimate (IGC 2.x, -dumpVISAJsonStats: numCycles of the
    * SIMD variant dispatched); 0 when not read (ocloc 22.x). */
   unsigned igc_cycles;
   /* IGC's estimate with each loop body counted by its trips: numCycles
    * plus what kernels_cost_info's loops add (xe_isa_zeinfo_loop_cycles in
    * src/igc/isa_count.h); 0 when either is not read or the kernel
    * calls a subroutine. */
   double igc_estimate;
} xe_isa_counts;
double xe_cost_isa(enum xe_device d, const xe_isa_counts *c);
/* xe_cost_isa(d, c) for as many work-items as a thread of width simd
 * covers, to compare c with a kernel IGC compiled at that width (versioning
 * makes IGC drop dg2 kernels from SIMD32 to SIMD16); simd = c->simd gives
 * the kernel's own.  dg2 splits a SIMD32 kernel's 32-bit instructions into
 * two SIMD16 ones, so its counts scale with the width.  pvc, bmg, lnl and
 * ptl issue them once, over two passes of a 16-lane ALU: there the
 * estimate counts passes (c->wide, c->loop_wide: two each) per 16
 * work-items, so a SIMD32 kernel's scalar instructions count half
 * (docs/cost-model.md, "--isa-check").  Unscaled when either width is 0. */
double xe_cost_isa_at(enum xe_device d, const xe_isa_counts *c, unsigned simd);
/* How many work-items xe_cost_isa_at(d, c, simd) is an estimate for:
 * simd on dg2, at most 16 on the devices that count passes. */
unsigned xe_cost_isa_per(enum xe_device d, unsigned simd);
/* IGC 2.x's loop-weighted estimate (c->igc_estimate) for as many
 * work-items as a thread of width simd covers; 0 when IGC gave none
 * (ocloc 22.x).  Cycles scale with the width itself on every device:
 * IGC's schedule already counts the two passes a SIMD32 instruction takes
 * where xe_cost_isa_at counts it once (docs/cost-model.md, "IGC's own
 * estimate"). */
double xe_cost_igc_at(enum xe_device d, const xe_isa_counts *c, unsigned simd);

/* The estimate of the blocks of f whose CFG index (xe_function_cfg(f))
 * has in_set[index] set, each weighted by its loop frequency, on device
 * d with change applied (may be NULL).  Liveness is that of the whole
 * function, so the pieces of a partition add up to xe_cost_function(f)
 * when f calls nothing.  For a pass that duplicates a region: the cost of
 * the region as is (slow) and as its rewritten copy would be (fast). */
double xe_cost_blocks(xe_module *m, xe_function *f, enum xe_device d,
                      const xe_cost_change *change, const uint8_t *in_set);
/* xe_cost_blocks with memo (may be NULL). */
double xe_cost_blocks_memo(xe_module *m, xe_function *f, enum xe_device d,
                           const xe_cost_change *change, const uint8_t *in_set,
                           xe_cost_memo *memo);

/* How many times block index bi of f runs per work-item: the product of
 * the trip counts of the loops around it (XE_COST_ASSUMED_TRIPS for a
 * count that is not a constant). */
double xe_cost_block_frequency(xe_module *m, xe_function *f, uint32_t bi);

/* The fraction of sub-groups that take a versioned region's fast copy
 * (docs/cost-model.md, "Versioning"; assumed, see there): the sub-groups
 * that are full and pass the test.  A launch over a buffer or an image
 * row of n elements has at most one partial or straddling sub-group per
 * n / sub-group size ones; 0.9 is the share at 10 sub-groups per row. */
#define XE_COST_FAST_FRACTION 0.9

/* Two estimates within this fraction of each other are equal: sums of
 * the same weights in another order differ in their last bits, and a
 * rounding must not turn a tie into a refusal
 * (tests/passes/subgroup-versioning-cost-tie.cl). */
#define XE_COST_TIE 1e-9

/* The least gain, as a fraction of the kernel's estimate, that block-io
 * and subgroup-versioning take as a gain on a device: smaller gains of the
 * model are within what IGC's own choices after the rewrite (unrolling,
 * SIMD width) turn either way (docs/cost-model.md, "How passes ask", has
 * the kernels that set it). */
#define XE_COST_MIN_GAIN 0.05

/* The factor on a kernel's cost per work-item when IGC's SIMD width goes
 * from `from` to `to` (8, 16 or 32): simd_halving per halving, its inverse
 * per doubling; 1 when either is 0. */
double xe_cost_simd_change(enum xe_device d, unsigned from, unsigned to);

/* The cost of a sub-group versioned region (REWRITES.md section 6) per run
 * of its test, as the sub-groups run it: the test (version_test, plus
 * version_access per per-lane check: tested; version_shared per access
 * whose index another's per-lane check covers: shared; version_uaccess per
 * wrap check such an access needs of its own: wraps), then the fast
 * copy (fast: its cost per run, frequency-weighted, as the region would
 * cost with the rewrite) for XE_COST_FAST_FRACTION of the sub-groups and
 * the original region (slow) for the rest.  The ISA estimate of a
 * versioned kernel weights IGC's code for the two paths the same way
 * (--isa-check, bench/isa-sweep: --measure-path). */
double xe_cost_versioned(enum xe_device d, unsigned tested, unsigned shared, unsigned wraps,
                         double fast, double slow);
/* The same for the uniform test (subgroup-versioning on a kernel that
 * declares SubgroupSize S and LocalSize L with L.x % S == 0, every tested
 * address proved contiguous by the lane analysis): version_utest, plus
 * version_uaccess per tested access and version_uguard when there is a
 * guard, in place of version_test and version_access. */
double xe_cost_versioned_uniform(enum xe_device d, unsigned tested, bool guard, double fast,
                                 double slow);

#endif
