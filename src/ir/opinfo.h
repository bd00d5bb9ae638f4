/*
 * What an instruction does besides computing its result: one table for the
 * whole project, generated at build time from the SPIR-V grammar
 * (tools/gen_opinfo.c: the grammar's instruction classes plus a commented
 * override list, and the OpenCL.std extended instructions).  Analyses ask
 * it instead of keeping their own opcode lists, so that they agree: a
 * vloadn reads memory for lanes.c exactly as it does for region.c.
 */
#ifndef XEOPT_OPINFO_H
#define XEOPT_OPINFO_H

#include "ir.h"

enum xe_opinfo_flags {
   /* No effect beyond its result, and the result is a function of the
    * operands alone (no memory, no other invocation).  May still be
    * undefined for some operands (OpUDiv by zero). */
   XE_OPI_PURE = 1 << 0,
   XE_OPI_READS = 1 << 1,       /* reads memory through a pointer operand (or may) */
   XE_OPI_WRITES = 1 << 2,      /* writes memory through a pointer operand (or may) */
   XE_OPI_BARRIER = 1 << 3,     /* orders memory or waits for other invocations */
   XE_OPI_CONVERGENT = 1 << 4,  /* a group/sub-group operation: every invocation of
                                   the scope must execute it together */
   XE_OPI_ATOMIC = 1 << 5,      /* an atomic read-modify-write, load or store */
   XE_OPI_EFFECT = 1 << 6,      /* another observable effect (printf, calls,
                                   pipes, enqueue; anything the table does not know) */
   XE_OPI_ADDRESS = 1 << 7,     /* pointer arithmetic (access chains); also PURE */
};

/* Flags of a core opcode; an unknown opcode (and OpExtInst, whose effect
 * depends on its set) is READS | WRITES | EFFECT. */
unsigned xe_opcode_info(unsigned opcode);
/* Flags of OpenCL.std extended instruction number n (vloadn = 171 ...);
 * unknown numbers are READS | WRITES | EFFECT. */
unsigned xe_ocl_ext_info(unsigned n);
/* Flags of instruction i of module m: OpExtInst resolved through its
 * instruction set (OpenCL.std by the table; NonSemantic.* and the debug-info
 * sets are PURE, which by their specs have no semantic effect; any other set
 * is unknown). */
unsigned xe_inst_info(const xe_module *m, const xe_inst *i);

#endif
