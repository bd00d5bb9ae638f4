/*
 * simplify-cfg, rewrite "select": two-way phis.  X: c ? A : B where each
 * side is the join J or a block of a few side-effect-free instructions
 * reached only from X and going only to J, J reached only that way: the
 * instructions move to X, each phi of J (scalar or vector) becomes
 * OpSelect c, and X branches to J.  clang does the same at -O2 for
 * `a && b` used as a value; with the branches left in, the guarded body
 * is several blocks, and subgroup-versioning refuses accesses after a
 * divergent branch.  Moved instructions lose NoSignedWrap/NoUnsignedWrap:
 * they now run on paths where they may wrap (merge.c's scfg_hoist).
 */
#include "builder.h"
#include "simplify_cfg.h"

/* Is side (a successor of x's conditional branch) either j itself or a
 * block reached only from x, of a few speculatable instructions and
 * OpBranch j?  *r gets the block in between (NULL when side is j). */
static bool select_side(simplify *c, xe_inst *tx, uint32_t side, uint32_t jid, xe_block **r)
{
   *r = NULL;
   if (side == jid)
      return true;
   xe_block *rb = scfg_block_of_label(c->m, side);
   uint32_t to;
   if (!rb || rb == c->f->first)
      return false;
   xe_inst *t = xe_block_terminator(rb);
   if (!t || t->opcode != SpvOpBranch || (to = xe_op(t, 0)) != jid || scfg_has_merge(t))
      return false;
   uint32_t n = 0, branches = 0;
   const xe_use *u = xe_uses(c->m, side, &n);
   for (uint32_t k = 0; k < n; k++) {
      const xe_inst *i = u[k].inst;
      if (scfg_is_meta(i) || (i->opcode == SpvOpPhi && i->block && xe_block_id(i->block) == jid))
         continue;
      if (i != tx)
         return false;
      branches++;
   }
   if (branches != 1)
      return false;
   unsigned nh = 0;
   xe_foreach_inst(i, &rb->insts) {
      if (i == t)
         break;
      if (xe_inst_is_source_info(c->m, i))
         continue;
      if (!scfg_speculatable(c->m, i) || ++nh > MAX_HOISTED)
         return false;
   }
   *r = rb;
   return true;
}

/* Types an OpSelect of this phi may have: scalars and vectors of
 * integers, floats and booleans. */
static bool selectable_type(xe_module *m, uint32_t type_id)
{
   const xe_inst *t = xe_def(m, type_id);
   if (t && t->opcode == SpvOpTypeVector)
      t = xe_def(m, xe_op(t, 0));
   return t && (t->opcode == SpvOpTypeInt || t->opcode == SpvOpTypeFloat ||
                t->opcode == SpvOpTypeBool);
}

/* X: c ? A : B where each side is J or a small block going only to J, and
 * J is reached only that way:
 *    X: c ? (R: v = ...; br J) : J;  J: p = phi(v, R; w, X)
 * -> X: v = ...; p' = select c v w; br J
 * clang's -O2 turns `a && b` on values (not branches) into such selects,
 * ocloc keeps the branches: with them the guarded body is one block, as
 * subgroup-versioning needs it (its accesses all run where the guard
 * holds). */
static bool select_block(simplify *c, xe_block *x)
{
   xe_module *m = c->m;
   xe_inst *tx = xe_block_terminator(x);
   if (!tx || tx->opcode != SpvOpBranchConditional || scfg_has_merge(tx) ||
       xe_op(tx, 1) == xe_op(tx, 2))
      return false;
   uint32_t a = xe_op(tx, 1), b = xe_op(tx, 2), jid = 0;
   xe_block *ra = scfg_block_of_label(m, a), *rbk = scfg_block_of_label(m, b);
   if (!ra || !rbk)
      return false;
   /* J: the side that is not a forwarding candidate, or both sides' target. */
   xe_inst *ta = xe_block_terminator(ra), *tb = xe_block_terminator(rbk);
   if (ta && ta->opcode == SpvOpBranch && xe_op(ta, 0) == b)
      jid = b;
   else if (tb && tb->opcode == SpvOpBranch && xe_op(tb, 0) == a)
      jid = a;
   else if (ta && tb && ta->opcode == SpvOpBranch && tb->opcode == SpvOpBranch &&
            xe_op(ta, 0) == xe_op(tb, 0))
      jid = xe_op(ta, 0);
   else
      return false;
   xe_block *j = scfg_block_of_label(m, jid), *r1, *r2;
   if (!j || j == x || !select_side(c, tx, a, jid, &r1) || !select_side(c, tx, b, jid, &r2))
      return false;
   uint32_t pa = r1 ? xe_block_id(r1) : xe_block_id(x);
   uint32_t pb = r2 ? xe_block_id(r2) : xe_block_id(x);
   /* J's predecessors are exactly the two sides, and every phi of J can
    * become a select. */
   uint32_t n = 0;
   const xe_use *u = xe_uses(m, jid, &n);
   for (uint32_t k = 0; k < n; k++) {
      const xe_inst *i = u[k].inst;
      if (scfg_is_meta(i))
         continue;
      if (i->opcode == SpvOpPhi || (i->block == x && i == tx) || (r1 && i->block == r1) ||
          (r2 && i->block == r2))
         continue;
      return false;
   }
   xe_foreach_phi(m, i, j) {
      if (xe_nops(i) != 4 || !scfg_phi_value(i, pa) || !scfg_phi_value(i, pb) ||
          !selectable_type(m, i->type_id))
         return false;
   }
   if (c->dry) {
      c->plain_candidates++;
      return false;
   }
   /* The rewrite. */
   xe_block *sides[2] = { r1, r2 };
   for (int s = 0; s < 2; s++) {
      if (!sides[s])
         continue;
      xe_inst *st = xe_block_terminator(sides[s]);
      for (xe_inst *i = sides[s]->insts.first, *nx; i && i != st; i = nx) {
         nx = i->next;
         scfg_hoist(m, i, tx);
      }
   }
   uint32_t cond = xe_op(tx, 0);
   xe_builder bld = xe_builder_before(m, tx);
   xe_foreach_phi_safe(m, i, nx, j) {
      uint32_t sel = xe_build3(&bld, SpvOpSelect, i->type_id, cond, scfg_phi_value(i, pa),
                               scfg_phi_value(i, pb));
      xe_replace_all_uses(m, i->result_id, sel);
      const char *name = xe_name(m, i->result_id);
      if (name)
         xe_set_name(m, sel, name);
      xe_inst_kill(m, i);
   }
   xe_terminator_to_branch(m, tx, jid);
   /* r1, r2 keep only their branches, with no predecessor: deleted next. */
   c->selects++;
   return true;
}

bool scfg_select_all(simplify *c)
{
   bool changed = false;
   xe_foreach_block(b, c->f)
      changed |= select_block(c, b);
   return changed;
}

