/*
 * SPV_KHR_uniform_group_instructions in the interpreter (src/exec/
 * collective.c): OpGroupIMulKHR, OpGroupFMulKHR and OpGroupBitwise
 * And/Or/XorKHR, as Reduce, InclusiveScan and ExclusiveScan, at Subgroup
 * and Workgroup scope, against a table computed here from the definitions
 * (dpnp's cumprod and prod kernels use the products; without them 6 of the
 * SYCL sample's 222 kernels were not verified).
 *
 * One work-group of 12 work-items with sub-groups of 8: a full sub-group
 * (lanes 0-7) and a partial one (8-11).  Per type (8 to 64-bit integers;
 * half, float, double) one generated kernel stores the six results of one
 * operation for every work-item.  Integer inputs are odd and large, so
 * that products wrap modulo 2^W; float inputs are powers of two and 1.5,
 * whose products are exact in every width, so that the order of the
 * multiplications does not matter.  Exclusive scans start from the
 * operation's identity (1, 1.0, all ones for And, 0 for Or and Xor).
 */
#define _GNU_SOURCE
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec.h"
#include "io.h"
#include "runnable.h"
#include "testutil.h"

#define N 12
#define SG 8

enum { MUL, AND, OR, XOR };
static const char *int_ops[] = {"OpGroupIMulKHR", "OpGroupBitwiseAndKHR", "OpGroupBitwiseOrKHR",
                                "OpGroupBitwiseXorKHR"};
static const char *gops[3] = {"Reduce", "InclusiveScan", "ExclusiveScan"};

/* The kernel: out[k * N + i] = result k of x = in[i], k = scope * 3 + group
 * operation (scope 0 Subgroup, 1 Workgroup). */
static char *kernel_asm(unsigned w, bool isf, const char *op)
{
   char tdecl[96] = "", tname[16];
   if (!isf && w == 32) snprintf(tname, sizeof tname, "uint");
   else if (!isf && w == 64) snprintf(tname, sizeof tname, "ulong");
   else {
      snprintf(tname, sizeof tname, "T");
      snprintf(tdecl, sizeof tdecl, "%%T = OpType%s %u%s\n", isf ? "Float" : "Int", w, isf ? "" : " 0");
   }
   char *body = NULL, *s;
   size_t len;
   FILE *f = open_memstream(&body, &len);
   for (unsigned k = 0; k < 6; k++) {
      fprintf(f, "%%r%u = %s %%%s %%%s %s %%x\n", k, op, tname, k < 3 ? "sg" : "wg", gops[k % 3]);
      fprintf(f, "%%a%u = OpIAdd %%ulong %%i %%off%u\n", k, k);
      fprintf(f, "%%q%u = OpInBoundsPtrAccessChain %%ptrT %%out %%a%u\n", k, k);
      fprintf(f, "OpStore %%q%u %%r%u\n", k, k);
   }
   fclose(f);
   if (asprintf(&s,
      "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\nOpCapability Int16\n"
      "OpCapability Int8\nOpCapability Float16\nOpCapability Float64\nOpCapability Groups\n"
      "OpCapability GroupUniformArithmeticKHR\n"
      "OpExtension \"SPV_KHR_uniform_group_instructions\"\n"
      "OpMemoryModel Physical64 OpenCL\n"
      "OpEntryPoint Kernel %%k \"gmul\" %%gid\n"
      "OpDecorate %%gid BuiltIn GlobalInvocationId\nOpDecorate %%gid Constant\n"
      "%%ulong = OpTypeInt 64 0\n%%uint = OpTypeInt 32 0\n%s"
      "%%void = OpTypeVoid\n%%v3ulong = OpTypeVector %%ulong 3\n"
      "%%ptrin = OpTypePointer Input %%v3ulong\n%%ptrT = OpTypePointer CrossWorkgroup %%%s\n"
      "%%fn = OpTypeFunction %%void %%ptrT %%ptrT\n"
      "%%sg = OpConstant %%uint 3\n%%wg = OpConstant %%uint 2\n"
      "%%off0 = OpConstant %%ulong 0\n%%off1 = OpConstant %%ulong %u\n%%off2 = OpConstant %%ulong %u\n"
      "%%off3 = OpConstant %%ulong %u\n%%off4 = OpConstant %%ulong %u\n%%off5 = OpConstant %%ulong %u\n"
      "%%gid = OpVariable %%ptrin Input\n"
      "%%k = OpFunction %%void None %%fn\n%%in = OpFunctionParameter %%ptrT\n"
      "%%out = OpFunctionParameter %%ptrT\n%%e = OpLabel\n"
      "%%ids = OpLoad %%v3ulong %%gid\n%%i = OpCompositeExtract %%ulong %%ids 0\n"
      "%%p = OpInBoundsPtrAccessChain %%ptrT %%in %%i\n%%x = OpLoad %%%s %%p\n"
      "%sOpReturn\nOpFunctionEnd\n",
      tdecl, tname, N, 2 * N, 3 * N, 4 * N, 5 * N, tname, body) < 0)
      abort();
   free(body);
   return s;
}

/* Runs the kernel on in (N elements of w bits); out gets 6 * N. */
static void run(unsigned w, bool isf, const char *op, const void *in, void *out)
{
   char name[64];
   snprintf(name, sizeof name, "gmul_%s_%u_%s", isf ? "f" : "i", w, op);
   char *text = kernel_asm(w, isf, op), *err = NULL;
   char *spv = tu_assemble(text, name, NULL);
   free(text);
   xe_module *m = tu_load(spv);
   ck_assert_msg(xe_check_runnable(m, &err), "%s: %s", spv, err ? err : "?");
   xe_launch l = {.kernel = "gmul", .global = {N, 1, 1}, .local = {N, 1, 1}, .dims = 1,
                  .subgroup_size = SG, .nargs = 2};
   l.args[0] = (xe_exec_arg){.kind = XE_ARG_BUFFER, .data = (uint8_t *)in, .size = N * w / 8};
   l.args[1] = (xe_exec_arg){.kind = XE_ARG_BUFFER, .data = out, .size = 6 * N * w / 8};
   ck_assert_msg(xe_exec_run(m, &l, &err), "%s", err ? err : "?");
   xe_module_free(m);
   free(spv);
}

static uint64_t mask(unsigned w) { return w == 64 ? ~0ull : (1ull << w) - 1; }

static uint64_t combine(int op, uint64_t a, uint64_t b, unsigned w)
{
   switch (op) {
   case MUL: return (a * b) & mask(w);
   case AND: return a & b;
   case OR: return a | b;
   default: return a ^ b;
   }
}

/* The expected result k for work-item i, from the definitions: the group
 * is the sub-group of i (lanes [0, 8) or [8, 12)) or the work-group. */
static uint64_t expect_int(int op, const uint64_t *x, unsigned k, unsigned i, unsigned w)
{
   unsigned lo = k < 3 ? i / SG * SG : 0, hi = k < 3 ? (lo + SG < N ? lo + SG : N) : N;
   uint64_t acc = op == MUL ? 1 : op == AND ? mask(w) : 0;
   unsigned end = k % 3 == 0 ? hi : k % 3 == 1 ? i + 1 : i;
   for (unsigned j = lo; j < end; j++) acc = combine(op, acc, x[j], w);
   return acc;
}

static void check_int(unsigned w)
{
   uint64_t x[N];
   uint8_t in[N * 8], out[6 * N * 8];
   for (unsigned i = 0; i < N; i++) {
      /* Odd, with high bits set: the products wrap. */
      x[i] = ((0x9e3779b97f4a7c15ull * (i + 1)) >> 7 | 1) & mask(w);
      memcpy(in + i * w / 8, &x[i], w / 8);
   }
   for (int op = MUL; op <= XOR; op++) {
      memset(out, 0xa5, sizeof out);
      run(w, false, int_ops[op], in, out);
      for (unsigned k = 0; k < 6; k++)
         for (unsigned i = 0; i < N; i++) {
            uint64_t got = 0, want = expect_int(op, x, k, i, w);
            memcpy(&got, out + (k * N + i) * w / 8, w / 8);
            ck_assert_msg(got == want, "%s %u-bit %s %s, work-item %u: got %#llx, want %#llx",
                          int_ops[op], w, k < 3 ? "Subgroup" : "Workgroup", gops[k % 3], i,
                          (unsigned long long)got, (unsigned long long)want);
         }
   }
}

/* Half-precision bits of the exact values used (normal numbers only). */
static uint16_t to_half(double v)
{
   int e;
   double f = frexp(fabs(v), &e);   /* v = f * 2^e, f in [0.5, 1) */
   uint16_t mant = (uint16_t)((f * 2 - 1) * 1024);
   return (uint16_t)((v < 0) << 15 | (e - 1 + 15) << 10 | mant);
}
static double from_half(uint16_t h)
{
   double m = 1 + (h & 0x3ff) / 1024.0;
   return ((h >> 15) ? -1 : 1) * ldexp(m, ((h >> 10) & 0x1f) - 15);
}

static void check_float(unsigned w)
{
   static const double x[N] = {2, -0.5, 1.5, 1, -2, 0.25, 1, 1.5, -1, 2, 0.5, -1};
   uint8_t in[N * 8], out[6 * N * 8];
   for (unsigned i = 0; i < N; i++) {
      float f = (float)x[i];
      uint16_t h = to_half(x[i]);
      memcpy(in + i * w / 8, w == 64 ? (const void *)&x[i] : w == 32 ? (const void *)&f : &h, w / 8);
   }
   memset(out, 0xa5, sizeof out);
   run(w, true, "OpGroupFMulKHR", in, out);
   for (unsigned k = 0; k < 6; k++)
      for (unsigned i = 0; i < N; i++) {
         unsigned lo = k < 3 ? i / SG * SG : 0, hi = k < 3 ? (lo + SG < N ? lo + SG : N) : N;
         unsigned end = k % 3 == 0 ? hi : k % 3 == 1 ? i + 1 : i;
         double want = 1, got;
         for (unsigned j = lo; j < end; j++) want *= x[j];
         const uint8_t *p = out + (k * N + i) * w / 8;
         if (w == 64) memcpy(&got, p, 8);
         else if (w == 32) { float f; memcpy(&f, p, 4); got = f; }
         else { uint16_t h; memcpy(&h, p, 2); got = from_half(h); }
         ck_assert_msg(got == want, "OpGroupFMulKHR %u-bit %s %s, work-item %u: got %g, want %g", w,
                       k < 3 ? "Subgroup" : "Workgroup", gops[k % 3], i, got, want);
      }
}

/* A few rows by hand, independent of expect_int: the 32-bit product of
 * lanes 0-2 and the sub-group of lanes 8-11. */
START_TEST(by_hand)
{
   uint32_t in[N] = {3, 5, 7, 0x10001, 2, 2, 2, 2, 0x80000001u, 3, 1, 2}, out[6 * N];
   run(32, false, "OpGroupIMulKHR", in, out);
   ck_assert_uint_eq(out[N + 2], 105);                 /* inclusive, lane 2: 3*5*7 */
   ck_assert_uint_eq(out[2 * N + 0], 1);               /* exclusive, lane 0 */
   ck_assert_uint_eq(out[2 * N + 3], 105);             /* exclusive, lane 3 */
   ck_assert_uint_eq(out[N + 3], 105 * 0x10001u);      /* 6881385: no wrap yet */
   ck_assert_uint_eq(out[8], 0x80000001u * 6);         /* reduce over lanes 8-11, wraps */
   ck_assert_uint_eq(out[2 * N + 8], 1);               /* exclusive, first lane of sub-group 2 */
}
END_TEST

START_TEST(int8) { check_int(8); } END_TEST
START_TEST(int16) { check_int(16); } END_TEST
START_TEST(int32) { check_int(32); } END_TEST
START_TEST(int64) { check_int(64); } END_TEST
START_TEST(half16) { check_float(16); } END_TEST
START_TEST(float32) { check_float(32); } END_TEST
START_TEST(float64) { check_float(64); } END_TEST

int main(void)
{
   Suite *s = suite_create("exec_group_mul");
   TCase *tc = tcase_create("group_mul");
   tcase_set_timeout(tc, 300);
   tcase_add_test(tc, by_hand);
   tcase_add_test(tc, int8);
   tcase_add_test(tc, int16);
   tcase_add_test(tc, int32);
   tcase_add_test(tc, int64);
   tcase_add_test(tc, half16);
   tcase_add_test(tc, float32);
   tcase_add_test(tc, float64);
   suite_add_tcase(s, tc);
   return tu_run_suite(s) ? 1 : 0;
}
