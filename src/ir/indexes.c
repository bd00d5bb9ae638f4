/*
 * The questions asked of the use lists and their indexes, each of which
 * builds them first (xe__defuse_built): an id's uses, its names and
 * decorations, the SpecIds in use (and the first free one), types and
 * constants by content (find-or-create); and the two edits that walk an
 * id's uses (xe_replace_all_uses, xe_inst_kill).
 *
 * xe_uses hands out a copy in an arena, not the live array: passes walk
 * the uses of an id while rewriting them, which edits the live array.
 * uses.c keeps the lists and the indexes' tables current as instructions
 * are linked and unlinked.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "defuse.h"

/* ---- names, decorations, SpecIds, find-or-create ---- */

static bool same_content(const xe_inst *i, uint16_t op, uint32_t type_id, unsigned nops,
                         const uint32_t *ops)
{
   return i->opcode == op && i->type_id == type_id && xe_nops(i) == nops &&
          (!nops || !memcmp(&i->words[i->first_op], ops, nops * 4));
}

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
   uint32_t *c = xe__spec_slot(xe__defuse_built(m), v, false);
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
   uint32_t h = xe__content_hash(op, type_id, nops, ops) & (d->gcap - 1);
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

/* ---- an id's uses ---- */

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
   struct xe_defuse *d = xe__defuse_built(m);
   idinfo *e = id < d->cap ? &d->ids[id] : NULL;
   uint32_t n = !e ? 0 : debug ? e->n : e->n - e->ndebug;
   *count = n;
   if (!n)
      return NULL;
   if (ordered)
      xe__sort_uses(m, e);
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
   struct xe_defuse *d = xe__defuse_built(m);
   *count = d->ngvars;
   return d->gvars;
}

const xe_use *xe__uses_peek(xe_module *m, uint32_t id, uint32_t *count, bool ordered)
{
   struct xe_defuse *d = xe__defuse_built(m);
   if (id >= d->cap || !d->ids[id].n) {
      *count = 0;
      return NULL;
   }
   idinfo *e = &d->ids[id];
   if (ordered)
      xe__sort_uses(m, e);
   *count = e->n;
   return e->v;
}

uint32_t xe__call_count(xe_module *m, uint32_t id)
{
   struct xe_defuse *d = xe__defuse_built(m);
   return id < d->cap ? d->ids[id].ncalls : 0;
}

uint32_t xe_use_count(xe_module *m, uint32_t id)
{
   struct xe_defuse *d = xe__defuse_built(m);
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
      struct xe_defuse *d = xe__defuse_built(m);
      /* Each delete drops the entry from meta (and may move ids[]). */
      while (i->result_id < d->cap && d->ids[i->result_id].nmeta)
         xe_inst_delete(m, d->ids[i->result_id].meta[d->ids[i->result_id].nmeta - 1]);
   }
   xe_inst_delete(m, i);
}
