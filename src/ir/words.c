/*
 * Every edit of an instruction's words (operands, type, result, opcode).
 * Each keeps the use lists and indexes current (xe__uses_link /
 * xe__uses_unlink), keeps defs[] current when the result id changes, and
 * bumps the generation counters of the function it changes (xe__touch).
 * Allocating, copying and freeing instructions is inst.c.
 */
#include <stdlib.h>
#include <string.h>

#include "ir_internal.h"

/* Writes word w of i, keeping the indexes current. */
void xe__set_word(xe_inst *i, unsigned w, uint32_t value)
{
   uint8_t kind = xe_kinds(i)[w];
   if (kind == XE_W_TYPE)
      i->type_id = value;
   if (i->words[w] == value)
      return;
   xe_module *m = i->tracked ? xe__module_of(i) : NULL;
   bool all = m && xe__uses_keyed(m, i);
   bool tracked = i->tracked && (kind == XE_W_ID || kind == XE_W_TYPE);
   if (all)
      xe__uses_unlink(m, i);
   else if (tracked)
      xe__uses_unlink_word(m, i, w);
   i->words[w] = value;
   if (all)
      xe__uses_link(m, i);
   else if (tracked)
      xe__uses_link_word(m, i, w);
   xe__touch(i, xe_opcode_is_terminator(i->opcode));
}

void xe_set_word(xe_inst *i, unsigned w, uint32_t value)
{
   xe__set_word(i, w, value);
}

void xe_set_op(xe_inst *i, unsigned k, uint32_t value)
{
   xe__set_word(i, i->first_op + k, value);
}

void xe_set_type(xe_inst *i, uint32_t type_id)
{
   for (unsigned w = 1; w < i->first_op; w++) {
      if (xe_kinds(i)[w] == XE_W_TYPE) {
         xe__set_word(i, w, type_id);
         return;
      }
   }
}

void xe_set_result(xe_inst *i, uint32_t result_id)
{
   for (unsigned w = 1; w < i->first_op; w++) {
      if (xe_kinds(i)[w] != XE_W_RESULT || i->words[w] == result_id)
         continue;
      xe_module *m = xe__module_of(i);
      if (m)
         xe__forget_def(m, i);
      i->words[w] = result_id;
      i->result_id = result_id;
      if (m)
         xe_note_def(m, i);
      xe__touch(i, i->opcode == SpvOpLabel);
      return;
   }
}

bool xe_set_ops(xe_inst *i, const uint32_t *ops, unsigned nops, const uint8_t *kinds)
{
   unsigned n = i->first_op + nops;
   if (n > 0xffff)
      return false;
   xe_module *m = i->tracked ? xe__module_of(i) : NULL;
   if (m)
      xe__uses_unlink(m, i);
   uint32_t *w = malloc(xe__words_bytes(n));
   if (!w)
      xe_out_of_memory();
   uint8_t *kd = (uint8_t *)(w + 2 * (size_t)n);
   memcpy(w, i->words, i->first_op * 4);
   memcpy(kd, xe_kinds(i), i->first_op);
   for (unsigned k = 0; k < nops; k++) {
      w[i->first_op + k] = ops[k];
      kd[i->first_op + k] = kinds ? kinds[k] : XE_W_ID;
   }
   if (!xe__words_inline(i))
      free(i->words);
   i->words = w;
   i->nwords = n;
   i->words[0] = (uint32_t)n << 16 | i->opcode;
   if (m)
      xe__uses_link(m, i);
   xe__touch(i, xe_opcode_is_terminator(i->opcode));
   return true;
}

void xe_set_opcode(xe_inst *i, uint16_t opcode)
{
   xe_module *m = i->tracked ? xe__module_of(i) : NULL;
   bool keyed = m && (xe__uses_keyed(m, i) || opcode == SpvOpDecorate || opcode == SpvOpName ||
                      opcode == SpvOpVariable || opcode == SpvOpExtInst);
   if (keyed)
      xe__uses_unlink(m, i);
   bool cfg = xe_opcode_is_terminator(i->opcode) || xe_opcode_is_terminator(opcode);
   uint16_t old = i->opcode;
   i->opcode = opcode;
   i->words[0] = (uint32_t)i->nwords << 16 | opcode;
   if (keyed)
      xe__uses_link(m, i);
   else if (m)
      xe__uses_opcode_changed(m, i, old);
   xe__touch(i, cfg);
}
