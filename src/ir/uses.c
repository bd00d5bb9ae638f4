/*
 * Use lists and the indexes that hang off them: OpName and decorations by
 * target id, SpecIds in use, and types and constants by content.
 *
 * Built once per module, on the first question (one walk in layout order),
 * then kept current by the IR's edit functions (words.c, lists.c and
 * function.c call xe__uses_link / xe__uses_unlink on every insert, remove
 * and operand edit).  Before, def-use was a snapshot rebuilt after every change, so a
 * pass that edited one kernel and asked about the next paid a walk of the
 * whole module each time: quadratic in the number of kernels.
 *
 * Each id has an array of (instruction, word) uses.  An instruction keeps,
 * per id word, its slot in that array (xe__uslot), so removing a use is O(1):
 * the last entry moves into the hole.  That breaks layout order, which
 * callers see (remarks and new ids follow the order of uses), so a list
 * remembers whether it is still in order and xe_uses sorts it when not,
 * comparing O(1) layout keys (xe_layout_before).
 *
 * This file links and unlinks instructions and keeps the tables of the
 * indexes (the SpecId counts, the content hash table); the first build is
 * uses_build.c, the questions (an id's uses, names, decorations, SpecIds,
 * find-by-content) are indexes.c, the check uses_check.c, and the
 * structures they share defuse.h.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "defuse.h"

void xe_uses_release(xe_module *m)
{
   xe__stale_free(m);
   struct xe_defuse *d = m->defuse;
   if (!d)
      return;
   for (chunk *c = d->arena, *n; c; c = n) {
      n = c->next;
      free(c);
   }
   d->arena = NULL;
}

void xe__defuse_free(struct xe_defuse *d)
{
   if (!d)
      return;
   for (chunk *c = d->arena, *n; c; c = n) {
      n = c->next;
      free(c);
   }
   for (uint32_t id = 0; id < d->cap; id++) {
      if (!in_slab(d, d->ids[id].v))
         free(d->ids[id].v);
      if (!in_meta_slab(d, d->ids[id].meta))
         free(d->ids[id].meta);
   }
   free(d->slab);
   free(d->meta_slab);
   free(d->ids);
   free(d->names);
   free(d->skey);
   free(d->scount);
   free(d->sused);
   free(d->gtab);
   free(d->gvars);
   free(d);
}

idinfo *xe__defuse_info(struct xe_defuse *d, uint32_t id)
{
   if (id >= d->cap) {
      uint64_t cap = d->cap ? d->cap : 64;
      while (cap <= id)
         cap *= 2;
      d->ids = xrealloc(d->ids, cap * sizeof(idinfo));
      memset(d->ids + d->cap, 0, (cap - d->cap) * sizeof(idinfo));
      d->names = xrealloc(d->names, cap * sizeof(xe_inst *));
      memset(d->names + d->cap, 0, (cap - d->cap) * sizeof(xe_inst *));
      d->cap = (uint32_t)cap;
   }
   return &d->ids[id];
}

/* Instructions whose words are linked and unlinked all together.  An
 * OpExtInst is among them because whether it is debug info (counted in
 * ndebug) depends on its set operand: deciding it once per link keeps
 * the count exact. */
bool xe__uses_keyed(const xe_module *m, const xe_inst *i)
{
   return meta_keyed(m, i) || global_keyed(m, i) || global_variable(m, i) ||
          i->opcode == SpvOpExtInst;
}

/* ---- linking ---- */

xe_inst xe__name_none;

/* OpName i of id (whose idinfo is e) was linked.  The build links in
 * layout order and the names precede the decorations there, so an id's
 * first OpName is found when it is linked (its only meta then) and xe_name
 * never reads meta.  A later OpName of an id that has one may come before
 * it in the layout: xe_name looks again. */
static void name_linked(struct xe_defuse *d, const idinfo *e, uint32_t id, xe_inst *i)
{
   if (d->names[id] == NAME_NONE || (!d->names[id] && e->nmeta == 1))
      d->names[id] = i;
   else
      d->names[id] = NULL;
}

static bool use_before(const xe_use *a, const xe_inst *bi, unsigned bw)
{
   return a->inst == bi ? a->word < bw : xe_layout_before(a->inst, bi);
}

void xe__uses_link_word(xe_module *m, xe_inst *i, unsigned w)
{
   struct xe_defuse *d = m->defuse;
   uint32_t id = i->words[w];
   if (id >= m->bound) {
      xe__uslot(i)[w] = NO_SLOT; /* as the reader rejects it; never an index */
      return;
   }
   idinfo *e = xe__defuse_info(d, id);
   if (e->n == e->cap) {
      e->cap = e->cap ? 2 * e->cap : 4;
      if (in_slab(d, e->v)) {
         xe_use *v = xrealloc(NULL, e->cap * sizeof(xe_use));
         memcpy(v, e->v, e->n * sizeof(xe_use));
         e->v = v;
      } else {
         e->v = xrealloc(e->v, e->cap * sizeof(xe_use));
      }
   }
   if (e->order_epoch != m->order_epoch) {
      e->order_epoch = m->order_epoch;
      e->unsorted = e->n > 0;
   }
   if (e->n && !e->unsorted && !use_before(&e->v[e->n - 1], i, w))
      e->unsorted = true;
   e->v[e->n].inst = i;
   e->v[e->n].word = (uint16_t)w;
   xe__uslot(i)[w] = e->n++;
   e->ndebug += i->debug_info;
   if (callee_word(i, w)) {
      e->ncalls++;
      m->calls_gen++;
   }
}

void xe__uses_unlink_word(xe_module *m, xe_inst *i, unsigned w)
{
   struct xe_defuse *d = m->defuse;
   uint32_t k = xe__uslot(i)[w];
   if (k == NO_SLOT)
      return;
   idinfo *e = &d->ids[i->words[w]];
   e->ndebug -= i->debug_info;
   if (callee_word(i, w)) {
      e->ncalls--;
      m->calls_gen++;
   }
   uint32_t last = --e->n;
   if (k != last) {
      e->v[k] = e->v[last];
      xe__uslot(e->v[k].inst)[e->v[k].word] = k;
      e->unsorted = true;
   }
   xe__uslot(i)[w] = NO_SLOT;
}

void xe__uses_link(xe_module *m, xe_inst *i)
{
   struct xe_defuse *d = m->defuse;
   if (!d || i->tracked)
      return;
   i->tracked = true;
   i->debug_info = xe_inst_is_debug_info(m, i);
   for (unsigned w = 0; w < i->nwords; w++) {
      xe__uslot(i)[w] = NO_SLOT;
      if (w && (xe_kinds(i)[w] == XE_W_ID || xe_kinds(i)[w] == XE_W_TYPE))
         xe__uses_link_word(m, i, w);
   }
   if (meta_keyed(m, i) && xe_op(i, 0) < m->bound) {
      idinfo *e = xe__defuse_info(d, xe_op(i, 0));
      if (e->nmeta == e->capmeta) {
         e->capmeta = e->capmeta ? 2 * e->capmeta : 2;
         if (in_meta_slab(d, e->meta)) {
            xe_inst **v = xrealloc(NULL, e->capmeta * sizeof(xe_inst *));
            memcpy(v, e->meta, e->nmeta * sizeof(xe_inst *));
            e->meta = v;
         } else {
            e->meta = xrealloc(e->meta, e->capmeta * sizeof(xe_inst *));
         }
      }
      e->meta[e->nmeta++] = i;
      if (i->opcode == SpvOpName)
         name_linked(d, e, xe_op(i, 0), i);
      e->decs |= dec_bit(i);
      if (spec_decoration(m, i))
         xe__spec_add(d, xe_op(i, 2));
   }
   if (global_keyed(m, i))
      xe__gtab_put(d, i);
   if (global_variable(m, i)) {
      if (d->ngvars == d->capgvars) {
         d->capgvars = d->capgvars ? 2 * d->capgvars : 16;
         d->gvars = xrealloc(d->gvars, d->capgvars * sizeof(xe_inst *));
      }
      d->gvars[d->ngvars++] = i;
   }
}

void xe__uses_unlink(xe_module *m, xe_inst *i)
{
   struct xe_defuse *d = m->defuse;
   if (!d || !i->tracked)
      return;
   for (unsigned w = 1; w < i->nwords; w++)
      xe__uses_unlink_word(m, i, w);
   if (meta_keyed(m, i) && xe_op(i, 0) < m->bound) {
      idinfo *e = xe__defuse_info(d, xe_op(i, 0));
      for (uint32_t k = 0; k < e->nmeta; k++) {
         if (e->meta[k] == i) {
            e->meta[k] = e->meta[--e->nmeta];
            if (d->names[xe_op(i, 0)] == i)
               d->names[xe_op(i, 0)] = NULL;
            break;
         }
      }
      if (spec_decoration(m, i))
         xe__spec_del(d, xe_op(i, 2));
   }
   if (global_keyed(m, i))
      xe__gtab_del(d, i);
   if (global_variable(m, i)) {
      /* Few, and deleted rarely: a linear search. */
      for (uint32_t k = 0; k < d->ngvars; k++) {
         if (d->gvars[k] == i) {
            d->gvars[k] = d->gvars[--d->ngvars];
            break;
         }
      }
   }
   i->tracked = false;
   i->debug_info = false;
}

/* ---- uses ---- */

static int use_cmp(const void *pa, const void *pb)
{
   const xe_use *a = pa, *b = pb;
   if (a->inst == b->inst)
      return (int)a->word - (int)b->word;
   return xe_layout_before(a->inst, b->inst) ? -1 : 1;
}

void xe__sort_uses(const xe_module *m, idinfo *e)
{
   if (e->order_epoch != m->order_epoch) {
      e->order_epoch = m->order_epoch;
      e->unsorted = e->n > 1;
   }
   if (!e->unsorted)
      return;
   qsort(e->v, e->n, sizeof(xe_use), use_cmp);
   for (uint32_t k = 0; k < e->n; k++)
      xe__uslot(e->v[k].inst)[e->v[k].word] = k;
   e->unsorted = false;
}

void xe__uses_opcode_changed(xe_module *m, xe_inst *i, uint16_t old_opcode)
{
   struct xe_defuse *d = m->defuse;
   unsigned w = i->first_op;
   if (!d || !i->tracked || w >= i->nwords || xe__uslot(i)[w] == NO_SLOT)
      return;
   d->ids[i->words[w]].ncalls += (i->opcode == SpvOpFunctionCall) - (old_opcode == SpvOpFunctionCall);
   if ((i->opcode == SpvOpFunctionCall) != (old_opcode == SpvOpFunctionCall))
      m->calls_gen++;
}

/* ---- SpecIds ---- */

static uint32_t hash32(uint32_t x)
{
   x ^= x >> 16;
   x *= 0x7feb352d;
   x ^= x >> 15;
   x *= 0x846ca68b;
   return x ^ (x >> 16);
}

uint32_t *xe__spec_slot(struct xe_defuse *d, uint32_t v, bool add)
{
   if (add && 2 * (d->sn + 1) > d->scap) {
      uint32_t ocap = d->scap, *okey = d->skey, *ocount = d->scount;
      uint8_t *oused = d->sused;
      d->scap = ocap ? 2 * ocap : 64;
      d->skey = xe_calloc(d->scap, 4);
      d->scount = xe_calloc(d->scap, 4);
      d->sused = xe_calloc(d->scap, 1);
      d->sn = 0;
      for (uint32_t k = 0; k < ocap; k++) {
         if (oused[k])
            *xe__spec_slot(d, okey[k], true) = ocount[k];
      }
      free(okey);
      free(ocount);
      free(oused);
   }
   if (!d->scap)
      return NULL;
   for (uint32_t h = hash32(v) & (d->scap - 1);; h = (h + 1) & (d->scap - 1)) {
      if (d->sused[h] && d->skey[h] == v)
         return &d->scount[h];
      if (!d->sused[h]) {
         if (!add)
            return NULL;
         d->sused[h] = 1;
         d->skey[h] = v;
         d->scount[h] = 0;
         d->sn++;
         return &d->scount[h];
      }
   }
}

void xe__spec_add(struct xe_defuse *d, uint32_t v)
{
   ++*xe__spec_slot(d, v, true);
}

void xe__spec_del(struct xe_defuse *d, uint32_t v)
{
   uint32_t *c = xe__spec_slot(d, v, false);
   if (c && *c && !--*c && d->spec_cursor && v >= d->spec_from && v < d->spec_next)
      d->spec_next = v;
}

/* ---- types and constants by content ---- */

uint32_t xe__content_hash(uint16_t op, uint32_t type_id, unsigned nops, const uint32_t *ops)
{
   uint32_t h = hash32(op * 0x9e3779b9u ^ type_id) ^ nops;
   for (unsigned k = 0; k < nops; k++)
      h = hash32(h ^ ops[k]) + k;
   return h;
}

static void gtab_grow(struct xe_defuse *d)
{
   uint32_t ocap = d->gcap;
   xe_inst **old = d->gtab;
   d->gcap = ocap ? 2 * ocap : 256;
   d->gtab = xe_calloc(d->gcap, sizeof(xe_inst *));
   d->gn = 0;
   for (uint32_t k = 0; k < ocap; k++) {
      if (old[k] && old[k] != TOMB)
         xe__gtab_put(d, old[k]);
   }
   free(old);
}

void xe__gtab_put(struct xe_defuse *d, xe_inst *i)
{
   if (2 * (d->gn + 1) > d->gcap)
      gtab_grow(d);
   uint32_t h = xe__content_hash(i->opcode, i->type_id, xe_nops(i), &i->words[i->first_op]);
   for (h &= d->gcap - 1; d->gtab[h] && d->gtab[h] != TOMB; h = (h + 1) & (d->gcap - 1))
      ;
   if (!d->gtab[h])
      d->gn++; /* tombstones count already */
   d->gtab[h] = i;
}

void xe__gtab_del(struct xe_defuse *d, xe_inst *i)
{
   uint32_t h = xe__content_hash(i->opcode, i->type_id, xe_nops(i), &i->words[i->first_op]);
   for (h &= d->gcap - 1; d->gtab[h]; h = (h + 1) & (d->gcap - 1)) {
      if (d->gtab[h] == i) {
         d->gtab[h] = TOMB;
         return;
      }
   }
}
