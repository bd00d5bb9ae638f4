/*
 * The module's ids (defs[], fresh ids), where an instruction stands (its
 * function, its layout position: xe_layout_before) and the generation
 * counters that make cached analyses stale.  The module's lifetime is
 * lifetime.c; the edits live above this: an instruction's words
 * (words.c), the order of lists and blocks (lists.c), functions and blocks
 * (function.c).
 *
 * The module keeps defs[] (id -> defining instruction) up to date on every
 * insert and remove, so passes can always look a definition up.  Every
 * list insert and remove and every edit function also
 *  - gives the instruction an order key (increasing along its list, with
 *    gaps for later inserts), so layout order is an O(1) comparison;
 *  - enters or removes the instruction in the use lists and indexes
 *    (uses.c) once those exist;
 *  - bumps the generation counters of the function it changes (code_gen,
 *    and cfg_gen for blocks and terminators), which is what makes cached
 *    analyses stale: no walk over the module invalidates anything.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ir_internal.h"

/* Makes defs[id] exist.  clamp: id is one the module defines (the reader's,
 * below the header's bound), so doubling stops at the bound: a hostile
 * bound must not make a small module allocate a huge table.  Fresh ids
 * (xe_fresh_id) grow the table by doubling only: clamped to the bound they
 * raise, the table grew by 1,024 entries at a time, copying all of it each
 * time (quadratic: 5 % of the run at 1,600 kernels). */
static void defs_reserve(xe_module *m, uint32_t id, bool clamp)
{
   if (id < m->defs_cap)
      return;
   uint64_t cap = m->defs_cap ? m->defs_cap : 64;
   while (cap <= id)
      cap *= 2;
   if (clamp && id < m->bound && cap > (uint64_t)m->bound + 1024)
      cap = (uint64_t)m->bound + 1024;
   m->defs = realloc(m->defs, cap * sizeof(*m->defs));
   if (!m->defs)
      xe_out_of_memory();
   memset(m->defs + m->defs_cap, 0, (cap - m->defs_cap) * sizeof(*m->defs));
   m->defs_cap = (uint32_t)cap;
}

uint32_t xe_fresh_id(xe_module *m)
{
   uint32_t id = m->bound++;
   defs_reserve(m, id, false);
   return id;
}

void xe_note_def(xe_module *m, xe_inst *i)
{
   if (!i->result_id)
      return;
   defs_reserve(m, i->result_id, true);
   m->defs[i->result_id] = i;
   if (i->result_id >= m->bound)
      m->bound = i->result_id + 1;
}

void xe__forget_def(xe_module *m, xe_inst *i)
{
   if (i->result_id && i->result_id < m->defs_cap && m->defs[i->result_id] == i)
      m->defs[i->result_id] = NULL;
}

void xe_function_invalidate(xe_function *f)
{
   for (int k = 0; k < XE_FN_ANALYSIS_COUNT; k++) {
      if (f->cache[k].data)
         f->cache[k].free(f->cache[k].data);
      f->cache[k].data = NULL;
   }
}

void xe__stale_free(xe_module *m)
{
   for (struct xe_stale *st = m->stale, *n; st; st = n) {
      n = st->next;
      st->free(st->data);
      free(st);
   }
   m->stale = NULL;
}

void xe_fn_cache_set(xe_function *f, enum xe_fn_analysis k, void *data, void (*free_fn)(void *))
{
   xe_fn_cache *c = &f->cache[k];
   if (c->data) {
      struct xe_stale *st = xe_calloc(1, sizeof(*st));
      st->data = c->data;
      st->free = c->free;
      st->next = f->module->stale;
      f->module->stale = st;
   }
   c->data = data;
   c->free = free_fn;
   c->epoch = f->module->epoch;
   c->gen = k == XE_FN_CFG ? f->cfg_gen : f->code_gen;
}

xe_function *xe__function_of(const xe_inst *i)
{
   if (i->block)
      return i->block->fn;
   if (xe_inst_function(i))
      return xe_inst_function(i);
   if (i->list && i->list->m && !xe__is_section(i->list->m, i->list))
      return (xe_function *)((char *)i->list - offsetof(xe_function, params));
   return NULL;
}

/* Records that i's function changed (its CFG too when cfg is set), or
 * that an entry point or execution mode did (the kernel list's memo). */
void xe__touch(const xe_inst *i, bool cfg)
{
   xe_function *f = xe__function_of(i);
   if (!f) {
      xe_module *m = i->list ? i->list->m : NULL;
      if (m && (i->list == &m->sec[XE_SEC_ENTRY_POINT] ||
                i->list == &m->sec[XE_SEC_EXECUTION_MODE]))
         m->entry_gen++;
      return;
   }
   f->code_gen++;
   if (cfg)
      f->cfg_gen++;
}

/* Layout position as a tuple: sections first (by section), then functions
 * (by function order: OpFunction, parameters, blocks by order with the
 * label first, OpFunctionEnd). */
static void layout_key(const xe_inst *i, uint64_t k[5])
{
   memset(k, 0, 5 * sizeof(uint64_t));
   xe_module *m = xe__module_of(i);
   if (i->list && xe__is_section(m, i->list)) {
      k[0] = (uint64_t)(i->list - m->sec);
      k[4] = i->order;
      return;
   }
   xe_function *f = xe__function_of(i);
   k[0] = XE_SEC_COUNT;
   k[1] = f ? f->order : 0;
   if (xe_inst_function(i)) {
      k[2] = 0;
   } else if (i->block) {
      k[2] = 2;
      k[3] = i->block->order;
      k[4] = i == i->block->label ? 0 : i->order;
   } else if (f && i == f->end) {
      k[2] = 3;
   } else {
      k[2] = 1;
      k[4] = i->order;
   }
}

bool xe_layout_before(const xe_inst *a, const xe_inst *b)
{
   /* Both in blocks of functions, the common case (sorting uses): the same
    * comparison as the keys below make, from the block and function alone,
    * without finding the module and the section first. */
   const xe_block *ba = a->block, *bb = b->block;
   if (ba && bb && ba->fn && bb->fn) {
      if (ba->fn->order != bb->fn->order)
         return ba->fn->order < bb->fn->order;
      if (ba->order != bb->order)
         return ba->order < bb->order;
      uint64_t oa = a == ba->label ? 0 : a->order, ob = b == bb->label ? 0 : b->order;
      return oa < ob;
   }
   uint64_t ka[5], kb[5];
   layout_key(a, ka);
   layout_key(b, kb);
   for (int j = 0; j < 5; j++) {
      if (ka[j] != kb[j])
         return ka[j] < kb[j];
   }
   return false;
}

xe_function *xe_function_by_id(const xe_module *m, uint32_t id)
{
   xe_inst *d = xe_def(m, id);
   return d && d->opcode == SpvOpFunction ? xe_inst_function(d) : NULL;
}
