/*
 * CFG, dominator tree and natural loops, cached on the function.
 *
 * Dominators use the iterative algorithm of Cooper, Harvey and Kennedy over
 * reverse postorder; for the small CFGs of kernels it beats Lengauer-Tarjan
 * and is short enough to trust.  Unreachable blocks (llvm-spirv can leave
 * them) get no dominator and belong to no loop.
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

uint32_t xe_cfg_block_index(const xe_cfg *c, uint32_t label_id)
{
   /* The label's block knows its index (set when the CFG was built);
    * the check against blocks[] rejects another function's block. */
   if (!c->n)
      return XE_NONE;
   xe_inst *l = xe_def(c->blocks[0]->fn->module, label_id);
   if (!l || l->opcode != SpvOpLabel || !l->block)
      return XE_NONE;
   uint32_t b = l->block->index;
   if (b < c->n && c->blocks[b] == l->block)
      return b;
   /* A CFG the function has been rebuilt since (a pass still holding it):
    * the index belongs to the newer one. */
   for (b = 0; b < c->n; b++) {
      if (c->blocks[b] == l->block)
         return b;
   }
   return XE_NONE;
}

/* stack: 2 * c->n words, seen: c->n bytes, zeroed. */
static void dfs_postorder(xe_cfg *c, uint32_t *post, uint32_t *npost, uint32_t *stack,
                          uint8_t *seen)
{
   /* Iterative DFS: stack of (block, next successor position). */
   uint32_t sp = 0;
   stack[0] = 0;
   stack[1] = c->succ_start[0];
   seen[0] = 1;
   sp = 1;
   while (sp) {
      uint32_t b = stack[2 * (sp - 1)];
      uint32_t *pos = &stack[2 * (sp - 1) + 1];
      if (*pos < c->succ_start[b + 1]) {
         uint32_t s = c->succ[(*pos)++];
         if (!seen[s]) {
            seen[s] = 1;
            stack[2 * sp] = s;
            stack[2 * sp + 1] = c->succ_start[s];
            sp++;
         }
      } else {
         post[(*npost)++] = b;
         sp--;
      }
   }
}

static uint32_t intersect(const xe_cfg *c, uint32_t a, uint32_t b)
{
   while (a != b) {
      while (c->rpo_index[a] > c->rpo_index[b])
         a = c->idom[a];
      while (c->rpo_index[b] > c->rpo_index[a])
         b = c->idom[b];
   }
   return a;
}

static void compute_dominators(xe_cfg *c)
{
   for (uint32_t b = 0; b < c->n; b++)
      c->idom[b] = XE_NONE;
   if (!c->n)
      return;
   c->idom[0] = 0;
   bool changed = true;
   while (changed) {
      changed = false;
      for (uint32_t k = 1; k < c->nrpo; k++) {
         uint32_t b = c->rpo[k], nd = XE_NONE;
         for (uint32_t p = c->pred_start[b]; p < c->pred_start[b + 1]; p++) {
            uint32_t q = c->pred[p];
            if (c->idom[q] == XE_NONE)
               continue;
            nd = nd == XE_NONE ? q : intersect(c, q, nd);
         }
         if (nd != c->idom[b]) {
            c->idom[b] = nd;
            changed = true;
         }
      }
   }
}

/* The CFG is built for every function by most passes, again after each
 * pass that changes one: as a dozen arrays it was 15 malloc/free pairs a
 * build, 1.85 million at 16 MB, in free lists that grow cold with the
 * module.  So the CFG and its arrays are one block, its scratch another,
 * both sized from the terminators' successor operands (an upper bound on
 * the edges). */
static xe_cfg *cfg_build(xe_function *f)
{
   size_t n = 0, nedge = 0;
   xe_foreach_block(b, f) {
      unsigned first, step, ns;
      xe_terminator_successors(xe_block_terminator(b), &first, &step, &ns);
      n++;
      nedge += ns;
   }
   size_t head = (sizeof(xe_cfg) + sizeof(xe_block *) - 1) / sizeof(xe_block *) * sizeof(xe_block *);
   /* succ_start n + 1, succ nedge, pred_start n + 2, pred nedge + 1, rpo,
    * rpo_index, idom n each. */
   size_t words = (n + 1) + nedge + (n + 2) + (nedge + 1) + 3 * n;
   xe_cfg *c = xalloc(head + n * sizeof(xe_block *) + words * sizeof(uint32_t));
   c->n = (uint32_t)n;
   c->blocks = (xe_block **)((char *)c + head);
   uint32_t *w = (uint32_t *)(c->blocks + n);
   c->succ_start = w, w += n + 1;
   c->succ = w, w += nedge;
   c->pred_start = w, w += n + 2;
   c->pred = w, w += nedge + 1;
   c->rpo = w, w += n;
   c->rpo_index = w, w += n;
   c->idom = w;
   /* Scratch: last_from and post n words each, the DFS stack 2n, reach and
    * seen n bytes each. */
   uint32_t *last_from = xalloc(n * 4 * sizeof(uint32_t) + 2 * n);
   uint32_t *post = last_from + n, *stack = post + n;
   uint8_t *reach = (uint8_t *)(stack + 2 * n), *seen = reach + n;
   uint32_t k = 0;
   xe_foreach_block(b, f) {
      b->index = k;
      c->blocks[k++] = b;
   }
   uint32_t nsucc = 0;
   /* last_from[s] = b + 1 once s is a successor of b: O(1) duplicates.
    * The layout facts come for free on the way (branches.c): reach[b]
    * once a forward edge from a forward-reachable block enters b. */
   xe_layout_facts facts = { true, true };
   if (c->n)
      reach[0] = 1;
   for (uint32_t b = 0; b < c->n; b++) {
      facts.forward_reachable &= reach[b];
      const xe_inst *t = xe_block_terminator(c->blocks[b]);
      unsigned first, step, ns;
      xe_terminator_successors(t, &first, &step, &ns);
      c->succ_start[b] = nsucc;
      for (unsigned j = first; j < first + ns; j += step) {
         if (xe_op_kind(t, j) != XE_W_ID)
            continue;
         xe_inst *label = xe_def(f->module, xe_op(t, j));
         if (!label || label->opcode != SpvOpLabel || !label->block || label->block->fn != f)
            continue; /* not a block of this function: the validator reports it */
         uint32_t s = label->block->index;
         if (s <= b)
            facts.acyclic = false;
         else
            reach[s] |= reach[b];
         if (last_from[s] == b + 1)
            continue;
         last_from[s] = b + 1;
         c->succ[nsucc++] = s;
      }
   }
   xe_function_remember_layout_facts(f, facts);
   c->succ_start[c->n] = nsucc;
   /* Predecessors by counting. */
   for (uint32_t q = 0; q < nsucc; q++)
      c->pred_start[c->succ[q] + 2]++;
   for (uint32_t b = 0; b < c->n; b++)
      c->pred_start[b + 2] += c->pred_start[b + 1];
   for (uint32_t b = 0; b < c->n; b++) {
      for (uint32_t q = c->succ_start[b]; q < c->succ_start[b + 1]; q++)
         c->pred[c->pred_start[c->succ[q] + 1]++] = b;
   }
   /* Reverse postorder from the entry. */
   uint32_t npost = 0;
   if (c->n)
      dfs_postorder(c, post, &npost, stack, seen);
   c->nrpo = npost;
   for (uint32_t b = 0; b < c->n; b++)
      c->rpo_index[b] = XE_NONE;
   for (uint32_t j = 0; j < npost; j++) {
      c->rpo[j] = post[npost - 1 - j];
      c->rpo_index[c->rpo[j]] = j;
   }
   free(last_from);
   compute_dominators(c);
   return c;
}

const xe_cfg *xe_function_cfg(xe_function *f)
{
   if (!xe_fn_cache_valid(f, XE_FN_CFG))
      xe_fn_cache_set(f, XE_FN_CFG, cfg_build(f), free); /* one block (cfg_build) */
   return f->cache[XE_FN_CFG].data;
}

bool xe_dominates(const xe_cfg *c, uint32_t a, uint32_t b)
{
   if (c->idom[a] == XE_NONE || c->idom[b] == XE_NONE)
      return false;
   while (b != a) {
      uint32_t up = c->idom[b];
      if (up == b)
         return false;
      b = up;
   }
   return true;
}

static bool same_u32(const uint32_t *a, const uint32_t *b, uint32_t n)
{
   return !n || !memcmp(a, b, n * sizeof(uint32_t));
}

/* Compares f's cached CFG (when valid) with a fresh one. */
const char *xe_check_cfg(xe_function *f)
{
   if (!xe_fn_cache_valid(f, XE_FN_CFG))
      return NULL;
   const xe_cfg *c = f->cache[XE_FN_CFG].data;
   xe_cfg *n = cfg_build(f);
   const char *why = NULL;
   if (c->n != n->n || memcmp(c->blocks, n->blocks, c->n * sizeof(xe_block *)))
      why = "its blocks";
   else if (!same_u32(c->succ_start, n->succ_start, c->n + 1) ||
            !same_u32(c->succ, n->succ, c->succ_start[c->n]))
      why = "its successors";
   else if (!same_u32(c->pred_start, n->pred_start, c->n + 1) ||
            !same_u32(c->pred, n->pred, c->pred_start[c->n]))
      why = "its predecessors";
   else if (c->nrpo != n->nrpo || !same_u32(c->rpo, n->rpo, c->nrpo))
      why = "its reverse postorder";
   else if (!same_u32(c->idom, n->idom, c->n))
      why = "its dominator tree";
   free(n);
   /* cfg_build renumbered the blocks; the cached CFG has the same order
    * when it matched. */
   return why ? why : NULL;
}
