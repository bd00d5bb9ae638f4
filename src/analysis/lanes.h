/*
 * Lane analysis: how integer and pointer values of one function vary
 * across the lanes of a sub-group, and which blocks every lane of a
 * sub-group executes together.
 *
 * A value is uniform (the same in every lane), lane-affine `u + s * lane`
 * with a constant stride s (in bytes for pointers; lane is the sub-group
 * local id), or unknown.  For affine values the analysis also keeps what
 * is known of u (the lane-0 value): it is a multiple of 2^tz, and for
 * pointers the kernel parameter it is derived from (root; tz is then the
 * alignment of the byte offset from that parameter).
 *
 * Integer facts hold modulo 2^width.  Widening conversions are where the
 * modular algebra can break: sext(u + s*lane) == sext(u) + s*lane only if
 * no two lanes sit on either side of the 2^31 wrap point.  The analysis
 * proves that (nowrap_s / nowrap_u) in two ways only:
 *   - the window rule: s >= 0, u is a multiple of 2^tz and s*(SG-1) < 2^tz
 *     (with tz capped at width-1 resp. width), so all lanes lie in one
 *     aligned window of 2^tz values, and the wrap point, a multiple of
 *     2^tz, cannot fall between them;
 *   - NoSignedWrap / NoUnsignedWrap decorations: the program promises no
 *     lane overflows, so the sum of non-wrapping operands does not wrap.
 * Anything else is unknown.
 *
 * Sources (need LocalSize.x % SubgroupSize == 0, so that a sub-group is a
 * run of SG consecutive local x ids in one row): SubgroupLocalInvocationId
 * (stride 1, u = 0); LocalInvocationId.x (stride 1, u a multiple of SG);
 * GlobalInvocationId.x (stride 1; u = global offset + group * LocalSize.x
 * + a multiple of SG: u's alignment is known only under the opt-in
 * XE_LANES_ASSUME_OFFSET, "the global work offset is a multiple of SG",
 * which callers must record as a host contract when a result depends on
 * it); SubgroupSize and SubgroupMaxSize: uniform and equal to SG (so a
 * multiple of 2^log2 SG), every sub-group being full; y and z ids,
 * WorkgroupId, NumWorkgroups, other sizes, SubgroupId, kernel arguments
 * (the function's parameters), constants, spec constants: uniform.
 *
 * Loads from memory are unknown (even at uniform addresses: another
 * work-item may write the location; we do not reason about races).
 *
 * Blocks: a block is sub-group uniform when it is reached only through
 * branches whose condition (or switch selector) is uniform, starting from
 * the entry.  Computed optimistically together with the values (a loop
 * whose exit condition is uniform stays uniform).  Join points after a
 * divergent branch stay divergent (no reconvergence analysis): sound,
 * conservative.
 */
#ifndef XEOPT_LANES_H
#define XEOPT_LANES_H

#include "idmap.h"
#include "ir.h"

enum xe_lane_kind {
   XE_LANE_TOP = 0,      /* not computed yet (internal) */
   XE_LANE_UNIFORM,
   XE_LANE_AFFINE,       /* u + stride * lane, stride != 0 */
   XE_LANE_UNKNOWN,
};

typedef struct xe_lane_fact {
   uint8_t kind;
   uint8_t tz;           /* u is a multiple of 2^tz (64: u == 0); affine only */
   bool nowrap_s;        /* lanes hold exactly u + s*lane as signed integers */
   bool nowrap_u;        /* ... as unsigned integers */
   int64_t stride;       /* per lane; bytes for pointers */
   uint32_t root;        /* pointers: the OpFunctionParameter the address derives from */
} xe_lane_fact;

enum {
   XE_LANES_ASSUME_OFFSET = 1 << 0,   /* global work offset x is a multiple of SG */
};

/* Facts are kept by id in a sparse map (src/ir/idmap.h) that holds f's own
 * ids and the global ids f's code refers to, so one analysis costs time
 * and memory in proportion to f, not to the module: run on every kernel of
 * a module it stays linear in the number of kernels. */
typedef struct xe_lanes {
   uint32_t bound;          /* the module's id bound when analysed: ids at or
                               past it (added later) are unknown */
   struct xe_module *m;
   xe_idmap ids;            /* id -> index into fact[] */
   xe_lane_fact *fact;      /* by index in ids */
   uint32_t nfact;          /* entries in fact[] (the analysis's ids) */
   /* Facts of global ids f does not refer to, computed when a caller asks
    * (xe_lanes_fact): one allocation each, so that the pointers handed out
    * stay valid until xe_lanes_free.  ids maps them to nfact + k. */
   xe_lane_fact **extra;
   uint32_t nextra, capextra;
   bool failed;             /* no fixpoint within the round limit: all unknown */
   struct xe_function *fn;
   uint32_t nblocks;
   bool *uniform_block;     /* by CFG block index */
   uint32_t *divergent_cause;  /* by CFG block index: condition id of the first
                                  divergent branch on the way, 0 if uniform */
   uint32_t sg;             /* sub-group size used, 0 if unknown */
} xe_lanes;

/* Analyses f (usually a kernel's body) for a kernel launched with
 * sub-group size sg (0 = unknown) and local_size (0 = unknown). */
xe_lanes *xe_lanes_analyze(xe_module *m, xe_function *f, uint32_t sg,
                           const uint32_t local_size[3], unsigned flags);
/* The same, as if the branch from block edge_from to block edge_to were
 * taken by every lane of the sub-group together (labels; 0 = none): what
 * the code after that edge looks like once a sub-group-uniform test
 * selects it (sub-group versioning). */
xe_lanes *xe_lanes_analyze_edge(xe_module *m, xe_function *f, uint32_t sg,
                                const uint32_t local_size[3], unsigned flags,
                                uint32_t edge_from, uint32_t edge_to);
void xe_lanes_free(xe_lanes *l);

/* The fact for id (unknown for ids the analysis does not know).  The
 * pointer stays valid until xe_lanes_free. */
const xe_lane_fact *xe_lanes_fact(const xe_lanes *l, uint32_t id);
/* Is the block with this label sub-group uniform? */
bool xe_lanes_block_uniform(const xe_lanes *l, uint32_t label_id);
/* The condition id that makes the block divergent, 0 if none or unknown. */
uint32_t xe_lanes_divergent_cause(const xe_lanes *l, uint32_t label_id);

/* The alignment an Alignment decoration or Aligned memory operand of a
 * bytes proves: its largest power-of-two factor (an address that is a
 * multiple of 6 is only 2-byte aligned; spirv-val accepts `Alignment 6`).
 * Alignment checks compare with >=, so they take this, not a. */
static inline uint64_t xe_align_pow2(uint64_t a)
{
   return a & (0 - a);
}

#endif
