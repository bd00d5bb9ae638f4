/*
 * The first build of the use lists and indexes: one walk of the module in
 * layout order, on the first question about uses (xe__defuse_built).  The
 * reader's per-id counts (xe__uses_hint) size every array up front, so the
 * lists are carved from two allocations and filled without a layout
 * comparison.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "defuse.h"

/* Visits every instruction of the module in layout order. */
void xe__visit_all(xe_module *m, inst_visitor fn, void *data)
{
   for (int s = 0; s < XE_SEC_COUNT; s++)
      xe_foreach_inst(i, &m->sec[s])
         fn(m, i, data);
   xe_foreach_fn(f, m) {
      fn(m, f->def, data);
      xe_foreach_inst(i, &f->params)
         fn(m, i, data);
      xe_foreach_block(b, f) {
         fn(m, b->label, data);
         xe_foreach_inst(i, &b->insts)
            fn(m, i, data);
      }
      if (f->end)
         fn(m, f->end, data);
   }
}

/* Counts the uses and names/decorations the build will enter, per id (in
 * cap and capmeta), when the reader left no counts. */
static void count_visit(xe_module *m, xe_inst *i, void *data)
{
   (void)data;
   if (i->opcode == SpvOpLabel || i->opcode == SpvOpFunctionEnd)
      return;
   idinfo *ids = m->defuse->ids;
   for (unsigned w = 1; w < i->nwords; w++)
      if ((xe_kinds(i)[w] == XE_W_ID || xe_kinds(i)[w] == XE_W_TYPE) && i->words[w] < m->bound)
         ids[i->words[w]].cap++;
   if (meta_keyed(m, i) && xe_op(i, 0) < m->bound)
      ids[xe_op(i, 0)].capmeta++;
}

/* The build's xe__uses_link: instructions come in layout order, so every
 * use list stays in order without the layout comparison each append
 * otherwise makes, and the arrays were sized for them.  An id whose array
 * is full (the reader's counts predate an edit) takes the general path. */
static void build_link(xe_module *m, xe_inst *i, void *data)
{
   (void)data;
   /* Labels and OpFunctionEnd have no id operands. */
   if (i->opcode == SpvOpLabel || i->opcode == SpvOpFunctionEnd || i->tracked)
      return;
   struct xe_defuse *d = m->defuse;
   if (xe__uses_keyed(m, i)) {
      xe__uses_link(m, i);
      return;
   }
   i->tracked = true;
   xe__uslot(i)[0] = NO_SLOT;
   for (unsigned w = 1; w < i->nwords; w++) {
      uint32_t id = i->words[w];
      xe__uslot(i)[w] = NO_SLOT;
      if ((xe_kinds(i)[w] != XE_W_ID && xe_kinds(i)[w] != XE_W_TYPE) || id >= m->bound)
         continue;
      idinfo *e = &d->ids[id];
      if (e->n == e->cap) {
         xe__uses_link_word(m, i, w);
         continue;
      }
      e->v[e->n].inst = i;
      e->v[e->n].word = (uint16_t)w;
      xe__uslot(i)[w] = e->n++;
      e->ncalls += callee_word(i, w);
   }
}

void xe__uses_hint(xe_module *m, uint32_t n, uint32_t *uses, uint32_t *meta)
{
   if (m->use_hint) {
      free(m->use_hint->uses);
      free(m->use_hint->meta);
   } else if (!(m->use_hint = malloc(sizeof(struct xe_use_hint)))) {
      xe_out_of_memory();
   }
   *m->use_hint = (struct xe_use_hint){ n, uses, meta };
}

void xe__uses_hint_free(xe_module *m)
{
   if (!m->use_hint)
      return;
   free(m->use_hint->uses);
   free(m->use_hint->meta);
   free(m->use_hint);
   m->use_hint = NULL;
}

struct xe_defuse *xe__defuse_built(const xe_module *cm)
{
   xe_module *m = (xe_module *)cm; /* the indexes are a cache: building them changes no content */
   if (m->defuse)
      return m->defuse;
   struct xe_defuse *d = m->defuse = xe_calloc(1, sizeof(struct xe_defuse));
   /* Room for the ids passes will add, so the first fresh ids do not copy
    * the table. */
   d->cap = m->bound + m->bound / 8 + 64;
   d->ids = xe_calloc(d->cap, sizeof(idinfo));
   d->names = xe_calloc(d->cap, sizeof(xe_inst *));
   const struct xe_use_hint *h = m->use_hint;
   if (h) {
      uint32_t n = h->n < m->bound ? h->n : m->bound;
      for (uint32_t id = 0; id < n; id++) {
         d->ids[id].cap = h->uses[id];
         d->ids[id].capmeta = h->meta[id];
      }
   } else {
      xe__visit_all(m, count_visit, NULL);
   }
   size_t total = 0, total_meta = 0;
   for (uint32_t id = 0; id < m->bound; id++) {
      total += d->ids[id].cap;
      total_meta += d->ids[id].capmeta;
   }
   d->slab = xrealloc(NULL, (total ? total : 1) * sizeof(xe_use));
   d->slab_end = d->slab + total;
   d->meta_slab = xrealloc(NULL, (total_meta ? total_meta : 1) * sizeof(xe_inst *));
   d->meta_slab_end = d->meta_slab + total_meta;
   xe_use *p = d->slab;
   xe_inst **q = d->meta_slab;
   for (uint32_t id = 0; id < m->bound; id++) {
      idinfo *e = &d->ids[id];
      e->order_epoch = m->order_epoch;   /* in layout order, as built */
      if (e->cap) {
         e->v = p;
         p += e->cap;
      }
      if (e->capmeta) {
         e->meta = q;
         q += e->capmeta;
      }
   }
   xe__visit_all(m, build_link, NULL);
   xe__uses_hint_free(m);
   return d;
}
