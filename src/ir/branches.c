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
 * The facts are remembered on the function while its cfg_gen stands (the
 * edit functions bump it on any change of blocks or terminators; the
 * module epoch, which drops analyses after a pass that did not preserve
 * the CFG, does not drop them), and the CFG build fills them too.  A pass
 * that asks about a function whose branches did not change since then
 * reads only the function's first cache line.
 *
 * Why: at a few thousand kernels the passes that only ask "is there a
 * loop?" (loop-spec-constants) or "are the blocks in order?" (block-order)
 * spent most of their time building dominator trees, a cache miss after
 * another, to learn that nothing was there.  (Computing them in the
 * reader as well was tried: no measurable gain at 1,600 kernels.)
 */
#include "ir_internal.h"

void xe_terminator_successors(const xe_inst *t, unsigned *first, unsigned *step, unsigned *n)
{
   *first = *n = 0;
   *step = 1;
   if (!t)
      return;
   switch (t->opcode) {
   case SpvOpBranch:
      *n = 1;
      break;
   case SpvOpBranchConditional:
      *first = 1;
      *n = 2;
      break;
   case SpvOpSwitch:
      /* selector, default, then (literal words, label) pairs: the label
       * positions are the id-kind words after the selector. */
      *first = 1;
      *n = xe_nops(t) - 1;
      break;
   default:
      break;
   }
}

/* Bits of xe_function.facts. */
enum { FACTS_VALID = 1, FACTS_ACYCLIC = 2, FACTS_REACHABLE = 4 };

static bool remembered(const xe_function *f)
{
   return (f->facts & FACTS_VALID) && f->facts_gen == f->cfg_gen;
}

void xe_function_remember_layout_facts(xe_function *f, xe_layout_facts facts)
{
   f->facts = FACTS_VALID | (facts.acyclic ? FACTS_ACYCLIC : 0) |
              (facts.forward_reachable ? FACTS_REACHABLE : 0);
   f->facts_gen = f->cfg_gen;
}

static xe_layout_facts compute(xe_module *m, xe_function *f)
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
      unsigned first, step, n;
      xe_terminator_successors(t, &first, &step, &n);
      for (unsigned k = first; k < first + n; k += step) {
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

xe_layout_facts xe_function_layout_facts(xe_module *m, xe_function *f)
{
   if (remembered(f))
      return (xe_layout_facts){ f->facts & FACTS_ACYCLIC, f->facts & FACTS_REACHABLE };
   xe_layout_facts facts = compute(m, f);
   xe_function_remember_layout_facts(f, facts);
   return facts;
}

const char *xe_check_layout_facts(xe_module *m)
{
   xe_foreach_fn(f, m) {
      if (!remembered(f))
         continue;
      xe_layout_facts fresh = compute(m, f);
      if (fresh.acyclic != !!(f->facts & FACTS_ACYCLIC) ||
          fresh.forward_reachable != !!(f->facts & FACTS_REACHABLE))
         return "a function's remembered layout facts differ from its terminators";
   }
   return NULL;
}
