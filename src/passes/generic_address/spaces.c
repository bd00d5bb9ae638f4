/*
 * generic-address: what its files share, the names of the spaces, which
 * instructions and uses take a specific pointer, the null constant of a
 * type, where a pointer is used (for remarks), and a value's place in the
 * per-function analysis (ga_loc, ga_is_retyped).
 */
#include <stdio.h>

#include "generic_address.h"

uint32_t ga_loc(const ga_fn *s, uint32_t id)
{
   uint32_t k = xe_idmap_find(&s->a.ids, id);
   if (k == XE_IDMAP_NONE)
      xe_out_of_memory();   /* only f's ids get here: a bug otherwise */
   return k;
}

bool ga_is_retyped(const ga_fn *s, uint32_t id)
{
   uint32_t k = xe_idmap_find(&s->a.ids, id);
   return k != XE_IDMAP_NONE && s->retype[k];
}

const char *ga_space_name(int s)
{
   switch (s) {
   case SpvStorageClassCrossWorkgroup: return "CrossWorkgroup";
   case SpvStorageClassWorkgroup: return "Workgroup";
   case SpvStorageClassFunction: return "Function";
   default: return "other";
   }
}

bool ga_retypable(uint16_t op)
{
   switch (op) {
   case SpvOpPtrCastToGeneric: case SpvOpAccessChain: case SpvOpInBoundsAccessChain:
   case SpvOpPtrAccessChain: case SpvOpInBoundsPtrAccessChain: case SpvOpBitcast:
   case SpvOpCopyObject: case SpvOpSelect: case SpvOpPhi:
      return true;
   default:
      return false;
   }
}

/* Only the three spaces that the generic space aliases are inferred. */
bool ga_specific(int s)
{
   return s == SpvStorageClassCrossWorkgroup || s == SpvStorageClassWorkgroup ||
          s == SpvStorageClassFunction;
}

uint32_t ga_const_null(xe_module *m, uint32_t type)
{
   xe_foreach_inst(g, &m->sec[XE_SEC_GLOBAL])
      if (g->opcode == SpvOpConstantNull && g->type_id == type)
         return g->result_id;
   return xe_global_append(m, SpvOpConstantNull, type, 0, NULL, NULL);
}

/* Does the use at operand word w of user accept a pointer of any class? */
bool ga_use_accepts_specific(const xe_as_info *a, xe_inst *u, unsigned w, bool retyped_user)
{
   if (retyped_user)
      return true;
   unsigned k = w - u->first_op;
   switch (u->opcode) {
   case SpvOpLoad: return k == 0;
   case SpvOpStore: return k == 0;
   case SpvOpConvertPtrToU: return true;
   case SpvOpAtomicLoad: case SpvOpAtomicStore: case SpvOpAtomicExchange:
   case SpvOpAtomicCompareExchange: case SpvOpAtomicIIncrement: case SpvOpAtomicIDecrement:
   case SpvOpAtomicIAdd: case SpvOpAtomicISub: case SpvOpAtomicSMin: case SpvOpAtomicUMin:
   case SpvOpAtomicSMax: case SpvOpAtomicUMax: case SpvOpAtomicAnd: case SpvOpAtomicOr:
   case SpvOpAtomicXor:
      return k == 0;
   default:
      (void)a;
      return false;
   }
}

void ga_where(xe_module *m, xe_function *f, xe_inst *i, char *buf, size_t n)
{
   const char *fn = xe_name(m, xe_function_id(f));
   unsigned line = 0;
   for (xe_inst *p = i; p; p = p->prev)
      if (p->opcode == SpvOpLine) {
         line = xe_op(p, 1);
         break;
      }
   const char *pn = xe_name(m, xe_op(i, 0));
   int l = snprintf(buf, n, "in %s, pointer %%%s", fn ? fn : "?", pn ? pn : "?");
   if (line && l > 0 && (size_t)l < n)
      snprintf(buf + l, n - l, " (line %u)", line);
}
