/*
 * Functions and blocks: creating them, deleting blocks, the questions
 * about a block's phis and terminator, and cloning a function with fresh
 * result ids (function-cloning passes such as subgroup versioning).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ir_internal.h"

/* ---- functions and blocks ---- */

xe_function *xe_function_create(xe_module *m, xe_inst *def, xe_inst *end)
{
   xe_function *f = xe__fn_struct_alloc(m, sizeof(*f));
   f->def = def;
   f->end = end;
   f->module = m;
   f->params.m = m;
   if (def)
      def->function_ = f;
   if (def)
      xe_note_def(m, def);
   return f;
}

void xe_function_append(xe_module *m, xe_function *f)
{
   f->prev = m->last_fn;
   f->order = m->last_fn ? m->last_fn->order + 1 : 1;
   if (m->last_fn)
      m->last_fn->next = f;
   else
      m->first_fn = f;
   m->last_fn = f;
   /* Its instructions may be in the use lists already, with order 0. */
   m->order_epoch++;
   /* OpFunction uses its return and function types. */
   if (f->def)
      xe__uses_link(m, f->def);
}

xe_block *xe_block_create(xe_module *m, xe_function *f, uint32_t label_id)
{
   xe_block *b = xe__struct_alloc(m, sizeof(*b));
   b->fn = f;
   b->insts.m = m;
   b->label = xe_inst_create(SpvOpLabel, 0, label_id, NULL, 0, NULL);
   b->label->block = b;
   xe_note_def(m, b->label);
   return b;
}

void xe_block_delete(xe_module *m, xe_function *f, xe_block *b)
{
   xe_foreach_inst_safe(i, nx, &b->insts)
      xe_inst_kill(m, i);
   xe_block_unlink(f, b);
   xe_inst_kill(m, b->label);
   xe__pool_release(b, sizeof(*b));
}

xe_inst *xe_block_terminator(const xe_block *b)
{
   for (xe_inst *i = b->insts.last; i; i = i->prev) {
      if (i->opcode == SpvOpLine || i->opcode == SpvOpNoLine)
         continue;
      return xe_opcode_is_terminator(i->opcode) ? i : NULL;
   }
   return NULL;
}

bool xe_inst_is_source_info(const xe_module *m, const xe_inst *i)
{
   return i->opcode == SpvOpLine || i->opcode == SpvOpNoLine || xe_inst_is_debug_info(m, i);
}

xe_inst *xe_skip_source_info(const xe_module *m, xe_inst *i)
{
   while (i && xe_inst_is_source_info(m, i))
      i = i->next;
   return i;
}

xe_inst *xe_phi_at(const xe_module *m, xe_inst *i)
{
   i = xe_skip_source_info(m, i);
   return i && i->opcode == SpvOpPhi ? i : NULL;
}

xe_inst *xe_block_first_non_phi(const xe_module *m, const xe_block *b)
{
   xe_foreach_inst(i, &b->insts) {
      if (i->opcode != SpvOpPhi && !xe_inst_is_source_info(m, i))
         return i;
   }
   return NULL;
}

int xe_param_index(const xe_function *f, uint32_t id)
{
   int k = 0;
   xe_foreach_inst(p, &f->params) {
      if (p->opcode != SpvOpFunctionParameter)
         continue;
      if (p->result_id == id)
         return k;
      k++;
   }
   return -1;
}

/* ---- cloning ---- */

/* Old id -> new id for the results of one function: open addressing,
 * sized by the function, not by the module's bound (cloning one function
 * of a large module must not cost the module's size). */
typedef struct idmap {
   uint32_t *key, *val, cap;
} idmap;

static uint32_t *idmap_slot(idmap *mp, uint32_t id)
{
   uint32_t h = id * 0x9e3779b1u;
   for (h &= mp->cap - 1; mp->key[h] && mp->key[h] != id; h = (h + 1) & (mp->cap - 1))
      ;
   mp->key[h] = id;
   return &mp->val[h];
}

static uint32_t idmap_get(idmap *mp, uint32_t id)
{
   uint32_t h = id * 0x9e3779b1u;
   for (h &= mp->cap - 1; mp->key[h]; h = (h + 1) & (mp->cap - 1)) {
      if (mp->key[h] == id)
         return mp->val[h];
   }
   return id;
}

/* A copy of i in m's pool (the clone joins m) with ids renamed by mp. */
static xe_inst *clone_remapped(xe_module *m, const xe_inst *i, idmap *mp)
{
   xe_inst *c = xe__inst_copy(xe__inst_alloc_pooled(m, i->nwords), i);
   for (unsigned w = 1; w < c->nwords; w++)
      if (xe_kinds(c)[w] == XE_W_ID)
         c->words[w] = idmap_get(mp, c->words[w]);
   if (c->result_id)
      xe_set_result(c, idmap_get(mp, c->result_id));
   return c;
}

xe_function *xe_function_clone(xe_module *m, xe_function *f)
{
   uint32_t n = 2;
   xe_foreach_inst(p, &f->params)
      n++;
   xe_foreach_block(b, f) {
      n++;
      xe_foreach_inst(i, &b->insts)
         n++;
   }
   idmap mp = { NULL, NULL, 16 };
   while (mp.cap < 2 * n)
      mp.cap *= 2;
   mp.key = xe_calloc(mp.cap, sizeof(uint32_t));
   mp.val = xe_calloc(mp.cap, sizeof(uint32_t));
   /* Fresh ids in layout order: the function, parameters, then each
    * block's label and results. */
   *idmap_slot(&mp, xe_function_id(f)) = xe_fresh_id(m);
   xe_foreach_inst(p, &f->params)
      if (p->result_id)
         *idmap_slot(&mp, p->result_id) = xe_fresh_id(m);
   xe_foreach_block(b, f) {
      *idmap_slot(&mp, xe_block_id(b)) = xe_fresh_id(m);
      xe_foreach_inst(i, &b->insts)
         if (i->result_id)
            *idmap_slot(&mp, i->result_id) = xe_fresh_id(m);
   }
   xe_function *nf = xe_function_create(m, clone_remapped(m, f->def, &mp),
                                          clone_remapped(m, f->end, &mp));
   xe_foreach_inst(p, &f->params)
      xe_list_append(m, &nf->params, clone_remapped(m, p, &mp));
   xe_foreach_block(b, f) {
      xe_block *nb = xe_block_create(m, nf, idmap_get(&mp, xe_block_id(b)));
      xe_block_insert(nf, NULL, nb);
      xe_foreach_inst(i, &b->insts)
         xe_block_append(m, nb, clone_remapped(m, i, &mp));
   }
   xe_function_append(m, nf);
   free(mp.key);
   free(mp.val);
   return nf;
}
