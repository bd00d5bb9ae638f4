/*
 * Natural loops from back edges (an edge b -> h where h dominates b), with
 * the loops sharing a header merged, as in the Dragon book.  Kernel
 * modules carry no OpLoopMerge, so this is the only way to see loops.
 *
 * For each loop it also recognises the simple induction variable clang
 * emits at -O2:  header: %i = OpPhi %init %pre %next %latch;
 * latch or header: %next = OpIAdd %i %step; a compare of %i or %next
 * against a bound deciding the branch that leaves the loop.
 */
#include <stdlib.h>
#include <string.h>

#include "cfg.h"

static void *xalloc(size_t n)
{
   void *p = calloc(n ? n : 1, 1);
   if (!p)
      xe_out_of_memory();
   return p;
}

bool xe_loop_contains(const xe_loop *l, uint32_t block)
{
   uint32_t lo = 0, hi = l->nblocks;
   while (lo < hi) {
      uint32_t mid = (lo + hi) / 2;
      if (l->blocks[mid] == block)
         return true;
      if (l->blocks[mid] < block)
         lo = mid + 1;
      else
         hi = mid;
   }
   return false;
}

uint32_t xe_loop_of_block(const xe_loops *ls, uint32_t block)
{
   uint32_t best = XE_NONE;
   for (uint32_t k = 0; k < ls->n; k++) {
      if (xe_loop_contains(&ls->loops[k], block) &&
          (best == XE_NONE || ls->loops[k].depth > ls->loops[best].depth))
         best = k;
   }
   return best;
}

/* Body of the loop with header h and the given latches: every block that
 * reaches a latch without passing through h. */
static void loop_body(const xe_cfg *c, xe_loop *l, uint8_t *in)
{
   memset(in, 0, c->n);
   uint32_t *work = xalloc(c->n * sizeof(uint32_t));
   uint32_t nw = 0;
   in[l->header] = 1;
   for (uint32_t k = 0; k < l->nlatches; k++) {
      if (!in[l->latches[k]]) {
         in[l->latches[k]] = 1;
         work[nw++] = l->latches[k];
      }
   }
   while (nw) {
      uint32_t b = work[--nw];
      for (uint32_t p = c->pred_start[b]; p < c->pred_start[b + 1]; p++) {
         uint32_t q = c->pred[p];
         if (!in[q] && c->idom[q] != XE_NONE) {
            in[q] = 1;
            work[nw++] = q;
         }
      }
   }
   free(work);
   l->blocks = xalloc(c->n * sizeof(uint32_t));
   for (uint32_t b = 0; b < c->n; b++) {
      if (in[b])
         l->blocks[l->nblocks++] = b;
   }
   l->exits = xalloc(c->n * sizeof(uint32_t));
   for (uint32_t b = 0; b < c->n; b++) {
      if (!in[b])
         continue;
      for (uint32_t q = c->succ_start[b]; q < c->succ_start[b + 1]; q++) {
         uint32_t s = c->succ[q];
         bool dup = false;
         for (uint32_t e = 0; e < l->nexits; e++)
            dup |= l->exits[e] == s;
         if (!in[s] && !dup)
            l->exits[l->nexits++] = s;
      }
   }
   l->preheader = XE_NONE;
   for (uint32_t p = c->pred_start[l->header]; p < c->pred_start[l->header + 1]; p++) {
      uint32_t q = c->pred[p];
      if (in[q])
         continue;
      if (l->preheader != XE_NONE) {
         l->preheader = XE_NONE;
         break;
      }
      l->preheader = q;
   }
}

static bool is_compare(uint16_t op)
{
   switch (op) {
   case SpvOpIEqual: case SpvOpINotEqual:
   case SpvOpULessThan: case SpvOpULessThanEqual:
   case SpvOpUGreaterThan: case SpvOpUGreaterThanEqual:
   case SpvOpSLessThan: case SpvOpSLessThanEqual:
   case SpvOpSGreaterThan: case SpvOpSGreaterThanEqual:
      return true;
   default:
      return false;
   }
}

static void find_induction(xe_function *f, const xe_cfg *c, xe_loop *l)
{
   xe_module *m = f->module;
   if (l->preheader == XE_NONE || l->nlatches != 1)
      return;
   uint32_t pre_id = xe_block_id(c->blocks[l->preheader]);
   uint32_t latch_id = xe_block_id(c->blocks[l->latches[0]]);
   /* The only exit branch: one conditional branch in the loop with one
    * target outside. */
   xe_inst *exit_br = NULL;
   for (uint32_t k = 0; k < l->nblocks; k++) {
      xe_inst *t = xe_block_terminator(c->blocks[l->blocks[k]]);
      if (!t)
         return;
      for (uint32_t q = c->succ_start[l->blocks[k]]; q < c->succ_start[l->blocks[k] + 1]; q++) {
         if (!xe_loop_contains(l, c->succ[q])) {
            if (exit_br && exit_br != t)
               return; /* several exits */
            exit_br = t;
         }
      }
   }
   if (!exit_br || exit_br->opcode != SpvOpBranchConditional)
      return;
   xe_inst *cmp = xe_def(m, xe_op(exit_br, 0));
   if (!cmp || !is_compare(cmp->opcode))
      return;
   xe_foreach_phi(m, phi, c->blocks[l->header]) {
      uint32_t init = 0, next = 0;
      for (unsigned k = 0; k + 1 < xe_nops(phi); k += 2) {
         if (xe_op(phi, k + 1) == pre_id)
            init = xe_op(phi, k);
         else if (xe_op(phi, k + 1) == latch_id)
            next = xe_op(phi, k);
      }
      xe_inst *upd = xe_def(m, next);
      if (!init || !upd || (upd->opcode != SpvOpIAdd && upd->opcode != SpvOpISub))
         continue;
      uint32_t step;
      if (xe_op(upd, 0) == phi->result_id)
         step = xe_op(upd, 1);
      else if (upd->opcode == SpvOpIAdd && xe_op(upd, 1) == phi->result_id)
         step = xe_op(upd, 0);
      else
         continue;
      /* The step must be defined outside the loop. */
      xe_inst *sd = xe_def(m, step);
      if (sd && sd->block && sd->block->fn == f && xe_loop_contains(l, sd->block->index))
         continue;
      bool uses_iv = false;
      for (int k = 0; k < 2; k++)
         uses_iv |= xe_op(cmp, k) == phi->result_id || xe_op(cmp, k) == upd->result_id;
      if (!uses_iv)
         continue;
      l->iv = phi;
      l->iv_init = init;
      l->iv_next = upd;
      l->iv_step = step;
      l->exit_cmp = cmp;
      l->exit_branch = exit_br;
      return;
   }
}

static int by_size_desc(const void *a, const void *b)
{
   const xe_loop *x = a, *y = b;
   return x->nblocks < y->nblocks ? 1 : x->nblocks > y->nblocks ? -1 : 0;
}

static xe_loops *loops_build(xe_function *f)
{
   const xe_cfg *c = xe_function_cfg(f);
   xe_loops *ls = xalloc(sizeof(*ls));
   ls->loops = xalloc(c->n * sizeof(xe_loop));
   /* One loop per header with all its back edges. */
   for (uint32_t h = 0; h < c->n; h++) {
      if (c->idom[h] == XE_NONE)
         continue;
      xe_loop l = { .header = h };
      for (uint32_t p = c->pred_start[h]; p < c->pred_start[h + 1]; p++) {
         uint32_t q = c->pred[p];
         if (xe_dominates(c, h, q)) {
            if (!l.latches)
               l.latches = xalloc(c->n * sizeof(uint32_t));
            l.latches[l.nlatches++] = q;
         }
      }
      if (l.nlatches)
         ls->loops[ls->n++] = l;
   }
   uint8_t *in = xalloc(c->n);
   for (uint32_t k = 0; k < ls->n; k++)
      loop_body(c, &ls->loops[k], in);
   free(in);
   /* Outer loops first: an enclosing loop has strictly more blocks. */
   qsort(ls->loops, ls->n, sizeof(xe_loop), by_size_desc);
   for (uint32_t k = 0; k < ls->n; k++) {
      xe_loop *l = &ls->loops[k];
      l->parent = XE_NONE;
      l->depth = 1;
      for (uint32_t j = 0; j < k; j++) {
         if (xe_loop_contains(&ls->loops[j], l->header) && ls->loops[j].header != l->header &&
             (l->parent == XE_NONE || ls->loops[j].depth >= ls->loops[l->parent].depth)) {
            l->parent = j;
            l->depth = ls->loops[j].depth + 1;
         }
      }
      find_induction(f, c, l);
   }
   return ls;
}

static void loops_free(void *p)
{
   xe_loops *ls = p;
   if (!ls)
      return;
   for (uint32_t k = 0; k < ls->n; k++) {
      free(ls->loops[k].blocks);
      free(ls->loops[k].latches);
      free(ls->loops[k].exits);
   }
   free(ls->loops);
   free(ls);
}

const xe_loops *xe_function_loops(xe_function *f)
{
   if (!xe_fn_cache_valid(f, XE_FN_LOOPS))
      xe_fn_cache_set(f, XE_FN_LOOPS, loops_build(f), loops_free);
   return f->cache[XE_FN_LOOPS].data;
}

const char *xe_check_loops(xe_function *f)
{
   if (!xe_fn_cache_valid(f, XE_FN_LOOPS))
      return NULL;
   const xe_loops *c = f->cache[XE_FN_LOOPS].data;
   xe_loops *n = loops_build(f);
   const char *why = NULL;
   if (c->n != n->n)
      why = "the number of loops";
   for (uint32_t k = 0; !why && k < c->n; k++) {
      const xe_loop *a = &c->loops[k], *b = &n->loops[k];
      if (a->header != b->header || a->nblocks != b->nblocks ||
          memcmp(a->blocks, b->blocks, a->nblocks * sizeof(uint32_t)) || a->parent != b->parent ||
          a->preheader != b->preheader)
         why = "a loop's blocks";
      else if (a->iv != b->iv || a->iv_next != b->iv_next || a->iv_init != b->iv_init ||
               a->iv_step != b->iv_step || a->exit_cmp != b->exit_cmp ||
               a->exit_branch != b->exit_branch)
         why = "a loop's induction variable";
   }
   loops_free(n);
   return why;
}
