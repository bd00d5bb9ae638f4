/*
 * padding: remove bounds-check branches when the host pads its buffers.
 *
 * Guide: "pad the buffer to remove condition checks" (REWRITES.md §1).
 * Kernels launched on a rounded-up NDRange guard their work with
 * `if (i < n) {...}` or `if (i >= n) return;`.  If every buffer the guarded
 * region touches is allocated past the largest index the launch can
 * produce, the excluded work-items (E) may run the region too, and the
 * host-visible results of the others (G) stay as they were, provided:
 *
 *  - the region is single-entry, loop-free, and leaves only to the guard's
 *    other successor J (or returns); no value of J's phis is used;
 *  - every access in it is a load or store through a kernel argument
 *    (CrossWorkgroup pointer) at an element offset affine in the ids with
 *    non-negative coefficients (src/affine.h); no atomics, barriers,
 *    group operations, calls, memory built-ins, or integer division by a
 *    non-constant (src/region.c);
 *  - buffers the region stores to are used nowhere else in the kernel;
 *  - and one of two proofs holds:
 *    disjoint:    the guard is a threshold on one id v and every access to
 *                 a stored buffer is s·v + c with one constant s > 0; then
 *                 E's stores (v >= t) land above every address G touches
 *                 when c_store + s > c_access for all pairs.  E's loads read
 *                 padding and feed only E's stores.
 *    same_index:  every offset is α·k + β for one affine k (the first store's
 *                 offset), each stored buffer has one store offset, no
 *                 loaded buffer is written anywhere in the kernel, and every
 *                 stored value and branch condition in the region depends
 *                 on the ids only through k.  An E item either stores where
 *                 no G item stores (padding) or repeats exactly the store of
 *                 the G item with the same k (same value, same address).
 *                 This covers `out[y*w + x] = f(in[y*w + x])` under a 2-D
 *                 guard, where x >= w aliases the next row.
 *
 * When the region fails as a whole, the guard may be narrowed: kept only
 * on a branch inside the region whose other side goes to J (try_narrow).
 *
 * Rewrite: the guard branch becomes OpBranch to the region, J's phis lose
 * their entry from the guard block, the condition is deleted when unused.
 *
 * Host contract (only with --assume-padded[=K,...]; otherwise remarks
 * only): buffer sizes per the "padding" manifest section, buffer arguments
 * in distinct allocations, argument values used as strides non-negative,
 * and indices below 2^31 where 32-bit arithmetic computes them.  See
 * docs/manifest.md.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "affine.h"
#include "builder.h"
#include "cfg.h"
#include "idmap.h"
#include "launch_formula.h"
#include "passes.h"
#include "region.h"

#define MAX_LEAF 4

/* A bounds-check compare: `expr < bound` in the in-bounds direction. */
typedef struct leaf {
   const xe_affine *expr, *bound;
   const char *op;
} leaf;

typedef struct guard {
   xe_block *b;                /* the block ending in the guard */
   unsigned nleaf;
   leaf leaves[MAX_LEAF];
   /* in = the in-bounds successor, out = the other one (the merge J);
    * why says why the guard must stay */
   xe_region reg;
   const char *proof;          /* "disjoint" / "same_index" */
   bool in_when_true;          /* the guard branches in bounds when cond is true */
   uint32_t cond;              /* the guard's condition */
   /* Narrowing: the guard stays on the edge split -> split_to (a part of
    * the region with effects the excluded items must not have). */
   xe_block *split, *split_to;
   char split_why[256];
} guard;

typedef struct kctx {
   xe_module *m;
   xe_kernel *k;
   xe_function *f;
   const xe_cfg *cfg;
   xe_affine_ctx *aff;
   unsigned nparams;
   const char **names;         /* argument names */
   uint32_t *param_ids;
} kctx;

/* ---- guards ---- */

static bool parse_compare(kctx *c, uint32_t id, leaf *l, bool *in_when_true)
{
   const xe_inst *i = xe_def(c->m, id);
   if (!i || xe_nops(i) != 2)
      return false;
   const xe_affine *a = xe_affine_of(c->aff, xe_op(i, 0)), *b = xe_affine_of(c->aff, xe_op(i, 1));
   if (!a || !b)
      return false;
   /* The relation as `expr R bound` with expr the side that varies. */
   int rel; /* 0 <, 1 <=, 2 >, 3 >= */
   switch (i->opcode) {
   case SpvOpSLessThan: case SpvOpULessThan: rel = 0; break;
   case SpvOpSLessThanEqual: case SpvOpULessThanEqual: rel = 1; break;
   case SpvOpSGreaterThan: case SpvOpUGreaterThan: rel = 2; break;
   case SpvOpSGreaterThanEqual: case SpvOpUGreaterThanEqual: rel = 3; break;
   default: return false;
   }
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
   static const char *const in_rel[] = { "<", "<=", "<=", "<" };
   l->op = in_rel[rel];
   /* Only increasing expressions of the ids: then the guard is a threshold
    * and the excluded items are the ones with the larger ids. */
   return xe_affine_nonneg(l->expr);
}

/* A guard condition: one compare, or compares joined by && (in bounds
 * when true) or || (in bounds when false), as OpLogicalAnd/Or or the
 * OpSelect clang emits for them. */
static bool parse_cond(kctx *c, uint32_t id, guard *g, bool *in_when_true, int depth)
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
      if (g->nleaf == MAX_LEAF || !parse_compare(c, id, &g->leaves[g->nleaf], in_when_true))
         return false;
      g->nleaf++;
      return true;
   }
   bool s1, s2;
   if (!parse_cond(c, x, g, &s1, depth + 1) || !parse_cond(c, y, g, &s2, depth + 1))
      return false;
   /* in-bounds = all of them (&& of "in when true"), or none of the
    * out-of-bounds tests (|| of "in when false"). */
   if (s1 != s2 || s1 != is_and)
      return false;
   *in_when_true = s1;
   return true;
}

static char *guard_text(kctx *c, const guard *g)
{
   char *buf = NULL;
   size_t len = 0;
   FILE *f = open_memstream(&buf, &len);
   for (unsigned k = 0; k < g->nleaf; k++) {
      char *e = xe_affine_str(g->leaves[k].expr, c->names);
      char *b = xe_affine_str(g->leaves[k].bound, c->names);
      fprintf(f, "%s%s %s %s", k ? " && " : "", e, g->leaves[k].op, b);
      free(e);
      free(b);
   }
   fclose(f);
   return buf;
}

/* The source line of the guard: the last OpLine before its terminator. */
static bool guard_line(kctx *c, const guard *g, const char **file, uint32_t *line)
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
static bool prove_disjoint(kctx *c, guard *g, char *why, size_t n)
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
static bool pure_in_k(kctx *c, guard *g, const xe_affine *k, uint32_t id, xe_idtab *memo)
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
static bool prove_same_index(kctx *c, guard *g, const uint8_t *stored, char *why, size_t n)
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
         char *s = xe_affine_str(&ac->off, c->names);
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

/* ---- the padding each buffer needs ---- */

typedef struct need {
   bool used;
   uint32_t elem;
   xe_formula_max size;
   unsigned min_bits;
} need;

static bool need_add(need *nd, const xe_access *a)
{
   xe_formula f;
   if (!xe_formula_min_elements(&a->off, &f))
      return false;
   if (!nd->used) {
      nd->used = true;
      nd->elem = a->elem;
      nd->min_bits = 64;
   }
   if (a->off.min_bits < nd->min_bits)
      nd->min_bits = a->off.min_bits;
   return xe_formula_max_add(&nd->size, &f);
}

static cJSON *need_json(kctx *c, int arg, const need *nd)
{
   cJSON *e = cJSON_CreateObject();
   cJSON_AddStringToObject(e, "kind", "buffer");
   cJSON_AddNumberToObject(e, "arg", arg);
   cJSON_AddStringToObject(e, "name", c->names[arg]);
   cJSON_AddNumberToObject(e, "element_size", (double)xe_type_size(c->m, nd->elem));
   cJSON_AddItemToObject(e, "min_elements", xe_formula_max_json(&nd->size, c->names));
   /* The proofs let padding values reach only padding. */
   cJSON_AddBoolToObject(e, "zero_fill", false);
   cJSON_AddBoolToObject(e, "distinct_allocation", true);
   cJSON *req = cJSON_AddObjectToObject(e, "requires");
   cJSON *nn = cJSON_AddArrayToObject(req, "nonnegative_args");
   bool seen[64] = { 0 };
   for (unsigned k = 0; k < nd->size.n; k++) {
      for (unsigned t = 0; t < nd->size.alt[k].n; t++) {
         int a = nd->size.alt[k].t[t].arg;
         if (a >= 0 && a < 64 && !seen[a]) {
            seen[a] = true;
            cJSON_AddItemToArray(nn, cJSON_CreateNumber(a));
         }
      }
   }
   if (nd->min_bits < 64)
      cJSON_AddNumberToObject(req, "max_elements", (double)(1ull << (nd->min_bits - 1)));
   return e;
}

/* ---- driver ---- */

/* The proofs for the blocks currently in g->reg.blocks. */
static bool try_region(kctx *c, guard *g)
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
static bool try_narrow(kctx *c, guard *g)
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

static bool analyze(kctx *c, guard *g)
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

/* Deletes the guard's condition once nothing uses it, and the compares,
 * selects and logical operations that only fed it. */
static void delete_dead_condition(xe_module *m, uint32_t id)
{
   xe_inst *d = xe_def(m, id);
   if (!d || !d->block)
      return;
   unsigned op = d->opcode;
   bool cond_op = op == SpvOpSelect || op == SpvOpLogicalAnd || op == SpvOpLogicalOr ||
                  op == SpvOpLogicalNot || (op >= SpvOpIEqual && op <= SpvOpSLessThanEqual);
   if (!cond_op)
      return;
   uint32_t n = 0, real = 0;
   xe_module_invalidate(m);
   const xe_use *u = xe_uses(m, id, &n);
   for (uint32_t k = 0; k < n; k++)
      real += u[k].inst->opcode != SpvOpName && u[k].inst->opcode != SpvOpDecorate;
   if (real)
      return;
   xe_inst *names[8];
   unsigned nn = 0;
   for (uint32_t k = 0; k < n && nn < 8; k++)
      names[nn++] = u[k].inst;
   for (unsigned k = 0; k < nn; k++)
      xe_inst_delete(m, names[k]);
   uint32_t ops[3] = { 0 };
   unsigned k, nops = xe_nops(d) < 3 ? xe_nops(d) : 3;
   for (k = 0; k < nops; k++)
      ops[k] = xe_op(d, k);
   xe_inst_delete(m, d);
   for (k = 0; k < nops; k++)
      delete_dead_condition(m, ops[k]);
}

/* Makes the guard branch unconditional and drops J's phi entries from it. */
static void remove_guard(kctx *c, guard *g)
{
   if (g->split) {
      /* X -> T now needs the guard too: c && in (T the true target) or
       * c || !in (T the false target). */
      xe_inst *xt = xe_block_terminator(g->split);
      bool t_true = xe_op(xt, 1) == xe_block_id(g->split_to);
      xe_builder bld = xe_builder_before(c->m, xt);
      uint32_t bt = xe_type_bool(c->m);
      bool need_in = t_true;
      uint32_t gc = g->cond;
      if (g->in_when_true != need_in)
         gc = xe_build1(&bld, SpvOpLogicalNot, bt, gc);
      uint32_t nc = xe_build2(&bld, t_true ? SpvOpLogicalAnd : SpvOpLogicalOr, bt, xe_op(xt, 0), gc);
      xe_set_op(xt, 0, nc);
   }
   xe_inst *t = xe_block_terminator(g->b);
   uint32_t target = xe_block_id(g->reg.in);
   xe_inst *br = xe_inst_create(SpvOpBranch, 0, 0, &target, 1, NULL);
   xe_list_insert_before(c->m, t, br);
   xe_inst_delete(c->m, t);
   uint32_t from = xe_block_id(g->b);
   xe_foreach_inst(i, &g->reg.out->insts) {
      if (i->opcode != SpvOpPhi)
         continue;
      uint32_t ops[256];
      uint8_t kinds[256];
      unsigned n = 0;
      for (unsigned k = 0; k + 1 < xe_nops(i) && n + 2 <= 256; k += 2) {
         if (xe_op(i, k + 1) == from)
            continue;
         ops[n] = xe_op(i, k);
         ops[n + 1] = xe_op(i, k + 1);
         kinds[n] = kinds[n + 1] = XE_W_ID;
         n += 2;
      }
      xe_set_ops(i, ops, n, kinds);
   }
   delete_dead_condition(c->m, g->cond);
   xe_module_invalidate(c->m);
}

static void report(kctx *c, guard *g, bool apply, xe_remarks *r, need *needs)
{
   char *cond = guard_text(c, g);
   const char *file = NULL;
   uint32_t line = 0;
   char where[300] = "";
   if (guard_line(c, g, &file, &line))
      snprintf(where, sizeof(where), " at %s:%u", file ? file : "?", line);
   need local[64];
   memset(local, 0, sizeof(local));
   bool fits = true;
   for (unsigned a = 0; a < g->reg.nacc; a++) {
      if (g->reg.acc[a].arg < 64)
         fits &= need_add(&local[g->reg.acc[a].arg], &g->reg.acc[a]);
   }
   if (!fits)
      snprintf(g->reg.why, sizeof(g->reg.why), "the padding formula is too complex");
   if (!g->proof || !fits) {
      xe_remark(r, c->k->name, XE_REMARK_MISSED, "guard '%s'%s stays: %s", cond, where, g->reg.why);
      free(cond);
      return;
   }
   char kept[400] = "";
   if (g->split) {
      const char *to = xe_name(c->m, xe_block_id(g->split_to));
      snprintf(kept, sizeof(kept), ", kept on the branch to %s%s%.0u because of: %s",
               to ? "" : "%", to ? to : "", to ? 0 : xe_block_id(g->split_to), g->split_why);
   }
   char *buf = NULL;
   size_t len = 0;
   FILE *f = open_memstream(&buf, &len);
   bool first = true;
   for (unsigned a = 0; a < c->nparams && a < 64; a++) {
      if (!local[a].used)
         continue;
      char *t = xe_formula_max_text(&local[a].size, c->names);
      fprintf(f, "%s%s (arg %u) to %s elements", first ? "" : ", ", c->names[a], a, t);
      free(t);
      first = false;
   }
   fclose(f);
   if (!apply) {
      xe_remark(r, c->k->name, XE_REMARK_NOTE,
                "could remove guard '%s'%s (%s%s) with --assume-padded if buffers were padded: %s",
                cond, where, g->proof, kept, buf);
   } else {
      xe_remark(r, c->k->name, XE_REMARK_APPLIED, "removed guard '%s'%s (%s%s); buffers padded: %s",
                cond, where, g->proof, kept, buf);
      cJSON *e = cJSON_CreateObject();
      cJSON_AddStringToObject(e, "kind", "guard");
      cJSON_AddStringToObject(e, "condition", cond);
      cJSON_AddStringToObject(e, "proof", g->proof);
      if (g->split)
         cJSON_AddStringToObject(e, "narrowed", g->split_why);
      if (line) {
         cJSON_AddStringToObject(e, "file", file ? file : "");
         cJSON_AddNumberToObject(e, "line", line);
      }
      xe_manifest_add(c->m, c->k->name, "padding", e);
      for (unsigned a = 0; a < g->reg.nacc; a++)
         need_add(&needs[g->reg.acc[a].arg], &g->reg.acc[a]);
   }
   free(buf);
   free(cond);
}

static bool run_kernel(xe_module *m, xe_kernel *k, bool apply, xe_remarks *r)
{
   kctx c = { .m = m, .k = k, .f = k->body };
   xe_foreach_inst(p, &c.f->params) {
      if (p->opcode == SpvOpFunctionParameter)
         c.nparams++;
   }
   if (c.nparams > 64)
      return false;
   c.param_ids = calloc(c.nparams + 1, sizeof(uint32_t));
   c.names = calloc(c.nparams + 1, sizeof(char *));
   char (*fallback)[16] = calloc(c.nparams + 1, 16);
   unsigned n = 0;
   xe_foreach_inst(p, &c.f->params) {
      if (p->opcode != SpvOpFunctionParameter)
         continue;
      c.param_ids[n] = p->result_id;
      c.names[n] = xe_name(m, p->result_id);
      if (!c.names[n]) {
         snprintf(fallback[n], 16, "arg%u", n);
         c.names[n] = fallback[n];
      }
      n++;
   }
   need needs[64];
   memset(needs, 0, sizeof(needs));

   /* Candidate guards by label, in block order; the CFG is rebuilt after
    * each removal (blocks stay, so labels stay valid). */
   uint32_t *labels = NULL;
   unsigned nl = 0;
   xe_foreach_block(b, c.f) {
      labels = realloc(labels, (nl + 1) * sizeof(uint32_t));
      labels[nl++] = xe_block_id(b);
   }
   bool progress = false;
   for (unsigned q = 0; q < nl; q++) {
      c.cfg = xe_function_cfg(c.f);
      uint32_t bi = xe_cfg_block_index(c.cfg, labels[q]);
      if (bi == XE_NONE || c.cfg->rpo_index[bi] == XE_NONE)
         continue;
      xe_block *b = c.cfg->blocks[bi];
      xe_inst *t = xe_block_terminator(b);
      if (!t || t->opcode != SpvOpBranchConditional)
         continue;
      /* Its tables are sized by the module's ids: made only for kernels
       * with a candidate, so a module of many kernels stays linear. */
      if (!c.aff)
         c.aff = xe_affine_create(m, c.f);
      guard *g = calloc(1, sizeof(*g));
      g->b = b;
      bool in_true;
      if (!parse_cond(&c, xe_op(t, 0), g, &in_true, 0)) {
         free(g);
         continue;
      }
      g->in_when_true = in_true;
      g->cond = xe_op(t, 0);
      uint32_t si = xe_cfg_block_index(c.cfg, xe_op(t, in_true ? 1 : 2));
      uint32_t ji = xe_cfg_block_index(c.cfg, xe_op(t, in_true ? 2 : 1));
      if (si == XE_NONE || ji == XE_NONE) {
         free(g);
         continue;
      }
      g->reg.in = c.cfg->blocks[si];
      g->reg.out = c.cfg->blocks[ji];
      bool ok = analyze(&c, g);
      if (ok && apply && k->body_callers > 1) {
         ok = false;
         snprintf(g->reg.why, sizeof(g->reg.why), "the kernel body is shared with other kernels");
         g->proof = NULL;
      }
      if (!ok)
         g->proof = NULL;
      report(&c, g, apply, r, needs);
      if (ok && apply && g->proof) {
         remove_guard(&c, g);
         progress = true;
      }
      xe_region_free(&g->reg);
      free(g);
   }
   for (unsigned a = 0; a < c.nparams; a++) {
      if (needs[a].used)
         xe_manifest_add(m, k->name, "padding", need_json(&c, a, &needs[a]));
   }
   free(labels);
   xe_affine_free(c.aff);
   free(fallback);
   free((void *)c.names);
   free(c.param_ids);
   return progress;
}

bool xeopt_pass_padding(xe_ctx *ctx)
{
   xe_module *m = ctx->module;
   const xe_options *opt = ctx->options;
   xe_remarks *r = ctx->remarks;
   unsigned nk = xe_kernels(m, NULL, 0);
   xe_kernel *ks = calloc(nk ? nk : 1, sizeof(*ks));
   xe_kernels(m, ks, nk);
   bool progress = false;
   for (unsigned k = 0; k < nk; k++) {
      if (!xe_kernel_rewritable(opt, ks[k].name))
         continue;
      bool apply = xe_options_kernel_listed(&opt->assume_padded, ks[k].name);
      progress |= run_kernel(m, &ks[k], apply, r);
   }
   free(ks);
   return progress;
}
