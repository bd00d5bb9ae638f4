/*
 * simplify-cfg, rewrite "merge": short-circuit chains.  P: c1 ? T : L, L
 * (only P's) computing c2 with a few side-effect-free instructions and
 * branching c2 ? T : O, becomes P: (c1 || c2) ? T : L, L: br O (and the
 * && form): ocloc keeps `x >= w || y >= h` as two branches where clang
 * emits one condition, and the guard analyses take one branch as one
 * guard.  L stays as the empty entry of the guarded region (threading
 * removes it unless O is a loop header).
 *
 * A chain into an early return (T only returns) whose branches test more
 * than 2 compares in all is kept unless c->shape: on dg2 IGC compiles the
 * chain as predicated compares and one guard of 4 compares as flag moves
 * and selects (pass.c's header has the numbers and the gate).
 *
 * Also the hoisting select.c shares: only instructions without side
 * effects or undefined behaviour run speculatively.
 */
#include "builder.h"
#include "opinfo.h"
#include "simplify_cfg.h"

/* Can i run where it did not before?  Pure, no address arithmetic (a
 * pointer may be valid only on the path), no integer division (undefined
 * for a zero divisor), no decoration but NoSignedWrap / NoUnsignedWrap and
 * FPFastMathMode: promises that hold only on the path (a wrap, a NaN or
 * infinite operand elsewhere gives an undefined result), which go when i
 * moves (drop_wrap_decorations), so the moved i computes a defined value
 * where its result is not used.  llvm-spirv 21 and ocloc 26 put
 * FPFastMathMode on the arithmetic of a `?:` side. */
bool scfg_speculatable(xe_module *m, const xe_inst *i)
{
   unsigned f = xe_inst_info(m, i);
   if (!(f & XE_OPI_PURE) || (f & XE_OPI_ADDRESS) || i->opcode == SpvOpPhi)
      return false;
   if (i->opcode == SpvOpUDiv || i->opcode == SpvOpSDiv || i->opcode == SpvOpUMod ||
       i->opcode == SpvOpSRem || i->opcode == SpvOpSMod)
      return false;
   if (i->result_id) {
      uint32_t n = 0;
      const xe_use *u = xe_uses(m, i->result_id, &n);
      for (uint32_t k = 0; k < n; k++) {
         const xe_inst *d = u[k].inst;
         if ((d->opcode == SpvOpDecorate || d->opcode == SpvOpDecorateId) &&
             !(d->opcode == SpvOpDecorate && (xe_op(d, 1) == SpvDecorationNoSignedWrap ||
                                              xe_op(d, 1) == SpvDecorationNoUnsignedWrap ||
                                              xe_op(d, 1) == SpvDecorationFPFastMathMode)))
            return false;
      }
   }
   return true;
}

/* Drops i's NoSignedWrap / NoUnsignedWrap / FPFastMathMode: run on every
 * path, i may wrap (or see a NaN) where the original never ran, where the
 * promise would make its result undefined. */
static void drop_wrap_decorations(xe_module *m, const xe_inst *i)
{
   if (!i->result_id)
      return;
   uint32_t n = 0;
   const xe_use *u = xe_uses(m, i->result_id, &n);
   for (uint32_t k = 0; k < n; k++) {
      if (u[k].inst->opcode == SpvOpDecorate)
         xe_inst_delete(m, u[k].inst);
   }
}

/* Moves i, of a block whose code runs on one path, before pos, where it
 * runs on every path (merge_block, select_block).  Debug info goes
 * instead: a DebugValue there would say a variable holds a value on paths
 * where the source never set it. */
void scfg_hoist(xe_module *m, xe_inst *i, xe_inst *pos)
{
   if (xe_inst_is_debug_info(m, i)) {
      xe_inst_kill(m, i);
      return;
   }
   drop_wrap_decorations(m, i);
   xe_inst_remove(m, i);
   xe_list_insert_before(m, pos, i);
}

/* Compares joined into one condition (OpLogicalOr/And, or the OpSelect
 * forms clang writes for || and &&). */
static unsigned cond_compares(xe_module *m, uint32_t id, int depth)
{
   const xe_inst *i = xe_def(m, id);
   if (!i || depth > 8)
      return 1;
   if (i->opcode == SpvOpLogicalOr || i->opcode == SpvOpLogicalAnd)
      return cond_compares(m, xe_op(i, 0), depth + 1) + cond_compares(m, xe_op(i, 1), depth + 1);
   if (i->opcode == SpvOpSelect && i->type_id == xe_type_bool(m)) {
      const xe_inst *a = xe_def(m, xe_op(i, 1)), *b = xe_def(m, xe_op(i, 2));
      if (a && a->opcode == SpvOpConstantTrue)
         return cond_compares(m, xe_op(i, 0), depth + 1) + cond_compares(m, xe_op(i, 2), depth + 1);
      if (b && b->opcode == SpvOpConstantFalse)
         return cond_compares(m, xe_op(i, 0), depth + 1) + cond_compares(m, xe_op(i, 1), depth + 1);
   }
   return 1;
}

/* Does b only return (source info aside), directly or through empty
 * blocks? */
static bool returns_only(xe_module *m, const xe_block *b)
{
   for (int k = 0; k < 8 && b; k++) {
      xe_inst *t = xe_block_terminator((xe_block *)b);
      const xe_inst *first = xe_skip_source_info(m, b->insts.first);
      if (!t || first != t)
         return false;
      if (t->opcode == SpvOpReturn)
         return true;
      if (t->opcode != SpvOpBranch)
         return false;
      b = scfg_block_of_label(m, xe_op(t, 0));
   }
   return false;
}

/* Compares over all the conditional branches of c's function to t. */
static unsigned exit_compares(simplify *c, uint32_t t)
{
   unsigned n = 0;
   xe_foreach_block(b, c->f) {
      xe_inst *bt = xe_block_terminator(b);
      if (bt && bt->opcode == SpvOpBranchConditional && (xe_op(bt, 1) == t || xe_op(bt, 2) == t))
         n += cond_compares(c->m, xe_op(bt, 0), 0);
   }
   return n;
}

/* The chain through side side of P's conditional branch t1 (side 0: T is
 * its true target, L its false one), when it can be merged (below): L's
 * terminator, *lp gets L; NULL otherwise. */
static xe_inst *chain_link(simplify *c, xe_block *p, xe_inst *t1, int side, xe_block **lp)
{
   xe_module *m = c->m;
   uint32_t tid = xe_op(t1, 1 + side), lid = xe_op(t1, 2 - side);
   xe_block *l = scfg_block_of_label(m, lid);
   if (!l || l == p || tid == lid || l == c->f->first)
      return NULL;
   xe_inst *t2 = xe_block_terminator(l);
   if (!t2 || t2->opcode != SpvOpBranchConditional || scfg_has_merge(t2))
      return NULL;
   if (xe_op(t2, 1 + side) != tid || xe_op(t2, 2 - side) == tid ||
       xe_op(t2, 2 - side) == lid)
      return NULL;
   uint32_t oid = xe_op(t2, 2 - side);
   xe_block *tb = scfg_block_of_label(m, tid), *ob = scfg_block_of_label(m, oid);
   if (!tb || !ob)
      return NULL;
   /* L's only predecessor is P (its label used once by a branch; the
    * other uses are phi entries of its successors). */
   uint32_t n = 0, branches = 0;
   const xe_use *u = xe_uses(m, lid, &n);
   bool ok = true;
   for (uint32_t k = 0; k < n && ok; k++) {
      const xe_inst *i = u[k].inst;
      if (scfg_is_meta(i) || (i->opcode == SpvOpPhi && (i->block == tb || i->block == ob)))
         continue;
      ok = i == t1;
      branches++;
   }
   if (!ok || branches != 1)
      return NULL;
   unsigned nh = 0;
   for (xe_inst *i = l->insts.first; i && i != t2 && ok; i = i->next) {
      if (xe_inst_is_source_info(m, i))
         continue;
      ok = scfg_speculatable(m, i) && ++nh <= MAX_HOISTED;
   }
   if (!ok)
      return NULL;
   /* T's phis: after the merge, T is reached from P only once. */
   xe_foreach_phi(m, i, tb)
      ok &= scfg_phi_value(i, xe_block_id(p)) == scfg_phi_value(i, lid);
   if (!ok)
      return NULL;
   *lp = l;
   return t2;
}

/* Merges the chain chain_link found: L's instructions move before t1,
 * which branches on c1 || c2 (side 0) or c1 && c2, and L (t2 its
 * terminator) branches to O. */
static void merge_chain(simplify *c, xe_inst *t1, xe_block *l, xe_inst *t2, int side)
{
   xe_module *m = c->m;
   uint32_t tid = xe_op(t1, 1 + side), lid = xe_op(t1, 2 - side);
   uint32_t oid = xe_op(t2, 2 - side);
   xe_block *tb = scfg_block_of_label(m, tid);
   for (xe_inst *i = l->insts.first, *nx; i && i != t2; i = nx) {
      nx = i->next;
      scfg_hoist(m, i, t1);
   }
   uint32_t c1 = xe_op(t1, 0), c2 = xe_op(t2, 0);
   xe_builder bld = xe_builder_before(m, t1);
   uint32_t nc = xe_build2(&bld, side == 0 ? SpvOpLogicalOr : SpvOpLogicalAnd,
                           xe_type_bool(m), c1, c2);
   /* clang's name for the same condition, where the module has names. */
   if (xe_name(m, c1))
      xe_set_name(m, nc, side == 0 ? "or.cond" : "and.cond");
   uint32_t ops[3] = { nc, side == 0 ? tid : lid, side == 0 ? lid : tid };
   xe_set_ops(t1, ops, 3, NULL);
   xe_phi_remove_pred(m, tb, lid);
   /* L stays, empty, on the edge to O: the guarded region's single
    * entry when O has other predecessors (a loop header, as clang's
    * preheader); threading bypasses it otherwise. */
   xe_terminator_to_branch(m, t2, oid);
   c->merged++;
}

/* P: br c1 ? T : L (or c1 ? L : T), L reached only from P, holding a few
 * speculatable instructions and br c2 with T on the same side:
 *    c1 ? T : (L: c2 ? T : O)   ->   (c1 || c2) ? T : (L: br O)
 *    c1 ? (L: c2 ? O : T) : T   ->   (c1 && c2) ? (L: br O) : T
 * L's instructions move to P.  This is
 * `if (x >= w || y >= h) return;` as ocloc emits it (two branches) turned
 * into the one guard clang emits (an OpSelect of the compares). */
static bool merge_block(simplify *c, xe_block *p)
{
   xe_module *m = c->m;
   xe_inst *t1 = xe_block_terminator(p);
   if (!t1 || t1->opcode != SpvOpBranchConditional || scfg_has_merge(t1))
      return false;
   for (int side = 0; side < 2; side++) {
      xe_block *l = NULL;
      xe_inst *t2 = chain_link(c, p, t1, side, &l);
      if (!t2)
         continue;
      if (c->dry) {
         c->plain_candidates++;
         continue;
      }
      uint32_t tid = xe_op(t1, 1 + side);
      if (!c->shape && returns_only(m, scfg_block_of_label(m, tid)) &&
          exit_compares(c, tid) > 2) {
         c->kept_merges++;
         continue;
      }
      merge_chain(c, t1, l, t2, side);
      return true;
   }
   return false;
}

bool scfg_merge_all(simplify *c)
{
   bool changed = false;
   xe_foreach_block(b, c->f) {
      while (merge_block(c, b))
         changed = true;
   }
   return changed;
}

