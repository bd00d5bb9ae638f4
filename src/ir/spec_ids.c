/* SpecIds in use come from the module's index (indexes.c): a hashed set kept
 * current by the edit functions, and a cursor for the next free one, so
 * handing out k fresh SpecIds costs O(k), not a walk of the decorations
 * for every candidate. */
#include "ir_internal.h"
#include "spec_ids.h"

bool xe_spec_id_used(const xe_module *m, uint32_t id)
{
   return xe__spec_id_used(m, id);
}

uint32_t xe_spec_id_fresh(const xe_module *m, uint32_t from)
{
   return xe__spec_id_fresh(m, from);
}
