/*
 * Instruction lists and block lists: inserting, removing and deleting
 * instructions, and the order keys that make layout order an O(1)
 * comparison of instructions and of blocks (xe_layout_before, module.c).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ir_internal.h"

/* ---- lists ---- */

/* Order keys: GAP apart when a list is numbered, midpoints for inserts;
 * a list is renumbered when two neighbours leave no room (rare: 2^20 gap
 * allows twenty inserts at one spot first). */
#define ORDER_GAP ((uint64_t)1 << 20)

static void renumber(xe_list *l)
{
   uint64_t k = 0;
   xe_foreach_inst(i, l)
      i->order = k += ORDER_GAP;
}

/* Gives i, already linked into l, an order key between its neighbours. */
static void set_order(xe_list *l, xe_inst *i)
{
   uint64_t lo = i->prev ? i->prev->order : 0;
   if (!i->next) {
      i->order = lo + ORDER_GAP;
      return;
   }
   uint64_t hi = i->next->order;
   if (hi > lo + 1)
      i->order = lo + (hi - lo) / 2;
   else
      renumber(l);
}

/* Common tail of every insert: i is linked into l. */
static void linked(xe_module *m, xe_list *l, xe_inst *i)
{
   l->m = m;
   set_order(l, i);
   xe_note_def(m, i);
   xe__uses_link(m, i);
   xe__touch(i, xe_opcode_is_terminator(i->opcode));
}

static void list_append(xe_module *m, xe_list *l, xe_inst *i)
{
   i->list = l;
   i->prev = l->last;
   i->next = NULL;
   if (l->last)
      l->last->next = i;
   else
      l->first = i;
   l->last = i;
   linked(m, l, i);
}

void xe_list_append(xe_module *m, xe_list *l, xe_inst *i)
{
   list_append(m, l, i);
}

void xe_block_append(xe_module *m, xe_block *b, xe_inst *i)
{
   i->block = b;
   list_append(m, &b->insts, i);
}

void xe_list_insert_before(xe_module *m, xe_inst *pos, xe_inst *i)
{
   xe_list *l = pos->list;
   i->list = l;
   i->block = pos->block;
   i->next = pos;
   i->prev = pos->prev;
   if (pos->prev)
      pos->prev->next = i;
   else
      l->first = i;
   pos->prev = i;
   linked(m, l, i);
}

void xe_list_insert_after(xe_module *m, xe_inst *pos, xe_inst *i)
{
   xe_list *l = pos->list;
   i->list = l;
   i->block = pos->block;
   i->prev = pos;
   i->next = pos->next;
   if (pos->next)
      pos->next->prev = i;
   else
      l->last = i;
   pos->next = i;
   linked(m, l, i);
}

void xe_inst_remove(xe_module *m, xe_inst *i)
{
   xe_list *l = i->list;
   xe__touch(i, xe_opcode_is_terminator(i->opcode));
   xe__uses_unlink(m, i);
   if (l) {
      if (i->prev)
         i->prev->next = i->next;
      else
         l->first = i->next;
      if (i->next)
         i->next->prev = i->prev;
      else
         l->last = i->prev;
   }
   i->prev = i->next = NULL;
   i->list = NULL;
   i->block = NULL;
   xe__forget_def(m, i);
}

void xe_inst_delete(xe_module *m, xe_inst *i)
{
   xe_inst_remove(m, i);
   xe_inst_free(i);
}

void xe_terminator_to_branch(xe_module *m, xe_inst *term, uint32_t target)
{
   /* OpSelectionMerge must immediately precede an OpBranchConditional or
    * OpSwitch (SPIR-V 2.16.2), so it goes with the branch it declared; an
    * OpLoopMerge may precede an OpBranch and stays. */
   if (term->prev && term->prev->opcode == SpvOpSelectionMerge)
      xe_inst_delete(m, term->prev);
   xe_list_insert_before(m, term, xe_inst_create(SpvOpBranch, 0, 0, &target, 1, NULL));
   xe_inst_delete(m, term);
}

/* ---- block lists ---- */

/* Block order keys, as instruction order keys (set_order). */
static void block_order(xe_function *f, xe_block *b)
{
   uint64_t lo = b->prev ? b->prev->order : 0;
   if (!b->next) {
      b->order = lo + ORDER_GAP;
      return;
   }
   uint64_t hi = b->next->order;
   if (hi > lo + 1) {
      b->order = lo + (hi - lo) / 2;
      return;
   }
   uint64_t k = 0;
   xe_foreach_block(x, f)
      x->order = k += ORDER_GAP;
}

void xe_block_insert(xe_function *f, xe_block *after, xe_block *b)
{
   b->fn = f;
   f->cfg_gen++;
   f->code_gen++;
   if (!after) {
      b->prev = f->last;
      b->next = NULL;
      if (f->last)
         f->last->next = b;
      else
         f->first = b;
      f->last = b;
   } else {
      b->prev = after;
      b->next = after->next;
      if (after->next)
         after->next->prev = b;
      else
         f->last = b;
      after->next = b;
   }
   block_order(f, b);
   /* Its instructions change place in the layout: use lists holding them
    * may be out of order now. */
   if (b->insts.first && f->module)
      f->module->order_epoch++;
}

void xe_block_unlink(xe_function *f, xe_block *b)
{
   f->cfg_gen++;
   f->code_gen++;
   if (b->prev)
      b->prev->next = b->next;
   else
      f->first = b->next;
   if (b->next)
      b->next->prev = b->prev;
   else
      f->last = b->prev;
   b->prev = b->next = NULL;
}
