/*
 * Structural checks the reader makes before any pass sees a module: the
 * facts every analysis relies on, which SPIRV-Tools' parser does not
 * check and which xeopt cannot leave to the validator (it must accept
 * modules that fail spirv-val only on the block-order or interface rules).
 *
 *  - every id an instruction uses is defined somewhere in the module;
 *  - a result type names a type, entry points and calls name functions;
 *  - every block ends in a terminator, and only there;
 *  - branch targets and OpPhi parents are blocks of the same function.
 *
 * Anything else invalid is passed through and reported by --validate.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io.h"

/* Types are the OpType* instructions, including extension ones.  The core
 * ones are one range of opcodes (OpTypeVoid 19 to OpTypeForwardPointer
 * 39): answered without the name, which the reader's check of every result
 * type in the module looked up each time (2 % of a run at 400 kernels). */
static bool is_type(const xe_inst *t)
{
   if (t && t->opcode >= SpvOpTypeVoid && t->opcode <= SpvOpTypeForwardPointer)
      return true;
   return t && !strncmp(xe_opcode_name(t->opcode), "OpType", 6);
}

static char *fail(const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   char *s;
   if (vasprintf(&s, fmt, ap) < 0)
      xe_out_of_memory();
   va_end(ap);
   return s;
}

static char *check_inst(const xe_module *m, const xe_inst *i)
{
   /* ir.h: aux is the running pass's scratch and 0 between passes; a pass
    * that leaves it set hands the next pass a stale mark it may trust. */
   if (i->aux)
      return fail("%s %%%u keeps scratch aux = %u after the pass", xe_opcode_name(i->opcode),
                  i->result_id, i->aux);
   for (unsigned w = 1; w < i->nwords; w++) {
      if ((xe_kinds(i)[w] == XE_W_ID || xe_kinds(i)[w] == XE_W_TYPE) && !xe_def(m, i->words[w]))
         return fail("%s uses %%%u, which is never defined", xe_opcode_name(i->opcode),
                     i->words[w]);
   }
   if (i->type_id && !is_type(xe_def(m, i->type_id)))
      return fail("result type %%%u of %%%u is not a type", i->type_id, i->result_id);
   /* Operands that must name a function. */
   unsigned fn_op = i->opcode == SpvOpEntryPoint ? 1
                    : i->opcode == SpvOpFunctionCall ? 0
                    : UINT32_MAX;
   if (fn_op != UINT32_MAX) {
      const xe_inst *d = xe_def(m, xe_op(i, fn_op));
      if (!d || d->opcode != SpvOpFunction)
         return fail("%s names %%%u, which is not a function", xe_opcode_name(i->opcode),
                     xe_op(i, fn_op));
   }
   return NULL;
}

static char *check_list(const xe_module *m, const xe_list *l)
{
   xe_foreach_inst(i, l) {
      char *e = check_inst(m, i);
      if (e)
         return e;
   }
   return NULL;
}

static bool block_of(const xe_module *m, const xe_function *f, uint32_t id)
{
   const xe_inst *d = xe_def(m, id);
   return d && d->opcode == SpvOpLabel && d->block && d->block->fn == f;
}

static char *check_block(const xe_module *m, const xe_function *f, const xe_block *b)
{
   const xe_inst *t = xe_block_terminator(b);
   if (!t)
      return fail("block %%%u does not end in a terminator", xe_block_id(b));
   xe_foreach_inst(i, &b->insts) {
      char *e = check_inst(m, i);
      if (e)
         return e;
      if (i != t && xe_opcode_is_terminator(i->opcode))
         return fail("block %%%u has %s before its end", xe_block_id(b),
                     xe_opcode_name(i->opcode));
      if (i->opcode == SpvOpPhi) {
         for (unsigned k = 1; k < xe_nops(i); k += 2) {
            if (!block_of(m, f, xe_op(i, k)))
               return fail("OpPhi %%%u names %%%u, which is not a block of its function",
                           i->result_id, xe_op(i, k));
         }
      }
   }
   for (unsigned k = 0; k < xe_nops(t); k++) {
      bool target = (t->opcode == SpvOpBranch) ||
                    (t->opcode == SpvOpBranchConditional && k > 0 && k < 3) ||
                    (t->opcode == SpvOpSwitch && k > 0 && xe_op_kind(t, k) == XE_W_ID);
      if (target && !block_of(m, f, xe_op(t, k)))
         return fail("block %%%u branches to %%%u, which is not a block of its function",
                     xe_block_id(b), xe_op(t, k));
   }
   return NULL;
}

char *xe_check_structure(const xe_module *m)
{
   char *e = NULL;
   for (int s = 0; s < XE_SEC_COUNT && !e; s++)
      e = check_list(m, &m->sec[s]);
   xe_foreach_fn(f, m) {
      if (e)
         break;
      if (f->mark)   /* as aux: scratch, 0 between passes */
         e = fail("function %%%u keeps scratch mark = %u after the pass", xe_function_id(f),
                  f->mark);
      else if (!(e = check_inst(m, f->def)))
         e = check_list(m, &f->params);
      xe_foreach_block(b, f) {
         if (e)
            break;
         e = check_block(m, f, b);
      }
   }
   return e;
}
