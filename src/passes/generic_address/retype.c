/*
 * generic-address: retyping the values infer.c chose.  Roots (parameters,
 * loaded pointers) keep their Generic value and get a cast to the proven
 * space right after them; access chains, bitcasts, OpPhi, OpSelect and
 * OpCopyObject take the specific pointer type in place, and
 * OpPtrCastToGeneric becomes a same-class bitcast.
 */
#include "generic_address.h"

/* The first instruction of an entry block after its OpVariables (SPIR-V
 * 2.16.1: they must come first in the function; DPC++'s helpers have some,
 * and a cast placed before them made an invalid module). */
static xe_inst *after_variables(const xe_module *m, xe_block *entry)
{
   xe_inst *i = xe_block_first_non_phi(m, entry);
   while (i && (i->opcode == SpvOpVariable || xe_inst_is_source_info(m, i)))
      i = i->next;
   return i;
}

/* A parameter: its cast goes after the entry block's variables. */
static void retype_params(ga_fn *s)
{
   xe_module *m = s->m;
   xe_foreach_inst(p, &s->f->params) {
      uint32_t id = p->result_id;
      if (!ga_is_retyped(s, id))
         continue;
      xe_inst *gt = xe_def(m, p->type_id);
      uint32_t nt = xe_type_pointer(m, (SpvStorageClass)xe_as_space(&s->a, id), xe_op(gt, 1));
      xe_builder bd = xe_builder_before(m, after_variables(m, s->f->first));
      s->alias[ga_loc(s, id)] = xe_build1(&bd, SpvOpGenericCastToPtr, nt, id);
      s->orig_type[ga_loc(s, id)] = p->type_id;
      const char *pn = xe_name(m, id);
      xe_remark(s->r, s->kernel, XE_REMARK_APPLIED, "parameter %%%s of %s is always %s: accesses use it directly",
                pn ? pn : "?", s->fname, ga_space_name(xe_as_space(&s->a, id)));
      s->nretyped++;
   }
}

/* A loaded pointer: its cast goes right after the load. */
static void retype_loads(ga_fn *s)
{
   xe_module *m = s->m;
   xe_foreach_block(b, s->f) {
      xe_foreach_inst_safe(i, nx, &b->insts) {
         uint32_t id = i->result_id;
         if (!ga_is_retyped(s, id) || i->opcode != SpvOpLoad)
            continue;
         xe_inst *gt = xe_def(m, i->type_id);
         uint32_t nt = xe_type_pointer(m, (SpvStorageClass)xe_as_space(&s->a, id), xe_op(gt, 1));
         uint32_t ops[1] = { id };
         xe_inst *c = xe_inst_create(SpvOpGenericCastToPtr, nt, xe_fresh_id(m), ops, 1, NULL);
         xe_list_insert_after(m, i, c);
         s->alias[ga_loc(s, id)] = c->result_id;
         s->orig_type[ga_loc(s, id)] = i->type_id;
         s->nretyped++;
      }
   }
}

void ga_retype_roots(ga_fn *s)
{
   retype_params(s);
   retype_loads(s);
}

/* Null operands of a retyped phi/select must have the new type nt. */
static void retype_nulls(xe_module *m, xe_inst *i, uint32_t nt)
{
   unsigned from = i->opcode == SpvOpSelect ? 1 : 0;
   if (i->opcode == SpvOpSelect || i->opcode == SpvOpPhi) {
      for (unsigned k = from; k < xe_nops(i); k += (i->opcode == SpvOpPhi ? 2 : 1)) {
         xe_inst *d = xe_def(m, xe_op(i, k));
         if (d && d->opcode == SpvOpConstantNull)
            xe_set_op(i, k, ga_const_null(m, nt));
      }
   }
}

void ga_retype_values(ga_fn *s)
{
   xe_module *m = s->m;
   xe_foreach_block(b, s->f) {
      xe_foreach_inst(i, &b->insts) {
         uint32_t id = i->result_id;
         if (!ga_is_retyped(s, id) || s->alias[ga_loc(s, id)])
            continue;
         xe_inst *gt = xe_def(m, i->type_id);
         uint32_t nt = xe_type_pointer(m, (SpvStorageClass)xe_as_space(&s->a, id), xe_op(gt, 1));
         s->orig_type[ga_loc(s, id)] = i->type_id;
         xe_set_type(i, nt);
         s->nretyped++;
         if (i->opcode == SpvOpPtrCastToGeneric)
            xe_set_opcode(i, SpvOpBitcast);
         retype_nulls(m, i, nt);
      }
   }
}
