/*
 * The interpreter's OpenCL.std (src/exec/ocl.c): testdata/kernels/exec_math.cl
 * (and exec_math_fp64.cl) calls a sample of every family on float, double, integers and vectors;
 * each result is checked here against the C library.  Floats may differ
 * from the C library's float functions by a few ulp (the interpreter
 * rounds a double result once; the OpenCL bounds are 2-4 ulp and more);
 * integers, rounding, remainders, frexp/modf/fract and selects are exact.
 */
#define _GNU_SOURCE
#include <check.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "io.h"
#include "exec.h"

enum { N = 16 };

static void buf(xe_launch *l, unsigned k, void *data, size_t size)
{
   l->args[k].kind = XE_ARG_BUFFER;
   l->args[k].data = data;
   l->args[k].size = size;
   if (l->nargs <= k) l->nargs = k + 1;
}

static void run(const char *kernel, xe_launch *l)
{
   /* math_double lives in testdata/exec (exec_math_fp64.cl says why). */
   xe_module *m = tu_load_src(strcmp(kernel, "math_double") ? "testdata/spv/exec_math.spv"
                                                     : "testdata/exec/exec_math_fp64.spv");
   char *err = NULL;
   l->kernel = kernel;
   l->global[0] = N;
   l->local[0] = N;
   l->dims = 1;
   bool ok = xe_exec_run(m, l, &err);
   ck_assert_msg(ok, "%s", err ? err : "?");
   xe_module_free(m);
}

static void near_f(float got, double want, unsigned ulps, const char *what, int i, int k)
{
   if (isnan(want)) { ck_assert_msg(isnan(got), "%s [%d] result %d: %g, want NaN", what, i, k, got); return; }
   double ulp = fmax(fabs(want) * FLT_EPSILON, FLT_MIN);
   ck_assert_msg(fabs(got - want) <= ulps * ulp, "%s [%d] result %d: %.9g, want %.9g", what, i, k, got, want);
}

static void near_d(double got, double want, unsigned ulps, const char *what, int i, int k)
{
   double ulp = fmax(fabs(want) * DBL_EPSILON, DBL_MIN);
   ck_assert_msg(fabs(got - want) <= ulps * ulp, "%s [%d] result %d: %.17g, want %.17g", what, i, k, got, want);
}

START_TEST(math_float)
{
   static float a[N], b[N], o[N * 96];
   static int io[N * 8];
   for (int i = 0; i < N; i++) {
      a[i] = (i + 0.5f) / N;            /* [0, 1) */
      b[i] = 1.0f + 4.0f * i / N;       /* [1, 5) */
   }
   xe_launch l = {0};
   buf(&l, 0, a, sizeof a);
   buf(&l, 1, b, sizeof b);
   buf(&l, 2, o, sizeof o);
   buf(&l, 3, io, sizeof io);
   run("math_float", &l);
   for (int i = 0; i < N; i++) {
      float x = a[i], y = b[i], z = x * 10.0f - 5.0f, yx = x + 0.25f, e[96];
      int k = 0, ex = 0;
      const double pi = M_PI;
      e[k++] = sinf(x); e[k++] = cosf(x); e[k++] = tanf(x);
      e[k++] = asinf(x); e[k++] = acosf(x); e[k++] = atanf(x); e[k++] = atan2f(x, y);
      e[k++] = (float)sin(pi * x); e[k++] = (float)cos(pi * x); e[k++] = (float)tan(pi * x * 0.25);
      e[k++] = (float)(asin(x) / pi); e[k++] = (float)(acos(x) / pi); e[k++] = (float)(atan(x) / pi);
      e[k++] = (float)(atan2(x, y) / pi);
      e[k++] = sinf(x); e[k++] = cosf(x);
      e[k++] = sinhf(x); e[k++] = coshf(x); e[k++] = tanhf(x);
      e[k++] = asinhf(x); e[k++] = acoshf(y); e[k++] = atanhf(x * 0.5f);
      e[k++] = expf(x); e[k++] = exp2f(x); e[k++] = exp10f(x); e[k++] = expm1f(x);
      e[k++] = logf(y); e[k++] = log2f(y); e[k++] = log10f(y); e[k++] = log1pf(x); e[k++] = logbf(y);
      e[k++] = powf(y, x); e[k++] = y * y * y; e[k++] = powf(y, x); e[k++] = cbrtf(y);
      e[k++] = sqrtf(y); e[k++] = 1.0f / sqrtf(y); e[k++] = cbrtf(y); e[k++] = hypotf(x, y);
      e[k++] = fmaf(x, y, x); e[k++] = fmaf(x, y, x);
      int exact0 = k;
      e[k++] = ceilf(z); e[k++] = floorf(z); e[k++] = rintf(z); e[k++] = roundf(z); e[k++] = truncf(z);
      e[k++] = fmodf(y, yx); e[k++] = remainderf(y, yx);
      float rq = remainderf(y, yx);
      e[k++] = rq;
      e[k++] = fminf(z - floorf(z), 0x1.fffffep-1f); e[k++] = floorf(z);
      float ip; e[k++] = modff(z, &ip); e[k++] = ip;
      e[k++] = frexpf(y, &ex);
      e[k++] = ldexpf(x, 3);
      e[k++] = fminf(x, y - 1.0f); e[k++] = fmaxf(x, y - 1.0f); e[k++] = fdimf(y, x);
      e[k++] = copysignf(x, z); e[k++] = nextafterf(x, y);
      int exact1 = k;
      e[k++] = sinf(x); e[k++] = expf(x); e[k++] = cosf(x); e[k++] = logf(y);
      e[k++] = x / y; e[k++] = 1.0f / y; e[k++] = sqrtf(y);
      e[k++] = (float)(x * 180.0 / pi); e[k++] = (float)(y * pi / 180.0); e[k++] = x + (y - x) * 0.25f;
      e[k++] = x < 0.5f ? 0.0f : 1.0f;
      float t = fminf(fmaxf((x - 0.25f) / 0.5f, 0.0f), 1.0f);
      e[k++] = t * t * (3 - 2 * t);
      e[k++] = z > 0 ? 1.0f : z < 0 ? -1.0f : z;
      e[k++] = fminf(fmaxf(x, 0.25f), 0.75f);
      e[k++] = erff(x); e[k++] = erfcf(x); e[k++] = tgammaf(y); e[k++] = lgammaf(y);
      e[k++] = fabsf(z) > fabsf(x) ? z : fabsf(x) > fabsf(z) ? x : fmaxf(z, x);
      e[k++] = fabsf(z) < fabsf(x) ? z : fabsf(x) < fabsf(z) ? x : fminf(z, x);
      ck_assert_int_eq(io[i * 8 + 3], k);
      for (int j = 0; j < k; j++) {
         if (j >= exact0 && j < exact1) {
            ck_assert_msg(o[i * 96 + j] == e[j], "math_float [%d] result %d: %.9g, want %.9g", i, j,
                          o[i * 96 + j], e[j]);
         } else {
            near_f(o[i * 96 + j], e[j], 4, "math_float", i, j);
         }
      }
      ck_assert_int_eq(io[i * 8 + 0], ilogbf(y));
      ck_assert_int_eq(io[i * 8 + 1], (int)lrint((y - rq) / yx) & 127);
      ck_assert_int_eq(io[i * 8 + 2], ex);
   }
}
END_TEST

START_TEST(math_double)
{
   static double a[N], b[N], o[N * 32];
   for (int i = 0; i < N; i++) {
      a[i] = (i + 0.5) / N;
      b[i] = 1.0 + 4.0 * i / N;
   }
   xe_launch l = {0};
   buf(&l, 0, a, sizeof a);
   buf(&l, 1, b, sizeof b);
   buf(&l, 2, o, sizeof o);
   run("math_double", &l);
   for (int i = 0; i < N; i++) {
      double x = a[i], y = b[i], e[32];
      int k = 0;
      e[k++] = sin(x); e[k++] = atan2(x, y); e[k++] = sin(x); e[k++] = cos(x);
      e[k++] = cosh(x); e[k++] = atanh(x * 0.5); e[k++] = exp10(x); e[k++] = log1p(x);
      e[k++] = pow(y, x); e[k++] = cbrt(y); e[k++] = 1.0 / sqrt(y); e[k++] = hypot(x, y);
      e[k++] = fma(x, y, x); e[k++] = rint(x * 10.0 - 5.0); e[k++] = fmod(y, x + 0.25);
      e[k++] = nextafter(x, y); e[k++] = x + (y - x) * 0.25;
      double t = fmin(fmax((x - 0.25) / 0.5, 0.0), 1.0);
      e[k++] = t * t * (3 - 2 * t);
      e[k++] = cbrt(y); e[k++] = tan(M_PI * x * 0.25);
      for (int j = 0; j < k; j++) near_d(o[i * 32 + j], e[j], 4, "math_double", i, j);
   }
}
END_TEST

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }
static uint32_t rotl(uint32_t v, unsigned s) { s %= 32; return s ? v << s | v >> (32 - s) : v; }

START_TEST(math_int)
{
   static int32_t a[N], b[N], o[N * 32];
   static uint32_t uo[N * 16];
   for (int i = 0; i < N; i++) {
      a[i] = (int32_t)(uint32_t)(i * 0x9e3779b9u);   /* all bit patterns, signs */
      b[i] = i * 7 - 50;
   }
   a[3] = 0;
   a[4] = INT_MAX;
   b[4] = 5;
   a[5] = INT_MIN;
   b[5] = -5;
   xe_launch l = {0};
   buf(&l, 0, a, sizeof a);
   buf(&l, 1, b, sizeof b);
   buf(&l, 2, o, sizeof o);
   buf(&l, 3, uo, sizeof uo);
   run("math_int", &l);
   for (int i = 0; i < N; i++) {
      int64_t x = a[i], y = b[i];
      uint32_t ux = (uint32_t)a[i], uy = (uint32_t)b[i];
      int32_t e[32];
      int k = 0;
      e[k++] = (int32_t)(uint32_t)(x < 0 ? -x : x);
      e[k++] = (int32_t)(uint32_t)(x > y ? x - y : y - x);
      e[k++] = (int32_t)clamp64(x + y, INT_MIN, INT_MAX);
      e[k++] = (int32_t)clamp64(x - y, INT_MIN, INT_MAX);
      e[k++] = (int32_t)((x + y) >> 1);
      e[k++] = (int32_t)((x + y + 1) >> 1);
      e[k++] = (int32_t)clamp64(x, -100, 100);
      e[k++] = ux ? __builtin_clz(ux) : 32;
      e[k++] = ux ? __builtin_ctz(ux) : 32;
      e[k++] = __builtin_popcount(ux);
      e[k++] = (int32_t)((x * y) >> 32) + 7;
      e[k++] = (int32_t)((x * y) >> 32);
      e[k++] = (int32_t)((x & 0x7fffff) * (y & 0x7fff) + 3);
      e[k++] = (int32_t)((x & 0x7fffff) * (y & 0x7fff));
      e[k++] = (int32_t)rotl(ux, uy);
      e[k++] = (int32_t)(x < y ? x : y);
      e[k++] = (int32_t)(x > y ? x : y);
      e[k++] = (int32_t)clamp64(x * y + x, INT_MIN, INT_MAX);
      e[k++] = (int32_t)((uint32_t)(int16_t)x << 16 | (uint16_t)y);
      for (int j = 0; j < k; j++)
         ck_assert_msg(o[i * 32 + j] == e[j], "math_int [%d] result %d: %d, want %d (x %lld, y %lld)", i, j,
                       o[i * 32 + j], e[j], (long long)x, (long long)y);
      uint32_t u[16];
      int m = 0;
      u[m++] = (uint64_t)ux + uy > UINT32_MAX ? UINT32_MAX : ux + uy;
      u[m++] = ux > uy ? ux - uy : 0;
      u[m++] = (uint32_t)(((uint64_t)ux + uy) >> 1);
      u[m++] = (uint32_t)(((uint64_t)ux + uy + 1) >> 1);
      u[m++] = (uint32_t)(((uint64_t)ux * uy) >> 32);
      u[m++] = ux < uy ? ux : uy;
      u[m++] = ux > uy ? ux : uy;
      u[m++] = ux < 10 ? 10 : ux > 1000 ? 1000 : ux;
      u[m++] = ux > uy ? ux - uy : uy - ux;
      u[m++] = rotl(ux, 5);
      for (int j = 0; j < m; j++)
         ck_assert_msg(uo[i * 16 + j] == u[j], "math_int unsigned [%d] result %d: %u, want %u", i, j,
                       uo[i * 16 + j], u[j]);
      int64_t lv = x * 100000;
      uint64_t ul = (uint64_t)ux * 4000000000ull;
      ck_assert_int_eq(o[i * 32 + 20], (int32_t)((int64_t)(((__int128)lv * lv) >> 64) & 0x7fffffff));
      ck_assert_int_eq(o[i * 32 + 21], (int32_t)(uint32_t)((uint64_t)(((unsigned __int128)ul * ul) >> 64) >> 16));
      ck_assert_int_eq(o[i * 32 + 22], lv ? __builtin_clzll((uint64_t)lv) : 64);
      ck_assert_int_eq(o[i * 32 + 23], __builtin_popcountll(ul));
      ck_assert_int_eq(o[i * 32 + 24], (int)clamp64((int8_t)x + (int8_t)y, -128, 127));
      ck_assert_int_eq(o[i * 32 + 25], (uint8_t)x > (uint8_t)y ? (uint8_t)x - (uint8_t)y : 0);
   }
}
END_TEST

START_TEST(math_vec)
{
   static float a[N * 4], b[N * 4], o[N * 16 * 4], s[N * 8];
   for (int i = 0; i < N * 4; i++) {
      a[i] = (float)((i * 37) % 64) / 64.0f;
      b[i] = 1.0f + (float)((i * 11) % 32) / 8.0f;
   }
   xe_launch l = {0};
   buf(&l, 0, a, sizeof a);
   buf(&l, 1, b, sizeof b);
   buf(&l, 2, o, sizeof o);
   buf(&l, 3, s, sizeof s);
   run("math_vec", &l);
   for (int i = 0; i < N; i++) {
      const float *x = a + 4 * i, *y = b + 4 * i;
      const float *r = o + i * 64;
      double e[16][4];
      double ly = sqrt((double)y[0] * y[0] + (double)y[1] * y[1] + (double)y[2] * y[2] + (double)y[3] * y[3]);
      e[0][0] = x[1] * y[2] - x[2] * y[1];
      e[0][1] = x[2] * y[0] - x[0] * y[2];
      e[0][2] = x[0] * y[1] - x[1] * y[0];
      e[0][3] = 0;
      for (int c = 0; c < 4; c++) {
         uint32_t xb, yb, sel;
         memcpy(&xb, &x[c], 4);
         memcpy(&yb, &y[c], 4);
         e[1][c] = y[c] / ly;
         e[2][c] = y[c] / ly;
         e[3][c] = fmaxf(x[c], 0.5f);
         e[4][c] = fminf(fmaxf(x[c], 0.25f), 0.75f);
         e[5][c] = x[c] + (y[c] - x[c]) * 0.5f;
         e[6][c] = x[c] < 0.5f ? 0 : 1;
         e[7][c] = ldexpf(x[c], 2);
         e[8][c] = sinf(x[c]);
         e[9][c] = c % 2 == 0 ? y[c] : x[c];
         sel = (xb & 0x0000ffffu) | (yb & 0xffff0000u);
         float fs;
         memcpy(&fs, &sel, 4);
         e[10][c] = fs;
         double t = fmin(fmax(x[c], 0.0), 1.0);
         e[11][c] = t * t * (3 - 2 * t);
         e[12][c] = x[3 - c];
         static const int m2[4] = {4, 0, 5, 1};
         e[13][c] = m2[c] >= 4 ? y[m2[c] - 4] : x[m2[c]];
         e[14][c] = pow(y[c], c + 1);
      }
      for (int v = 0; v < 15; v++)
         for (int c = 0; c < 4; c++) near_f(r[v * 4 + c], e[v][c], 4, "math_vec", i, v * 4 + c);
      double dot = 0, dist = 0;
      for (int c = 0; c < 4; c++) {
         dot += (double)x[c] * y[c];
         dist += ((double)x[c] - y[c]) * ((double)x[c] - y[c]);
      }
      const float *q = s + i * 8;
      near_f(q[0], dot, 4, "dot", i, 0);
      near_f(q[1], ly, 4, "length", i, 1);
      near_f(q[2], sqrt(dist), 4, "distance", i, 2);
      near_f(q[3], ly, 4, "fast_length", i, 3);
      near_f(q[4], sqrt(dist), 4, "fast_distance", i, 4);
      near_f(q[5], hypot(x[0], x[1]), 4, "length2", i, 5);
      near_f(q[6], x[0] * y[1] - x[1] * y[0], 4, "cross3", i, 6);
   }
}
END_TEST

/* float -> half (OpFConvert, the interpreter's xe_double_to_half): round to
 * nearest, ties to even, over every finite half and every midpoint between
 * two neighbours, subnormals included (a half's midpoint has 12 significant
 * bits, exact in a float), and the float just above and below each
 * midpoint; 65520, the midpoint past the largest half, is a tie that goes
 * to infinity (the even side).  Negative values mirror. */
static double half_value(uint16_t h)
{
   int e = (h >> 10) & 31, m = h & 1023;
   double v = e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);
   return h & 0x8000 ? -v : v;
}

START_TEST(half_rounding)
{
   static const char *text =
      "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\nOpCapability Float16\n"
      "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %main \"to_half\" %gid\n"
      "OpDecorate %gid BuiltIn GlobalInvocationId\nOpDecorate %gid Constant\n"
      "%u64 = OpTypeInt 64 0\n%f32 = OpTypeFloat 32\n%f16 = OpTypeFloat 16\n%void = OpTypeVoid\n"
      "%v3 = OpTypeVector %u64 3\n%pin = OpTypePointer Input %v3\n"
      "%pf = OpTypePointer CrossWorkgroup %f32\n%ph = OpTypePointer CrossWorkgroup %f16\n"
      "%fn = OpTypeFunction %void %pf %ph\n%gid = OpVariable %pin Input\n"
      "%main = OpFunction %void None %fn\n%in = OpFunctionParameter %pf\n"
      "%out = OpFunctionParameter %ph\n%entry = OpLabel\n"
      "%g = OpLoad %v3 %gid Aligned 32\n%i = OpCompositeExtract %u64 %g 0\n"
      "%pi = OpInBoundsPtrAccessChain %pf %in %i\n%x = OpLoad %f32 %pi Aligned 4\n"
      "%h = OpFConvert %f16 %x\n%po = OpInBoundsPtrAccessChain %ph %out %i\n"
      "OpStore %po %h Aligned 2\nOpReturn\nOpFunctionEnd\n";
   char *spv = tu_assemble(text, "to_half", NULL), *err = NULL;
   size_t nb;
   void *bytes = tu_read(spv, &nb);
   xe_module *m = xe_read(bytes, nb, &err);
   ck_assert_msg(m, "%s", err ? err : "?");
   /* Per positive half h <= 0x7bff: h itself, the midpoint to h + 1 and
    * the floats either side of it; then the same negated. */
   enum { NH = 0x7c00, PER = 4, NV = 2 * NH * PER };
   float *in = malloc(NV * sizeof *in);
   uint16_t *want = malloc(NV * sizeof *want), *out = calloc(NV, sizeof *out);
   for (unsigned k = 0; k < NH; k++) {
      uint16_t h = (uint16_t)k, up = (uint16_t)(h + 1);   /* 0x7bff + 1: infinity */
      double lo = half_value(h), hi = k + 1 < NH ? half_value(up) : 65536.0;
      float mid = (float)((lo + hi) / 2);
      ck_assert((double)mid == (lo + hi) / 2);
      float v[PER] = {(float)lo, mid, nextafterf(mid, INFINITY), nextafterf(mid, -INFINITY)};
      uint16_t w[PER] = {h, (h & 1) ? up : h, up, h};
      for (unsigned q = 0; q < PER; q++) {
         in[PER * k + q] = v[q];
         want[PER * k + q] = w[q];
         in[NV / 2 + PER * k + q] = -v[q];
         want[NV / 2 + PER * k + q] = w[q] | 0x8000;
      }
   }
   xe_launch l = { .kernel = "to_half", .global = {NV}, .local = {64}, .dims = 1 };
   buf(&l, 0, in, NV * sizeof *in);
   buf(&l, 1, out, NV * sizeof *out);
   ck_assert_msg(xe_exec_run(m, &l, &err), "%s", err ? err : "?");
   for (unsigned k = 0; k < NV; k++)
      ck_assert_msg(out[k] == want[k], "(half)%.9g = %#06x, want %#06x", in[k], out[k], want[k]);
   xe_module_free(m);
   free(bytes); free(spv); free(in); free(want); free(out);
}
END_TEST

/* frexp, remquo and lgamma_r on float4 (xe_exec_ocl_ptr): the int result
 * each writes through its pointer (exponent, quotient, sign) is an int4
 * with component k at byte 4k, as is the float result at 4k; every
 * component of both is checked (math_float checks only the scalar forms). */
START_TEST(vector_int_out)
{
   static const char *text =
      "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n"
      "%ext = OpExtInstImport \"OpenCL.std\"\n"
      "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %main \"int_out\"\n"
      "%u32 = OpTypeInt 32 0\n%f32 = OpTypeFloat 32\n%void = OpTypeVoid\n"
      "%v4f = OpTypeVector %f32 4\n%v4i = OpTypeVector %u32 4\n"
      "%pfv = OpTypePointer CrossWorkgroup %v4f\n%piv = OpTypePointer CrossWorkgroup %v4i\n"
      "%fvi = OpTypePointer Function %v4i\n"
      "%fn = OpTypeFunction %void %pfv %piv\n"
      "%x0 = OpConstant %f32 0.75\n%x1 = OpConstant %f32 3\n%x2 = OpConstant %f32 -20\n"
      "%x3 = OpConstant %f32 1000\n%x = OpConstantComposite %v4f %x0 %x1 %x2 %x3\n"
      "%y0 = OpConstant %f32 0.5\n%y1 = OpConstant %f32 1\n%y3 = OpConstant %f32 7\n"
      "%y = OpConstantComposite %v4f %y0 %y1 %x1 %y3\n"
      "%g0 = OpConstant %f32 -0.5\n%g1 = OpConstant %f32 2.5\n%g2 = OpConstant %f32 -2.5\n"
      "%g3 = OpConstant %f32 -1.5\n%g = OpConstantComposite %v4f %g0 %g1 %g2 %g3\n"
      "%c1 = OpConstant %u32 1\n%c2 = OpConstant %u32 2\n"
      "%main = OpFunction %void None %fn\n%fo = OpFunctionParameter %pfv\n"
      "%io = OpFunctionParameter %piv\n%entry = OpLabel\n"
      "%ve = OpVariable %fvi Function\n%vq = OpVariable %fvi Function\n%vs = OpVariable %fvi Function\n"
      "%m = OpExtInst %v4f %ext frexp %x %ve\n"
      "%r = OpExtInst %v4f %ext remquo %x %y %vq\n"
      "%l = OpExtInst %v4f %ext lgamma_r %g %vs\n"
      "OpStore %fo %m Aligned 16\n"
      "%fo1 = OpInBoundsPtrAccessChain %pfv %fo %c1\nOpStore %fo1 %r Aligned 16\n"
      "%fo2 = OpInBoundsPtrAccessChain %pfv %fo %c2\nOpStore %fo2 %l Aligned 16\n"
      "%e = OpLoad %v4i %ve Aligned 16\nOpStore %io %e Aligned 16\n"
      "%q = OpLoad %v4i %vq Aligned 16\n%io1 = OpInBoundsPtrAccessChain %piv %io %c1\n"
      "OpStore %io1 %q Aligned 16\n"
      "%s = OpLoad %v4i %vs Aligned 16\n%io2 = OpInBoundsPtrAccessChain %piv %io %c2\n"
      "OpStore %io2 %s Aligned 16\nOpReturn\nOpFunctionEnd\n";
   char *spv = tu_assemble(text, "int_out", NULL), *err = NULL;
   size_t nb;
   void *bytes = tu_read(spv, &nb);
   xe_module *m = xe_read(bytes, nb, &err);
   ck_assert_msg(m, "%s", err ? err : "?");
   static float fo[12];
   static int io[12];
   xe_launch l = { .kernel = "int_out", .global = {1}, .local = {1}, .dims = 1 };
   buf(&l, 0, fo, sizeof fo);
   buf(&l, 1, io, sizeof io);
   ck_assert_msg(xe_exec_run(m, &l, &err), "%s", err ? err : "?");
   static const float x[4] = {0.75f, 3, -20, 1000}, y[4] = {0.5f, 1, 3, 7}, g[4] = {-0.5f, 2.5f, -2.5f, -1.5f};
   /* remquo's quotients: 1.5 -> 2 (ties to even), 3, -6.67 -> -7, 142.9 -> 143 & 127 = 15. */
   static const int want_q[4] = {2, 3, -7, 15};
   /* lgamma_r's signs: gamma(-0.5) < 0, gamma(2.5) > 0, gamma(-2.5) < 0, gamma(-1.5) > 0. */
   static const int want_s[4] = {-1, 1, -1, 1};
   for (int c = 0; c < 4; c++) {
      int ex;
      float mant = frexpf(x[c], &ex);
      ck_assert_msg(fo[c] == mant && io[c] == ex, "frexp(%g) component %d: %g, %d; want %g, %d", x[c], c,
                    fo[c], io[c], mant, ex);
      float rem = remainderf(x[c], y[c]);
      ck_assert_msg(fo[4 + c] == rem && io[4 + c] == want_q[c], "remquo(%g, %g) component %d: %g, %d; want %g, %d",
                    x[c], y[c], c, fo[4 + c], io[4 + c], rem, want_q[c]);
      near_f(fo[8 + c], lgammaf(g[c]), 4, "lgamma_r", 0, c);
      ck_assert_msg(io[8 + c] == want_s[c], "lgamma_r(%g) component %d: sign %d, want %d", g[c], c, io[8 + c],
                    want_s[c]);
   }
   xe_module_free(m);
   free(bytes); free(spv);
}
END_TEST

/* rootn(x, n) on float4 against pow in double: for 0 <= x < 1 the
 * root is the positive pow(x, 1/n) whatever n's parity (rootn(0.5, 2) =
 * 0.7071, rootn(0.25, 3) = 0.63; only x < 0 takes the odd-n sign rule);
 * rootn(-8, 3) = -2 and rootn(-4, 2) is NaN.  math_float's rootn takes
 * x in [1, 5) only. */
START_TEST(rootn_fraction)
{
   static const char *text =
      "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n"
      "%ext = OpExtInstImport \"OpenCL.std\"\n"
      "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %main \"rootn_frac\"\n"
      "%u32 = OpTypeInt 32 0\n%f32 = OpTypeFloat 32\n%void = OpTypeVoid\n"
      "%v4f = OpTypeVector %f32 4\n%v4i = OpTypeVector %u32 4\n"
      "%pfv = OpTypePointer CrossWorkgroup %v4f\n%fn = OpTypeFunction %void %pfv\n"
      "%x0 = OpConstant %f32 0.5\n%x1 = OpConstant %f32 0.25\n%x2 = OpConstant %f32 -8\n"
      "%x3 = OpConstant %f32 -4\n%x = OpConstantComposite %v4f %x0 %x1 %x2 %x3\n"
      "%n2 = OpConstant %u32 2\n%n3 = OpConstant %u32 3\n"
      "%n = OpConstantComposite %v4i %n2 %n3 %n3 %n2\n"
      "%c1 = OpConstant %u32 1\n"
      "%y0 = OpConstant %f32 0.75\n%y1 = OpConstant %f32 0.125\n%y2 = OpConstant %f32 0\n"
      "%y3 = OpConstant %f32 0.0625\n%y = OpConstantComposite %v4f %y0 %y1 %y2 %y3\n"
      "%m = OpConstantComposite %v4i %n3 %n2 %n3 %n2\n"
      "%main = OpFunction %void None %fn\n%fo = OpFunctionParameter %pfv\n%entry = OpLabel\n"
      "%r = OpExtInst %v4f %ext rootn %x %n\nOpStore %fo %r Aligned 16\n"
      "%s = OpExtInst %v4f %ext rootn %y %m\n"
      "%fo1 = OpInBoundsPtrAccessChain %pfv %fo %c1\nOpStore %fo1 %s Aligned 16\n"
      "OpReturn\nOpFunctionEnd\n";
   char *spv = tu_assemble(text, "rootn_frac", NULL), *err = NULL;
   size_t nb;
   void *bytes = tu_read(spv, &nb);
   xe_module *m = xe_read(bytes, nb, &err);
   ck_assert_msg(m, "%s", err ? err : "?");
   static float fo[8];
   xe_launch l = { .kernel = "rootn_frac", .global = {1}, .local = {1}, .dims = 1 };
   buf(&l, 0, fo, sizeof fo);
   ck_assert_msg(xe_exec_run(m, &l, &err), "%s", err ? err : "?");
   static const double want[8] = {
      0.70710678118654752, 0.62996052494743658, -2.0, NAN,   /* sqrt(.5), cbrt(.25), cbrt(-8), even root of -4 */
      0.90856029641606983, 0.35355339059327376, 0.0, 0.25,   /* cbrt(.75), sqrt(.125), cbrt(0), sqrt(.0625) */
   };
   for (int c = 0; c < 8; c++)
      near_f(fo[c], want[c], 4, "rootn", c / 4, c % 4);
   xe_module_free(m);
   free(bytes); free(spv);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("exec_math");
   TCase *tc = tcase_create("math");
   tcase_set_timeout(tc, 120);
   tcase_add_test(tc, math_float);
   tcase_add_test(tc, math_double);
   tcase_add_test(tc, math_int);
   tcase_add_test(tc, math_vec);
   tcase_add_test(tc, half_rounding);
   tcase_add_test(tc, vector_int_out);
   tcase_add_test(tc, rootn_fraction);
   suite_add_tcase(s, tc);
   return tu_run_suite(s) ? 1 : 0;
}
