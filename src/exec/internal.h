/* Interpreter internals: the pre-decoded program, the ALU entry points and the value accessors
 * (the run state is state.h). */
#ifndef XEOPT_EXEC_INTERNAL_H
#define XEOPT_EXEC_INTERNAL_H

#include <string.h>
#include <spirv/unified1/spirv.h>
#include "exec.h"
#include "half.h"

#define NOSLOT 0xffffffffu

/* Tagged pointers: space << 60 | buffer << 40 | offset.  Null is 0.
 * Generic pointers are the same words, so they carry their real space. */
enum { SP_NULL, SP_GLOBAL, SP_LOCAL, SP_PRIVATE, SP_PROGRAM };
#define PTR(sp, buf, off) (((uint64_t)(sp) << 60) | ((uint64_t)(buf) << 40) | (uint64_t)(off))
#define PTR_SP(p) ((unsigned)((p) >> 60))
#define PTR_BUF(p) ((unsigned)(((p) >> 40) & 0xfffff))
#define PTR_OFF(p) ((p) & 0xffffffffffull)

enum { K_INT, K_FLOAT, K_BOOL, K_PTR, K_AGG };

/* One decoded instruction.  Operand words are value-slot offsets (ids),
 * literals, or decoded indices (branch targets, callees). */
typedef struct dinst {
   uint16_t op;
   uint8_t kind, width;     /* result component kind and width in bytes */
   uint16_t ncomp;          /* result components (1 for scalars) */
   uint16_t nops;
   uint32_t res;            /* result slot offset or NOSLOT */
   uint32_t size;           /* result size in bytes */
   uint8_t skind, swidth;   /* kind/width of the first value operand */
   uint16_t sncomp;
   uint32_t aux, aux2;
   uint32_t *ops;
   const xe_inst *src;
} dinst;

typedef struct xe_prog {
   xe_module *m;
   dinst *code;
   uint32_t ncode, capcode;
   uint32_t *slot;          /* slot offset per id, NOSLOT if none */
   uint32_t *label_pc;      /* pc of a block per label id */
   uint32_t *fn_pc;         /* pc of a function's first block per function id */
   uint32_t vsize;          /* bytes of one work-item's value area */
   uint8_t *tmpl;           /* the value area with constants */
   uint32_t psize;          /* private bytes per work-item */
   /* Function-storage variables: a pointer to variable k is
    * PTR(SP_PRIVATE, k + 1, offset), and an access through it must stay in
    * [var_off[k], var_off[k] + var_size[k]) (an index past a private array
    * is undefined, and would read a neighbour whose layout a pass may
    * change); buffer 0 is the whole area (built-ins). */
   uint32_t *var_off, *var_size;
   uint32_t nvars, capvars;
   uint32_t lsize;          /* static local bytes per work-group */
   uint8_t *program;        /* program-scope variables (SP_PROGRAM buffer 0) */
   uint32_t prog_size;
   uint32_t builtin_off[64];/* private offset per built-in (+1), 0 if unused */
   uint32_t builtin_w[64];  /* component width of the built-in */
   uint32_t entry_pc;
   uint32_t *param_slot;    /* slots of the entry function's parameters */
   unsigned nparams;
   char err[512];
} xe_prog;

/* Operand type of an OpExtInst operand k (packed by the decoder at
 * ops[nops + k]). */
#define XE_OT(d, k) ((d)->ops[(d)->nops + (k)])
#define XE_OT_KIND(t) ((t) & 0xffu)
#define XE_OT_WIDTH(t) (((t) >> 8) & 0xffu)
#define XE_OT_N(t) ((t) >> 16)

/* Type sizes, alignments and member offsets: xe_type_layout and
 * xe_type_member_offset (src/ir/layout.c), the ones the passes use. */
void xe_exec_tinfo(const xe_module *m, uint32_t type, uint8_t *kind, uint8_t *width,
                   uint16_t *ncomp);

xe_prog *xe_prog_build(xe_module *m, const char *kernel, const xe_launch *l, char **err);
void xe_prog_free(xe_prog *p);

/* Per-component arithmetic, conversions, comparisons, OpenCL.std.
 * v is the work-item's value area.  Returns 0 or an error string. */
const char *xe_exec_alu(const dinst *d, uint8_t *v);
/* A call's aux when the callee is an import with no meaning here (no
 * code to run): the work-item that reaches it fails. */
#define NO_BODY UINT32_MAX

bool xe_exec_alu_supported(uint16_t op);
/* OpenCL.std (ocl.c): one extended instruction without memory operands. */
const char *xe_exec_ocl(const dinst *d, uint8_t *v);
/* OpenCL.std entries that also write through a pointer operand (fract,
 * frexp, lgamma_r, modf, remquo, sincos): computes the result into v and
 * the pointee's new value into out (*out_size bytes), and returns the
 * index of the pointer operand among d->ops, or 0 when num is not one of
 * them.  *err is set on an error. */
unsigned xe_exec_ocl_ptr(const dinst *d, uint8_t *v, uint8_t *out, unsigned *out_size, const char **err);

static inline uint64_t ld_u(const uint8_t *p, unsigned w)
{
   switch (w) {
   case 1: return *p;
   case 2: { uint16_t x; memcpy(&x, p, 2); return x; }
   case 4: { uint32_t x; memcpy(&x, p, 4); return x; }
   default: { uint64_t x; memcpy(&x, p, 8); return x; }
   }
}
static inline int64_t ld_s(const uint8_t *p, unsigned w)
{
   switch (w) {
   case 1: return (int8_t)*p;
   case 2: { int16_t x; memcpy(&x, p, 2); return x; }
   case 4: { int32_t x; memcpy(&x, p, 4); return x; }
   default: { int64_t x; memcpy(&x, p, 8); return x; }
   }
}
static inline void st_u(uint8_t *p, unsigned w, uint64_t v)
{
   switch (w) {
   case 1: *p = (uint8_t)v; break;
   case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
   case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
   default: memcpy(p, &v, 8); break;
   }
}
static inline double ld_f(const uint8_t *p, unsigned w)
{
   if (w == 4) { float x; memcpy(&x, p, 4); return x; }
   if (w == 8) { double x; memcpy(&x, p, 8); return x; }
   uint16_t h; memcpy(&h, p, 2); return xe_half_to_double(h);
}
static inline void st_f(uint8_t *p, unsigned w, double v)
{
   if (w == 4) { float x = (float)v; memcpy(p, &x, 4); }
   else if (w == 8) memcpy(p, &v, 8);
   else { uint16_t h = xe_double_to_half(v); memcpy(p, &h, 2); }
}

#endif
