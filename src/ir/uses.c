/*
 * Use lists and the indexes that hang off them: OpName and decorations by
 * target id, SpecIds in use, and types and constants by content.
 *
 * Built once per module, on the first question (one walk in layout order),
 * then kept current by the IR's edit functions (module.c calls
 * xe__uses_link / xe__uses_unlink on every insert, remove and operand
 * edit).  Before, def-use was a snapshot rebuilt after every change, so a
 * pass that edited one kernel and asked about the next paid a walk of the
 * whole module each time: quadratic in the number of kernels.
 *
 * Each id has an array of (instruction, word) uses.  An instruction keeps,
 * per id word, its slot in that array (uslot), so removing a use is O(1):
 * the last entry moves into the hole.  That breaks layout order, which
 * callers see (remarks and new ids follow the order of uses), so a list
 * remembers whether it is still in order and xe_uses sorts it when not,
 * comparing O(1) layout keys (xe_layout_before).
 *
 * xe_uses hands out a copy in an arena, not the live array: passes walk
 * the uses of an id while rewriting them, which edits the live array.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir_internal.h"

#define NO_SLOT UINT32_MAX

typedef struct idinfo {
   xe_use *v;              /* uses of the id */
   uint32_t n, cap;
   xe_inst **meta;         /* OpName/OpMemberName/decorations whose target is the id */
   uint32_t nmeta, capmeta;
   uint32_t ncalls;        /* uses that are the callee of an OpFunctionCall
                            * (xe_use_is_call), so that counting a function's
                            * callers reads no user: at 1,600 kernels each
                            * user is a cache miss, per kernel and per pass */
   uint32_t ndebug;        /* uses by debug-info instructions (xe_inst.debug_info):
                            * in v, for xe_replace_all_uses and the repair of
                            * what a pass deletes, but no uses for xe_uses */
   /* Bit d % 32 is set when an OpDecorate(Id) with decoration d targets the
    * id.  Never cleared (a superset), so asking for a decoration the id
    * does not have reads none of its names and decorations: llvm-spirv
    * names and decorates most results, and each is a cache miss. */
   uint32_t decs;
   bool unsorted;          /* v is not in layout order */
   uint32_t order_epoch;   /* the module's order_epoch when v was last in order */
} idinfo;

typedef struct chunk {
   struct chunk *next;
   size_t n, cap;
   xe_use v[];
} chunk;

struct xe_defuse {
   uint32_t cap;           /* ids covered by ids[] and names[] */
   idinfo *ids;
   /* xe_name's answer per id, remembered (see name_linked): the first
    * OpName, NAME_NONE when there is none, NULL when not known yet.
    * Looking it up reads meta and each of its instructions, a cache miss
    * each at a few thousand kernels, and remarks name values all the
    * time.  An array of its own, so that the per-id table keeps its 48
    * bytes and the pages of ids nobody names are never touched. */
   xe_inst **names;
   /* SpecId values -> number of OpDecorate SpecId carrying them (open
    * addressing; a key stays when its count drops to 0). */
   uint32_t *skey, *scount;
   uint8_t *sused;
   uint32_t scap, sn;
   bool spec_cursor;       /* SpecIds [spec_from, spec_next) are all in use */
   uint32_t spec_from, spec_next;
   /* Types and constants that find-or-create looks up, by content (open
    * addressing, TOMB for deleted). */
   xe_inst **gtab;
   uint32_t gcap, gn;
   /* Every global OpVariable (not Function storage), unordered. */
   xe_inst **gvars;
   uint32_t ngvars, capgvars;
   chunk *arena;           /* copies handed out by xe_uses */
   /* The use arrays and the name/decoration arrays of the first build,
    * carved from one allocation each at their exact sizes (one malloc, not
    * one per id); an array that grows later moves out to its own. */
   xe_use *slab, *slab_end;
   xe_inst **meta_slab, **meta_slab_end;
};

static bool in_slab(const struct xe_defuse *d, const xe_use *v)
{
   return v >= d->slab && v < d->slab_end;
}

static bool in_meta_slab(const struct xe_defuse *d, xe_inst *const *v)
{
   return v >= d->meta_slab && v < d->meta_slab_end;
}

/* Per-id counts the reader takes as it reads (xe__uses_hint), so that the
 * first build sizes the arrays without a walk of its own. */
struct xe_use_hint {
   uint32_t n;             /* ids covered */
   uint32_t *uses, *meta;
};

#define TOMB ((xe_inst *)1)

static void *xrealloc(void *p, size_t n)
{
   p = realloc(p, n ? n : 1);
   if (!p)
      xe_out_of_memory();
   return p;
}

static void *xcalloc(size_t n, size_t s)
{
   void *p = calloc(n ? n : 1, s);
   if (!p)
      xe_out_of_memory();
   return p;
}

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

static idinfo *info(struct xe_defuse *d, uint32_t id)
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

/* ---- SpecIds ---- */

static uint32_t hash32(uint32_t x)
{
   x ^= x >> 16;
   x *= 0x7feb352d;
   x ^= x >> 15;
   x *= 0x846ca68b;
   return x ^ (x >> 16);
}

static uint32_t *spec_slot(struct xe_defuse *d, uint32_t v, bool add)
{
   if (add && 2 * (d->sn + 1) > d->scap) {
      uint32_t ocap = d->scap, *okey = d->skey, *ocount = d->scount;
      uint8_t *oused = d->sused;
      d->scap = ocap ? 2 * ocap : 64;
      d->skey = xcalloc(d->scap, 4);
      d->scount = xcalloc(d->scap, 4);
      d->sused = xcalloc(d->scap, 1);
      d->sn = 0;
      for (uint32_t k = 0; k < ocap; k++) {
         if (oused[k])
            *spec_slot(d, okey[k], true) = ocount[k];
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

static bool spec_decoration(const xe_module *m, const xe_inst *i)
{
   return i->opcode == SpvOpDecorate && xe_nops(i) >= 3 && xe_op(i, 1) == SpvDecorationSpecId &&
          i->list == &m->sec[XE_SEC_ANNOTATION];
}

static void spec_add(struct xe_defuse *d, uint32_t v)
{
   ++*spec_slot(d, v, true);
}

static void spec_del(struct xe_defuse *d, uint32_t v)
{
   uint32_t *c = spec_slot(d, v, false);
   if (c && *c && !--*c && d->spec_cursor && v >= d->spec_from && v < d->spec_next)
      d->spec_next = v;
}

/* ---- types and constants by content ---- */

static bool global_keyed_op(uint16_t op)
{
   switch (op) {
   case SpvOpTypeVoid: case SpvOpTypeBool: case SpvOpTypeInt: case SpvOpTypeFloat:
   case SpvOpTypeVector: case SpvOpTypeArray: case SpvOpTypePointer:
   case SpvOpConstant: case SpvOpConstantTrue: case SpvOpConstantFalse:
      return true;
   default:
      return false;
   }
}

static uint32_t content_hash(uint16_t op, uint32_t type_id, unsigned nops, const uint32_t *ops)
{
   uint32_t h = hash32(op * 0x9e3779b9u ^ type_id) ^ nops;
   for (unsigned k = 0; k < nops; k++)
      h = hash32(h ^ ops[k]) + k;
   return h;
}

static bool same_content(const xe_inst *i, uint16_t op, uint32_t type_id, unsigned nops,
                         const uint32_t *ops)
{
   return i->opcode == op && i->type_id == type_id && xe_nops(i) == nops &&
          (!nops || !memcmp(&i->words[i->first_op], ops, nops * 4));
}

static void gtab_put(struct xe_defuse *d, xe_inst *i);

static void gtab_grow(struct xe_defuse *d)
{
   uint32_t ocap = d->gcap;
   xe_inst **old = d->gtab;
   d->gcap = ocap ? 2 * ocap : 256;
   d->gtab = xcalloc(d->gcap, sizeof(xe_inst *));
   d->gn = 0;
   for (uint32_t k = 0; k < ocap; k++) {
      if (old[k] && old[k] != TOMB)
         gtab_put(d, old[k]);
   }
   free(old);
}

static void gtab_put(struct xe_defuse *d, xe_inst *i)
{
   if (2 * (d->gn + 1) > d->gcap)
      gtab_grow(d);
   uint32_t h = content_hash(i->opcode, i->type_id, xe_nops(i), &i->words[i->first_op]);
   for (h &= d->gcap - 1; d->gtab[h] && d->gtab[h] != TOMB; h = (h + 1) & (d->gcap - 1))
      ;
   if (!d->gtab[h])
      d->gn++; /* tombstones count already */
   d->gtab[h] = i;
}

static void gtab_del(struct xe_defuse *d, xe_inst *i)
{
   uint32_t h = content_hash(i->opcode, i->type_id, xe_nops(i), &i->words[i->first_op]);
   for (h &= d->gcap - 1; d->gtab[h]; h = (h + 1) & (d->gcap - 1)) {
      if (d->gtab[h] == i) {
         d->gtab[h] = TOMB;
         return;
      }
   }
}

static bool global_keyed(const xe_module *m, const xe_inst *i)
{
   return i->list == &m->sec[XE_SEC_GLOBAL] && global_keyed_op(i->opcode);
}

static bool meta_keyed(const xe_module *m, const xe_inst *i)
{
   return (i->list == &m->sec[XE_SEC_DEBUG_NAME] || i->list == &m->sec[XE_SEC_ANNOTATION]) &&
          xe_nops(i) >= 1 && xe_op_kind(i, 0) == XE_W_ID;
}

static bool global_variable(const xe_module *m, const xe_inst *i)
{
   return i->opcode == SpvOpVariable && i->list == &m->sec[XE_SEC_GLOBAL] && xe_nops(i) >= 1 &&
          xe_op(i, 0) != SpvStorageClassFunction;
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

/* names[id] for an id known to have no OpName. */
static xe_inst name_none;
#define NAME_NONE (&name_none)

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

/* Is word w of i the callee of an OpFunctionCall (xe_use_is_call)? */
static bool callee_word(const xe_inst *i, unsigned w)
{
   return i->opcode == SpvOpFunctionCall && w == i->first_op;
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
      i->uslot[w] = NO_SLOT; /* as the reader rejects it; never an index */
      return;
   }
   idinfo *e = info(d, id);
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
   i->uslot[w] = e->n++;
   e->ndebug += i->debug_info;
   if (callee_word(i, w)) {
      e->ncalls++;
      m->calls_gen++;
   }
}

void xe__uses_unlink_word(xe_module *m, xe_inst *i, unsigned w)
{
   struct xe_defuse *d = m->defuse;
   uint32_t k = i->uslot[w];
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
      e->v[k].inst->uslot[e->v[k].word] = k;
      e->unsorted = true;
   }
   i->uslot[w] = NO_SLOT;
}

/* idinfo.decs's bit for a decoration instruction, 0 for other metadata. */
static uint32_t dec_bit(const xe_inst *i)
{
   bool dec = i->opcode == SpvOpDecorate || i->opcode == SpvOpDecorateId ||
              i->opcode == SpvOpDecorateString;
   return dec && xe_nops(i) >= 2 ? 1u << (xe_op(i, 1) & 31) : 0;
}

void xe__uses_link(xe_module *m, xe_inst *i)
{
   struct xe_defuse *d = m->defuse;
   if (!d || i->uslot)
      return;
   i->uslot = xe__inline_uslot(i);
   if (!i->uslot)
      i->uslot = xrealloc(NULL, i->nwords * sizeof(uint32_t));
   i->debug_info = xe_inst_is_debug_info(m, i);
   for (unsigned w = 0; w < i->nwords; w++) {
      i->uslot[w] = NO_SLOT;
      if (w && (i->kinds[w] == XE_W_ID || i->kinds[w] == XE_W_TYPE))
         xe__uses_link_word(m, i, w);
   }
   if (meta_keyed(m, i) && xe_op(i, 0) < m->bound) {
      idinfo *e = info(d, xe_op(i, 0));
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
         spec_add(d, xe_op(i, 2));
   }
   if (global_keyed(m, i))
      gtab_put(d, i);
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
   if (!d || !i->uslot)
      return;
   for (unsigned w = 1; w < i->nwords; w++)
      xe__uses_unlink_word(m, i, w);
   if (meta_keyed(m, i) && xe_op(i, 0) < m->bound) {
      idinfo *e = info(d, xe_op(i, 0));
      for (uint32_t k = 0; k < e->nmeta; k++) {
         if (e->meta[k] == i) {
            e->meta[k] = e->meta[--e->nmeta];
            if (d->names[xe_op(i, 0)] == i)
               d->names[xe_op(i, 0)] = NULL;
            break;
         }
      }
      if (spec_decoration(m, i))
         spec_del(d, xe_op(i, 2));
   }
   if (global_keyed(m, i))
      gtab_del(d, i);
   if (global_variable(m, i)) {
      /* Few, and deleted rarely: a linear search. */
      for (uint32_t k = 0; k < d->ngvars; k++) {
         if (d->gvars[k] == i) {
            d->gvars[k] = d->gvars[--d->ngvars];
            break;
         }
      }
   }
   if (i->uslot != xe__inline_uslot(i))
      free(i->uslot);
   i->uslot = NULL;
   i->debug_info = false;
}

typedef void (*inst_visitor)(xe_module *m, xe_inst *i, void *data);

/* Visits every instruction of the module in layout order. */
static void visit_all(xe_module *m, inst_visitor fn, void *data)
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
      if ((i->kinds[w] == XE_W_ID || i->kinds[w] == XE_W_TYPE) && i->words[w] < m->bound)
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
   if (i->opcode == SpvOpLabel || i->opcode == SpvOpFunctionEnd || i->uslot)
      return;
   struct xe_defuse *d = m->defuse;
   if (xe__uses_keyed(m, i)) {
      xe__uses_link(m, i);
      return;
   }
   i->uslot = xe__inline_uslot(i);
   if (!i->uslot)
      i->uslot = xrealloc(NULL, i->nwords * sizeof(uint32_t));
   i->uslot[0] = NO_SLOT;
   for (unsigned w = 1; w < i->nwords; w++) {
      uint32_t id = i->words[w];
      i->uslot[w] = NO_SLOT;
      if ((i->kinds[w] != XE_W_ID && i->kinds[w] != XE_W_TYPE) || id >= m->bound)
         continue;
      idinfo *e = &d->ids[id];
      if (e->n == e->cap) {
         xe__uses_link_word(m, i, w);
         continue;
      }
      e->v[e->n].inst = i;
      e->v[e->n].word = (uint16_t)w;
      i->uslot[w] = e->n++;
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

static struct xe_defuse *built(const xe_module *cm)
{
   xe_module *m = (xe_module *)cm; /* the indexes are a cache: building them changes no content */
   if (m->defuse)
      return m->defuse;
   struct xe_defuse *d = m->defuse = xcalloc(1, sizeof(struct xe_defuse));
   /* Room for the ids passes will add, so the first fresh ids do not copy
    * the table. */
   d->cap = m->bound + m->bound / 8 + 64;
   d->ids = xcalloc(d->cap, sizeof(idinfo));
   d->names = xcalloc(d->cap, sizeof(xe_inst *));
   const struct xe_use_hint *h = m->use_hint;
   if (h) {
      uint32_t n = h->n < m->bound ? h->n : m->bound;
      for (uint32_t id = 0; id < n; id++) {
         d->ids[id].cap = h->uses[id];
         d->ids[id].capmeta = h->meta[id];
      }
   } else {
      visit_all(m, count_visit, NULL);
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
   visit_all(m, build_link, NULL);
   xe__uses_hint_free(m);
   return d;
}

/* ---- uses ---- */

static int use_cmp(const void *pa, const void *pb)
{
   const xe_use *a = pa, *b = pb;
   if (a->inst == b->inst)
      return (int)a->word - (int)b->word;
   return xe_layout_before(a->inst, b->inst) ? -1 : 1;
}

static void sort_uses(const xe_module *m, idinfo *e)
{
   if (e->order_epoch != m->order_epoch) {
      e->order_epoch = m->order_epoch;
      e->unsorted = e->n > 1;
   }
   if (!e->unsorted)
      return;
   qsort(e->v, e->n, sizeof(xe_use), use_cmp);
   for (uint32_t k = 0; k < e->n; k++)
      e->v[k].inst->uslot[e->v[k].word] = k;
   e->unsorted = false;
}

static xe_use *arena_take(struct xe_defuse *d, size_t n)
{
   chunk *c = d->arena;
   if (!c || c->cap - c->n < n) {
      /* 1,024 uses (16 KiB): a chunk under glibc's 64 KiB threshold, so
       * freeing it (between passes, and per function in some passes) does
       * not make malloc consolidate its free lists each time. */
      size_t cap = n > 1024 ? n : 1024;
      c = xrealloc(NULL, sizeof(chunk) + cap * sizeof(xe_use));
      c->cap = cap;
      c->n = 0;
      c->next = d->arena;
      d->arena = c;
   }
   xe_use *p = c->v + c->n;
   c->n += n;
   return p;
}

/* A copy of id's use list, in layout order when ordered; with the uses by
 * debug-info instructions when debug (xe_replace_all_uses), else without. */
static const xe_use *copy_uses(xe_module *m, uint32_t id, uint32_t *count, bool ordered,
                               bool debug)
{
   struct xe_defuse *d = built(m);
   idinfo *e = id < d->cap ? &d->ids[id] : NULL;
   uint32_t n = !e ? 0 : debug ? e->n : e->n - e->ndebug;
   *count = n;
   if (!n)
      return NULL;
   if (ordered)
      sort_uses(m, e);
   xe_use *copy = arena_take(d, n);
   if (n == e->n) {
      memcpy(copy, e->v, n * sizeof(xe_use));
      return copy;
   }
   for (uint32_t k = 0, j = 0; k < e->n; k++)
      if (!e->v[k].inst->debug_info)
         copy[j++] = e->v[k];
   return copy;
}

const xe_use *xe_uses(xe_module *m, uint32_t id, uint32_t *count)
{
   return copy_uses(m, id, count, true, false);
}

const xe_use *xe_uses_unordered(xe_module *m, uint32_t id, uint32_t *count)
{
   return copy_uses(m, id, count, false, false);
}

xe_inst *const *xe_global_variables(xe_module *m, uint32_t *count)
{
   struct xe_defuse *d = built(m);
   *count = d->ngvars;
   return d->gvars;
}

const xe_use *xe__uses_peek(xe_module *m, uint32_t id, uint32_t *count, bool ordered)
{
   struct xe_defuse *d = built(m);
   if (id >= d->cap || !d->ids[id].n) {
      *count = 0;
      return NULL;
   }
   idinfo *e = &d->ids[id];
   if (ordered)
      sort_uses(m, e);
   *count = e->n;
   return e->v;
}

uint32_t xe__call_count(xe_module *m, uint32_t id)
{
   struct xe_defuse *d = built(m);
   return id < d->cap ? d->ids[id].ncalls : 0;
}

void xe__uses_opcode_changed(xe_module *m, xe_inst *i, uint16_t old_opcode)
{
   struct xe_defuse *d = m->defuse;
   unsigned w = i->first_op;
   if (!d || !i->uslot || w >= i->nwords || i->uslot[w] == NO_SLOT)
      return;
   d->ids[i->words[w]].ncalls += (i->opcode == SpvOpFunctionCall) - (old_opcode == SpvOpFunctionCall);
   if ((i->opcode == SpvOpFunctionCall) != (old_opcode == SpvOpFunctionCall))
      m->calls_gen++;
}

uint32_t xe_use_count(xe_module *m, uint32_t id)
{
   struct xe_defuse *d = built(m);
   return id < d->cap ? d->ids[id].n - d->ids[id].ndebug : 0;
}

void xe_replace_all_uses(xe_module *m, uint32_t from, uint32_t to)
{
   if (from == to)
      return;
   uint32_t n;
   /* Debug info follows the value, as SPIRV-Tools' ReplaceAllUsesWith. */
   const xe_use *u = copy_uses(m, from, &n, true, true);
   for (uint32_t k = 0; k < n; k++)
      xe__set_word(u[k].inst, u[k].word, to);
}

void xe_inst_kill(xe_module *m, xe_inst *i)
{
   if (i->result_id) {
      struct xe_defuse *d = built(m);
      /* Each delete drops the entry from meta (and may move ids[]). */
      while (i->result_id < d->cap && d->ids[i->result_id].nmeta)
         xe_inst_delete(m, d->ids[i->result_id].meta[d->ids[i->result_id].nmeta - 1]);
   }
   xe_inst_delete(m, i);
}

/* ---- names, decorations, SpecIds, find-or-create ---- */

/* The first (in layout order) annotation of id with opcode op and, when
 * dec >= 0, decoration dec. */
static xe_inst *first_meta(const xe_module *m, uint32_t id, int op, int op2, int dec,
                           unsigned min_ops)
{
   struct xe_defuse *d = built(m);
   if (id >= d->cap)
      return NULL;
   idinfo *e = &d->ids[id];
   if (dec >= 0 && !(e->decs & 1u << (dec & 31)))
      return NULL;
   xe_inst *best = NULL;
   for (uint32_t k = 0; k < e->nmeta; k++) {
      xe_inst *i = e->meta[k];
      if (i->opcode != op && i->opcode != op2)
         continue;
      if (xe_nops(i) < min_ops || (dec >= 0 && xe_op(i, 1) != (uint32_t)dec))
         continue;
      if (!best || xe_layout_before(i, best))
         best = i;
   }
   return best;
}

const char *xe_name(const xe_module *m, uint32_t id)
{
   struct xe_defuse *d = built(m);
   if (id >= d->cap)
      return NULL;
   if (!d->names[id]) {
      xe_inst *i = first_meta(m, id, SpvOpName, SpvOpName, -1, 1);
      d->names[id] = i ? i : NAME_NONE;
   }
   return d->names[id] != NAME_NONE ? xe_op_string(d->names[id], 1) : NULL;
}

const char *xe_id_text(const xe_module *m, uint32_t id, char *buf, size_t n)
{
   const char *s = xe_name(m, id);
   if (s && *s)
      snprintf(buf, n, "%%%s", s);
   else
      snprintf(buf, n, "%%%u", id);
   return buf;
}

bool xe_decoration(const xe_module *m, uint32_t id, SpvDecoration dec, uint32_t *vals,
                   unsigned nvals)
{
   xe_inst *i = first_meta(m, id, SpvOpDecorate, SpvOpDecorateId, dec, 2);
   if (!i)
      return false;
   for (unsigned k = 0; k < nvals && 2 + k < xe_nops(i); k++)
      vals[k] = xe_op(i, 2 + k);
   return true;
}

bool xe_is_exported(const xe_module *m, uint32_t id)
{
   /* LinkageAttributes: target, decoration, name (string), linkage type. */
   xe_inst *i = first_meta(m, id, SpvOpDecorate, SpvOpDecorate, SpvDecorationLinkageAttributes, 4);
   return i && xe_op(i, xe_nops(i) - 1) != SpvLinkageTypeImport;
}

uint32_t xe_import_generic_cast(const xe_module *m, uint32_t fn_id)
{
   static const struct {
      const char *name;
      uint32_t sc;
   } casts[] = {
      { "__to_global", SpvStorageClassCrossWorkgroup },
      { "__to_local", SpvStorageClassWorkgroup },
      { "__to_private", SpvStorageClassFunction },
   };
   const xe_function *f = xe_function_by_id(m, fn_id);
   xe_inst *ln = f && !f->first
                    ? first_meta(m, fn_id, SpvOpDecorate, SpvOpDecorate,
                                 SpvDecorationLinkageAttributes, 4)
                    : NULL;
   if (!ln || xe_op(ln, xe_nops(ln) - 1) != SpvLinkageTypeImport)
      return SpvStorageClassMax;
   const char *name = xe_op_string(ln, 2);
   uint32_t sc = SpvStorageClassMax;
   for (unsigned k = 0; k < sizeof casts / sizeof casts[0]; k++)
      if (!strcmp(name, casts[k].name))
         sc = casts[k].sc;
   /* One Generic pointer in, a pointer of that class to the same type out
    * (OpGenericCastToPtrExplicit's own rule). */
   const xe_inst *param = f->params.first;
   while (param && param->opcode != SpvOpFunctionParameter)
      param = param->next;
   const xe_inst *rt = xe_def(m, f->def->type_id);
   const xe_inst *pt = param ? xe_def(m, param->type_id) : NULL;
   if (sc == SpvStorageClassMax || !param || !rt || !pt || rt->opcode != SpvOpTypePointer ||
       pt->opcode != SpvOpTypePointer || xe_op(pt, 0) != SpvStorageClassGeneric ||
       xe_op(rt, 0) != sc || xe_op(rt, 1) != xe_op(pt, 1))
      return SpvStorageClassMax;
   for (const xe_inst *q = param->next; q; q = q->next)
      if (q->opcode == SpvOpFunctionParameter)
         return SpvStorageClassMax;
   return sc;
}

bool xe__spec_id_used(const xe_module *m, uint32_t v)
{
   uint32_t *c = spec_slot(built(m), v, false);
   return c && *c;
}

/* The first SpecId >= from not in use.  The cursor [spec_from, spec_next)
 * is a run known to be in use (spec_del cuts it back); the walk jumps over
 * it and the new cursor keeps it when the two runs touch.  Callers that
 * alternate starting points (loop-spec-constants asks from 0, then from
 * the id it just took + 1) then cost O(1) per id, not a walk of every
 * SpecId taken so far. */
uint32_t xe__spec_id_fresh(const xe_module *m, uint32_t from)
{
   struct xe_defuse *d = built(m);
   uint32_t lo = from, v = from;
   if (d->spec_cursor && from >= d->spec_from && from <= d->spec_next) {
      lo = d->spec_from;
   } else if (d->spec_cursor && from > d->spec_next && from - d->spec_next <= 64) {
      /* A short gap above the run: when it is in use too, the runs join. */
      uint32_t w = d->spec_next;
      while (w < from && xe__spec_id_used(m, w))
         w++;
      if (w == from)
         lo = d->spec_from;
   }
   for (;;) {
      if (d->spec_cursor && v >= d->spec_from && v < d->spec_next) {
         v = d->spec_next;   /* in use, all of it */
         continue;
      }
      if (!xe__spec_id_used(m, v))
         break;
      v++;
   }
   d->spec_cursor = true;
   d->spec_from = lo;
   d->spec_next = v;
   return v;
}

uint32_t xe__find_global(xe_module *m, uint16_t op, uint32_t type_id, unsigned nops,
                         const uint32_t *ops)
{
   struct xe_defuse *d = built(m);
   if (!d->gcap)
      return 0;
   xe_inst *best = NULL;
   uint32_t h = content_hash(op, type_id, nops, ops) & (d->gcap - 1);
   for (; d->gtab[h]; h = (h + 1) & (d->gcap - 1)) {
      xe_inst *i = d->gtab[h];
      if (i != TOMB && same_content(i, op, type_id, nops, ops) &&
          (!best || xe_layout_before(i, best)))
         best = i;
   }
   return best ? best->result_id : 0;
}

/* ---- the check ---- */

struct fresh {
   uint32_t bound;
   uint32_t *start;
   xe_use *use;
   uint32_t *nmeta;
   bool fill;
};

static void fresh_visit(xe_module *m, xe_inst *i, void *data)
{
   struct fresh *f = data;
   for (unsigned w = 1; w < i->nwords; w++) {
      if ((i->kinds[w] != XE_W_ID && i->kinds[w] != XE_W_TYPE) || i->words[w] >= f->bound)
         continue;
      if (!f->fill) {
         f->start[i->words[w] + 1]++;
      } else {
         xe_use *u = &f->use[f->start[i->words[w]]++];
         u->inst = i;
         u->word = (uint16_t)w;
      }
   }
   if (!f->fill && meta_keyed(m, i) && xe_op(i, 0) < f->bound)
      f->nmeta[xe_op(i, 0)]++;
}

static bool fail(char **err, const char *fmt, uint32_t a, uint32_t b, uint32_t c)
{
   char buf[256];
   snprintf(buf, sizeof buf, fmt, a, b, c);
   *err = strdup(buf);
   return false;
}

static bool check_orders(xe_module *m, char **err)
{
   for (int s = 0; s < XE_SEC_COUNT; s++) {
      xe_foreach_inst(i, &m->sec[s])
         if (i->prev && i->prev->order >= i->order)
            return fail(err, "order keys out of order in section %u", s, 0, 0);
   }
   xe_foreach_fn(f, m) {
      if (f->prev && f->prev->order >= f->order)
         return fail(err, "function %%%u: order key out of order", xe_function_id(f), 0, 0);
      xe_foreach_block(b, f) {
         if (b->prev && b->prev->order >= b->order)
            return fail(err, "block %%%u: order key out of order", xe_block_id(b), 0, 0);
         xe_foreach_inst(i, &b->insts)
            if (i->prev && i->prev->order >= i->order)
               return fail(err, "block %%%u: instruction order keys out of order", xe_block_id(b), 0, 0);
      }
   }
   return true;
}

bool xe_check_uses(xe_module *m, char **err)
{
   struct xe_defuse *d = m->defuse;
   *err = NULL;
   if (!d)
      return true;
   if (!check_orders(m, err))
      return false;
   struct fresh f = { .bound = m->bound };
   f.start = xcalloc(m->bound + 2, sizeof(uint32_t));
   f.nmeta = xcalloc(m->bound + 1, sizeof(uint32_t));
   visit_all(m, fresh_visit, &f);
   for (uint32_t id = 0; id <= m->bound; id++)
      f.start[id + 1] += f.start[id];
   f.use = xrealloc(NULL, (f.start[m->bound] + 1) * sizeof(xe_use));
   f.fill = true;
   visit_all(m, fresh_visit, &f);
   memmove(f.start + 1, f.start, m->bound * sizeof(uint32_t));
   f.start[0] = 0;
   bool ok = true;
   for (uint32_t id = 0; ok && id < m->bound; id++) {
      uint32_t n = f.start[id + 1] - f.start[id];
      idinfo *e = id < d->cap ? &d->ids[id] : NULL;
      uint32_t live = e ? e->n : 0;
      if (live != n) {
         ok = fail(err, "%%%u has %u uses in its use list, %u in the module", id, live, n);
         break;
      }
      if (!n)
         continue;
      sort_uses(m, e);
      for (uint32_t k = 0; k < n; k++) {
         const xe_use *a = &e->v[k], *b = &f.use[f.start[id] + k];
         if (a->inst != b->inst || a->word != b->word) {
            ok = fail(err, "%%%u: use %u differs from the module (word %u)", id, k, b->word);
            break;
         }
         if (a->inst->uslot[a->word] != k) {
            ok = fail(err, "%%%u: use %u has a stale slot", id, k, 0);
            break;
         }
      }
      uint32_t calls = 0, debug = 0;
      for (uint32_t k = 0; k < n; k++) {
         calls += xe_use_is_call(&f.use[f.start[id] + k]);
         debug += xe_inst_is_debug_info(m, f.use[f.start[id] + k].inst);
      }
      if (ok && e->ncalls != calls)
         ok = fail(err, "%%%u has %u calls counted, %u in the module", id, e->ncalls, calls);
      if (ok && e->ndebug != debug)
         ok = fail(err, "%%%u has %u debug-info uses counted, %u in the module", id, e->ndebug,
                   debug);
      for (uint32_t k = 0; ok && e && k < e->nmeta; k++) {
         if (dec_bit(e->meta[k]) & ~e->decs)
            ok = fail(err, "%%%u: a decoration is missing from its decoration bits", id, 0, 0);
      }
      if (ok && (e ? e->nmeta : 0) != f.nmeta[id])
         ok = fail(err, "%%%u has %u names/decorations indexed, %u in the module", id,
                   e ? e->nmeta : 0, f.nmeta[id]);
   }
   uint32_t ngv = 0;
   xe_foreach_inst(i, &m->sec[XE_SEC_GLOBAL])
      ngv += global_variable(m, i);
   if (ok && ngv != d->ngvars)
      ok = fail(err, "%u global variables indexed, %u in the module", d->ngvars, ngv, 0);
   for (uint32_t k = 0; ok && k < d->ngvars; k++) {
      if (!global_variable(m, d->gvars[k]) || !d->gvars[k]->uslot)
         ok = fail(err, "%%%u is indexed as a global variable but is not one in the module",
                   d->gvars[k]->result_id, 0, 0);
   }
   for (uint32_t id = 0; ok && id < d->cap; id++) {
      if (!d->names[id])
         continue;
      xe_inst *first = first_meta(m, id, SpvOpName, SpvOpName, -1, 1);
      if (d->names[id] != (first ? first : NAME_NONE))
         ok = fail(err, "%%%u: the remembered name is stale", id, 0, 0);
   }
   for (uint32_t k = 0; ok && k < d->gcap; k++) {
      xe_inst *i = d->gtab[k];
      if (i && i != TOMB && (!global_keyed(m, i) || !i->uslot))
         ok = fail(err, "%%%u is indexed as a type/constant but is not one in the module",
                   i->result_id, 0, 0);
   }
   free(f.start);
   free(f.nmeta);
   free(f.use);
   return ok;
}

int xe_builtin_of(const xe_module *m, uint32_t var_id)
{
   uint32_t b;
   return xe_decoration(m, var_id, SpvDecorationBuiltIn, &b, 1) ? (int)b : -1;
}
