/*
 * What the layout order of a function's blocks tells about its branches,
 * read from the terminators alone (no CFG).
 *
 * A forward edge is a branch to a block later in the layout.
 *  - acyclic: every edge is forward, so the CFG has no cycle and the
 *    function no loop.
 *  - forward_reachable: every block other than the first is the target of
 *    a forward edge from a block that is itself forward-reachable.  Then
 *    each block has a path from the entry through increasing layout
 *    positions; a dominator lies on every path to the block, on this one
 *    too, so each block's dominators precede it (the block order SPIR-V
 *    2.16.1 requires).
 *
 * Why: at a few thousand kernels the passes that only ask "is there a
 * loop?" (loop-spec-constants) or "are the blocks in order?" (block-order)
 * spent most of their time building dominator trees, a cache miss after
 * another, to learn that nothing was there.  (Caching the facts on the
 * function, computed by the reader while the function is in the cache,
 * was tried: no measurable gain at 1,600 kernels.)
 */
#include "ir_internal.h"

xe_layout_facts xe_function_layout_facts(xe_module *m, xe_function *f)
{
   if (!f->first)
      return (xe_layout_facts){ true, true };
   bool acyclic = true, reachable = true;
   /* The labels' aux marks the blocks reached so far; cleared below. */
   f->first->label->aux = 1;
   xe_foreach_block(b, f) {
      if (!b->label->aux)
         reachable = false;
      xe_inst *t = xe_block_terminator(b);
      for (unsigned k = 0; t && k < xe_nops(t); k++) {
         if (xe_op_kind(t, k) != XE_W_ID)
            continue;
         xe_inst *l = xe_def(m, xe_op(t, k));
         if (!l || l->opcode != SpvOpLabel || !l->block || l->block->fn != f)
            continue;
         if (l->block->order <= b->order)
            acyclic = false;
         else if (b->label->aux)
            l->aux = 1;
      }
   }
   xe_foreach_block(b, f)
      b->label->aux = 0;
   return (xe_layout_facts){ acyclic, reachable };
}
