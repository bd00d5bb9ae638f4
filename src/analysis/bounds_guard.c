/*
 * Bounds-check guards (src/analysis/bounds_guard.h): recognising
 * `if (i < n)` conditions on the ids, and the two proofs that the
 * work-items a guard excludes may run the region it guards without
 * changing what the others compute, with the narrowing fallback.  The
 * padding pass (src/passes/padding.c) removes guards these proofs pass;
 * its header comment states the conditions and the host contract.
 *
 * Recognition: a guard condition is a compare `expr R bound`, with expr
 * affine and increasing in the ids and bound uniform (affine.h), or up to
 * XE_GUARD_MAX_LEAF compares joined by && (in bounds when true) or ||
 * (in bounds when false).  Proofs, on the region's accesses (region.h):
 *  - disjoint: the guard is a threshold on one id v and every access to a
 *    stored buffer is s*v + c with one s > 0, so the excluded items'
 *    stores land above every address the others touch;
 *  - same_index: every offset is a multiple of the first store's index k,
 *    loaded buffers are never written, and stored values and branches
 *    depend on the ids only through k, so an excluded item either stores
 *    into padding or repeats an included item's store exactly.
 * When the whole region fails, xe_guard_analyze tries to keep the guard on
 * one branch inside the region instead (try_narrow).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds_guard.h"
#include "idmap.h"

/* ---- recognition ---- */

/* An integer compare's relation: 0 <, 1 <=, 2 >, 3 >= (signed or
 * unsigned alike), -1 for any other opcode. */
static int compare_rel(SpvOp op)
{
   switch (op) {
   case SpvOpSLessThan: case SpvOpULessThan: return 0;
   case SpvOpSLessThanEqual: case SpvOpULessThanEqual: return 1;
   case SpvOpSGreaterThan: case SpvOpUGreaterThan: return 2;
   case SpvOpSGreaterThanEqual: case SpvOpUGreaterThanEqual: return 3;
   default: return -1;
   }
}

/* The in-bounds relation of `expr R bound` by compare_rel: expr < bound
 * is in bounds when true, expr >= bound when false. */
static const char *const IN_REL[] = { "<", "<=", "<=", "<" };

static bool parse_compare(xe_guard_ctx *c, uint32_t id, xe_guard_leaf *l, bool *in_when_true)
{
   const xe_inst *i = xe_def(c->m, id);
   if (!i || xe_nops(i) != 2)
      return false;
   const xe_affine *a = xe_affine_of(c->aff, xe_op(i, 0)), *b = xe_affine_of(c->aff, xe_op(i, 1));
   if (!a || !b)
      return false;
   /* The relation as `expr R bound` with expr the side that varies. */
   int rel = compare_rel(i->opcode); /* 0 <, 1 <=, 2 >, 3 >= */
   if (rel < 0)
      return false;
   bool av = !xe_affine_is_uniform(a), bv = !xe_affine_is_uniform(b);
   if (av == bv)
      return false;
   if (!av)
      rel ^= 2; /* n < i is i > n */
   l->expr = av ? a : b;
   l->bound = av ? b : a;
   /* In bounds: expr below bound, taken when the compare says so, or
    * when the negated compare (i >= n, i > n) is false. */
   *in_when_true = rel < 2;
   l->op = IN_REL[rel];
   /* Only increasing expressions of the ids: then the guard is a threshold
    * and the excluded items are the ones with the larger ids. */
   return xe_affine_nonneg(l->expr);
}

/* A guard condition: one compare, or compares joined by && (in bounds
 * when true) or || (in bounds when false), as OpLogicalAnd/Or or the
 * OpSelect clang emits for them. */
bool xe_guard_parse_cond(xe_guard_ctx *c, uint32_t id, xe_guard *g, bool *in_when_true,
                         int depth)
{
   const xe_inst *i = xe_def(c->m, id);
   if (!i || depth > 3)
      return false;
   uint32_t x, y;
   bool is_and;
   if (i->opcode == SpvOpLogicalAnd || i->opcode == SpvOpLogicalOr) {
      x = xe_op(i, 0);
      y = xe_op(i, 1);
      is_and = i->opcode == SpvOpLogicalAnd;
   } else if (i->opcode == SpvOpSelect && xe_def(c->m, xe_op(i, 2)) &&
              xe_def(c->m, xe_op(i, 2))->opcode == SpvOpConstantFalse) {
      x = xe_op(i, 0), y = xe_op(i, 1), is_and = true;       /* a ? b : false */
   } else if (i->opcode == SpvOpSelect && xe_def(c->m, xe_op(i, 1)) &&
              xe_def(c->m, xe_op(i, 1))->opcode == SpvOpConstantTrue) {
      x = xe_op(i, 0), y = xe_op(i, 2), is_and = false;      /* a ? true : b */
   } else {
      if (g->nleaf == XE_GUARD_MAX_LEAF || !parse_compare(c, id, &g->leaves[g->nleaf], in_when_true))
         return false;
      g->nleaf++;
      return true;
   }
   bool s1, s2;
   if (!xe_guard_parse_cond(c, x, g, &s1, depth + 1) || !xe_guard_parse_cond(c, y, g, &s2, depth + 1))
      return false;
   /* in-bounds = all of them (&& of "in when true"), or none of the
    * out-of-bounds tests (|| of "in when false"). */
   if (s1 != s2 || s1 != is_and)
      return false;
   *in_when_true = s1;
   return true;
}

/* A pointer the same in every lane: a parameter of the body, or constant
 * indices into one (whoever wrote the memory behind it). */
static bool param_pointer(xe_guard_ctx *c, uint32_t id, int depth)
{
   for (unsigned k = 0; k < c->nparams; k++) {
      if (c->param_ids[k] == id)
         return true;
   }
   const xe_inst *i = xe_def(c->m, id);
   if (!i || depth > 4 || (i->opcode != SpvOpAccessChain && i->opcode != SpvOpInBoundsAccessChain &&
                           i->opcode != SpvOpPtrAccessChain && i->opcode != SpvOpInBoundsPtrAccessChain))
      return false;
   for (unsigned k = 1; k < xe_nops(i); k++) {
      const xe_inst *x = xe_def(c->m, xe_op(i, k));
      if (!x || x->opcode != SpvOpConstant)
         return false;
   }
   return param_pointer(c, xe_op(i, 0), depth + 1);
}

char *xe_guard_loaded_bound(xe_guard_ctx *c, uint32_t id)
{
   const xe_inst *i = xe_def(c->m, id);
   if (!i || xe_nops(i) != 2)
      return NULL;
   int rel = compare_rel(i->opcode);
   if (rel < 0)
      return NULL;
   for (int side = 0; side < 2; side++) {
      const xe_affine *a = xe_affine_of(c->aff, xe_op(i, side));
      const xe_inst *ld = xe_def(c->m, xe_op(i, 1 - side));
      if (!a || xe_affine_is_uniform(a) || !xe_affine_nonneg(a) || !ld || ld->opcode != SpvOpLoad ||
          xe_affine_of(c->aff, xe_op(i, 1 - side)) || !param_pointer(c, xe_op(ld, 0), 0))
         continue;
      char *e = xe_affine_str(a, c->names, XE_AFF_SPELL_OPENCL), nb[64], *buf = NULL;
      if (asprintf(&buf, "%s %s load(%s)", e, IN_REL[side ? rel ^ 2 : rel],
                   xe_id_text(c->m, xe_op(ld, 0), nb, sizeof(nb))) < 0)
         buf = NULL;
      free(e);
      return buf;
   }
   return NULL;
}

char *xe_guard_text(xe_guard_ctx *c, const xe_guard *g, xe_aff_spelling sp)
{
   char *buf = NULL;
   size_t len = 0;
   FILE *f = open_memstream(&buf, &len);
   for (unsigned k = 0; k < g->nleaf; k++) {
      char *e = xe_affine_str(g->leaves[k].expr, c->names, sp);
      char *b = xe_affine_str(g->leaves[k].bound, c->names, sp);
      fprintf(f, "%s%s %s %s", k ? " && " : "", e, g->leaves[k].op, b);
      free(e);
      free(b);
   }
   fclose(f);
   return buf;
}

/* The source line of the guard: the last OpLine before its terminator. */
bool xe_guard_line(xe_guard_ctx *c, const xe_guard *g, const char **file, uint32_t *line)
{
   bool found = false;
   xe_foreach_inst(i, &g->b->insts) {
      if (i->opcode == SpvOpLine) {
         const xe_inst *s = xe_def(c->m, xe_op(i, 0));
         *file = s && s->opcode == SpvOpString ? xe_op_string(s, 0) : NULL;
         *line = xe_op(i, 1);
         found = true;
      } else if (i->opcode == SpvOpNoLine) {
         found = false;
      }
      if (xe_opcode_is_terminator(i->opcode))
         break;
   }
   if (found && *file && strrchr(*file, '/'))
      *file = strrchr(*file, '/') + 1;
   return found;
}

/* ---- the two proofs ---- */

/* The single var term of a, with a constant coefficient; -1 if none. */
static int single_var(const xe_affine *a, int64_t *coeff)
{
   int var = -1;
   for (unsigned k = 0; k < a->n; k++) {
      if (a->t[k].var < 0)
         continue;
      if (var >= 0 || a->t[k].arg >= 0)
         return -1;
      var = a->t[k].var;
      *coeff = a->t[k].coeff;
   }
   return var;
}

/* disjoint: see the header comment. */
static bool prove_disjoint(xe_guard_ctx *c, xe_guard *g, char *why, size_t n)
{
   int64_t gc;
   int v = g->nleaf == 1 ? single_var(g->leaves[0].expr, &gc) : -1;
   if (v < 0) {
      snprintf(why, n, "the guard is not a threshold on one id");
      return false;
   }
   for (unsigned s = 0; s < g->reg.nacc; s++) {
      const xe_access *st = &g->reg.acc[s];
      if (!st->store)
         continue;
      int64_t ss = 0;
      if (single_var(&st->off, &ss) != v || st->off.n > 2 ||
          (st->off.n == 2 && st->off.t[0].arg >= 0)) {
         snprintf(why, n, "the store index into %s is not `s*id + c` in the guarded id",
                  c->names[st->arg]);
         return false;
      }
      for (unsigned a = 0; a < g->reg.nacc; a++) {
         const xe_access *ac = &g->reg.acc[a];
         int64_t sa = 0;
         if (ac->arg != st->arg)
            continue;
         if (single_var(&ac->off, &sa) != v || sa != ss || ac->off.n > 2 ||
             (ac->off.n == 2 && ac->off.t[0].arg >= 0) ||
             xe_affine_const(&st->off) + ss <= xe_affine_const(&ac->off)) {
            snprintf(why, n, "stores to %s past the bound may hit elements in bounds",
                     c->names[st->arg]);
            return false;
         }
      }
   }
   return true;
}

enum { P_UNKNOWN, P_BUSY, P_YES, P_NO };

/* Does value id depend on the ids only through k (same_index)? */
static bool pure_in_k(xe_guard_ctx *c, xe_guard *g, const xe_affine *k, uint32_t id,
                      xe_idtab *memo)
{
   if (id >= c->m->bound)
      return false;
   uint32_t mv = xe_idtab_get(memo, id);
   if (mv == P_YES || mv == P_NO || mv == P_BUSY)
      return mv == P_YES;
   xe_inst *d = xe_def(c->m, id);
   if (!d)
      return false;
   xe_idtab_set(memo, id, P_BUSY);
   bool ok;
   const xe_affine *a = xe_affine_of(c->aff, id);
   int64_t al, be;
   if (!d->block) {
      ok = true; /* constants, globals, parameters: uniform */
      if (d->opcode == SpvOpVariable)
         ok = false;
   } else if (a) {
      ok = xe_affine_is_uniform(a) || xe_affine_ratio(a, k, &al, &be);
   } else if (d->opcode == SpvOpLoad) {
      /* Loads in the region are accesses whose index was checked. */
      uint32_t bi = xe_cfg_block_index(c->cfg, xe_block_id(d->block));
      ok = bi != XE_NONE && g->reg.blocks[bi];
      uint32_t sc = 0;
      const xe_inst *pd = xe_def(c->m, xe_op(d, 0));
      xe_pointee(c->m, pd ? pd->type_id : 0, &sc);
      ok = ok && sc == SpvStorageClassCrossWorkgroup;
   } else if (xe_pure_opcode(c->m, d) && d->opcode != SpvOpLine) {
      ok = true;
      for (unsigned q = 0; q < xe_nops(d) && ok; q++) {
         if (xe_op_kind(d, q) == XE_W_ID)
            ok = pure_in_k(c, g, k, xe_op(d, q), memo);
      }
   } else {
      ok = false;
   }
   xe_idtab_set(memo, id, ok ? P_YES : P_NO);
   return ok;
}

/* same_index: see the header comment. */
static bool prove_same_index(xe_guard_ctx *c, xe_guard *g, const uint8_t *stored, char *why,
                             size_t n)
{
   const xe_access *first = NULL;
   for (unsigned s = 0; s < g->reg.nacc && !first; s++)
      first = g->reg.acc[s].store ? &g->reg.acc[s] : NULL;
   if (!first) {
      snprintf(why, n, "no store to index by");
      return false;
   }
   xe_affine k;
   xe_affine cst;
   memset(&cst, 0, sizeof(cst));
   cst.min_bits = 64;
   int64_t c0 = xe_affine_const(&first->off);
   if (c0) {
      cst.n = 1;
      cst.t[0] = (xe_aff_term){ c0, XE_AFF_NONE, -1 };
   }
   xe_affine_sub(&k, &first->off, &cst);
   if (xe_affine_is_uniform(&k)) {
      snprintf(why, n, "the store to %s does not depend on the ids", c->names[first->arg]);
      return false;
   }
   for (unsigned a = 0; a < g->reg.nacc; a++) {
      const xe_access *ac = &g->reg.acc[a];
      int64_t al, be;
      if (!xe_affine_ratio(&ac->off, &k, &al, &be) || al <= 0) {
         char *s = xe_affine_str(&ac->off, c->names, XE_AFF_SPELL_OPENCL);
         snprintf(why, n, "index %s into %s is not a multiple of the store index", s,
                  c->names[ac->arg]);
         free(s);
         return false;
      }
      if (!ac->store && (stored[ac->arg] || xe_region_buffer_written(&g->reg, ac->arg))) {
         snprintf(why, n, "%s is both read and written", c->names[ac->arg]);
         return false;
      }
   }
   for (unsigned a = 0; a < g->reg.nacc; a++) {
      const xe_access *x = &g->reg.acc[a];
      for (unsigned b = 0; b < g->reg.nacc; b++) {
         if (x->store && g->reg.acc[b].store && x->arg == g->reg.acc[b].arg &&
             !xe_affine_equal(&x->off, &g->reg.acc[b].off)) {
            snprintf(why, n, "two different store indices into %s", c->names[x->arg]);
            return false;
         }
      }
   }
   xe_idtab memo_ids = { 0 }, *memo = &memo_ids;   /* sparse: not m->bound bytes per guard */
   bool ok = true;
   for (unsigned a = 0; a < g->reg.nacc && ok; a++) {
      if (g->reg.acc[a].store && !pure_in_k(c, g, &k, g->reg.acc[a].value, memo)) {
         snprintf(why, n, "a value stored to %s depends on the ids other than through its index",
                  c->names[g->reg.acc[a].arg]);
         ok = false;
      }
   }
   for (uint32_t b = 0; b < c->cfg->n && ok; b++) {
      xe_inst *t = g->reg.blocks[b] ? xe_block_terminator(c->cfg->blocks[b]) : NULL;
      /* A narrowed guard's branch sends excluded items to the merge. */
      if (t && t->block != g->split &&
          (t->opcode == SpvOpBranchConditional || t->opcode == SpvOpSwitch) &&
          !pure_in_k(c, g, &k, xe_op(t, 0), memo)) {
         snprintf(why, n, "a branch in the region depends on the ids other than through the index");
         ok = false;
      }
   }
   xe_idtab_free(memo);
   return ok;
}

/* The proofs for the blocks currently in g->reg.blocks. */
static bool try_region(xe_guard_ctx *c, xe_guard *g)
{
   xe_region *rg = &g->reg;
   rg->nacc = 0;
   if (!xe_region_scan(rg))
      return false;
   uint8_t *stored = calloc(c->nparams + 1, 1);
   for (unsigned a = 0; a < rg->nacc; a++)
      stored[rg->acc[a].arg] |= rg->acc[a].store;
   bool ok = xe_region_buffers_private(rg, stored);
   char why1[120] = "", why2[120] = "";
   if (ok) {
      if (prove_disjoint(c, g, why1, sizeof(why1)))
         g->proof = "disjoint";
      else if (prove_same_index(c, g, stored, why2, sizeof(why2)))
         g->proof = "same_index";
      else
         snprintf(rg->why, sizeof(rg->why), "%s; and %s", why1, why2);
      ok = g->proof != NULL;
   }
   free(stored);
   return ok;
}

/* Narrowing: clang folds `if (i < n) a[i] = ..; if (i < n && c) atomic..;`
 * into one region whose tail branches on c to the atomic or to the merge
 * J.  If the region without that tail passes, the guard can go from the
 * region and be kept on the tail's edge alone: the branch X -> T becomes
 * `c && in-bounds`.  Excluded items then leave X for J, as items with c
 * false do; T's blocks count as outside the region for the proofs. */
static bool try_narrow(xe_guard_ctx *c, xe_guard *g)
{
   xe_region *rg = &g->reg;
   const xe_cfg *cfg = c->cfg;
   uint8_t *full = malloc(cfg->n);
   memcpy(full, rg->blocks, cfg->n);
   uint32_t ji = xe_cfg_block_index(cfg, xe_block_id(rg->out));
   /* Deepest candidates first: they keep the guard on the least code. */
   for (uint32_t q = cfg->nrpo; q-- > 0;) {
      uint32_t x = cfg->rpo[q];
      xe_inst *t = full[x] ? xe_block_terminator(cfg->blocks[x]) : NULL;
      if (!t || t->opcode != SpvOpBranchConditional)
         continue;
      uint32_t s1 = xe_cfg_block_index(cfg, xe_op(t, 1)), s2 = xe_cfg_block_index(cfg, xe_op(t, 2));
      uint32_t tt = s1 == ji ? s2 : s2 == ji ? s1 : XE_NONE;
      if (tt == XE_NONE || tt == ji || !full[tt] ||
          cfg->pred_start[tt + 1] - cfg->pred_start[tt] != 1)
         continue;
      /* The tail: blocks of the region dominated by T; it may leave only
       * to J. */
      bool ok = true;
      for (uint32_t b = 0; b < cfg->n; b++) {
         rg->blocks[b] = full[b] && !xe_dominates(cfg, tt, b);
         for (uint32_t e = cfg->succ_start[b]; ok && full[b] && !rg->blocks[b] &&
                                               e < cfg->succ_start[b + 1]; e++)
            ok = cfg->succ[e] == ji || xe_dominates(cfg, tt, cfg->succ[e]);
      }
      g->split = cfg->blocks[x];
      g->split_to = cfg->blocks[tt];
      if (ok && try_region(c, g)) {
         free(full);
         return true;
      }
   }
   memcpy(rg->blocks, full, cfg->n);
   g->split = g->split_to = NULL;
   free(full);
   return false;
}

bool xe_guard_analyze(xe_guard_ctx *c, xe_guard *g)
{
   xe_region *rg = &g->reg;
   rg->m = c->m;
   rg->f = c->f;
   rg->cfg = c->cfg;
   rg->aff = c->aff;
   rg->nparams = c->nparams;
   rg->param_ids = c->param_ids;
   rg->names = c->names;
   if (!xe_region_collect(rg))
      return false;
   if (try_region(c, g))
      return true;
   snprintf(g->split_why, sizeof(g->split_why), "%s", rg->why);
   if (try_narrow(c, g))
      return true;
   snprintf(rg->why, sizeof(rg->why), "%s", g->split_why);
   return false;
}
