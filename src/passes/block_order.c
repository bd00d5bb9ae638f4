/*
 * block-order: write every block after its immediate dominator.
 *
 * SPIR-V 2.16.1 requires the order of blocks in a function to satisfy
 * "a block appears before all blocks it dominates".  llvm-spirv-15 can
 * break this (IGC does not care; spirv-val does).  The pass keeps the
 * original order wherever it is already fine: blocks are taken in input
 * order and a block whose dominator has not been written yet waits until
 * it has, so a valid function is left exactly as it was.
 *
 * Host contract: none.  Semantics: unchanged (block order carries no
 * meaning in SPIR-V beyond this rule).
 */
#include <stdlib.h>

#include "cfg.h"
#include "passes.h"

/* Places b and then every waiting block whose dominator is now placed. */
static void place(const xe_cfg *c, uint32_t b, uint8_t *placed, uint32_t *order, uint32_t *n)
{
   uint32_t *stack = malloc(c->n * sizeof(uint32_t));
   uint32_t sp = 0;
   stack[sp++] = b;
   while (sp) {
      uint32_t x = stack[--sp];
      placed[x] = 1;
      order[(*n)++] = x;
      /* Waiting children of x, in input order: push in reverse. */
      for (uint32_t k = c->n; k-- > 0;) {
         if (!placed[k] && k != x && c->idom[k] == x && placed[k] == 0)
            placed[k] = 2; /* mark as pending so it is not pushed twice */
      }
      for (uint32_t k = c->n; k-- > 0;) {
         if (placed[k] == 2 && c->idom[k] == x)
            stack[sp++] = k;
      }
   }
   free(stack);
}

/* Orders f, a function of two or more blocks whose layout facts do not
 * already show it in order. */
static bool order_function(xe_function *f)
{
   const xe_cfg *c = xe_function_cfg(f);
   if (c->n < 2)
      return false;
   bool ok = true;
   for (uint32_t b = 1; b < c->n && ok; b++)
      ok = c->idom[b] == XE_NONE || c->idom[b] < b;
   if (ok)
      return false;

   /* placed: 0 = not yet, 1 = written, 2 = waiting for its dominator
    * and released by it. */
   uint8_t *placed = calloc(c->n, 1);
   uint32_t *order = malloc(c->n * sizeof(uint32_t));
   uint32_t n = 0;
   for (uint32_t b = 0; b < c->n; b++) {
      if (placed[b])
         continue;
      uint32_t d = c->idom[b];
      if (b == 0 || d == XE_NONE || placed[d] == 1)
         place(c, b, placed, order, &n);
      /* else: b waits; its dominator releases it when written. */
   }
   xe_block **blocks = malloc(c->n * sizeof(xe_block *));
   for (uint32_t k = 0; k < c->n; k++)
      blocks[k] = c->blocks[k];
   for (uint32_t k = 0; k < n; k++)
      xe_block_unlink(f, blocks[order[k]]);
   for (uint32_t k = 0; k < n; k++)
      xe_block_insert(f, NULL, blocks[order[k]]);
   free(blocks);
   free(order);
   free(placed);
   return true;
}

bool xeopt_pass_block_order(xe_ctx *ctx)
{
   xe_module *m = ctx->module;
   xe_remarks *r = ctx->remarks;
   bool progress = false;
   /* Functions already in order (nearly all) are told by their layout
    * facts, remembered on the function or read from its terminators,
    * without reading or building a dominator tree.  The others' CFGs and
    * OpFunctions are asked for two functions ahead, so that their cache
    * misses overlap: at a few thousand kernels those misses were most of
    * the pass's time. */
   xe_function **todo = NULL;
   unsigned n = 0, cap = 0;
   xe_foreach_fn(f, m) {
      if (!f->first || f->first == f->last || xe_function_layout_facts(m, f).forward_reachable)
         continue;
      if (n == cap) {
         cap = cap ? 2 * cap : 16;
         todo = realloc(todo, cap * sizeof(*todo));
         if (!todo)
            xe_out_of_memory();
      }
      todo[n++] = f;
   }
   for (unsigned k = 0; k < n; k++) {
      if (k + 2 < n) {
         __builtin_prefetch(todo[k + 2]->cache[XE_FN_CFG].data);
         __builtin_prefetch(todo[k + 2]->def);
      }
      xe_function *f = todo[k];
      if (!order_function(f))
         continue;
      progress = true;
      const char *name = xe_name(m, xe_function_id(f));
      xe_remark(r, name, XE_REMARK_APPLIED,
                "reordered the blocks of function %s so each follows its dominator",
                name ? name : "(unnamed)");
   }
   free(todo);
   return progress;
}
