/*
 * subgroup-versioning: the region to version, with its candidates (the
 * collect step of pass.c's run_kernel).  A region a divergent guard in a
 * uniform block leads to comes first, else the whole kernel body; the
 * candidates and the region's legality are src/analysis/subgroup_region.h's.
 */
#include <string.h>

#include "cfg.h"
#include "subgroup_versioning.h"

/* Marks in c.in_r the blocks hi dominates; whether hi is the region's only
 * way in (every reachable predecessor of one of them is one too). */
static bool dominated_region(sgv_kernel *s, uint32_t hi)
{
   const xe_cfg *cfg = s->cfg;
   uint8_t *in_r = s->c.in_r;
   memset(in_r, 0, cfg->n);
   bool ok = true;
   for (uint32_t x = 0; x < cfg->n; x++)
      in_r[x] = cfg->rpo_index[x] != XE_NONE && xe_dominates(cfg, hi, x);
   for (uint32_t x = 0; x < cfg->n && ok; x++) {
      for (uint32_t e = cfg->pred_start[x]; in_r[x] && x != hi && e < cfg->pred_start[x + 1]; e++)
         ok &= in_r[cfg->pred[e]] || cfg->rpo_index[cfg->pred[e]] == XE_NONE;
   }
   return ok;
}

/* The region one side of the guard t (ending block bi) leads to: whether
 * it has candidates and is one the fast copy can be made of (the guard
 * then recorded in s); a remark when it is not. */
static bool try_guard(sgv_kernel *s, uint32_t bi, xe_inst *t, int side)
{
   const xe_cfg *cfg = s->cfg;
   vctx *c = &s->c;
   char why[200], nb[64];
   uint32_t hi = xe_cfg_block_index(cfg, xe_op(t, 1 + side));
   if (hi == XE_NONE || hi == 0 || cfg->pred_start[hi + 1] - cfg->pred_start[hi] != 1)
      return false;
   if (!dominated_region(s, hi))
      return false;
   c->b = bi;
   c->no_guard = false;
   xe_idtab_free(&c->hmemo);
   xe_lanes *le = xe_lanes_analyze_edge(s->m, s->f, s->k->subgroup_size, s->ls, 0,
                                        xe_block_id(cfg->blocks[bi]), xe_block_id(cfg->blocks[hi]));
   c->nc = 0;
   xe_sgv_collect(c, le, NULL, NULL);
   xe_lanes_free(le);
   if (!c->nc)
      return false;
   const char *rw = xe_sgv_region_why(c, why, sizeof(why));
   if (rw) {
      xe_remark(s->ctx->remarks, s->k->name, XE_REMARK_MISSED, "no fast copy of the region guarded by %s: %s",
                xe_id_text(s->m, xe_op(t, 0), nb, sizeof(nb)), rw);
      c->nc = 0;
      return false;
   }
   s->gb = bi, s->gh = hi, s->gcond = xe_op(t, 0), s->gtrue = side == 0;
   return true;
}

/* Guards first: a uniform block whose branch the lanes may disagree on.
 * Whether a guarded region was found. */
bool sgv_find_guarded_region(sgv_kernel *s)
{
   const xe_cfg *cfg = s->cfg;
   for (uint32_t q = 0; q < cfg->nrpo; q++) {
      uint32_t bi = cfg->rpo[q];
      xe_inst *t = xe_block_terminator(cfg->blocks[bi]);
      if (!t || t->opcode != SpvOpBranchConditional || !s->l0->uniform_block[bi] ||
          xe_lanes_fact(s->l0, xe_op(t, 0))->kind == XE_LANE_UNIFORM || xe_op(t, 1) == xe_op(t, 2))
         continue;
      for (int side = 0; side < 2; side++)
         if (try_guard(s, bi, t, side))
            return true;
   }
   return false;
}

/* No guard: the whole body after the entry's variables.  Whether it has
 * candidates and the fast copy can be made of it. */
bool sgv_whole_body_region(sgv_kernel *s)
{
   const xe_cfg *cfg = s->cfg;
   vctx *c = &s->c;
   char why[200];
   for (uint32_t x = 0; x < cfg->n; x++)
      c->in_r[x] = cfg->rpo_index[x] != XE_NONE;
   c->b = 0;
   c->no_guard = true;
   xe_idtab_free(&c->hmemo);
   c->nc = 0;
   xe_sgv_collect(c, s->l0, NULL, NULL);
   const char *rw = c->nc ? xe_sgv_region_why(c, why, sizeof(why)) : NULL;
   if (rw) {
      xe_remark(s->ctx->remarks, s->k->name, XE_REMARK_MISSED, "no fast copy of the kernel body: %s", rw);
      c->nc = 0;
   }
   s->gh = 0;
   return c->nc > 0;
}
