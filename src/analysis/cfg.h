/*
 * Control-flow analyses computed on demand and cached on the function:
 * the CFG (successors from terminators, predecessors), reverse postorder,
 * the dominator tree (Cooper, Harvey and Kennedy, "A Simple, Fast
 * Dominance Algorithm"), and natural loops.  Kernel modules have
 * unstructured control flow (no merge instructions), so loops are found
 * from back edges: an edge whose target dominates its source.
 *
 * Block indices are positions in the function at the time the CFG was
 * built.  The IR's edit functions bump the function's cfg_gen when blocks
 * or terminators change (code_gen on any change, which loops depend on),
 * so the next query recomputes; a result a pass still holds stays
 * allocated, stale, until the pipeline moves to the next pass.
 */
#ifndef XEOPT_CFG_H
#define XEOPT_CFG_H

#include "ir.h"

#define XE_NONE UINT32_MAX

typedef struct xe_cfg {
   uint32_t n;              /* number of blocks */
   xe_block **blocks;       /* by index */
   uint32_t *succ_start;    /* succ[succ_start[b] .. succ_start[b+1]) */
   uint32_t *succ;
   uint32_t *pred_start;
   uint32_t *pred;
   uint32_t nrpo;           /* reachable blocks */
   uint32_t *rpo;           /* block indices in reverse postorder */
   uint32_t *rpo_index;     /* position in rpo, XE_NONE if unreachable */
   uint32_t *idom;          /* immediate dominator; entry's is itself; XE_NONE if unreachable */
} xe_cfg;

const xe_cfg *xe_function_cfg(xe_function *f);
/* Index of the block with a label id, XE_NONE if none. */
uint32_t xe_cfg_block_index(const xe_cfg *c, uint32_t label_id);
/* True if block a dominates block b (both reachable); a block dominates itself. */
bool xe_dominates(const xe_cfg *c, uint32_t a, uint32_t b);

/* For the check between passes: NULL when f's cached CFG and dominators
 * (if any, and still valid) equal a fresh computation, else what differs.
 * Leaves block indices as a fresh build sets them. */
const char *xe_check_cfg(xe_function *f);

/* A natural loop.  Blocks are indices into the function's CFG. */
typedef struct xe_loop {
   uint32_t header;
   uint32_t nblocks, *blocks;    /* sorted, header included */
   uint32_t nlatches, *latches;  /* sources of back edges */
   uint32_t nexits, *exits;      /* blocks outside the loop reached from inside */
   uint32_t preheader;           /* the single outside predecessor of the header, or XE_NONE */
   uint32_t parent;              /* enclosing loop index, XE_NONE at top level */
   uint32_t depth;               /* 1 for outermost */
   /* A simple induction variable, when there is one: an OpPhi in the header
    * with init from outside and `phi + step` (OpIAdd with a constant or
    * loop-invariant step) from the single latch; the compare that decides
    * the only exit and the conditional branch using it. */
   xe_inst *iv;                  /* OpPhi, or NULL */
   uint32_t iv_init;             /* id */
   xe_inst *iv_next;             /* the OpIAdd/OpISub */
   uint32_t iv_step;             /* id of the step */
   xe_inst *exit_cmp;            /* OpSLessThan etc., or NULL */
   xe_inst *exit_branch;         /* OpBranchConditional, or NULL */
   /* xe_loop_trip_count's answer, memoised (it steps the induction
    * variable up to 2^22 times, and the cost model asks once per block):
    * 0 not asked yet, 1 counted (trips), 2 no count.  Valid as long as
    * the loops are, since both follow the function's code. */
   uint8_t trip_memo;
   uint64_t trips;
} xe_loop;

typedef struct xe_loops {
   uint32_t n;
   xe_loop *loops;               /* outer loops before inner ones */
} xe_loops;

const xe_loops *xe_function_loops(xe_function *f);
/* As xe_check_cfg, for the cached loops (headers, blocks, induction
 * variables). */
const char *xe_check_loops(xe_function *f);
bool xe_loop_contains(const xe_loop *l, uint32_t block);
/* The innermost loop containing block, XE_NONE if none. */
uint32_t xe_loop_of_block(const xe_loops *ls, uint32_t block);

#endif
