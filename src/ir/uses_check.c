/*
 * xe_check_uses: the use lists, call and debug-info counts, name and
 * decoration indexes, global variables, remembered names and the
 * type/constant table compared with a fresh walk of the module (the
 * pipeline runs it after every pass under XEOPT_CHECK_PASSES=1, as the
 * test suite sets it).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "defuse.h"

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
      if ((xe_kinds(i)[w] != XE_W_ID && xe_kinds(i)[w] != XE_W_TYPE) || i->words[w] >= f->bound)
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
   f.start = xe_calloc(m->bound + 2, sizeof(uint32_t));
   f.nmeta = xe_calloc(m->bound + 1, sizeof(uint32_t));
   xe__visit_all(m, fresh_visit, &f);
   for (uint32_t id = 0; id <= m->bound; id++)
      f.start[id + 1] += f.start[id];
   f.use = xrealloc(NULL, (f.start[m->bound] + 1) * sizeof(xe_use));
   f.fill = true;
   xe__visit_all(m, fresh_visit, &f);
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
      xe__sort_uses(m, e);
      for (uint32_t k = 0; k < n; k++) {
         const xe_use *a = &e->v[k], *b = &f.use[f.start[id] + k];
         if (a->inst != b->inst || a->word != b->word) {
            ok = fail(err, "%%%u: use %u differs from the module (word %u)", id, k, b->word);
            break;
         }
         if (xe__uslot(a->inst)[a->word] != k) {
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
      if (!global_variable(m, d->gvars[k]) || !d->gvars[k]->tracked)
         ok = fail(err, "%%%u is indexed as a global variable but is not one in the module",
                   d->gvars[k]->result_id, 0, 0);
   }
   for (uint32_t id = 0; ok && id < d->cap; id++) {
      if (!d->names[id])
         continue;
      xe_inst *first = xe__first_meta(m, id, SpvOpName, SpvOpName, -1, 1);
      if (d->names[id] != (first ? first : NAME_NONE))
         ok = fail(err, "%%%u: the remembered name is stale", id, 0, 0);
   }
   for (uint32_t k = 0; ok && k < d->gcap; k++) {
      xe_inst *i = d->gtab[k];
      if (i && i != TOMB && (!global_keyed(m, i) || !i->tracked))
         ok = fail(err, "%%%u is indexed as a type/constant but is not one in the module",
                   i->result_id, 0, 0);
   }
   free(f.start);
   free(f.nmeta);
   free(f.use);
   return ok;
}
