/*
 * The indexes that hang off the use lists: SpecIds in use (and the first
 * free one), types and constants by content (find-or-create), and the
 * questions about an id's names and decorations.  uses.c enters and
 * removes their entries as instructions are linked and unlinked.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "defuse.h"

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

void xe__spec_add(struct xe_defuse *d, uint32_t v)
{
   ++*spec_slot(d, v, true);
}

void xe__spec_del(struct xe_defuse *d, uint32_t v)
{
   uint32_t *c = spec_slot(d, v, false);
   if (c && *c && !--*c && d->spec_cursor && v >= d->spec_from && v < d->spec_next)
      d->spec_next = v;
}

/* ---- types and constants by content ---- */

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

static void gtab_grow(struct xe_defuse *d)
{
   uint32_t ocap = d->gcap;
   xe_inst **old = d->gtab;
   d->gcap = ocap ? 2 * ocap : 256;
   d->gtab = xcalloc(d->gcap, sizeof(xe_inst *));
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
   uint32_t h = content_hash(i->opcode, i->type_id, xe_nops(i), &i->words[i->first_op]);
   for (h &= d->gcap - 1; d->gtab[h] && d->gtab[h] != TOMB; h = (h + 1) & (d->gcap - 1))
      ;
   if (!d->gtab[h])
      d->gn++; /* tombstones count already */
   d->gtab[h] = i;
}

void xe__gtab_del(struct xe_defuse *d, xe_inst *i)
{
   uint32_t h = content_hash(i->opcode, i->type_id, xe_nops(i), &i->words[i->first_op]);
   for (h &= d->gcap - 1; d->gtab[h]; h = (h + 1) & (d->gcap - 1)) {
      if (d->gtab[h] == i) {
         d->gtab[h] = TOMB;
         return;
      }
   }
}

/* ---- names, decorations, SpecIds, find-or-create ---- */

/* The first (in layout order) annotation of id with opcode op and, when
 * dec >= 0, decoration dec. */
xe_inst *xe__first_meta(const xe_module *m, uint32_t id, int op, int op2, int dec,
                           unsigned min_ops)
{
   struct xe_defuse *d = xe__defuse_built(m);
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
   struct xe_defuse *d = xe__defuse_built(m);
   if (id >= d->cap)
      return NULL;
   if (!d->names[id]) {
      xe_inst *i = xe__first_meta(m, id, SpvOpName, SpvOpName, -1, 1);
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
   xe_inst *i = xe__first_meta(m, id, SpvOpDecorate, SpvOpDecorateId, dec, 2);
   if (!i)
      return false;
   for (unsigned k = 0; k < nvals && 2 + k < xe_nops(i); k++)
      vals[k] = xe_op(i, 2 + k);
   return true;
}

bool xe_is_exported(const xe_module *m, uint32_t id)
{
   /* LinkageAttributes: target, decoration, name (string), linkage type. */
   xe_inst *i = xe__first_meta(m, id, SpvOpDecorate, SpvOpDecorate, SpvDecorationLinkageAttributes, 4);
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
                    ? xe__first_meta(m, fn_id, SpvOpDecorate, SpvOpDecorate,
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
   uint32_t *c = spec_slot(xe__defuse_built(m), v, false);
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
   struct xe_defuse *d = xe__defuse_built(m);
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
   struct xe_defuse *d = xe__defuse_built(m);
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

int xe_builtin_of(const xe_module *m, uint32_t var_id)
{
   uint32_t b;
   return xe_decoration(m, var_id, SpvDecorationBuiltIn, &b, 1) ? (int)b : -1;
}
