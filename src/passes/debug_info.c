/*
 * Keeps debug info valid after a pass.
 *
 * Debug-info instructions (OpenCL.DebugInfo.100, NonSemantic.Shader.
 * DebugInfo.100/.200: DebugValue, DebugDeclare, DebugScope, DebugFunction
 * ...) are no uses for the analyses (xe_uses, ir.h), so that `clang -g`
 * changes nothing that is optimized.  A pass may therefore delete a value a
 * DebugValue still names, or move a region so that a value no longer
 * dominates the DebugValue that names it.  SPIRV-Tools' optimizer fixes
 * such instructions where it kills the value (IRContext::KillInst and the
 * debug-info manager): it kills the DebugDeclare/DebugValue of a killed
 * value, and points DebugFunction and DebugGlobalVariable at DebugInfoNone
 * when their function or variable goes.  xeopt's passes delete through
 * the IR's edit functions, which know nothing of debug info, so the same
 * repair runs once after each pass that made progress, on the whole
 * module: in a function, a debug instruction naming an id that is gone, or
 * a value of its function that does not dominate it, is deleted (it only
 * tells the debugger where a variable lives); in the global section the
 * operand becomes DebugInfoNone of the same set.
 *
 * A module without a debug-info import costs one look at its imports.
 */
#include <string.h>

#include "cfg.h"
#include "passes.h"

/* Does any OpExtInstImport of m name a debug-info set?  (Asked through an
 * instruction of that set: xe_inst_is_debug_info resolves the set.) */
static bool has_debug_import(const xe_module *m)
{
   xe_foreach_inst(i, &m->sec[XE_SEC_EXT_INST_IMPORT]) {
      const char *n = xe_op_string(i, 0);
      if (strstr(n, "DebugInfo") || !strcmp(n, "SPIRV.debug"))
         return true;
   }
   return false;
}

/* Is the value id, named by debug instruction i of function f, still
 * available at i: defined, and in f only where its definition dominates i? */
static bool available(xe_module *m, xe_function *f, const xe_inst *i, uint32_t id)
{
   const xe_inst *d = xe_def(m, id);
   if (!d)
      return false;
   if (!d->block)   /* global, or a parameter of f's */
      return d->opcode != SpvOpFunctionParameter || d->list == &f->params;
   if (d->block->fn != f)
      return false;
   if (d->block == i->block)
      return xe_layout_before(d, i);
   const xe_cfg *c = xe_function_cfg(f);
   uint32_t a = xe_cfg_block_index(c, xe_block_id(d->block));
   uint32_t b = xe_cfg_block_index(c, xe_block_id(i->block));
   if (a == XE_NONE || b == XE_NONE || c->idom[b] == XE_NONE)
      return true;   /* an unreachable use: spirv-val does not ask */
   return c->idom[a] != XE_NONE && xe_dominates(c, a, b);
}

/* Deletes f's debug instructions that name what is no longer available. */
static bool repair_function(xe_module *m, xe_function *f)
{
   bool progress = false;
   xe_foreach_block(b, f) {
      xe_foreach_inst_safe(i, next, &b->insts) {
         if (!xe_inst_is_debug_info(m, i))
            continue;
         for (unsigned k = 2; k < xe_nops(i); k++) {
            if (xe_op_kind(i, k) == XE_W_ID && !available(m, f, i, xe_op(i, k))) {
               xe_inst_kill(m, i);
               progress = true;
               break;
            }
         }
      }
   }
   return progress;
}

/* DebugInfoNone (instruction 0 of every debug-info set) of set, defined
 * before pos in the global section: found, or made just before pos. */
static uint32_t debug_info_none(xe_module *m, xe_inst *pos, uint32_t set)
{
   xe_foreach_inst(i, &m->sec[XE_SEC_GLOBAL]) {
      if (i == pos)
         break;
      if (i->opcode == SpvOpExtInst && xe_nops(i) == 2 && xe_op(i, 0) == set && xe_op(i, 1) == 0)
         return i->result_id;
   }
   uint32_t ops[2] = { set, 0 };
   static const uint8_t kinds[2] = { XE_W_ID, XE_W_LIT };
   xe_inst *none = xe_inst_create(SpvOpExtInst, pos->type_id, xe_fresh_id(m), ops, 2, kinds);
   xe_list_insert_before(m, pos, none);
   return none->result_id;
}

/* Points global debug instructions naming a deleted id at DebugInfoNone. */
static bool repair_globals(xe_module *m)
{
   bool progress = false;
   xe_foreach_inst(i, &m->sec[XE_SEC_GLOBAL]) {
      if (!xe_inst_is_debug_info(m, i))
         continue;
      for (unsigned k = 2; k < xe_nops(i); k++) {
         if (xe_op_kind(i, k) == XE_W_ID && !xe_def(m, xe_op(i, k))) {
            xe_set_op(i, k, debug_info_none(m, i, xe_op(i, 0)));
            progress = true;
         }
      }
   }
   return progress;
}

bool xe_debug_info_repair(xe_module *m)
{
   if (!has_debug_import(m))
      return false;
   bool progress = repair_globals(m);
   xe_foreach_fn(f, m)
      progress |= repair_function(m, f);
   return progress;
}
