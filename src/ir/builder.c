/*
 * Instruction builder and find-or-create for types and constants, the
 * extensions and the OpenCL.std import; the width of a scalar type.
 */
#include <string.h>

#define SPV_ENABLE_UTILITY_CODE
#include "builder.h"
#include "ir_internal.h"

/* spirv.h defines SpvHasResultAndType as a C99 inline function; this
 * declaration makes this file emit its external definition. */
extern void SpvHasResultAndType(SpvOp opcode, bool *hasResult, bool *hasResultType);

xe_inst *xe_build_inst(xe_builder *b, xe_inst *i)
{
   if (b->before)
      xe_list_insert_before(b->m, b->before, i);
   else
      xe_block_append(b->m, b->block, i);
   return i;
}

xe_inst *xe_build(xe_builder *b, SpvOp op, uint32_t type_id, unsigned nops, const uint32_t *ops)
{
   bool has_result = false, has_type = false;
   SpvHasResultAndType(op, &has_result, &has_type);
   uint32_t result = has_result ? xe_fresh_id(b->m) : 0;
   return xe_build_inst(b, xe_inst_create(op, has_type ? type_id : 0, result, ops, nops, NULL));
}

uint32_t xe_build1(xe_builder *b, SpvOp op, uint32_t type_id, uint32_t a)
{
   return xe_build(b, op, type_id, 1, &a)->result_id;
}

uint32_t xe_build2(xe_builder *b, SpvOp op, uint32_t type_id, uint32_t a, uint32_t c)
{
   uint32_t ops[2] = { a, c };
   return xe_build(b, op, type_id, 2, ops)->result_id;
}

uint32_t xe_build3(xe_builder *b, SpvOp op, uint32_t type_id, uint32_t a, uint32_t c, uint32_t d)
{
   uint32_t ops[3] = { a, c, d };
   return xe_build(b, op, type_id, 3, ops)->result_id;
}

static unsigned memory_operands(uint32_t mask, uint32_t align, uint32_t *ops, uint8_t *kinds)
{
   if (!mask)
      return 0;
   ops[0] = mask;
   kinds[0] = XE_W_LIT;
   if (mask & SpvMemoryAccessAlignedMask) {
      ops[1] = align;
      kinds[1] = XE_W_LIT;
      return 2;
   }
   return 1;
}

uint32_t xe_build_load(xe_builder *b, uint32_t type_id, uint32_t ptr, uint32_t mask, uint32_t align)
{
   uint32_t ops[3] = { ptr };
   uint8_t kinds[3] = { XE_W_ID };
   unsigned n = 1 + memory_operands(mask, align, ops + 1, kinds + 1);
   uint32_t id = xe_fresh_id(b->m);
   xe_build_inst(b, xe_inst_create(SpvOpLoad, type_id, id, ops, n, kinds));
   return id;
}

xe_inst *xe_build_store(xe_builder *b, uint32_t ptr, uint32_t value, uint32_t mask, uint32_t align)
{
   uint32_t ops[4] = { ptr, value };
   uint8_t kinds[4] = { XE_W_ID, XE_W_ID };
   unsigned n = 2 + memory_operands(mask, align, ops + 2, kinds + 2);
   return xe_build_inst(b, xe_inst_create(SpvOpStore, 0, 0, ops, n, kinds));
}

uint32_t xe_build_ocl(xe_builder *b, uint32_t type_id, uint32_t instruction, unsigned nargs,
                      const uint32_t *args)
{
   uint32_t ops[16];
   uint8_t kinds[16];
   if (nargs > 14)
      return 0;
   ops[0] = xe_opencl_std(b->m, true);
   kinds[0] = XE_W_ID;
   ops[1] = instruction;
   kinds[1] = XE_W_LIT;
   for (unsigned k = 0; k < nargs; k++) {
      ops[2 + k] = args[k];
      kinds[2 + k] = XE_W_ID;
   }
   uint32_t id = xe_fresh_id(b->m);
   xe_build_inst(b, xe_inst_create(SpvOpExtInst, type_id, id, ops, 2 + nargs, kinds));
   return id;
}

/* ---- find-or-create ---- */

/* A global instruction with this opcode, type and exact operands: the
 * first in layout order, looked up by content in the module's index. */
static uint32_t find_global(xe_module *m, SpvOp op, uint32_t type_id, unsigned nops,
                            const uint32_t *ops)
{
   return xe__find_global(m, op, type_id, nops, ops);
}

uint32_t xe_global_append(xe_module *m, SpvOp op, uint32_t type_id, unsigned nops,
                          const uint32_t *ops, const uint8_t *kinds)
{
   uint32_t id = xe_fresh_id(m);
   xe_list_append(m, &m->sec[XE_SEC_GLOBAL], xe_inst_create(op, type_id, id, ops, nops, kinds));
   return id;
}

static uint32_t find_or_add(xe_module *m, SpvOp op, uint32_t type_id, unsigned nops,
                            const uint32_t *ops, const uint8_t *kinds)
{
   uint32_t id = find_global(m, op, type_id, nops, ops);
   return id ? id : xe_global_append(m, op, type_id, nops, ops, kinds);
}

static const uint8_t lit_kinds[4] = { XE_W_LIT, XE_W_LIT, XE_W_LIT, XE_W_LIT };

uint32_t xe_type_void(xe_module *m)
{
   return find_or_add(m, SpvOpTypeVoid, 0, 0, NULL, NULL);
}

uint32_t xe_type_bool(xe_module *m)
{
   return find_or_add(m, SpvOpTypeBool, 0, 0, NULL, NULL);
}

uint32_t xe_type_int(xe_module *m, unsigned width)
{
   uint32_t ops[2] = { width, 0 };
   return find_or_add(m, SpvOpTypeInt, 0, 2, ops, lit_kinds);
}

uint32_t xe_type_float(xe_module *m, unsigned width)
{
   uint32_t ops[1] = { width };
   return find_or_add(m, SpvOpTypeFloat, 0, 1, ops, lit_kinds);
}

uint32_t xe_type_vector(xe_module *m, uint32_t component, unsigned n)
{
   uint32_t ops[2] = { component, n };
   uint8_t kinds[2] = { XE_W_ID, XE_W_LIT };
   return find_or_add(m, SpvOpTypeVector, 0, 2, ops, kinds);
}

uint32_t xe_type_array(xe_module *m, uint32_t element, uint32_t length_const_id)
{
   uint32_t ops[2] = { element, length_const_id };
   return find_or_add(m, SpvOpTypeArray, 0, 2, ops, NULL);
}

uint32_t xe_type_pointer(xe_module *m, SpvStorageClass sc, uint32_t pointee)
{
   uint32_t ops[2] = { sc, pointee };
   uint8_t kinds[2] = { XE_W_LIT, XE_W_ID };
   return find_or_add(m, SpvOpTypePointer, 0, 2, ops, kinds);
}

unsigned xe_type_width(const xe_module *m, uint32_t type_id)
{
   xe_inst *t = xe_def(m, type_id);
   if (t && (t->opcode == SpvOpTypeInt || t->opcode == SpvOpTypeFloat))
      return xe_op(t, 0);
   return 0;
}

uint32_t xe_const_int(xe_module *m, uint32_t type_id, uint64_t value)
{
   unsigned width = xe_type_width(m, type_id);
   uint32_t ops[2] = { (uint32_t)value, (uint32_t)(value >> 32) };
   if (width < 32)
      ops[0] &= (1u << width) - 1;
   return find_or_add(m, SpvOpConstant, type_id, width > 32 ? 2 : 1, ops, lit_kinds);
}

uint32_t xe_const_bool(xe_module *m, bool value)
{
   return find_or_add(m, value ? SpvOpConstantTrue : SpvOpConstantFalse, xe_type_bool(m), 0,
                      NULL, NULL);
}

unsigned xe_pack_string(const char *s, uint32_t *out, unsigned max)
{
   if (!max)
      return 0;
   size_t len = strlen(s);
   if (len > (size_t)max * 4 - 1)
      len = (size_t)max * 4 - 1;
   unsigned n = (unsigned)(len / 4 + 1);
   memset(out, 0, n * 4);
   memcpy(out, s, len);
   return n;
}

void xe_set_name(xe_module *m, uint32_t id, const char *name)
{
   uint32_t w[64] = { id };
   uint8_t k[64];
   memset(k, XE_W_LIT, sizeof(k));
   k[0] = XE_W_ID;
   unsigned n = 1 + xe_pack_string(name, w + 1, 63);
   xe_list_append(m, &m->sec[XE_SEC_DEBUG_NAME], xe_inst_create(SpvOpName, 0, 0, w, n, k));
}

void xe_decorate(xe_module *m, uint32_t id, SpvDecoration dec, const uint32_t *vals, unsigned n)
{
   uint32_t w[8] = { id, dec };
   uint8_t k[8] = { XE_W_ID, XE_W_LIT, XE_W_LIT, XE_W_LIT, XE_W_LIT, XE_W_LIT, XE_W_LIT, XE_W_LIT };
   for (unsigned j = 0; j < n && j < 6; j++)
      w[2 + j] = vals[j];
   xe_list_append(m, &m->sec[XE_SEC_ANNOTATION],
                  xe_inst_create(SpvOpDecorate, 0, 0, w, 2 + (n < 6 ? n : 6), k));
}

/* ---- extensions and the OpenCL.std import ---- */

bool xe_has_extension(const xe_module *m, const char *name)
{
   xe_foreach_inst(i, &m->sec[XE_SEC_EXTENSION]) {
      if (!strcmp(xe_op_string(i, 0), name))
         return true;
   }
   return false;
}

static xe_inst *string_inst(SpvOp op, uint32_t result, const char *s)
{
   uint32_t w[64];
   uint8_t k[64];
   unsigned n = xe_pack_string(s, w, 64);
   memset(k, XE_W_LIT, sizeof(k));
   return xe_inst_create(op, 0, result, w, n, k);
}

void xe_add_extension(xe_module *m, const char *name)
{
   if (!xe_has_extension(m, name))
      xe_list_append(m, &m->sec[XE_SEC_EXTENSION], string_inst(SpvOpExtension, 0, name));
}

uint32_t xe_opencl_std(xe_module *m, bool add)
{
   xe_foreach_inst(i, &m->sec[XE_SEC_EXT_INST_IMPORT]) {
      if (!strcmp(xe_op_string(i, 0), "OpenCL.std"))
         return i->result_id;
   }
   if (!add)
      return 0;
   uint32_t id = xe_fresh_id(m);
   xe_list_append(m, &m->sec[XE_SEC_EXT_INST_IMPORT], string_inst(SpvOpExtInstImport, id, "OpenCL.std"));
   return id;
}
