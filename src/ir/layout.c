/*
 * Type layout: the size and alignment of a SPIR-V type in memory, as
 * OpenCL C lays it out (OpenCL C 3.0, 6.3.5 "Alignment of Types"):
 *  - a scalar is aligned to its size; pointers and events are 8 bytes
 *    (Physical64);
 *  - a vector of n components is aligned to its size, and a 3-component
 *    vector takes the size (and alignment) of a 4-component one;
 *  - an array has its element's alignment;
 *  - a struct member sits at the next multiple of its alignment, and the
 *    struct's size is rounded up to its largest member alignment, unless
 *    the struct is CPacked (every alignment 1).
 * The passes (facts.c's callers) and the reference interpreter (exec/)
 * both use this, so a buffer the manifest sizes is the buffer --verify
 * allocates.
 */
#include "ir.h"

uint64_t xe_type_layout(const xe_module *m, uint32_t type_id, uint64_t *align)
{
   xe_inst *t = xe_def(m, type_id);
   uint64_t a = 1, s = 0;
   if (!t)
      return 0;
   switch (t->opcode) {
   case SpvOpTypeBool:
      s = a = 1;
      break;
   case SpvOpTypeInt:
   case SpvOpTypeFloat:
      s = a = xe_op(t, 0) / 8;
      break;
   case SpvOpTypePointer:
   case SpvOpTypeEvent:
      s = a = 8;
      break;
   case SpvOpTypeVector: {
      uint32_t n = xe_op(t, 1);
      s = xe_type_layout(m, xe_op(t, 0), &a) * (n == 3 ? 4 : n);
      a = s;
      break;
   }
   case SpvOpTypeArray: {
      uint64_t len;
      if (!xe_const_uint(m, xe_op(t, 1), &len))
         return 0;
      s = xe_type_layout(m, xe_op(t, 0), &a) * len;
      break;
   }
   case SpvOpTypeStruct: {
      uint32_t d;
      bool packed = xe_decoration(m, type_id, SpvDecorationCPacked, &d, 0);
      for (unsigned k = 0; k < xe_nops(t); k++) {
         uint64_t ma, ms = xe_type_layout(m, xe_op(t, k), &ma);
         if (!ms)
            return 0;
         if (packed)
            ma = 1;
         s = (s + ma - 1) / ma * ma + ms;
         if (ma > a)
            a = ma;
      }
      s = (s + a - 1) / a * a;
      break;
   }
   default:
      return 0;
   }
   if (align)
      *align = a ? a : 1;
   return s;
}

uint64_t xe_type_size(const xe_module *m, uint32_t type_id)
{
   return xe_type_layout(m, type_id, NULL);
}

uint64_t xe_type_member_offset(const xe_module *m, uint32_t struct_id, unsigned k)
{
   xe_inst *t = xe_def(m, struct_id);
   uint32_t d;
   bool packed = xe_decoration(m, struct_id, SpvDecorationCPacked, &d, 0);
   uint64_t s = 0;
   for (unsigned j = 0; t && j <= k && j < xe_nops(t); j++) {
      uint64_t ma, ms = xe_type_layout(m, xe_op(t, j), &ma);
      if (packed)
         ma = 1;
      s = (s + ma - 1) / ma * ma;
      if (j == k)
         return s;
      s += ms;
   }
   return s;
}
