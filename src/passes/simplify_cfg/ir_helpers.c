/*
 * simplify-cfg's own IR helpers: a block by its label, phi entries, and
 * the deletion of what computed a folded branch's selector (a phi web, a
 * slot variable and its stores: shapes src/ir's clean-up does not take).
 */
#include <stdlib.h>

#include "simplify_cfg.h"

/* The name of c->f for remarks: its OpName, else its id. */
const char *scfg_fname_of(simplify *c)
{
   if (!c->fname) {
      uint32_t id = xe_function_id(c->f);
      c->fname = xe_name(c->m, id);
      if (!c->fname)
         c->fname = xe_id_text(c->m, id, c->fname_buf, sizeof c->fname_buf);
   }
   return c->fname;
}

/* The block labelled id, NULL when id is no OpLabel. */
xe_block *scfg_block_of_label(xe_module *m, uint32_t id)
{
   const xe_inst *l = xe_def(m, id);
   return l && l->opcode == SpvOpLabel ? l->block : NULL;
}

/* Appends the entry (value, parent) to phi. */
void scfg_add_phi_entry(xe_inst *phi, uint32_t value, uint32_t parent)
{
   unsigned n = xe_nops(phi);
   uint32_t *ops = malloc((n + 2) * sizeof(uint32_t));
   uint8_t *kinds = malloc(n + 2);
   for (unsigned k = 0; k < n; k++) {
      ops[k] = xe_op(phi, k);
      kinds[k] = XE_W_ID;
   }
   ops[n] = value;
   ops[n + 1] = parent;
   kinds[n] = kinds[n + 1] = XE_W_ID;
   xe_set_ops(phi, ops, n + 2, kinds);
   free(ops);
   free(kinds);
}

/* The value phi takes from parent, 0 if it has no entry for it. */
uint32_t scfg_phi_value(const xe_inst *phi, uint32_t parent)
{
   for (unsigned k = 0; k + 1 < xe_nops(phi); k += 2) {
      if (xe_op(phi, k + 1) == parent)
         return xe_op(phi, k);
   }
   return 0;
}

/* A name or decoration (in no block and no function). */
bool scfg_is_meta(const xe_inst *i)
{
   return !i->block && !xe_inst_function(i);
}

/* Deletes the phi web of id (below) when nothing outside it uses it. */
static void delete_dead_phis(xe_module *m, uint32_t id)
{
   xe_inst *web[MAX_SEEN];
   unsigned n = 0;
   xe_inst *d = xe_def(m, id);
   if (!d || d->opcode != SpvOpPhi)
      return;
   web[n++] = d;
   for (unsigned k = 0; k < n; k++) {
      for (unsigned o = 0; o + 1 < xe_nops(web[k]); o += 2) {
         xe_inst *p = xe_def(m, xe_op(web[k], o));
         if (!p || p->opcode != SpvOpPhi)
            continue;
         bool have = false;
         for (unsigned q = 0; q < n; q++)
            have |= web[q] == p;
         if (!have) {
            if (n == MAX_SEEN)
               return;
            web[n++] = p;
         }
      }
   }
   for (unsigned k = 0; k < n; k++) {
      uint32_t nu = 0;
      const xe_use *u = xe_uses(m, web[k]->result_id, &nu);
      for (uint32_t j = 0; j < nu; j++) {
         if (scfg_is_meta(u[j].inst))
            continue;
         bool inside = false;
         for (unsigned q = 0; q < n; q++)
            inside |= web[q] == u[j].inst;
         if (!inside)
            return;
      }
   }
   for (unsigned k = 0; k < n; k++)
      xe_inst_kill(m, web[k]);
}

/* Deletes a Function variable nothing reads any more, with its stores. */
static void delete_dead_slot(xe_module *m, uint32_t var)
{
   xe_inst *v = xe_def(m, var);
   if (!v || v->opcode != SpvOpVariable || !v->block || xe_op(v, 0) != SpvStorageClassFunction)
      return;
   uint32_t n = 0;
   const xe_use *u = xe_uses(m, var, &n);
   for (uint32_t k = 0; k < n; k++) {
      const xe_inst *i = u[k].inst;
      bool store = i->opcode == SpvOpStore && u[k].word == i->first_op &&
                   !scfg_volatile_access(i, 2);
      if (!scfg_is_meta(i) && !store && i->opcode != SpvOpLifetimeStart &&
          i->opcode != SpvOpLifetimeStop)
         return;
   }
   for (uint32_t k = 0; k < n; k++) {
      if (!scfg_is_meta(u[k].inst))
         xe_inst_delete(m, u[k].inst);
   }
   xe_inst_kill(m, v);
}

/* Deletes what computed a folded selector once nothing else uses it: the
 * web of phis reached through phi operands (all or nothing: a loop-carried
 * slot is a cycle of phis using each other), or the load of a slot
 * variable and then the variable. */
void scfg_delete_dead_selector(xe_module *m, uint32_t id)
{
   xe_inst *d = xe_def(m, id);
   if (d && d->opcode == SpvOpLoad && d->block) {
      if (!xe_result_unused(m, id))
         return;
      uint32_t var = xe_op(d, 0);
      xe_inst_kill(m, d);
      delete_dead_slot(m, var);
      return;
   }
   delete_dead_phis(m, id);
}

/* The mask operand of an OpLoad (1) or OpStore (2) has Volatile. */
bool scfg_volatile_access(const xe_inst *i, unsigned mask_op)
{
   return xe_nops(i) > mask_op && (xe_op(i, mask_op) & SpvMemoryAccessVolatileMask);
}

/* Does a merge instruction precede t (OpLine aside)? */
bool scfg_has_merge(const xe_inst *t)
{
   const xe_inst *p = t->prev;
   while (p && (p->opcode == SpvOpLine || p->opcode == SpvOpNoLine))
      p = p->prev;
   return p && (p->opcode == SpvOpSelectionMerge || p->opcode == SpvOpLoopMerge);
}
