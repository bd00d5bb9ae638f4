/*
 * OpenCL.std extended instructions (numbers from the OpenCL extended
 * instruction set specification, spirv/unified1/OpenCL.std.h), for scalars
 * and vectors of half, float and double and of every integer width.
 *
 * Floats are computed with the host libm in double and rounded once to the
 * result type (fma/mad of float use fmaf; nextafter works in the result's
 * own precision).  That is at least as accurate as the specification's ULP
 * bounds, may differ from a GPU in the last ulp, and is deterministic:
 * --verify runs the input and the optimized module on this same code, so
 * exact comparison stays correct.  native_* and half_* are computed as the
 * full-precision functions (the specification allows any accuracy).
 *
 * Operands are read with their own types (the decoder packs them, XE_OT):
 * a scalar operand of a vector function (clamp(v, lo, hi), mix(x, y, a),
 * ldexp(v, k), step(edge, v)) applies to every component.
 */
#define _DEFAULT_SOURCE   /* lgamma_r: lgamma's sign in a global is not thread-safe */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <spirv/unified1/OpenCL.std.h>
#include "internal.h"

static uint64_t mask(unsigned w) { return w >= 8 ? ~0ull : (1ull << (8 * w)) - 1; }

/* Operand j (0 = the first after the instruction number), component k. */
static const uint8_t *at(const dinst *d, const uint8_t *v, unsigned j, unsigned k)
{
   uint32_t t = XE_OT(d, 2 + j);
   unsigned n = XE_OT_N(t), w = XE_OT_WIDTH(t);
   return v + d->ops[2 + j] + (n > 1 ? k : 0) * w;
}
static double rf(const dinst *d, const uint8_t *v, unsigned j, unsigned k)
{
   uint32_t t = XE_OT(d, 2 + j);
   if (XE_OT_KIND(t) == K_FLOAT) return ld_f(at(d, v, j, k), XE_OT_WIDTH(t));
   return (double)ld_s(at(d, v, j, k), XE_OT_WIDTH(t));
}
static int64_t rs(const dinst *d, const uint8_t *v, unsigned j, unsigned k)
{
   return ld_s(at(d, v, j, k), XE_OT_WIDTH(XE_OT(d, 2 + j)));
}
static uint64_t ru(const dinst *d, const uint8_t *v, unsigned j, unsigned k)
{
   return ld_u(at(d, v, j, k), XE_OT_WIDTH(XE_OT(d, 2 + j)));
}
static unsigned ncomp_of(const dinst *d, unsigned j) { return XE_OT_N(XE_OT(d, 2 + j)); }

static double sinpi(double x)
{
   /* Reduce exactly first, so that sinpi(n) is 0 for every integer n. */
   double r = remainder(x, 2.0);
   return sin(M_PI * r);
}
static double cospi(double x) { return sin(M_PI * (0.5 - fabs(remainder(x, 2.0)))); }

static double rootn(double x, int64_t n)
{
   if (n == 0) return NAN;
   if (x < 0) return (n & 1) ? -pow(-x, 1.0 / (double)n) : NAN;
   return pow(x, 1.0 / (double)n);
}

static int64_t ilogb_cl(double x)
{
   if (isnan(x)) return INT_MAX;   /* OpenCL's FP_ILOGBNAN */
   if (x == 0) return INT_MIN;     /* FP_ILOGB0 */
   if (isinf(x)) return INT_MAX;
   return ilogb(x);
}

/* Saturating integer helpers for a result of w bytes. */
static uint64_t sat_s(__int128 t, unsigned w)
{
   __int128 lo = -((__int128)1 << (8 * w - 1)), hi = ((__int128)1 << (8 * w - 1)) - 1;
   return (uint64_t)(t < lo ? lo : t > hi ? hi : t);
}
static uint64_t sat_u(__int128 t, unsigned w)
{
   if (t < 0) return 0;
   return (unsigned __int128)t > mask(w) ? mask(w) : (uint64_t)t;
}
static uint64_t mul_hi_s(int64_t a, int64_t b, unsigned w)
{
   return (uint64_t)(((__int128)a * b) >> (8 * w));
}
static uint64_t mul_hi_u(uint64_t a, uint64_t b, unsigned w)
{
   return (uint64_t)(((unsigned __int128)a * b) >> (8 * w));
}

/* Geometric functions: a scalar or vector result from whole vectors. */
static const char *geometric(const dinst *d, uint8_t *v, unsigned num, uint8_t *out)
{
   unsigned n = ncomp_of(d, 0), w = d->width;
   double a[16], b[16], s = 0;
   if (n > 16) return "vector too wide";
   for (unsigned k = 0; k < n; k++) {
      a[k] = rf(d, v, 0, k);
      b[k] = d->nops > 3 ? rf(d, v, 1, k) : 0;
   }
   switch (num) {
   case OpenCLstd_Cross:
      st_f(out, w, a[1] * b[2] - a[2] * b[1]);
      st_f(out + w, w, a[2] * b[0] - a[0] * b[2]);
      st_f(out + 2 * w, w, a[0] * b[1] - a[1] * b[0]);
      if (d->ncomp == 4) st_f(out + 3 * w, w, 0);
      return NULL;
   case OpenCLstd_Length: case OpenCLstd_Fast_length:
      for (unsigned k = 0; k < n; k++) s += a[k] * a[k];
      st_f(out, w, sqrt(s));
      return NULL;
   case OpenCLstd_Distance: case OpenCLstd_Fast_distance:
      for (unsigned k = 0; k < n; k++) s += (a[k] - b[k]) * (a[k] - b[k]);
      st_f(out, w, sqrt(s));
      return NULL;
   default: /* Normalize, Fast_normalize: a zero vector stays as it is */
      for (unsigned k = 0; k < n; k++) s += a[k] * a[k];
      s = sqrt(s);
      for (unsigned k = 0; k < n; k++) st_f(out + k * w, w, s == 0 ? a[k] : a[k] / s);
      return NULL;
   }
}

/* One float component of a float-valued entry.  Returns false when num is
 * not one. */
static bool float_fn(const dinst *d, const uint8_t *v, unsigned num, unsigned k, double *res)
{
   double x = d->nops > 2 ? rf(d, v, 0, k) : 0, y = d->nops > 3 ? rf(d, v, 1, k) : 0;
   double z = d->nops > 4 ? rf(d, v, 2, k) : 0;
   unsigned w = d->width;
   double r;
   switch (num) {
   case OpenCLstd_Acos: r = acos(x); break;
   case OpenCLstd_Acosh: r = acosh(x); break;
   case OpenCLstd_Acospi: r = acos(x) / M_PI; break;
   case OpenCLstd_Asin: r = asin(x); break;
   case OpenCLstd_Asinh: r = asinh(x); break;
   case OpenCLstd_Asinpi: r = asin(x) / M_PI; break;
   case OpenCLstd_Atan: r = atan(x); break;
   case OpenCLstd_Atan2: r = atan2(x, y); break;
   case OpenCLstd_Atanh: r = atanh(x); break;
   case OpenCLstd_Atanpi: r = atan(x) / M_PI; break;
   case OpenCLstd_Atan2pi: r = atan2(x, y) / M_PI; break;
   case OpenCLstd_Cbrt: r = cbrt(x); break;
   case OpenCLstd_Ceil: r = ceil(x); break;
   case OpenCLstd_Copysign: r = copysign(x, y); break;
   case OpenCLstd_Cos: case OpenCLstd_Half_cos: case OpenCLstd_Native_cos: r = cos(x); break;
   case OpenCLstd_Cosh: r = cosh(x); break;
   case OpenCLstd_Cospi: r = cospi(x); break;
   case OpenCLstd_Erfc: r = erfc(x); break;
   case OpenCLstd_Erf: r = erf(x); break;
   case OpenCLstd_Exp: case OpenCLstd_Half_exp: case OpenCLstd_Native_exp: r = exp(x); break;
   case OpenCLstd_Exp2: case OpenCLstd_Half_exp2: case OpenCLstd_Native_exp2: r = exp2(x); break;
   case OpenCLstd_Exp10: case OpenCLstd_Half_exp10: case OpenCLstd_Native_exp10: r = pow(10, x); break;
   case OpenCLstd_Expm1: r = expm1(x); break;
   case OpenCLstd_Fabs: r = fabs(x); break;
   case OpenCLstd_Fdim: r = isnan(x) || isnan(y) ? NAN : x > y ? x - y : 0; break;
   case OpenCLstd_Floor: r = floor(x); break;
   case OpenCLstd_Fma: case OpenCLstd_Mad:
      r = w == 4 ? fmaf((float)x, (float)y, (float)z) : fma(x, y, z);
      break;
   case OpenCLstd_Fmax: case OpenCLstd_FMax_common: r = fmax(x, y); break;
   case OpenCLstd_Fmin: case OpenCLstd_FMin_common: r = fmin(x, y); break;
   case OpenCLstd_Fmod: r = fmod(x, y); break;
   case OpenCLstd_Hypot: r = hypot(x, y); break;
   case OpenCLstd_Ldexp: r = ldexp(x, (int)rs(d, v, 1, k)); break;
   case OpenCLstd_Lgamma: { int sg; r = lgamma_r(x, &sg); break; }
   case OpenCLstd_Log: case OpenCLstd_Half_log: case OpenCLstd_Native_log: r = log(x); break;
   case OpenCLstd_Log2: case OpenCLstd_Half_log2: case OpenCLstd_Native_log2: r = log2(x); break;
   case OpenCLstd_Log10: case OpenCLstd_Half_log10: case OpenCLstd_Native_log10: r = log10(x); break;
   case OpenCLstd_Log1p: r = log1p(x); break;
   case OpenCLstd_Logb: r = logb(x); break;
   case OpenCLstd_Maxmag: r = fabs(x) > fabs(y) ? x : fabs(y) > fabs(x) ? y : fmax(x, y); break;
   case OpenCLstd_Minmag: r = fabs(x) < fabs(y) ? x : fabs(y) < fabs(x) ? y : fmin(x, y); break;
   case OpenCLstd_Nextafter:
      if (w == 4) r = nextafterf((float)x, (float)y);
      else if (w == 8) r = nextafter(x, y);
      else return false;
      break;
   case OpenCLstd_Pow: r = pow(x, y); break;
   case OpenCLstd_Pown: r = pow(x, (double)rs(d, v, 1, k)); break;
   case OpenCLstd_Powr: case OpenCLstd_Half_powr: case OpenCLstd_Native_powr:
      r = x < 0 ? NAN : pow(x, y);
      break;
   case OpenCLstd_Remainder: r = remainder(x, y); break;
   case OpenCLstd_Rint: r = rint(x); break;
   case OpenCLstd_Rootn: r = rootn(x, rs(d, v, 1, k)); break;
   case OpenCLstd_Round: r = round(x); break;
   case OpenCLstd_Rsqrt: case OpenCLstd_Half_rsqrt: case OpenCLstd_Native_rsqrt: r = 1.0 / sqrt(x); break;
   case OpenCLstd_Sin: case OpenCLstd_Half_sin: case OpenCLstd_Native_sin: r = sin(x); break;
   case OpenCLstd_Sinh: r = sinh(x); break;
   case OpenCLstd_Sinpi: r = sinpi(x); break;
   case OpenCLstd_Sqrt: case OpenCLstd_Half_sqrt: case OpenCLstd_Native_sqrt: r = sqrt(x); break;
   case OpenCLstd_Tan: case OpenCLstd_Half_tan: case OpenCLstd_Native_tan: r = tan(x); break;
   case OpenCLstd_Tanh: r = tanh(x); break;
   case OpenCLstd_Tanpi: r = sinpi(x) / cospi(x); break;
   case OpenCLstd_Tgamma: r = tgamma(x); break;
   case OpenCLstd_Trunc: r = trunc(x); break;
   case OpenCLstd_Half_divide: case OpenCLstd_Native_divide:
      r = w == 4 ? (double)((float)x / (float)y) : x / y;
      break;
   case OpenCLstd_Half_recip: case OpenCLstd_Native_recip:
      r = w == 4 ? (double)(1.0f / (float)x) : 1.0 / x;
      break;
   case OpenCLstd_FClamp: r = fmin(fmax(x, y), z); break;
   case OpenCLstd_Degrees: r = x * (180.0 / M_PI); break;
   case OpenCLstd_Radians: r = x * (M_PI / 180.0); break;
   case OpenCLstd_Mix: r = x + (y - x) * z; break;
   case OpenCLstd_Step: r = y < x ? 0.0 : 1.0; break;          /* step(edge, x) */
   case OpenCLstd_Smoothstep: {                                /* smoothstep(e0, e1, x) */
      double t = (z - x) / (y - x);
      t = t < 0 ? 0 : t > 1 ? 1 : t;
      r = t * t * (3 - 2 * t);
      break;
   }
   case OpenCLstd_Sign: r = x > 0 ? 1.0 : x < 0 ? -1.0 : isnan(x) ? 0.0 : x; break;
   default: return false;
   }
   *res = r;
   return true;
}

/* One integer component.  Returns false when num is not an integer entry. */
static bool int_fn(const dinst *d, const uint8_t *v, unsigned num, unsigned k, uint64_t *res)
{
   unsigned w = d->width, na = d->nops - 2;
   uint64_t u[3] = {0};
   int64_t s[3] = {0};
   for (unsigned j = 0; j < na && j < 3; j++) { u[j] = ru(d, v, j, k); s[j] = rs(d, v, j, k); }
   uint64_t r;
   switch (num) {
   case OpenCLstd_SAbs: r = s[0] < 0 ? (uint64_t)0 - u[0] : u[0]; break;
   case OpenCLstd_UAbs: r = u[0]; break;
   case OpenCLstd_SAbs_diff: r = s[0] > s[1] ? (uint64_t)s[0] - (uint64_t)s[1] : (uint64_t)s[1] - (uint64_t)s[0]; break;
   case OpenCLstd_UAbs_diff: r = u[0] > u[1] ? u[0] - u[1] : u[1] - u[0]; break;
   case OpenCLstd_SAdd_sat: r = sat_s((__int128)s[0] + s[1], w); break;
   case OpenCLstd_UAdd_sat: r = sat_u((__int128)u[0] + u[1], w); break;
   case OpenCLstd_SSub_sat: r = sat_s((__int128)s[0] - s[1], w); break;
   case OpenCLstd_USub_sat: r = u[0] > u[1] ? u[0] - u[1] : 0; break;
   case OpenCLstd_SHadd: r = (uint64_t)(((__int128)s[0] + s[1]) >> 1); break;
   case OpenCLstd_UHadd: r = (uint64_t)(((unsigned __int128)u[0] + u[1]) >> 1); break;
   case OpenCLstd_SRhadd: r = (uint64_t)(((__int128)s[0] + s[1] + 1) >> 1); break;
   case OpenCLstd_URhadd: r = (uint64_t)(((unsigned __int128)u[0] + u[1] + 1) >> 1); break;
   case OpenCLstd_SClamp: r = (uint64_t)(s[0] < s[1] ? s[1] : s[0] > s[2] ? s[2] : s[0]); break;
   case OpenCLstd_UClamp: r = u[0] < u[1] ? u[1] : u[0] > u[2] ? u[2] : u[0]; break;
   case OpenCLstd_Clz: {
      unsigned c = 0;
      for (int b = 8 * w - 1; b >= 0 && !(u[0] >> b & 1); b--) c++;
      r = c;
      break;
   }
   case OpenCLstd_Ctz: {
      unsigned c = 0;
      while (c < 8 * w && !(u[0] >> c & 1)) c++;
      r = c;
      break;
   }
   case OpenCLstd_Popcount: r = (uint64_t)__builtin_popcountll(u[0] & mask(w)); break;
   case OpenCLstd_SMax: r = (uint64_t)(s[0] > s[1] ? s[0] : s[1]); break;
   case OpenCLstd_UMax: r = u[0] > u[1] ? u[0] : u[1]; break;
   case OpenCLstd_SMin: r = (uint64_t)(s[0] < s[1] ? s[0] : s[1]); break;
   case OpenCLstd_UMin: r = u[0] < u[1] ? u[0] : u[1]; break;
   case OpenCLstd_SMul_hi: r = mul_hi_s(s[0], s[1], w); break;
   case OpenCLstd_UMul_hi: r = mul_hi_u(u[0], u[1], w); break;
   case OpenCLstd_SMad_hi: r = mul_hi_s(s[0], s[1], w) + u[2]; break;
   case OpenCLstd_UMad_hi: r = mul_hi_u(u[0], u[1], w) + u[2]; break;
   case OpenCLstd_SMad_sat: r = sat_s((__int128)s[0] * s[1] + s[2], w); break;
   case OpenCLstd_UMad_sat: {
      unsigned __int128 t = (unsigned __int128)u[0] * u[1] + u[2];
      r = t > mask(w) ? mask(w) : (uint64_t)t;
      break;
   }
   case OpenCLstd_Rotate: {
      unsigned b = 8 * w, sh = (unsigned)(u[1] % b);
      uint64_t x = u[0] & mask(w);
      r = sh ? (x << sh | x >> (b - sh)) : x;
      break;
   }
   case OpenCLstd_SMad24: r = (uint64_t)((int64_t)(int32_t)u[0] * (int32_t)u[1]) + u[2]; break;
   case OpenCLstd_UMad24: r = (u[0] & 0xffffff) * (u[1] & 0xffffff) + u[2]; break;
   case OpenCLstd_SMul24: r = (uint64_t)((int64_t)(int32_t)u[0] * (int32_t)u[1]); break;
   case OpenCLstd_UMul24: r = (u[0] & 0xffffff) * (u[1] & 0xffffff); break;
   case OpenCLstd_U_Upsample: case OpenCLstd_S_Upsample: {
      /* upsample(hi, lo): hi in the upper half, lo (unsigned) below. */
      unsigned lw = XE_OT_WIDTH(XE_OT(d, 3));
      r = (u[0] << (8 * lw)) | (u[1] & mask(lw));
      break;
   }
   default: return false;
   }
   *res = r & mask(w);
   return true;
}

const char *xe_exec_ocl(const dinst *d, uint8_t *v)
{
   unsigned num = d->ops[1], n = d->ncomp, w = d->width;
   uint8_t out[128];
   if (d->size > sizeof out) return "vector too wide";
   switch (num) {
   case OpenCLstd_Bitselect: case OpenCLstd_Select:
      /* On bits: select takes b where c's most significant bit is set
       * (vectors) or c is non-zero (scalars). */
      for (unsigned k = 0; k < n; k++) {
         uint64_t a = ru(d, v, 0, k), b = ru(d, v, 1, k), c = ru(d, v, 2, k);
         unsigned cw = XE_OT_WIDTH(XE_OT(d, 4));
         uint64_t r = num == OpenCLstd_Bitselect ? (a & ~c) | (b & c)
                      : (n > 1 ? c >> (8 * cw - 1) & 1 : c != 0) ? b : a;
         st_u(out + k * w, w, r);
      }
      memcpy(v + d->res, out, d->size);
      return NULL;
   case OpenCLstd_Cross: case OpenCLstd_Distance: case OpenCLstd_Length: case OpenCLstd_Normalize:
   case OpenCLstd_Fast_distance: case OpenCLstd_Fast_length: case OpenCLstd_Fast_normalize: {
      const char *e = geometric(d, v, num, out);
      if (!e) memcpy(v + d->res, out, d->size);
      return e;
   }
   case OpenCLstd_Shuffle: case OpenCLstd_Shuffle2: {
      /* shuffle(x, mask), shuffle2(x, y, mask): component mask[i] modulo
       * the number of components (of x and y together). */
      unsigned nx = ncomp_of(d, 0), mj = num == OpenCLstd_Shuffle ? 1 : 2;
      for (unsigned k = 0; k < n; k++) {
         uint64_t i = ru(d, v, mj, k) % (num == OpenCLstd_Shuffle ? nx : 2 * nx);
         const uint8_t *src = i < nx ? v + d->ops[2] + i * w : v + d->ops[3] + (i - nx) * w;
         memcpy(out + k * w, src, w);
      }
      memcpy(v + d->res, out, d->size);
      return NULL;
   }
   case OpenCLstd_Prefetch:
      return NULL;   /* a cache hint: nothing to compute */
   case OpenCLstd_Ilogb:
      for (unsigned k = 0; k < n; k++) st_u(out + k * w, w, (uint64_t)ilogb_cl(rf(d, v, 0, k)));
      memcpy(v + d->res, out, d->size);
      return NULL;
   case OpenCLstd_Nan:
      for (unsigned k = 0; k < n; k++) {
         uint64_t code = ru(d, v, 0, k);
         if (w == 8) st_u(out + k * w, 8, 0x7ff8000000000000ull | (code & 0x7ffffffffffffull));
         else if (w == 4) st_u(out + k * w, 4, 0x7fc00000u | (code & 0x3fffffu));
         else st_u(out + k * w, 2, 0x7e00u | (code & 0x1ffu));
      }
      memcpy(v + d->res, out, d->size);
      return NULL;
   default: break;
   }
   for (unsigned k = 0; k < n; k++) {
      uint8_t *r = out + k * w;
      if (d->kind == K_FLOAT) {
         double f;
         if (!float_fn(d, v, num, k, &f)) goto unsupported;
         st_f(r, w, f);
      } else {
         uint64_t u;
         if (!int_fn(d, v, num, k, &u)) goto unsupported;
         st_u(r, w, u);
      }
   }
   memcpy(v + d->res, out, d->size);
   return NULL;
unsupported: {
      static _Thread_local char msg[64];
      snprintf(msg, sizeof msg, "unsupported instruction OpExtInst OpenCL.std #%u", num);
      return msg;
   }
}

unsigned xe_exec_ocl_ptr(const dinst *d, uint8_t *v, uint8_t *out2, unsigned *out_size, const char **err)
{
   unsigned num = d->ops[1], n = d->ncomp, w = d->width, pj;
   bool int_out = false;
   switch (num) {
   case OpenCLstd_Fract: case OpenCLstd_Modf: case OpenCLstd_Sincos: pj = 1; break;
   case OpenCLstd_Frexp: case OpenCLstd_Lgamma_r: pj = 1; int_out = true; break;
   case OpenCLstd_Remquo: pj = 2; int_out = true; break;
   default: return 0;
   }
   uint8_t out[128];
   *err = NULL;
   if (d->size > sizeof out || n * 8 > 128) { *err = "vector too wide"; return 0; }
   for (unsigned k = 0; k < n; k++) {
      double x = rf(d, v, 0, k), r = 0, s = 0;
      int64_t q = 0;
      switch (num) {
      case OpenCLstd_Fract: {
         /* fract(x, iptr): min(x - floor(x), the largest value below 1). */
         double fl = floor(x), below1 = w == 4 ? 0x1.fffffep-1 : w == 8 ? 0x1.fffffffffffffp-1 : 0x1.ffcp-1;
         r = isnan(x) ? x : isinf(x) ? copysign(0.0, x) : fmin(x - fl, below1);
         s = fl;
         break;
      }
      case OpenCLstd_Modf: r = modf(x, &s); break;
      case OpenCLstd_Sincos: r = sin(x); s = cos(x); break;
      case OpenCLstd_Frexp: { int e; r = frexp(x, &e); q = e; break; }
      case OpenCLstd_Lgamma_r: { int sg; r = lgamma_r(x, &sg); q = sg; break; }
      case OpenCLstd_Remquo: {
         /* OpenCL wants the sign of x/y and the 7 lowest bits of the
          * quotient; C's remquo promises only 3. */
         double y = rf(d, v, 1, k);
         int qq;
         r = remquo(x, y, &qq);
         double qd = nearbyint((x - r) / y);
         q = isfinite(qd) ? (int64_t)fmod(fabs(qd), 128.0) : 0;
         if (signbit(x) != signbit(y)) q = -q;
         break;
      }
      }
      st_f(out + k * w, w, r);
      if (int_out) st_u(out2 + k * 4, 4, (uint64_t)q);
      else st_f(out2 + k * w, w, s);
   }
   memcpy(v + d->res, out, d->size);
   *out_size = int_out ? 4 * n : w * n;
   return 2 + pj;
}
