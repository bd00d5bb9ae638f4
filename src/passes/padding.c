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
 *    non-negative coefficients (src/analysis/affine.h); no atomics, barriers,
 *    group operations, calls, memory built-ins, or integer division by a
 *    non-constant (src/analysis/region.c);
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
 * Recognising guards, the proofs and narrowing are in
 * src/analysis/bounds_guard.c; this file reports, records the padding
 * each buffer needs and rewrites.
 *
 * A guard whose bound is loaded from kernel memory (hashcat's
 * `gid >= kernel_param->gid_max`) is not recognised: the padding formulas
 * are written in argument names the host knows.  It gets a remark
 * (xe_guard_loaded_bound) and stays.
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

#include "affine.h"
#include "bounds_guard.h"
#include "builder.h"
#include "cfg.h"
#include "launch_formula.h"
#include "passes.h"
#include "runner.h"
#include "region.h"

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
      /* Cleared on first use: a need is 2 KiB of formula, and clearing all
       * 64 per guard was a quarter of -O2's time at 400 kernels. */
      memset(&nd->size, 0, sizeof(nd->size));
      nd->used = true;
      nd->elem = a->elem;
      nd->min_bits = 64;
   }
   if (a->off.min_bits < nd->min_bits)
      nd->min_bits = a->off.min_bits;
   return xe_formula_max_add(&nd->size, &f);
}

/* The "padding" manifest entry of kind buffer for argument arg. */
static void add_need(xe_guard_ctx *c, const char *kernel, unsigned arg, const need *nd)
{
   unsigned nonneg[64];
   xe_mf_padding p = {
      .kind = XE_MF_BUFFER,
      .arg = arg,
      .name = c->names[arg],
      .element_size = (unsigned)xe_type_size(c->m, nd->elem),
      /* The proofs let padding values reach only padding. */
      .zero_fill = false,
      .distinct_allocation = true,
      .nonnegative_args = nonneg,
      .has_max_elements = nd->min_bits < 64,
      .max_elements = nd->min_bits < 64 ? 1ull << (nd->min_bits - 1) : 0,
   };
   xe_formula_max_record(&nd->size, c->names, &p.min_elements);
   bool seen[64] = { 0 };
   for (unsigned k = 0; k < nd->size.n; k++) {
      for (unsigned t = 0; t < nd->size.alt[k].n; t++) {
         int a = nd->size.alt[k].t[t].arg;
         if (a >= 0 && a < 64 && !seen[a]) {
            seen[a] = true;
            nonneg[p.nnonnegative++] = (unsigned)a;
         }
      }
   }
   xe_manifest_add_padding(c->m, kernel, &p);
   xe_mf_formula_free(&p.min_elements);
}

/* ---- driver ---- */

/* Deletes the guard's condition once nothing uses it, and the compares,
 * selects and logical operations that only fed it.  Not
 * xe_delete_if_dead, which would also take the other values only the
 * condition used (a conversion of a bound): the outputs keep them today. */
static void delete_dead_condition(xe_module *m, uint32_t id)
{
   xe_inst *d = xe_def(m, id);
   if (!d || !d->block)
      return;
   unsigned op = d->opcode;
   bool cond_op = op == SpvOpSelect || op == SpvOpLogicalAnd || op == SpvOpLogicalOr ||
                  op == SpvOpLogicalNot || (op >= SpvOpIEqual && op <= SpvOpSLessThanEqual);
   if (!cond_op || !xe_result_unused(m, id))
      return;
   uint32_t ops[3] = { 0 };
   unsigned k, nops = xe_nops(d) < 3 ? xe_nops(d) : 3;
   for (k = 0; k < nops; k++)
      ops[k] = xe_op(d, k);
   xe_inst_kill(m, d);
   for (k = 0; k < nops; k++)
      delete_dead_condition(m, ops[k]);
}

/* Makes the guard branch unconditional and drops J's phi entries from it. */
static void remove_guard(xe_guard_ctx *c, xe_guard *g)
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
   xe_terminator_to_branch(c->m, t, target);
   xe_phi_remove_pred(c->m, g->reg.out, xe_block_id(g->b));
   delete_dead_condition(c->m, g->cond);
   /* No xe_module_invalidate: the terminator was replaced through the edit
    * functions, which bump the body's cfg_gen, so run_kernel's next
    * xe_function_cfg rebuilds the CFG; the use lists are kept current. */
}

static void report(xe_guard_ctx *c, const char *kn, xe_guard *g, bool apply, xe_remarks *r,
                   need *needs)
{
   /* The remark spells the ids as OpenCL C does (a kernel argument may be
    * named x); the manifest keeps its documented short names. */
   char *cond = xe_guard_text(c, g, XE_AFF_SPELL_OPENCL);
   const char *file = NULL;
   uint32_t line = 0;
   char where[300] = "";
   if (xe_guard_line(c, g, &file, &line))
      snprintf(where, sizeof(where), " at %s:%u", file ? file : "?", line);
   need local[64];
   for (unsigned a = 0; a < 64; a++)
      local[a].used = false;
   bool fits = true;
   for (unsigned a = 0; a < g->reg.nacc; a++) {
      if (g->reg.acc[a].arg < 64)
         fits &= need_add(&local[g->reg.acc[a].arg], &g->reg.acc[a]);
   }
   if (!fits)
      snprintf(g->reg.why, sizeof(g->reg.why), "the padding formula is too complex");
   if (!g->proof || !fits) {
      xe_remark(r, kn, XE_REMARK_MISSED, "guard '%s'%s stays: %s", cond, where, g->reg.why);
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
      xe_remark(r, kn, XE_REMARK_NOTE,
                "could remove guard '%s'%s (%s%s) with --assume-padded if buffers were padded: %s",
                cond, where, g->proof, kept, buf);
   } else {
      xe_remark(r, kn, XE_REMARK_APPLIED, "removed guard '%s'%s (%s%s); buffers padded: %s",
                cond, where, g->proof, kept, buf);
      char *mcond = xe_guard_text(c, g, XE_AFF_SPELL_SHORT);
      xe_mf_padding e = {
         .kind = XE_MF_GUARD,
         .condition = mcond,
         .proof = g->proof,
         .narrowed = g->split ? g->split_why : NULL,
         .file = line ? (file ? file : "") : NULL,
         .line = line,
      };
      xe_manifest_add_padding(c->m, kn, &e);
      free(mcond);
      for (unsigned a = 0; a < g->reg.nacc; a++)
         need_add(&needs[g->reg.acc[a].arg], &g->reg.acc[a]);
   }
   free(buf);
   free(cond);
}

/* Fills c's parameters and their names (argN for an unnamed one, kept in
 * *fallback, malloc'd); false for a kernel of more than 64 arguments, which
 * the per-argument tables do not cover. */
static bool params_init(xe_guard_ctx *c, char (**fallback)[16])
{
   xe_foreach_inst(p, &c->f->params) {
      if (p->opcode == SpvOpFunctionParameter)
         c->nparams++;
   }
   if (c->nparams > 64)
      return false;
   c->param_ids = calloc(c->nparams + 1, sizeof(uint32_t));
   c->names = calloc(c->nparams + 1, sizeof(char *));
   *fallback = calloc(c->nparams + 1, 16);
   unsigned n = 0;
   xe_foreach_inst(p, &c->f->params) {
      if (p->opcode != SpvOpFunctionParameter)
         continue;
      c->param_ids[n] = p->result_id;
      c->names[n] = xe_name(c->m, p->result_id);
      if (!c->names[n]) {
         snprintf((*fallback)[n], 16, "arg%u", n);
         c->names[n] = (*fallback)[n];
      }
      n++;
   }
   return true;
}

/* Parses the branch t of block b as a guard and sets its region, into a
 * new g (NULL when t is no guard: a bounds check on a loaded bound gets
 * its remark here). */
static xe_guard *guard_of(xe_guard_ctx *c, xe_kernel *k, xe_block *b, xe_inst *t, xe_remarks *r)
{
   xe_guard *g = calloc(1, sizeof(*g));
   g->b = b;
   bool in_true;
   if (!xe_guard_parse_cond(c, xe_op(t, 0), g, &in_true, 0)) {
      free(g);
      /* A bounds check all the same: say why it stays. */
      char *lb = xe_guard_loaded_bound(c, xe_op(t, 0));
      if (lb)
         xe_remark(r, k->name, XE_REMARK_MISSED, "guard '%s' stays: its bound is loaded from "
                   "memory, and padding needs a bound computed from scalar kernel arguments", lb);
      free(lb);
      return NULL;
   }
   g->in_when_true = in_true;
   g->cond = xe_op(t, 0);
   uint32_t si = xe_cfg_block_index(c->cfg, xe_op(t, in_true ? 1 : 2));
   uint32_t ji = xe_cfg_block_index(c->cfg, xe_op(t, in_true ? 2 : 1));
   if (si == XE_NONE || ji == XE_NONE) {
      free(g);
      return NULL;
   }
   g->reg.in = c->cfg->blocks[si];
   g->reg.out = c->cfg->blocks[ji];
   return g;
}

/* Tries the block labelled label as a guard: analyses, reports and (when
 * apply and a proof holds) removes it.  Returns whether it removed one. */
static bool try_block(xe_guard_ctx *c, xe_kernel *k, uint32_t label, bool apply, xe_remarks *r,
                      need *needs)
{
   c->cfg = xe_function_cfg(c->f);
   uint32_t bi = xe_cfg_block_index(c->cfg, label);
   if (bi == XE_NONE || c->cfg->rpo_index[bi] == XE_NONE)
      return false;
   xe_block *b = c->cfg->blocks[bi];
   xe_inst *t = xe_block_terminator(b);
   if (!t || t->opcode != SpvOpBranchConditional)
      return false;
   /* Its tables are sized by the module's ids: made only for kernels
    * with a candidate, so a module of many kernels stays linear. */
   if (!c->aff)
      c->aff = xe_affine_create(c->m, c->f);
   xe_guard *g = guard_of(c, k, b, t, r);
   if (!g)
      return false;
   bool ok = xe_guard_analyze(c, g);
   if (ok && apply && k->body_callers > 1) {
      ok = false;
      snprintf(g->reg.why, sizeof(g->reg.why), "the kernel body is shared with other kernels");
      g->proof = NULL;
   }
   if (!ok)
      g->proof = NULL;
   report(c, k->name, g, apply, r, needs);
   bool removed = ok && apply && g->proof;
   if (removed)
      remove_guard(c, g);
   xe_region_free(&g->reg);
   free(g);
   return removed;
}

static bool run_kernel(xe_module *m, xe_kernel *k, bool apply, xe_remarks *r)
{
   xe_guard_ctx c = { .m = m, .f = k->body };
   char (*fallback)[16] = NULL;
   if (!params_init(&c, &fallback))
      return false;
   need needs[64];
   for (unsigned a = 0; a < 64; a++)
      needs[a].used = false;

   /* Candidate guards by label, in block order; the CFG is rebuilt after
    * each removal (blocks stay, so labels stay valid). */
   uint32_t *labels = NULL;
   unsigned nl = 0;
   xe_foreach_block(b, c.f) {
      labels = realloc(labels, (nl + 1) * sizeof(uint32_t));
      labels[nl++] = xe_block_id(b);
   }
   bool progress = false;
   for (unsigned q = 0; q < nl; q++)
      progress |= try_block(&c, k, labels[q], apply, r, needs);
   for (unsigned a = 0; a < c.nparams; a++) {
      if (needs[a].used)
         add_need(&c, k->name, a, &needs[a]);
   }
   free(labels);
   xe_affine_free(c.aff);
   free(fallback);
   free((void *)c.names);
   free(c.param_ids);
   return progress;
}

static bool run_one(xe_ctx *ctx, xe_kernel *k, void *data)
{
   (void)data;
   bool apply = xe_options_kernel_listed(&ctx->options->assume_padded, k->name);
   return run_kernel(ctx->module, k, apply, ctx->remarks);
}

bool xeopt_pass_padding(xe_ctx *ctx)
{
   return xe_for_each_kernel(ctx, &(xe_kernel_walk){ .run = run_one });
}
