/*
 * generic-address: the uses of the retyped values.  OpGenericCastToPtr
 * [Explicit] of a known value folds (to the pointer, or to null when
 * to_global()/to_local()/to_private() asks another class); uses that need
 * a Generic operand (calls, stores of the pointer, OpReturnValue, ...) get
 * the root's own value or a fresh OpPtrCastToGeneric, so they see the same
 * pointer as before.
 */
#include <stdlib.h>

#include "generic_address.h"

/* Folds the cast u of id (its space known; val: what u now reads);
 * whether u was folded (and then maybe deleted). */
static bool fold_cast(ga_fn *s, xe_inst *u, uint32_t id, uint32_t val)
{
   xe_module *m = s->m;
   xe_inst *tt = xe_def(m, u->type_id);
   int want = (int)xe_op(tt, 0);
   char wbuf[256];
   ga_where(m, s->f, u, wbuf, sizeof wbuf);
   if (want == xe_as_space(&s->a, id)) {
      /* The cast always succeeds: same pointer, maybe retyped pointee. */
      xe_set_opcode(u, SpvOpBitcast);
      xe_set_ops(u, &val, 1, NULL);
      xe_remark(s->r, s->kernel, XE_REMARK_APPLIED, "%s: cast to %s folded, the pointer is %s",
                wbuf, ga_space_name(want), ga_space_name(want));
      s->progress = true;
      return true;
   }
   if (u->opcode == SpvOpGenericCastToPtrExplicit) {
      /* to_global() and friends return null for another space. */
      xe_replace_all_uses(m, u->result_id, ga_const_null(m, u->type_id));
      xe_remark(s->r, s->kernel, XE_REMARK_APPLIED, "%s: cast to %s folded to null, the pointer is %s",
                wbuf, ga_space_name(want), ga_space_name(xe_as_space(&s->a, id)));
      xe_inst_delete(m, u);
      s->progress = true;
      return true;
   }
   return false;
}

/* The use at word w of u of the retyped id; val: the value its uses now
 * take (a root's cast, else id). */
static void fix_use(ga_fn *s, uint32_t id, uint32_t val, xe_inst *u, unsigned w)
{
   xe_module *m = s->m;
   if (!u->block)
      return;   /* names and decorations */
   if (val != id) {
      if (u->result_id == val)
         return;   /* the cast itself */
      xe_set_word(u, w, val);
   }
   bool ru = ga_is_retyped(s, u->result_id);
   if ((u->opcode == SpvOpGenericCastToPtrExplicit || u->opcode == SpvOpGenericCastToPtr) &&
       fold_cast(s, u, id, val))
      return;
   if (ga_use_accepts_specific(&s->a, u, w, ru))
      return;
   /* Give this use the Generic pointer it had: a root's own value,
    * else a cast back. */
   if (val != id) {
      xe_set_word(u, w, id);
      return;
   }
   xe_inst *pos = u;
   if (u->opcode == SpvOpPhi) {
      xe_inst *lab = xe_def(m, u->words[w + 1]);
      pos = xe_block_terminator(lab->block);
   }
   xe_builder bd = xe_builder_before(m, pos);
   uint32_t g = xe_build1(&bd, SpvOpPtrCastToGeneric, s->orig_type[ga_loc(s, id)], id);
   xe_set_word(u, w, g);
}

void ga_fix_uses(ga_fn *s)
{
   for (uint32_t j = 0; j < s->nids; j++) {
      uint32_t id = s->ids[j];
      if (!s->retype[ga_loc(s, id)])
         continue;
      uint32_t n;
      /* Tables are indexed by id; a root's uses now take val, its cast
       * (alias), whose id is past the tables. */
      uint32_t val = s->alias[ga_loc(s, id)] ? s->alias[ga_loc(s, id)] : id;
      const xe_use *us = xe_uses(s->m, id, &n);
      xe_use *copy = malloc(sizeof(xe_use) * (n ? n : 1));
      for (uint32_t k = 0; k < n; k++)
         copy[k] = us[k];
      for (uint32_t k = 0; k < n; k++)
         fix_use(s, id, val, copy[k].inst, copy[k].word);
      free(copy);
   }
}
