/*
 * Per-component arithmetic with SPIR-V's exact semantics: integers wrap,
 * shift counts are taken modulo the width (what IGC does), division by
 * zero is an error instead of a crash, float->int conversions round toward
 * zero and saturate-free (out of range values are clamped to avoid UB).
 */
#include <math.h>
#include <stdio.h>
#include "internal.h"

bool xe_exec_alu_supported(uint16_t op)
{
   switch (op) {
   case SpvOpIAdd: case SpvOpISub: case SpvOpIMul: case SpvOpUDiv: case SpvOpSDiv:
   case SpvOpUMod: case SpvOpSRem: case SpvOpSMod: case SpvOpShiftLeftLogical:
   case SpvOpShiftRightLogical: case SpvOpShiftRightArithmetic: case SpvOpBitwiseAnd:
   case SpvOpBitwiseOr: case SpvOpBitwiseXor: case SpvOpNot: case SpvOpSNegate:
   case SpvOpFNegate: case SpvOpFAdd: case SpvOpFSub: case SpvOpFMul: case SpvOpFDiv:
   case SpvOpFRem: case SpvOpFMod: case SpvOpIEqual: case SpvOpINotEqual:
   case SpvOpUGreaterThan: case SpvOpUGreaterThanEqual: case SpvOpULessThan:
   case SpvOpULessThanEqual: case SpvOpSGreaterThan: case SpvOpSGreaterThanEqual:
   case SpvOpSLessThan: case SpvOpSLessThanEqual: case SpvOpFOrdEqual:
   case SpvOpFOrdNotEqual: case SpvOpFOrdLessThan: case SpvOpFOrdGreaterThan:
   case SpvOpFOrdLessThanEqual: case SpvOpFOrdGreaterThanEqual: case SpvOpFUnordEqual:
   case SpvOpFUnordNotEqual: case SpvOpFUnordLessThan: case SpvOpFUnordGreaterThan:
   case SpvOpFUnordLessThanEqual: case SpvOpFUnordGreaterThanEqual:
   case SpvOpLogicalAnd: case SpvOpLogicalOr: case SpvOpLogicalNot:
   case SpvOpLogicalEqual: case SpvOpLogicalNotEqual: case SpvOpSelect:
   case SpvOpConvertFToU: case SpvOpConvertFToS: case SpvOpConvertSToF:
   case SpvOpConvertUToF: case SpvOpUConvert: case SpvOpSConvert: case SpvOpFConvert:
   case SpvOpIsNan: case SpvOpIsInf: case SpvOpIsFinite: case SpvOpIsNormal:
   case SpvOpSignBitSet: case SpvOpLessOrGreater: case SpvOpAny: case SpvOpAll: case SpvOpDot:
   case SpvOpVectorTimesScalar: case SpvOpBitCount: case SpvOpOrdered: case SpvOpUnordered:
   case SpvOpSatConvertSToU: case SpvOpSatConvertUToS:
      return true;
   default:
      return false;
   }
}

static uint64_t mask(unsigned w) { return w >= 8 ? ~0ull : (1ull << (8 * w)) - 1; }

static uint64_t f2i(double x, unsigned w, bool sign)
{
   if (isnan(x)) return 0;
   x = trunc(x);
   if (sign) {
      double lo = -ldexp(1, 8 * w - 1), hi = ldexp(1, 8 * w - 1) - 1;
      if (x < lo) x = lo;
      if (x > hi) x = hi;
      return (uint64_t)(int64_t)x & mask(w);
   }
   double hi = ldexp(1, 8 * w) - 1;
   if (x < 0) x = 0;
   if (x >= hi) return mask(w);
   return (uint64_t)x;
}


const char *xe_exec_alu(const dinst *d, uint8_t *v)
{
   if (d->op == SpvOpExtInst) return xe_exec_ocl(d, v);
   unsigned n = d->ncomp, w = d->width, sw = d->swidth;
   const uint32_t *o = d->ops;
   uint8_t out[128];
   if (d->size > sizeof out) return "vector too wide";
   switch (d->op) {
   case SpvOpAny: case SpvOpAll: {
      bool r = d->op == SpvOpAll;
      for (unsigned k = 0; k < d->sncomp; k++)
         r = d->op == SpvOpAll ? r && v[o[0] + k] : r || v[o[0] + k];
      v[d->res] = r;
      return NULL;
   }
   case SpvOpDot: {
      double s = 0;
      for (unsigned k = 0; k < d->sncomp; k++)
         s += ld_f(v + o[0] + k * sw, sw) * ld_f(v + o[1] + k * sw, sw);
      st_f(v + d->res, w, s);
      return NULL;
   }
   case SpvOpSelect: {
      bool vec_cond = d->sncomp > 1;
      for (unsigned k = 0; k < n; k++) {
         bool c = v[o[0] + (vec_cond ? k : 0)];
         memcpy(out + k * w, v + (c ? o[1] : o[2]) + k * w, w);
      }
      if (d->kind == K_AGG) { memmove(v + d->res, v + (v[o[0]] ? o[1] : o[2]), d->size); return NULL; }
      memcpy(v + d->res, out, n * w);
      return NULL;
   }
   default: break;
   }
   for (unsigned k = 0; k < n; k++) {
      const uint8_t *a = v + o[0] + k * sw;
      const uint8_t *b = d->nops > 1 ? v + o[1] + k * sw : a;
      uint8_t *r = out + k * w;
      uint64_t ua = ld_u(a, sw), ub = d->nops > 1 ? ld_u(b, sw) : 0;
      int64_t sa = ld_s(a, sw), sb = d->nops > 1 ? ld_s(b, sw) : 0;
      unsigned bits = 8 * sw;
      switch (d->op) {
      case SpvOpIAdd: st_u(r, w, ua + ub); break;
      case SpvOpISub: st_u(r, w, ua - ub); break;
      case SpvOpIMul: st_u(r, w, ua * ub); break;
      case SpvOpUDiv: case SpvOpUMod:
         if (!(ub & mask(sw))) return "integer division by zero";
         st_u(r, w, d->op == SpvOpUDiv ? ua / ub : ua % ub);
         break;
      case SpvOpSDiv: case SpvOpSRem: case SpvOpSMod: {
         if (!sb) return "integer division by zero";
         if (sb == -1) { st_u(r, w, d->op == SpvOpSDiv ? (uint64_t)0 - ua : 0); break; }
         int64_t q = sa / sb, m = sa % sb;
         if (d->op == SpvOpSMod && m && ((m < 0) != (sb < 0))) m += sb;
         st_u(r, w, d->op == SpvOpSDiv ? (uint64_t)q : (uint64_t)m);
         break;
      }
      case SpvOpShiftLeftLogical: case SpvOpShiftRightLogical: case SpvOpShiftRightArithmetic: {
         unsigned bw = d->aux2; /* the shift operand's width, set by decode */
         uint64_t s = ld_u(v + o[1] + k * bw, bw) % bits;
         if (d->op == SpvOpShiftLeftLogical) st_u(r, w, ua << s);
         else if (d->op == SpvOpShiftRightLogical) st_u(r, w, (ua & mask(sw)) >> s);
         else st_u(r, w, (uint64_t)(sa >> s));
         break;
      }
      case SpvOpBitwiseAnd: st_u(r, w, ua & ub); break;
      case SpvOpBitwiseOr: st_u(r, w, ua | ub); break;
      case SpvOpBitwiseXor: st_u(r, w, ua ^ ub); break;
      case SpvOpNot: st_u(r, w, ~ua); break;
      case SpvOpSNegate: st_u(r, w, (uint64_t)0 - ua); break;
      case SpvOpBitCount: st_u(r, w, (uint64_t)__builtin_popcountll(ua & mask(sw))); break;
      case SpvOpFNegate: st_f(r, w, -ld_f(a, sw)); break;
      case SpvOpFAdd: st_f(r, w, ld_f(a, sw) + ld_f(b, sw)); break;
      case SpvOpFSub: st_f(r, w, ld_f(a, sw) - ld_f(b, sw)); break;
      case SpvOpFMul: st_f(r, w, ld_f(a, sw) * ld_f(b, sw)); break;
      case SpvOpFDiv:
         if (w == 4) { float x = (float)ld_f(a, 4) / (float)ld_f(b, 4); st_f(r, 4, x); }
         else st_f(r, w, ld_f(a, sw) / ld_f(b, sw));
         break;
      case SpvOpFRem: st_f(r, w, fmod(ld_f(a, sw), ld_f(b, sw))); break;
      case SpvOpFMod: {
         double x = ld_f(a, sw), y = ld_f(b, sw), m = fmod(x, y);
         if (m != 0 && ((m < 0) != (y < 0))) m += y;
         st_f(r, w, m);
         break;
      }
      case SpvOpVectorTimesScalar: st_f(r, w, ld_f(a, sw) * ld_f(v + o[1], sw)); break;
#define CMP(OP, EXPR) case OP: *r = (EXPR); break;
      CMP(SpvOpIEqual, (ua & mask(sw)) == (ub & mask(sw)))
      CMP(SpvOpINotEqual, (ua & mask(sw)) != (ub & mask(sw)))
      CMP(SpvOpUGreaterThan, ua > ub) CMP(SpvOpUGreaterThanEqual, ua >= ub)
      CMP(SpvOpULessThan, ua < ub) CMP(SpvOpULessThanEqual, ua <= ub)
      CMP(SpvOpSGreaterThan, sa > sb) CMP(SpvOpSGreaterThanEqual, sa >= sb)
      CMP(SpvOpSLessThan, sa < sb) CMP(SpvOpSLessThanEqual, sa <= sb)
      CMP(SpvOpFOrdEqual, ld_f(a, sw) == ld_f(b, sw))
      CMP(SpvOpFOrdNotEqual, !isunordered(ld_f(a, sw), ld_f(b, sw)) && ld_f(a, sw) != ld_f(b, sw))
      CMP(SpvOpFOrdLessThan, ld_f(a, sw) < ld_f(b, sw))
      CMP(SpvOpFOrdGreaterThan, ld_f(a, sw) > ld_f(b, sw))
      CMP(SpvOpFOrdLessThanEqual, ld_f(a, sw) <= ld_f(b, sw))
      CMP(SpvOpFOrdGreaterThanEqual, ld_f(a, sw) >= ld_f(b, sw))
      CMP(SpvOpFUnordEqual, isunordered(ld_f(a, sw), ld_f(b, sw)) || ld_f(a, sw) == ld_f(b, sw))
      CMP(SpvOpFUnordNotEqual, ld_f(a, sw) != ld_f(b, sw))
      CMP(SpvOpFUnordLessThan, !(ld_f(a, sw) >= ld_f(b, sw)))
      CMP(SpvOpFUnordGreaterThan, !(ld_f(a, sw) <= ld_f(b, sw)))
      CMP(SpvOpFUnordLessThanEqual, !(ld_f(a, sw) > ld_f(b, sw)))
      CMP(SpvOpFUnordGreaterThanEqual, !(ld_f(a, sw) < ld_f(b, sw)))
      CMP(SpvOpOrdered, !isunordered(ld_f(a, sw), ld_f(b, sw)))
      CMP(SpvOpUnordered, isunordered(ld_f(a, sw), ld_f(b, sw)))
      CMP(SpvOpIsNan, isnan(ld_f(a, sw)))
      CMP(SpvOpIsInf, isinf(ld_f(a, sw)))
      /* isnormal of the operand's own width: a float denormal is a
       * normal double. */
      CMP(SpvOpIsFinite, isfinite(ld_f(a, sw)))
      CMP(SpvOpIsNormal, sw == 8 ? isnormal(ld_f(a, 8)) : sw == 4 ? isnormal((float)ld_f(a, 4))
                         : ((ld_u(a, 2) >> 10 & 31) != 0 && (ld_u(a, 2) >> 10 & 31) != 31))
      CMP(SpvOpSignBitSet, (ld_u(a, sw) >> (8 * sw - 1)) & 1)
      CMP(SpvOpLessOrGreater, ld_f(a, sw) < ld_f(b, sw) || ld_f(a, sw) > ld_f(b, sw))
      CMP(SpvOpLogicalAnd, *a && *b) CMP(SpvOpLogicalOr, *a || *b)
      CMP(SpvOpLogicalNot, !*a) CMP(SpvOpLogicalEqual, !*a == !*b)
      CMP(SpvOpLogicalNotEqual, !*a != !*b)
#undef CMP
      case SpvOpConvertFToU: st_u(r, w, f2i(ld_f(a, sw), w, false)); break;
      case SpvOpConvertFToS: st_u(r, w, f2i(ld_f(a, sw), w, true)); break;
      case SpvOpConvertSToF:
         if (w == 4) st_f(r, 4, (float)sa); else st_f(r, w, (double)sa);
         break;
      case SpvOpConvertUToF: {
         uint64_t x = ua & mask(sw);
         if (w == 4) st_f(r, 4, (float)x); else st_f(r, w, (double)x);
         break;
      }
      case SpvOpUConvert: case SpvOpSatConvertUToS: {
         uint64_t x = ua & mask(sw);
         /* aux: SaturatedConversion decoration (OpSatConvert* always). */
         uint64_t hi = d->op == SpvOpSatConvertUToS ? mask(w) >> 1 : mask(w);
         if ((d->aux || d->op == SpvOpSatConvertUToS) && x > hi) x = hi;
         st_u(r, w, x);
         break;
      }
      case SpvOpSConvert: case SpvOpSatConvertSToU: {
         int64_t x = sa;
         if (d->op == SpvOpSatConvertSToU) {
            if (x < 0) x = 0;
            if (w < 8 && (uint64_t)x > mask(w)) x = (int64_t)mask(w);
         } else if (d->aux && w < 8) {
            int64_t lo = -(int64_t)(mask(w) >> 1) - 1, hi = (int64_t)(mask(w) >> 1);
            x = x < lo ? lo : x > hi ? hi : x;
         }
         st_u(r, w, (uint64_t)x);
         break;
      }
      case SpvOpFConvert: st_f(r, w, ld_f(a, sw)); break;
      default: return "unsupported arithmetic instruction";
      }
   }
   memcpy(v + d->res, out, d->size);
   return NULL;
}
