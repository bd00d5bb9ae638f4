/* Composites, pointer casts, atomics and the ALU glue of the run loop. */
#include <stdlib.h>
#include <math.h>
#include <stdio.h>
#include "other.h"
#include "memory.h"
#include "image.h"

static inline uint64_t V64(const uint8_t *v, uint32_t s) { uint64_t x; memcpy(&x, v + s, 8); return x; }

static bool run_atomic(xe_run *r, xe_wi *w, const dinst *d)
{
   uint8_t *v = w->v;
   bool store = d->op == SpvOpAtomicStore;
   unsigned wd = store ? d->swidth : d->width;
   if (store) {
      /* operand 0 is the pointer; width of the value operand */
      uint8_t k, ww; uint16_t n;
      xe_exec_tinfo(r->p->m, xe_def(r->p->m, d->src->words[d->src->first_op + 3])->type_id, &k, &ww, &n);
      wd = ww;
   }
   unsigned fl = XE_MEM_ATOMIC | (d->op == SpvOpAtomicLoad ? 0 : XE_MEM_WRITE);
   uint8_t *a = xe_run_mem_ex(r, w, d, V64(v, d->ops[0]), wd, fl, NULL);
   if (!a) return false;
   uint64_t old = ld_u(a, wd), x = 0, nv = old;
   int64_t so = ld_s(a, wd), sx = 0;
   if (d->op == SpvOpAtomicCompareExchange) {
      uint64_t val = ld_u(v + d->ops[4], wd), cmp = ld_u(v + d->ops[5], wd);
      if (old == cmp) st_u(a, wd, val);
      st_u(v + d->res, wd, old);
      return true;
   }
   if (d->nops > 3) { x = ld_u(v + d->ops[3], wd); sx = ld_s(v + d->ops[3], wd); }
   switch (d->op) {
   case SpvOpAtomicLoad: break;
   case SpvOpAtomicStore: nv = x; break;
   case SpvOpAtomicExchange: nv = x; break;
   case SpvOpAtomicIAdd: nv = old + x; break;
   case SpvOpAtomicISub: nv = old - x; break;
   case SpvOpAtomicIIncrement: nv = old + 1; break;
   case SpvOpAtomicIDecrement: nv = old - 1; break;
   case SpvOpAtomicAnd: nv = old & x; break;
   case SpvOpAtomicOr: nv = old | x; break;
   case SpvOpAtomicXor: nv = old ^ x; break;
   case SpvOpAtomicUMin: nv = old < x ? old : x; break;
   case SpvOpAtomicUMax: nv = old > x ? old : x; break;
   case SpvOpAtomicSMin: nv = (uint64_t)(so < sx ? so : sx); break;
   case SpvOpAtomicSMax: nv = (uint64_t)(so > sx ? so : sx); break;
   case SpvOpAtomicFAddEXT: {
      double f = ld_f(a, wd) + ld_f(v + d->ops[3], wd);
      st_f(a, wd, f);
      memcpy(v + d->res, &old, wd);
      return true;
   }
   default: return xe_run_fail(r, d, "unsupported atomic");
   }
   st_u(a, wd, nv);
   if (!store) st_u(v + d->res, wd, old);
   return true;
}

/* OpenCL.std vloadn/vstoren/vload_half/vstore_half families: memory
 * accesses, so they are bounds-checked here rather than in the ALU. */
static int vload_store(xe_run *r, xe_wi *w, const dinst *d)
{
   unsigned num = d->ops[1];
   uint8_t *v = w->v;
   const xe_module *m = r->p->m;
   switch (num) {
   case 171: case 173: case 174: case 179: {   /* vloadn, vload_half[n], vloada_halfn */
      bool half = num != 171;
      unsigned n = d->ncomp, ew = half ? 2 : d->width, step = num == 179 && n == 3 ? 4 : n;
      uint64_t off = ld_u(v + d->ops[2], 8), p = V64(v, d->ops[3]);
      uint8_t *a = xe_run_mem(r, w, d, p + off * step * ew, (uint64_t)n * ew, false);
      if (!a) return 0;
      for (unsigned k = 0; k < n; k++) {
         if (half) st_f(v + d->res + k * d->width, d->width, ld_f(a + 2 * k, 2));
         else memcpy(v + d->res + k * ew, a + k * ew, ew);
      }
      return 1;
   }
   case 172: case 175: case 176: case 177: case 178: case 180: case 181: {
      bool half = num != 172;
      uint8_t kd, dw; uint16_t n;
      xe_exec_tinfo(m, xe_def(m, xe_op(d->src, 2))->type_id, &kd, &dw, &n);
      if (num == 176 || num == 178 || num == 181) {
         uint32_t mode = (uint32_t)ld_u(v + d->ops[5], 4);
         if (mode != SpvFPRoundingModeRTE) return xe_run_fail(r, d, "vstore_half with a rounding mode other than rte"), 0;
      }
      unsigned ew = half ? 2 : dw, step = (num == 180 || num == 181) && n == 3 ? 4 : n;
      uint64_t off = ld_u(v + d->ops[3], 8), p = V64(v, d->ops[4]);
      uint8_t *a = xe_run_mem(r, w, d, p + off * step * ew, (uint64_t)n * ew, true);
      if (!a) return 0;
      for (unsigned k = 0; k < n; k++) {
         if (half) st_f(a + 2 * k, 2, ld_f(v + d->ops[2] + k * dw, dw));
         else memcpy(a + k * ew, v + d->ops[2] + k * ew, ew);
      }
      return 1;
   }
   default:
      return -1;
   }
}

bool xe_run_other(xe_run *r, xe_wi *w, const dinst *d)
{
   uint8_t *v = w->v;
   switch (d->op) {
   case SpvOpCompositeExtract:
      memmove(v + d->res, v + d->ops[0] + d->aux, d->size);
      return true;
   case SpvOpCompositeInsert:
      memmove(v + d->res, v + d->ops[1], d->size);
      memcpy(v + d->res + d->aux, v + d->ops[0], d->aux2);
      return true;
   case SpvOpCompositeConstruct: {
      uint32_t off = 0;
      for (unsigned k = 0; k < d->nops; k++) {
         memcpy(r->phi_tmp + off, v + d->ops[2 * k], d->ops[2 * k + 1]);
         off += d->ops[2 * k + 1];
      }
      memcpy(v + d->res, r->phi_tmp, off < d->size ? off : d->size);
      return true;
   }
   case SpvOpVectorExtractDynamic: {
      uint64_t i = ld_u(v + d->ops[1], xe_type_width(r->p->m, xe_def(r->p->m, d->src->words[d->src->first_op + 1])->type_id) / 8);
      if (i >= d->sncomp) return xe_run_fail(r, d, "vector index out of range");
      memcpy(v + d->res, v + d->ops[0] + i * d->size, d->size);
      return true;
   }
   case SpvOpVectorInsertDynamic: {
      uint64_t i = ld_u(v + d->ops[2], xe_type_width(r->p->m, xe_def(r->p->m, d->src->words[d->src->first_op + 2])->type_id) / 8);
      if (i >= d->ncomp) return xe_run_fail(r, d, "vector index out of range");
      memmove(v + d->res, v + d->ops[0], d->size);
      memcpy(v + d->res + i * d->width, v + d->ops[1], d->width);
      return true;
   }
   case SpvOpVectorShuffle: {
      uint8_t *t = r->phi_tmp;
      for (unsigned k = 0; k < d->ncomp; k++) {
         uint32_t c = d->ops[2 + k];
         if (c == 0xffffffffu) memset(t + k * d->width, 0, d->width);
         else if (c < d->aux) memcpy(t + k * d->width, v + d->ops[0] + c * d->width, d->width);
         else memcpy(t + k * d->width, v + d->ops[1] + (c - d->aux) * d->width, d->width);
      }
      memcpy(v + d->res, t, d->size);
      return true;
   }
   case SpvOpCopyObject: case SpvOpBitcast: case SpvOpConvertPtrToU: case SpvOpConvertUToPtr:
   case SpvOpPtrCastToGeneric: case SpvOpGenericCastToPtr:
      memmove(v + d->res, v + d->ops[0], d->size);
      if (d->op == SpvOpConvertPtrToU && d->size < 8) memmove(v + d->res, v + d->ops[0], d->size);
      return true;
   case SpvOpGenericCastToPtrExplicit: {
      uint64_t q = V64(v, d->ops[0]);
      unsigned sc = d->ops[1], sp = PTR_SP(q);
      bool ok = (sc == SpvStorageClassCrossWorkgroup && sp == SP_GLOBAL) ||
                (sc == SpvStorageClassWorkgroup && sp == SP_LOCAL) ||
                (sc == SpvStorageClassFunction && sp == SP_PRIVATE);
      if (!ok) q = 0;
      memcpy(v + d->res, &q, 8);
      return true;
   }
   case SpvOpPtrEqual: case SpvOpPtrNotEqual: {
      /* A pointer value is its address with its space in the top bits
       * (PTR_SP), kept through generic casts, and null is 0 in every
       * space: equal values are equal pointers. */
      bool eq = V64(v, d->ops[0]) == V64(v, d->ops[1]);
      v[d->res] = d->op == SpvOpPtrEqual ? eq : !eq;
      return true;
   }
   case SpvOpGenericPtrMemSemantics: {
      uint64_t q = V64(v, d->ops[0]);
      uint32_t s = PTR_SP(q) == SP_LOCAL ? SpvMemorySemanticsWorkgroupMemoryMask
                   : SpvMemorySemanticsCrossWorkgroupMemoryMask;
      memcpy(v + d->res, &s, 4);
      return true;
   }
   case SpvOpCopyMemorySized: case SpvOpCopyMemory: {
      uint64_t n = d->op == SpvOpCopyMemory ? d->aux : ld_u(v + d->ops[2], 8);
      if (d->op == SpvOpCopyMemorySized)
         n = ld_u(v + d->ops[2], xe_type_width(r->p->m, xe_def(r->p->m, d->src->words[d->src->first_op + 2])->type_id) / 8);
      uint8_t *src = xe_run_mem(r, w, d, V64(v, d->ops[1]), n, false);
      if (!src) return false;
      uint8_t *dst = xe_run_mem_ex(r, w, d, V64(v, d->ops[0]), n, XE_MEM_WRITE, src);
      if (!dst) return false;
      memmove(dst, src, n);
      return true;
   }
   case SpvOpAtomicLoad: case SpvOpAtomicStore: case SpvOpAtomicExchange:
   case SpvOpAtomicCompareExchange: case SpvOpAtomicIAdd: case SpvOpAtomicISub:
   case SpvOpAtomicIIncrement: case SpvOpAtomicIDecrement: case SpvOpAtomicAnd:
   case SpvOpAtomicOr: case SpvOpAtomicXor: case SpvOpAtomicUMin: case SpvOpAtomicUMax:
   case SpvOpAtomicSMin: case SpvOpAtomicSMax: case SpvOpAtomicFAddEXT:
      return run_atomic(r, w, d);
   case SpvOpUndef:
      memset(v + d->res, 0, d->size);
      return true;
   case SpvOpSampledImage: case SpvOpImageSampleExplicitLod: case SpvOpImageRead:
   case SpvOpImageWrite: case SpvOpImageQuerySize: case SpvOpImageQuerySizeLod:
   case SpvOpImageQueryFormat: case SpvOpImageQueryOrder:
      return xe_run_image(r, w, d);
   default:
      break;
   }
   if (d->op == SpvOpExtInst) {
      int done = vload_store(r, w, d);
      if (done >= 0) return done == 1;
      /* fract, frexp, modf, sincos, ...: a result and a pointee. */
      uint8_t second[128];
      unsigned size = 0;
      const char *e = NULL;
      unsigned pk = xe_exec_ocl_ptr(d, v, second, &size, &e);
      if (e) return xe_run_fail(r, d, e);
      if (pk) {
         uint8_t *a = xe_run_mem_ex(r, w, d, V64(v, d->ops[pk]), size, XE_MEM_WRITE, second);
         if (!a) return false;
         memcpy(a, second, size);
         return true;
      }
   }
   if (d->op == SpvOpExtInst || xe_exec_alu_supported(d->op)) {
      const char *e = xe_exec_alu(d, v);
      if (e) return xe_run_fail(r, d, e);
      return true;
   }
   char msg[128];
   snprintf(msg, sizeof msg, "unsupported instruction %s", xe_opcode_name(d->op));
   return xe_run_fail(r, d, msg);
}
