/*
 * Reading and writing SPIR-V binaries (SPIR-V spec section 2.3, physical
 * layout), validation and disassembly through SPIRV-Tools' C API.
 */
#ifndef XEOPT_IO_H
#define XEOPT_IO_H

#include "ir.h"

/* The largest id bound xeopt accepts: 2^26.  Real modules stay far below;
 * a larger bound would make the id table alone hundreds of megabytes. */
#define XE_MAX_BOUND (1u << 26)

/* Parses bytes (either byte order, any version 1.0 to 1.6) into a module.
 * On error returns NULL and sets *err to a malloc'd message (no file name,
 * no "error:" prefix), e.g. "truncated instruction at word 12". */
xe_module *xe_read(const void *bytes, size_t nbytes, char **err);

/* xe_read in the memory of old, a module done with (NULL: none), which is
 * freed in every case: the new module carves its instructions, blocks and
 * functions from old's pools (pool.c) before mapping more.  For reading a
 * module again after a run on it (plain -O2's second run, driver.c): at 64
 * MB of input, mapping and faulting in a fresh 557 MB pool took about a
 * second, most of it the kernel clearing the pages. */
xe_module *xe_read_over(xe_module *old, const void *bytes, size_t nbytes, char **err);

/* For bytes that xe_read rejects: when the only thing SPIRV-Tools' parser
 * objects to is an opcode or an extended instruction set it does not know
 * (a newer SPIR-V or vendor extension), and every instruction's word count
 * still frames the module exactly, a malloc'd description of the first such
 * instruction ("opcode 9999 at word 16"); else NULL.  Without the grammar
 * xeopt cannot tell which operands are ids, so such a module can only be
 * passed through as it came (the driver does that). */
char *xe_read_unknown(const void *bytes, size_t nbytes);

/* The structural facts every pass relies on (structure.c): NULL when they
 * hold, else a malloc'd message.  xe_read calls it. */
char *xe_check_structure(const xe_module *m);

/* Writes the module in logical layout order into a malloc'd word array
 * (*nwords words), in the input's byte order when native_order is false,
 * else host order.  Never fails except on out-of-memory (returns NULL). */
uint32_t *xe_write(const xe_module *m, size_t *nwords, bool native_order);

/* Runs spvValidate for the module's own SPIR-V version (host-order words).
 * Returns true when valid; else *err gets a malloc'd message. */
bool xe_validate_words(const uint32_t *words, size_t nwords, char **err);
bool xe_validate(const xe_module *m, char **err);

/* Disassembly as text (malloc'd), with friendly names and no header
 * comment when stable is set (for golden files); NULL on failure. */
char *xe_disassemble_words(const uint32_t *words, size_t nwords, bool stable);
char *xe_disassemble(const xe_module *m, bool stable);

/* Assembles text for SPIR-V version (e.g. 0x10400) into malloc'd words. */
uint32_t *xe_assemble(const char *text, uint32_t version, size_t *nwords, char **err);

#endif
