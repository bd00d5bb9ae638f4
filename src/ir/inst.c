/*
 * Instructions: allocating, copying and freeing them, and reading a
 * literal string operand.  Every edit of their words, which keeps the
 * module's indexes current, is words.c.  Also the opcode facts that need
 * no grammar table (sections, terminators, memory operands).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ir_internal.h"

/* ---- instructions ---- */

static void set_header(xe_inst *i, SpvOp op, uint32_t type_id, uint32_t result_id)
{
   i->opcode = op;
   i->type_id = type_id;
   i->result_id = result_id;
   unsigned w = 1;
   uint8_t *kinds = xe_kinds(i);
   if (type_id) {
      i->words[w] = type_id;
      kinds[w++] = XE_W_TYPE;
   }
   if (result_id) {
      i->words[w] = result_id;
      kinds[w++] = XE_W_RESULT;
   }
   i->first_op = w;
   i->words[0] = (uint32_t)i->nwords << 16 | op;
   kinds[0] = XE_W_LIT;
}

/* Words, use-list slots and kinds live in one allocation after the
 * struct until an operand change needs more room; then they move to
 * their own buffer, laid out the same way. */
/* Lays out a zeroed block of xe__inst_bytes(nwords): the instruction, its
 * words, room for its use-list slots (xe__uslot) and its word kinds. */
static xe_inst *inst_init(void *mem, unsigned nwords)
{
   xe_inst *i = mem;
   i->words = (uint32_t *)(i + 1);
   i->nwords = nwords;
   return i;
}

xe_inst *xe_inst_alloc(unsigned nwords)
{
   return inst_init(xe_calloc(1, xe__inst_bytes(nwords)), nwords);
}

xe_inst *xe__inst_alloc_pooled(xe_module *m, unsigned nwords)
{
   xe_inst *i = inst_init(xe__pool_alloc(m, xe__inst_bytes(nwords)), nwords);
   i->pooled = true;
   return i;
}

xe_inst *xe_inst_create(uint16_t opcode, uint32_t type_id, uint32_t result_id,
                        const uint32_t *ops, unsigned nops, const uint8_t *kinds)
{
   unsigned n = 1 + (type_id != 0) + (result_id != 0) + nops;
   if (n > 0xffff)
      return NULL;
   xe_inst *i = xe_inst_alloc(n);
   set_header(i, opcode, type_id, result_id);
   for (unsigned k = 0; k < nops; k++) {
      i->words[i->first_op + k] = ops[k];
      xe_kinds(i)[i->first_op + k] = kinds ? kinds[k] : XE_W_ID;
   }
   return i;
}

/* Copies src into i, an instruction of src->nwords words. */
xe_inst *xe__inst_copy(xe_inst *i, const xe_inst *src)
{
   memcpy(i->words, src->words, src->nwords * 4);
   memcpy(xe_kinds(i), xe_kinds(src), src->nwords);
   i->opcode = src->opcode;
   i->type_id = src->type_id;
   i->result_id = src->result_id;
   i->first_op = src->first_op;
   return i;
}

xe_inst *xe_inst_clone(const xe_inst *src)
{
   return xe__inst_copy(xe_inst_alloc(src->nwords), src);
}

static bool inst_inline(const xe_inst *i)
{
   return xe__words_inline(i);
}

void xe_inst_free(xe_inst *i)
{
   if (!i)
      return;
   if (!inst_inline(i))
      free(i->words);
   if (i->pooled)
      xe__pool_release(i, sizeof(*i));   /* its bytes go with the module's pool */
   else
      free(i);
}

const char *xe_op_string(const xe_inst *i, unsigned k)
{
   unsigned w = i->first_op + k;
   if (w >= i->nwords)
      return "";
   /* The reader checked that literal strings are nul-terminated. */
   return (const char *)&i->words[w];
}

/* ---- opcode facts ---- */

unsigned xe_memory_operands_index(const xe_inst *i)
{
   return i->opcode == SpvOpLoad ? 1 : i->opcode == SpvOpStore ? 2 : 0;
}

bool xe_access_is_volatile(const xe_inst *i)
{
   unsigned k = xe_memory_operands_index(i);
   return k && xe_nops(i) > k && (xe_op(i, k) & SpvMemoryAccessVolatileMask);
}

bool xe_opcode_is_branch(uint16_t op)
{
   return op == SpvOpBranch || op == SpvOpBranchConditional || op == SpvOpSwitch;
}

bool xe_opcode_is_terminator(uint16_t op)
{
   switch (op) {
   case SpvOpBranch:
   case SpvOpBranchConditional:
   case SpvOpSwitch:
   case SpvOpReturn:
   case SpvOpReturnValue:
   case SpvOpKill:
   case SpvOpUnreachable:
   case SpvOpTerminateInvocation:
   case SpvOpIgnoreIntersectionKHR:
   case SpvOpTerminateRayKHR:
      return true;
   default:
      return false;
   }
}

enum xe_section xe_opcode_section(uint16_t op)
{
   switch (op) {
   case SpvOpCapability: return XE_SEC_CAPABILITY;
   case SpvOpExtension: return XE_SEC_EXTENSION;
   case SpvOpExtInstImport: return XE_SEC_EXT_INST_IMPORT;
   case SpvOpMemoryModel: return XE_SEC_MEMORY_MODEL;
   case SpvOpEntryPoint: return XE_SEC_ENTRY_POINT;
   case SpvOpExecutionMode:
   case SpvOpExecutionModeId: return XE_SEC_EXECUTION_MODE;
   case SpvOpString:
   case SpvOpSourceExtension:
   case SpvOpSource:
   case SpvOpSourceContinued: return XE_SEC_DEBUG_SOURCE;
   case SpvOpName:
   case SpvOpMemberName: return XE_SEC_DEBUG_NAME;
   case SpvOpModuleProcessed: return XE_SEC_DEBUG_PROCESSED;
   case SpvOpAliasDomainDeclINTEL:
   case SpvOpAliasScopeDeclINTEL:
   case SpvOpAliasScopeListDeclINTEL: return XE_SEC_ALIAS_DECL;
   case SpvOpDecorate:
   case SpvOpMemberDecorate:
   case SpvOpDecorationGroup:
   case SpvOpGroupDecorate:
   case SpvOpGroupMemberDecorate:
   case SpvOpDecorateId:
   case SpvOpDecorateString:
   case SpvOpMemberDecorateString: return XE_SEC_ANNOTATION;
   default: return XE_SEC_GLOBAL;
   }
}
