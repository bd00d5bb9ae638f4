/*
 * A small builder for inserting instructions and finding or creating
 * types and constants, after nir_builder: passes never assemble word
 * arrays for the common instructions by hand.
 */
#ifndef XEOPT_BUILDER_H
#define XEOPT_BUILDER_H

#include "ir.h"

typedef struct xe_builder {
   xe_module *m;
   xe_block *block;   /* the block that receives instructions */
   xe_inst *before;   /* insert before this one; NULL = at the end of block */
} xe_builder;

static inline xe_builder xe_builder_before(xe_module *m, xe_inst *pos)
{
   xe_builder b = { m, pos->block, pos };
   return b;
}
static inline xe_builder xe_builder_at_end(xe_module *m, xe_block *blk)
{
   xe_builder b = { m, blk, NULL };
   return b;
}

/* Inserts an already created instruction at the builder's position. */
xe_inst *xe_build_inst(xe_builder *b, xe_inst *i);
/* An instruction whose operands are all ids; a fresh result id is taken
 * when the opcode has a result.  Returns the instruction. */
xe_inst *xe_build(xe_builder *b, SpvOp op, uint32_t type_id, unsigned nops, const uint32_t *ops);
/* The same, for 1, 2 and 3 id operands; returns the result id. */
uint32_t xe_build1(xe_builder *b, SpvOp op, uint32_t type_id, uint32_t a);
uint32_t xe_build2(xe_builder *b, SpvOp op, uint32_t type_id, uint32_t a, uint32_t c);
uint32_t xe_build3(xe_builder *b, SpvOp op, uint32_t type_id, uint32_t a, uint32_t c, uint32_t d);
/* OpLoad/OpStore with an optional memory-operand mask and alignment
 * (alignment used only when mask has SpvMemoryAccessAlignedMask). */
uint32_t xe_build_load(xe_builder *b, uint32_t type_id, uint32_t ptr, uint32_t mask, uint32_t align);
xe_inst *xe_build_store(xe_builder *b, uint32_t ptr, uint32_t value, uint32_t mask, uint32_t align);
/* OpExtInst of the OpenCL.std set (added when missing). */
uint32_t xe_build_ocl(xe_builder *b, uint32_t type_id, uint32_t instruction, unsigned nargs,
                      const uint32_t *args);

/* Find-or-create in the global section.  Integer types are signedness 0
 * as the OpenCL environment requires. */
uint32_t xe_type_void(xe_module *m);
uint32_t xe_type_bool(xe_module *m);
uint32_t xe_type_int(xe_module *m, unsigned width);
uint32_t xe_type_float(xe_module *m, unsigned width);
uint32_t xe_type_vector(xe_module *m, uint32_t component, unsigned n);
uint32_t xe_type_array(xe_module *m, uint32_t element, uint32_t length_const_id);
uint32_t xe_type_pointer(xe_module *m, SpvStorageClass sc, uint32_t pointee);
/* Integer constant of an integer type, value truncated to its width. */
uint32_t xe_const_int(xe_module *m, uint32_t type_id, uint64_t value);
uint32_t xe_const_bool(xe_module *m, bool value);
/* Appends a new instruction to the global section; returns its result. */
uint32_t xe_global_append(xe_module *m, SpvOp op, uint32_t type_id, unsigned nops,
                          const uint32_t *ops, const uint8_t *kinds);
/* Adds OpName for id. */
void xe_set_name(xe_module *m, uint32_t id, const char *name);
/* Adds OpDecorate id dec lits... */
void xe_decorate(xe_module *m, uint32_t id, SpvDecoration dec, const uint32_t *lits, unsigned n);

/* Packs a literal string into words (nul-terminated, zero-padded);
 * returns the number of words written (at most max). */
unsigned xe_pack_string(const char *s, uint32_t *out, unsigned max);

#endif
