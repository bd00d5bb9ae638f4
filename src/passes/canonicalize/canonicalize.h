/*
 * canonicalize, shared between its files (src/passes/canonicalize/):
 * pass.c walks the module and each function it may rewrite and writes the
 * remarks; folds.c folds selects on a known condition and shift-pair sign
 * extensions; addresses.c rewrites the address forms of opaque-pointer
 * front ends; repairs.c makes what the producers write valid for
 * SPIRV-Tools.  See pass.c's header for the pass as a whole.
 *
 * Every rewrite of one instruction i takes the module it lives in,
 * returns whether it changed anything, and may delete i (the callers walk
 * with xe_foreach_inst_safe).
 */
#ifndef XEOPT_CANONICALIZE_H
#define XEOPT_CANONICALIZE_H

#include "pass.h"

/* ---- folds.c ---- */

/* OpUConvert of x to the integer type narrow, built before pos, or an
 * equal one already there that dominates pos (see folds.c). */
uint32_t canon_uconvert(xe_module *m, xe_inst *pos, uint32_t x, uint32_t narrow);
/* A shift pair (x << c) >>s c with an 8-, 16- or 32-bit inner width
 * becomes OpSConvert(OpUConvert x). */
bool canon_fold_sext_inreg(xe_module *m, xe_inst *i);
/* An OpSelect on OpConstantTrue / OpConstantFalse is replaced by the
 * operand it selects. */
bool canon_fold_select(xe_module *m, xe_inst *i);

/* ---- addresses.c ---- */

/* A private array used directly as a byte address gets an OpBitcast to
 * uchar*. */
bool canon_cast_byte_uses(xe_module *m, xe_inst *i);
/* A cast of a byte-offset chain becomes an element chain (and is merged
 * with the chain it steps from). */
bool canon_fold_byte_chain(xe_module *m, xe_inst *i);
/* A cast of a pointer to an array of T to T* becomes the chain to the
 * array's first element. */
bool canon_array_cast(xe_module *m, xe_inst *i);
/* A cast of a vector element pointer to its component pointer becomes
 * the element chain with the component appended at each use. */
bool canon_vector_component_cast(xe_module *m, xe_inst *i);
/* Integer OpConstantNull operands become OpConstant 0. */
bool canon_null_ints(xe_module *m, xe_inst *i);
/* A call of the to_global/to_local/to_private import becomes
 * OpGenericCastToPtrExplicit. */
bool canon_import_cast(xe_module *m, xe_inst *i);

/* ---- repairs.c ---- */

/* Drops decorations that repeat an earlier one word for word; returns how
 * many. */
unsigned canon_drop_repeated_decorations(xe_module *m);
/* Makes OpConstantComposites with a specialization-constant operand
 * OpSpecConstantComposite; returns how many. */
unsigned canon_spec_composites(xe_module *m);
/* The repairs of one instruction (printf's format, repeated phi pairs). */
bool canon_repair_inst(xe_module *m, xe_inst *i);
/* The repairs of one instruction over f; returns how many instructions
 * were repaired. */
unsigned canon_repair_function(xe_module *m, xe_function *f);

#endif
