/*
 * The module's lifetime (create, free, recycle into a new one), its ids
 * (defs[], fresh ids) and the generation counters that make cached
 * analyses stale.  The edits live beside it: instructions and their words
 * (inst.c), the order of lists and blocks (lists.c), functions and blocks
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
#include "manifest.h"

static void *xcalloc(size_t n, size_t s)
{
   void *p = calloc(n ? n : 1, s);
   if (!p)
      xe_out_of_memory();
   return p;
}

xe_module *xe_module_create(void)
{
   xe_module *m = xcalloc(1, sizeof(*m));
   m->version = 0x10000;
   m->bound = 1;
   for (int s = 0; s < XE_SEC_COUNT; s++)
      m->sec[s].m = m;
   return m;
}

static void free_list(xe_list *l)
{
   for (xe_inst *i = l->first, *n; i; i = n) {
      n = i->next;
      xe_inst_free(i);
   }
   l->first = l->last = NULL;
}

extern void cJSON_Delete(struct cJSON *item);

static void function_free(xe_function *f)
{
   xe_function_invalidate(f);
   xe_inst_free(f->def);
   free_list(&f->params);
   for (xe_block *b = f->first, *n; b; b = n) {
      n = b->next;
      xe_inst_free(b->label);
      free_list(&b->insts);
      xe__pool_release(b, sizeof(*b));
   }
   xe_inst_free(f->end);
   xe__pool_release(f, sizeof(*f));
}

/* Frees everything m holds but its pools and m itself. */
static void module_release(xe_module *m)
{
   for (int s = 0; s < XE_SEC_COUNT; s++)
      free_list(&m->sec[s]);
   for (xe_function *f = m->first_fn, *n; f; f = n) {
      n = f->next;
      function_free(f);
   }
   xe__kernel_memo_free(m);
   xe__defuse_free(m->defuse);
   xe__uses_hint_free(m);
   xe__stale_free(m);
   if (m->manifest)
      cJSON_Delete(m->manifest);
   xe_mf_index_free(m->manifest_index);
   free(m->defs);
}

void xe_module_free(xe_module *m)
{
   if (!m)
      return;
   module_release(m);
   xe__pool_free(m);   /* last: the instructions released were carved from it */
   free(m);
}

void xe__module_recycle(xe_module *old, xe_module *to)
{
   if (!old)
      return;
   module_release(old);
   xe__pool_hand_on(to, old);
   free(old);
}

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
      struct xe_stale *st = xcalloc(1, sizeof(*st));
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

void xe_module_invalidate(xe_module *m)
{
   m->epoch++;
   xe_uses_release(m);
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
