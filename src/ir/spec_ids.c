/* SpecIds of a module's specialization constants (spec_ids.h). */
#include "spec_ids.h"

bool xe_spec_id_used(const xe_module *m, uint32_t id)
{
   xe_foreach_inst(i, &m->sec[XE_SEC_ANNOTATION]) {
      if (i->opcode == SpvOpDecorate && xe_nops(i) >= 3 && xe_op(i, 1) == SpvDecorationSpecId &&
          xe_op(i, 2) == id)
         return true;
   }
   return false;
}

uint32_t xe_spec_id_fresh(const xe_module *m, uint32_t from)
{
   uint32_t id = from;
   while (xe_spec_id_used(m, id))
      id++;
   return id;
}
