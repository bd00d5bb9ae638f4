/*
 * The reference interpreter: every exec_* test kernel (at -O0 and -O2) runs
 * on known inputs and is checked against results computed here in C; the
 * CLI's error paths (out of bounds) and the differential check (a wrong
 * block-read rewrite) are checked through the xeopt binary.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "testutil.h"
#include "io.h"
#include "exec.h"
#include "launch.h"

static const char *levels[] = {"O0", "O2"};

static xe_module *load(const char *name, int level)
{
   char rel[128];
   snprintf(rel, sizeof rel, "testdata/spv/%s_%s.spv", name, levels[level]);
   return tu_load_src(rel);
}

static void buf(xe_launch *l, unsigned k, void *data, size_t size)
{
   l->args[k].kind = XE_ARG_BUFFER;
   l->args[k].data = data;
   l->args[k].size = size;
   if (l->nargs <= k) l->nargs = k + 1;
}

static void scalar(xe_launch *l, unsigned k, int *v)
{
   l->args[k].kind = XE_ARG_SCALAR;
   l->args[k].data = (uint8_t *)v;
   l->args[k].size = 4;
   if (l->nargs <= k) l->nargs = k + 1;
}

static void run(xe_module *m, xe_launch *l)
{
   char *err = NULL;
   bool ok = xe_exec_run(m, l, &err);
   ck_assert_msg(ok, "%s", err ? err : "?");
}

START_TEST(vadd)
{
   xe_module *m = load("exec_vadd", _i);
   enum { N = 1000 };
   static float a[N], b[N], c[N];
   for (int i = 0; i < N; i++) { a[i] = (float)i * 0.25f; b[i] = 3.0f - (float)i; c[i] = -1; }
   xe_launch l = { .kernel = "exec_vadd", .global = {N}, .local = {8} };
   buf(&l, 0, a, sizeof a); buf(&l, 1, b, sizeof b); buf(&l, 2, c, sizeof c);
   run(m, &l);
   for (int i = 0; i < N; i++) ck_assert_float_eq(c[i], a[i] + b[i]);
   xe_module_free(m);
}
END_TEST

START_TEST(guarded)
{
   xe_module *m = load("exec_guarded", _i);
   int src[64], dst[64], n = 37;
   for (int i = 0; i < 64; i++) { src[i] = i * 11 - 300; dst[i] = 12345; }
   xe_launch l = { .kernel = "exec_guarded", .global = {64}, .local = {16} };
   buf(&l, 0, src, sizeof src); buf(&l, 1, dst, sizeof dst); scalar(&l, 2, &n);
   run(m, &l);
   for (int i = 0; i < 64; i++) ck_assert_int_eq(dst[i], i < n ? src[i] * 3 - 7 : 12345);
   xe_module_free(m);
}
END_TEST

START_TEST(reduce)
{
   xe_module *m = load("exec_reduce", _i);
   int src[256], out[4] = {0};
   for (int i = 0; i < 256; i++) src[i] = (i * 37) % 101 - 50;
   xe_launch l = { .kernel = "exec_reduce", .global = {256}, .local = {64} };
   buf(&l, 0, src, sizeof src); buf(&l, 1, out, sizeof out);
   l.args[2].kind = XE_ARG_LOCAL; l.args[2].size = 64 * 4; l.nargs = 3;
   run(m, &l);
   for (int g = 0; g < 4; g++) {
      int s = 0;
      for (int i = 0; i < 64; i++) s += src[g * 64 + i];
      ck_assert_int_eq(out[g], s);
   }
   xe_module_free(m);
}
END_TEST

START_TEST(hist)
{
   xe_module *m = load("exec_hist", _i);
   enum { WI = 48, PER = 5 };
   unsigned char src[WI * PER];
   int hist[16] = {0}, want[16] = {0}, per = PER;
   for (int i = 0; i < WI * PER; i++) { src[i] = (unsigned char)(i * 7 + i / 3); want[src[i] & 15]++; }
   xe_launch l = { .kernel = "exec_hist", .global = {WI}, .local = {16} };
   buf(&l, 0, src, sizeof src); buf(&l, 1, hist, sizeof hist); scalar(&l, 2, &per);
   run(m, &l);
   for (int k = 0; k < 16; k++) ck_assert_int_eq(hist[k], want[k]);
   xe_module_free(m);
}
END_TEST

START_TEST(loop)
{
   xe_module *m = load("exec_loop", _i);
   float a[32], out[32];
   int trips = 7;
   for (int i = 0; i < 32; i++) a[i] = (float)i * 0.5f - 4.0f;
   xe_launch l = { .kernel = "exec_loop", .global = {32}, .local = {16} };
   buf(&l, 0, a, sizeof a); buf(&l, 1, out, sizeof out); scalar(&l, 2, &trips);
   run(m, &l);
   for (int i = 0; i < 32; i++) {
      float s = 0.0f;
      for (int k = 0; k < trips; k++) s = fmaf(a[i], (float)k, s) + fmaxf(a[i], 0.5f);
      int c = i - 10 < 0 ? 0 : i - 10 > 5 ? 5 : i - 10;
      float want = s + sqrtf(fabsf(a[i])) + (float)(i > 3 ? i : 3) + (float)c;
      ck_assert_float_eq_tol(out[i], want, 1e-4f * (1 + fabsf(want)));
   }
   xe_module_free(m);
}
END_TEST

START_TEST(generic)
{
   xe_module *m = load("exec_generic", _i);
   int g[32];
   for (int i = 0; i < 32; i++) g[i] = i * 3;
   xe_launch l = { .kernel = "exec_generic", .global = {32}, .local = {8} };
   buf(&l, 0, g, sizeof g);
   l.args[1].kind = XE_ARG_LOCAL; l.args[1].size = 8 * 4; l.nargs = 2;
   run(m, &l);
   for (int i = 0; i < 32; i++) {
      int li = i % 8, next = (li + 1) % 8;
      ck_assert_int_eq(g[i], i * 3 + 5 + (i + 2) * 1000 + 100 + next);
   }
   xe_module_free(m);
}
END_TEST

START_TEST(subgroup)
{
   xe_module *m = load("exec_subgroup", _i);
   enum { N = 64 };
   unsigned src[N], dst[N], dst2[N];
   for (int i = 0; i < N; i++) src[i] = (unsigned)(i * 13 + 1);
   xe_launch l = { .kernel = "exec_subgroup", .global = {N}, .local = {32} };
   buf(&l, 0, src, sizeof src); buf(&l, 1, dst, sizeof dst); buf(&l, 2, dst2, sizeof dst2);
   run(m, &l);
   for (int i = 0; i < N; i++) {
      int sg = i / 16 * 16, lane = i % 16;
      unsigned b = src[sg + 3], s = src[sg + ((lane + 1) & 15)], br = src[i];
      ck_assert_uint_eq(dst[i], b * 1000000u + s * 1000u + br + 120u);
      ck_assert_uint_eq(dst2[i], src[i] + 16u);
   }
   xe_module_free(m);
}
END_TEST

static uint32_t rotl(uint32_t x, unsigned s) { return s ? x << s | x >> (32 - s) : x; }

/* Vectors, swizzles, structs returned from helpers, saturating
 * conversions, integer division/shift semantics, bit ops, OpenCL select. */
START_TEST(vec)
{
   xe_module *m = load("exec_vec", _i);
   float io[32];
   int o2[8], n = -12345;
   long long o3[8];
   for (int i = 0; i < 32; i++) io[i] = (float)(i * 3 % 11) * 0.75f - 2.0f;
   float in[32];
   memcpy(in, io, sizeof in);
   xe_launch l = { .kernel = "exec_vec", .global = {8}, .local = {4} };
   buf(&l, 0, io, sizeof io); buf(&l, 1, o2, sizeof o2); buf(&l, 2, o3, sizeof o3); scalar(&l, 3, &n);
   run(m, &l);
   for (int i = 0; i < 8; i++) {
      float v[4] = {in[4 * i] * 2, in[4 * i + 2] * 2, in[4 * i + 1] * 2, in[4 * i + 3] * 2};
      /* The kernel's int arithmetic wraps: add as unsigned. */
      unsigned c = 0;
      for (int k = 0; k < 4; k++) {
         float x = v[k] * 1000.0f;
         c += (unsigned)(x >= 2147483647.0f ? 2147483647 : x <= -2147483648.0f ? (-2147483647 - 1) : (int)x);
      }
      int want = (int)(c + (unsigned)i + (unsigned)(int)v[0] + (unsigned)(n / (i + 1)) +
                       (unsigned)(n % 7) + (unsigned)((-n) >> 2) + ((unsigned)n >> 1));
      ck_assert_int_eq(o2[i], want);
      uint32_t wb;
      memcpy(&wb, &v[3], 4);
      long long w3 = (long long)i * 0x100000001LL + (long long)(wb ^ 0x55) +
                     __builtin_popcount((unsigned)n) + __builtin_clz((unsigned)n) + rotl((uint32_t)n, 3);
      ck_assert_int_eq(o3[i], w3);
      const float add[4] = {1, 2, 3, 4};
      for (int k = 0; k < 4; k++)
         ck_assert_float_eq(io[4 * i + k], (v[k] > 0.5f ? -v[k] : v[k]) + add[k]);
   }
   xe_module_free(m);
}
END_TEST

/* Work-group collectives (OpenCL 2.0 work_group_*), Workgroup scope. */
START_TEST(workgroup)
{
   xe_module *m = load("exec_wg", _i);
   int src[96], dst[96];
   for (int i = 0; i < 96; i++) src[i] = (i * 29) % 41 - 9;
   xe_launch l = { .kernel = "exec_wg", .global = {96}, .local = {32} };
   buf(&l, 0, src, sizeof src); buf(&l, 1, dst, sizeof dst);
   run(m, &l);
   for (int g = 0; g < 3; g++) {
      int sum = 0, any = 0, mx = -1000000;
      for (int k = 0; k < 32; k++) { sum += src[g * 32 + k]; any |= src[g * 32 + k] == 7; }
      for (int k = 0; k < 32; k++) {
         int x = src[g * 32 + k];
         mx = x > mx ? x : mx;
         ck_assert_int_eq(dst[g * 32 + k], sum * 1000 + src[g * 32 + 5] + mx * 100000 + any);
      }
   }
   xe_module_free(m);
}
END_TEST

/* Program-scope constant table, private array initializer, struct passed
 * by value, vload_half, saturating conversion. */
START_TEST(misc)
{
   xe_module *m = load("exec_misc", _i);
   static const int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};
   struct { int a; char b; long long c; } s = { -60, 5, 200 };  /* results 159..272: some saturate */
   uint16_t h[16];
   int out[16];
   unsigned char u[16];
   int saturated = 0;
   for (int i = 0; i < 16; i++) h[i] = (uint16_t)(0x3c00 + (i << 8));  /* 1.0, 1.25, ... */
   xe_launch l = { .kernel = "exec_misc", .global = {16}, .local = {8} };
   buf(&l, 0, out, sizeof out);
   l.args[1].kind = XE_ARG_BUFFER; l.args[1].data = (uint8_t *)&s; l.args[1].size = sizeof s;
   buf(&l, 2, h, sizeof h); buf(&l, 3, u, sizeof u);
   run(m, &l);
   for (int i = 0; i < 16; i++) {
      float hv = 1.0f + (float)i / 4.0f;   /* 0x3c00 + i*256: mantissa steps of 1/4 */
      if (i >= 4) hv = (float)(1 << ((i) / 4)) * (1.0f + (float)(i % 4) / 4.0f);
      int want = table[i % 8] * 10 + (i + 1) % 8 + 1 + s.a + s.b + (int)s.c + (int)(hv * 2.0f);
      ck_assert_int_eq(out[i], want);
      ck_assert_uint_eq(u[i], want < 0 ? 0 : want > 255 ? 255 : want);
      saturated += want > 255;
   }
   ck_assert_int_gt(saturated, 0);
   xe_module_free(m);
}
END_TEST

/* Phis right after the entry block; spec constants with and without an
 * override (SpecId 2 is the loop's first k). */
START_TEST(phi_entry_spec)
{
   char *src = tu_src("testdata/exec/phi_entry_spec.spvasm"), *spv = tu_tmp("phi.spv");
   ck_assert_int_eq(tu_sh(NULL, NULL, "spirv-as --target-env spv1.4 %s -o %s", src, spv), 0);
   size_t n;
   void *bytes = tu_read(spv, &n);
   char *err = NULL;
   xe_module *m = xe_read(bytes, n, &err);
   ck_assert_msg(m, "%s", err);
   for (int first = 0; first < 2; first++) {
      float a[64], out[16];
      int inner = 3;
      for (int i = 0; i < 64; i++) a[i] = (float)i;
      xe_launch l = { .kernel = "specid_existing", .global = {16}, .local = {8} };
      buf(&l, 0, a, sizeof a); buf(&l, 1, out, sizeof out); scalar(&l, 2, &inner);
      if (first) { l.nspec = 1; l.spec_id[0] = 2; l.spec_value[0] = 1; }
      run(m, &l);
      for (int i = 0; i < 16; i++) {
         float s = 0;
         for (int k = first; k < inner; k++) s += a[i * inner + k];
         ck_assert_float_eq(out[i], s);
      }
   }
   xe_module_free(m);
   free(bytes);
   free(src);
   free(spv);
}
END_TEST

/* The command line: typed arguments, float spec override, JSON launch. */
START_TEST(cli_run)
{
   char *src = tu_src("testdata/exec/phi_entry_spec.spvasm"), *spv = tu_tmp("cli.spv");
   char *js = tu_tmp("launch.json");
   char *out = NULL, *err = NULL;
   ck_assert_int_eq(tu_sh(NULL, NULL, "spirv-as --target-env spv1.4 %s -o %s", src, spv), 0);
   int rc = tu_sh(&out, &err, "%s run %s --kernel specid_existing --global 4 --arg 0=buf:float:16:iota "
                  "--arg 1=buf:float:4 --arg 2=int:2 --spec 0=0.5 --spec 1=100 --spec 2=1",
                  tu_xeopt(), spv);
   ck_assert_msg(rc == 0, "%s", err);
   ck_assert_msg(strstr(out, "arg 1 (float[4]): 100.5 101.5 102.5 103.5"), "%s", out);
   free(out); free(err);
   const char *j = "{\"kernel\": \"specid_existing\", \"global\": [8], \"local\": [4], "
                   "\"args\": [\"buf:float:16:iota\", \"buf:float:8\", \"int:2\"], \"spec\": {\"0\": 2.0}}";
   tu_write(js, j, strlen(j));
   rc = tu_sh(&out, &err, "%s run %s --launch %s", tu_xeopt(), spv, js);
   ck_assert_msg(rc == 0, "%s", err);
   ck_assert_msg(strstr(out, "arg 1 (float[8]): 2 10 18 26 34 42 50 58"), "%s", out);
   free(out); free(err);
   rc = tu_sh(&out, &err, "%s run %s --kernel nope --global 4", tu_xeopt(), spv);
   ck_assert_int_ne(rc, 0);
   ck_assert_msg(strstr(err, "no kernel named 'nope'"), "%s", err);
   free(out); free(err); free(src); free(spv); free(js);
}
END_TEST

/* A removed guard is a difference unless the manifest says the buffer is
 * padded (and then only the bytes the input did not write may differ). */
START_TEST(padding_contract)
{
   char *src = tu_src("testdata/exec/guarded_unguarded.spvasm"), *spv = tu_tmp("unguarded.spv");
   char *orig = tu_src("testdata/spv/exec_guarded_O2.spv"), *mf = tu_src("testdata/exec/guarded_unguarded.json");
   char *out = NULL, *err = NULL;
   ck_assert_int_eq(tu_sh(NULL, NULL, "spirv-as --target-env spv1.4 %s -o %s", src, spv), 0);
   int rc = tu_sh(&out, &err, "%s run --compare %s %s", tu_xeopt(), orig, spv);
   ck_assert_int_eq(rc, 1);
   ck_assert_msg(strstr(err, "kernel exec_guarded: argument 1 differs"), "%s", err);
   free(out); free(err);
   rc = tu_sh(&out, &err, "%s run --compare %s %s --manifest %s", tu_xeopt(), orig, spv, mf);
   ck_assert_msg(rc == 0, "%s", err);
   free(out); free(err);
   /* The contract does not excuse a wrong value where the input wrote. */
   rc = tu_sh(&out, &err, "sed 's/OpIAdd %%7/OpISub %%7/' %s > %s.bad && spirv-as --target-env spv1.4 %s.bad -o %s.bad.spv && "
              "%s run --compare %s %s.bad.spv --manifest %s", src, spv, spv, spv, tu_xeopt(), orig, spv, mf);
   ck_assert_int_eq(rc, 1);
   ck_assert_msg(strstr(err, "argument 1 differs at element 0"), "%s", err);
   free(out); free(err); free(src); free(spv); free(orig); free(mf);
}
END_TEST

/* An unsupported instruction is an error that names it. */
START_TEST(unsupported)
{
   char *spv = tu_src("testdata/spv/exec_unsupported_O2.spv");
   char *out = NULL, *err = NULL;
   int rc = tu_sh(&out, &err, "%s run %s --kernel exec_unsupported --global 16 --arg 0=buf:float:16:iota",
                  tu_xeopt(), spv);
   ck_assert_int_eq(rc, 1);
   ck_assert_msg(strstr(err, "kernel exec_unsupported: unsupported instruction OpExtInst OpenCL.std #184"), "%s", err);
   free(out); free(err); free(spv);
}
END_TEST

/* An access past the end is an error naming the instruction, not UB. */
START_TEST(oob)
{
   char *out = NULL, *err = NULL;
   char *spv = tu_src("testdata/spv/exec_vadd_O2.spv");
   int rc = tu_sh(&out, &err, "%s run %s --kernel exec_vadd --global 32 --local 16 "
                  "--arg 0=buf:float:32:iota --arg 1=buf:float:31:iota --arg 2=buf:float:32",
                  tu_xeopt(), spv);
   ck_assert_int_eq(rc, 1);
   ck_assert_msg(strstr(err, "out-of-bounds load") && strstr(err, "OpLoad %") &&
                 strstr(err, "offset 124") && strstr(err, "exec_vadd"), "%s", err);
   free(out); free(err); free(spv);
}
END_TEST

/* The negative test: a block read of a strided address must be caught. */
START_TEST(wrong_rewrite)
{
   char *a = tu_tmp("strided.spv"), *b = tu_tmp("wrong.spv");
   char *sa = tu_src("testdata/exec/strided.spvasm"), *sb = tu_src("testdata/exec/strided_wrong_blockread.spvasm");
   char *out = NULL, *err = NULL;
   ck_assert_int_eq(tu_sh(NULL, NULL, "spirv-as --target-env spv1.4 %s -o %s", sa, a), 0);
   ck_assert_int_eq(tu_sh(NULL, NULL, "spirv-as --target-env spv1.4 %s -o %s", sb, b), 0);
   int rc = tu_sh(&out, &err, "%s run --compare %s %s", tu_xeopt(), a, b);
   ck_assert_int_eq(rc, 1);
   ck_assert_msg(strstr(err, "kernel exec_strided: argument 1 differs at element"), "%s", err);
   free(out); free(err);
   rc = tu_sh(&out, &err, "%s run --compare %s %s", tu_xeopt(), a, a);
   ck_assert_msg(rc == 0, "%s", err);
   free(out); free(err);
   /* --verify of the unchanged pipeline path accepts a correct module. */
   char *o = tu_tmp("out.spv");
   rc = tu_sh(&out, &err, "%s %s -o %s -O0 --verify", tu_xeopt(), a, o);
   ck_assert_msg(rc == 0, "%s", err);
   free(out); free(err);
   free(a); free(b); free(sa); free(sb); free(o);
}
END_TEST

/* Calls of body-less functions (imports): OpenCL C's to_global() and
 * to_local() as the imports __to_global and __to_local run as the casts
 * they mean, with OpPtrEqual / OpPtrNotEqual on the results; a call of any
 * other import fails the work-item that makes it (it has no code: before,
 * the call ran the next function's), and the module's other kernels run. */
START_TEST(import_call)
{
   char *src = tu_src("testdata/exec/import_call.spvasm"), *spv = tu_tmp("import_call.spv");
   ck_assert_int_eq(tu_sh(NULL, NULL, "spirv-as --target-env spv1.4 %s -o %s", src, spv), 0);
   char *out = NULL, *err = NULL;
   int rc = tu_sh(&out, &err, "%s run %s --kernel ptr_eq --global 4 --arg 0=buf:int:4", tu_xeopt(), spv);
   ck_assert_msg(rc == 0, "%s", err);
   ck_assert_msg(strstr(out, "arg 0 (int[4]): 3 3 3 3"), "%s", out);
   free(out); free(err);
   rc = tu_sh(&out, &err, "%s run %s --kernel calls_foo --global 4 --arg 0=buf:int:4", tu_xeopt(), spv);
   ck_assert_int_eq(rc, 1);
   ck_assert_msg(strstr(err, "call of a function without a body"), "%s", err);
   free(out); free(err); free(src); free(spv);
}
END_TEST

/* --arg and --launch's argument texts: a local buffer needs a size of at
 * least one byte (OpenCL's clSetKernelArg refuses a local size of 0 with
 * CL_INVALID_ARG_SIZE), and the whole text must be read. */
START_TEST(arg_specs)
{
   xe_arg_spec a;
   ck_assert(xe_arg_spec_parse("local:64", &a));
   ck_assert_int_eq(a.kind, XE_ARG_LOCAL);
   ck_assert_uint_eq(a.count, 64);
   ck_assert(!xe_arg_spec_parse("local:0", &a));
   ck_assert(!xe_arg_spec_parse("local:16x", &a));
   ck_assert(!xe_arg_spec_parse("local:", &a));
}
END_TEST

/* A module from SPIR-V assembly (spirv-as), for the interpreter's limits
 * and argument checks below. */
static xe_module *assemble(const char *name, const char *text)
{
   char *spv = tu_assemble(text, name, NULL);
   xe_module *m = tu_load(spv);
   free(spv);
   return m;
}

/* OpSpecConstantOp Bitcast: clang's SPIR-V backend writes INFINITY and NAN
 * as bitcasts of their uint patterns (darktable's kernels); the
 * interpreter refused the whole module. */
START_TEST(spec_constant_bitcast)
{
   static const char *text =
      "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n"
      "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %k \"k\"\n"
      "%uint = OpTypeInt 32 0\n%float = OpTypeFloat 32\n%void = OpTypeVoid\n"
      "%pf = OpTypePointer CrossWorkgroup %float\n%fn = OpTypeFunction %void %pf\n"
      "%inf_bits = OpConstant %uint 0x7f800000\n%one_bits = OpConstant %uint 0x3f800000\n"
      "%inf = OpSpecConstantOp %float Bitcast %inf_bits\n"
      "%one = OpSpecConstantOp %float Bitcast %one_bits\n%uint_1 = OpConstant %uint 1\n"
      "%k = OpFunction %void None %fn\n%out = OpFunctionParameter %pf\n%e = OpLabel\n"
      "OpStore %out %inf\n%p1 = OpInBoundsPtrAccessChain %pf %out %uint_1\n"
      "OpStore %p1 %one\nOpReturn\nOpFunctionEnd\n";
   xe_module *m = assemble("spec_bitcast", text);
   float out[2] = {0, 0};
   xe_launch l = { .kernel = "k", .global = {1}, .local = {1} };
   buf(&l, 0, out, sizeof out);
   run(m, &l);
   ck_assert(isinf(out[0]) && out[0] > 0);
   ck_assert_float_eq(out[1], 1.0f);
   xe_module_free(m);
}
END_TEST

/* out[0] = p + 1, with `local uint big[LEN]` (LEN = %s) written at index p
 * and read back. */
static const char *local_kernel =
   "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n"
   "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %%main \"big_local\" %%big\n"
   "%%u32 = OpTypeInt 32 0\n%%void = OpTypeVoid\n%%len = OpConstant %%u32 %s\n"
   "%%one = OpConstant %%u32 1\n%%arr = OpTypeArray %%u32 %%len\n"
   "%%parr = OpTypePointer Workgroup %%arr\n%%pw = OpTypePointer Workgroup %%u32\n"
   "%%pg = OpTypePointer CrossWorkgroup %%u32\n%%fn = OpTypeFunction %%void %%pg %%u32\n"
   "%%big = OpVariable %%parr Workgroup\n"
   "%%main = OpFunction %%void None %%fn\n%%out = OpFunctionParameter %%pg\n"
   "%%p = OpFunctionParameter %%u32\n%%entry = OpLabel\n"
   "%%e = OpInBoundsAccessChain %%pw %%big %%p\n%%v = OpIAdd %%u32 %%p %%one\n"
   "OpStore %%e %%v Aligned 4\n%%w = OpLoad %%u32 %%e Aligned 4\nOpStore %%out %%w Aligned 4\n"
   "OpReturn\nOpFunctionEnd\n";

/* The interpreter's budget: local memory of more than 1 GiB is refused
 * before anything is allocated (when the program is built: its areas are
 * addressed with 32-bit offsets). */
START_TEST(local_memory_limit)
{
   char text[2048];
   uint32_t out[2] = {0, 0};
   int p = 7;
   /* 2^28 + 1 uints: 4 bytes more than 1 GiB. */
   snprintf(text, sizeof text, local_kernel, "268435457");
   xe_module *m = assemble("big_local", text);
   xe_launch l = { .kernel = "big_local", .global = {1, 1, 1}, .local = {1, 1, 1}, .dims = 1 };
   buf(&l, 0, out, sizeof out);
   scalar(&l, 1, &p);
   char *err = NULL;
   ck_assert(!xe_exec_run(m, &l, &err));
   ck_assert_msg(err && strstr(err, "kernel big_local: Workgroup variables past the interpreter's 1 GiB"),
                 "%s", err ? err : "?");
   free(err);
   ck_assert_uint_eq(out[0], 0);
   xe_module_free(m);
   /* A small local array runs. */
   snprintf(text, sizeof text, local_kernel, "16");
   m = assemble("small_local", text);
   run(m, &l);
   ck_assert_uint_eq(out[0], 8);
   xe_module_free(m);
}
END_TEST

/* A scalar argument of more bytes than its parameter is refused, as
 * clSetKernelArg refuses it (CL_INVALID_ARG_SIZE): it would fill the
 * parameter's value slot past the parameter.  Fewer bytes are the low ones
 * (a 2-byte 9 reads as 9). */
START_TEST(scalar_arg_size)
{
   char text[2048];
   snprintf(text, sizeof text, local_kernel, "16");
   xe_module *m = assemble("scalar_size", text);
   uint32_t out[2] = {0, 0};
   uint64_t wide = 0x100000003ull;
   xe_launch l = { .kernel = "big_local", .global = {1, 1, 1}, .local = {1, 1, 1}, .dims = 1 };
   buf(&l, 0, out, sizeof out);
   l.args[1].kind = XE_ARG_SCALAR;
   l.args[1].data = (uint8_t *)&wide;
   l.args[1].size = 8;
   l.nargs = 2;
   char *err = NULL;
   ck_assert(!xe_exec_run(m, &l, &err));
   ck_assert_msg(err && strstr(err, "kernel big_local: argument 1: 8 bytes given for a parameter of 4"),
                 "%s", err ? err : "?");
   free(err);
   ck_assert_uint_eq(out[0], 0);
   uint16_t narrow = 9;
   l.args[1].data = (uint8_t *)&narrow;
   l.args[1].size = 2;
   run(m, &l);
   ck_assert_uint_eq(out[0], 10);
   xe_module_free(m);
}
END_TEST

/* Variables are placed each at its alignment after the ones before it: a
 * 1-byte variable followed by a 4-byte-aligned (local) or 8-byte-aligned
 * (private) one gets the next multiple of the alignment, so the two never
 * share bytes.  Each pair is written (the char last) and read back whole. */
START_TEST(variable_alignment)
{
   static const char *text =
      "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\nOpCapability Int8\n"
      "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %main \"align_vars\" %lc %lw\n"
      "%u8 = OpTypeInt 8 0\n%u32 = OpTypeInt 32 0\n%u64 = OpTypeInt 64 0\n%void = OpTypeVoid\n"
      "%pwc = OpTypePointer Workgroup %u8\n%pww = OpTypePointer Workgroup %u32\n"
      "%pfc = OpTypePointer Function %u8\n%pfl = OpTypePointer Function %u64\n"
      "%pg = OpTypePointer CrossWorkgroup %u32\n%fn = OpTypeFunction %void %pg\n"
      "%c = OpConstant %u8 17\n%w = OpConstant %u32 0x22334455\n"
      "%l = OpConstant %u64 0x0102030405060708\n"
      "%i1 = OpConstant %u64 1\n%i2 = OpConstant %u64 2\n%i3 = OpConstant %u64 3\n"
      "%lc = OpVariable %pwc Workgroup\n%lw = OpVariable %pww Workgroup\n"
      "%main = OpFunction %void None %fn\n%out = OpFunctionParameter %pg\n%entry = OpLabel\n"
      "%fc = OpVariable %pfc Function\n%fl = OpVariable %pfl Function\n"
      "OpStore %lw %w Aligned 4\nOpStore %lc %c Aligned 1\n"
      "OpStore %fl %l Aligned 8\nOpStore %fc %c Aligned 1\n"
      "%a = OpLoad %u8 %lc Aligned 1\n%b = OpLoad %u32 %lw Aligned 4\n"
      "%d = OpLoad %u8 %fc Aligned 1\n%e = OpLoad %u64 %fl Aligned 8\n"
      "%a32 = OpUConvert %u32 %a\n%d32 = OpUConvert %u32 %d\n%e32 = OpUConvert %u32 %e\n"
      "OpStore %out %a32 Aligned 4\n"
      "%o1 = OpInBoundsPtrAccessChain %pg %out %i1\nOpStore %o1 %b Aligned 4\n"
      "%o2 = OpInBoundsPtrAccessChain %pg %out %i2\nOpStore %o2 %d32 Aligned 4\n"
      "%o3 = OpInBoundsPtrAccessChain %pg %out %i3\nOpStore %o3 %e32 Aligned 4\n"
      "OpReturn\nOpFunctionEnd\n";
   xe_module *m = assemble("align_vars", text);
   uint32_t out[4] = {0, 0, 0, 0};
   xe_launch l = { .kernel = "align_vars", .global = {1, 1, 1}, .local = {1, 1, 1}, .dims = 1 };
   buf(&l, 0, out, sizeof out);
   run(m, &l);
   ck_assert_uint_eq(out[0], 17);
   ck_assert_uint_eq(out[1], 0x22334455);
   ck_assert_uint_eq(out[2], 17);
   ck_assert_uint_eq(out[3], 0x05060708);
   xe_module_free(m);
}
END_TEST

/* An out-of-bounds fault says how large the buffer would have had to be:
 * exec_vadd's item 31 loads 4 bytes at offset 124 of a 31-float b. */
START_TEST(fault_end)
{
   xe_module *m = load("exec_vadd", 1);
   float a[32], b[31], c[32];
   for (int i = 0; i < 32; i++) a[i] = (float)i;
   for (int i = 0; i < 31; i++) b[i] = 1;
   xe_launch l = { .kernel = "exec_vadd", .global = {32}, .local = {16} };
   buf(&l, 0, a, sizeof a); buf(&l, 1, b, sizeof b); buf(&l, 2, c, sizeof c);
   char *err = NULL;
   ck_assert(!xe_exec_run(m, &l, &err));
   free(err);
   ck_assert_int_eq(l.fault.kind, XE_FAULT_BOUNDS);
   ck_assert_uint_eq(l.fault.arg, 1);
   ck_assert_uint_eq(l.fault.end, 128);
   ck_assert(!l.fault.local_memory);
   xe_module_free(m);
}
END_TEST

/* Work-item ids (the race checker's) are unique across work-groups: two
 * groups far apart in z each write out[0] from their item 0, a
 * write-write race between work-groups.  With a local size of 65536 x 1 x
 * 1 the second group's first id is 65536 (group 1 times 65536 items); ids
 * 2^32 apart would alias and hide it. */
START_TEST(race_far_groups)
{
   static const char *text =
      "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n"
      "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %main \"far_groups\" %lid %wgid\n"
      "OpDecorate %lid BuiltIn LocalInvocationId\nOpDecorate %lid Constant\n"
      "OpDecorate %wgid BuiltIn WorkgroupId\nOpDecorate %wgid Constant\n"
      "%u64 = OpTypeInt 64 0\n%u32 = OpTypeInt 32 0\n%void = OpTypeVoid\n%bool = OpTypeBool\n"
      "%v3 = OpTypeVector %u64 3\n%pin = OpTypePointer Input %v3\n"
      "%pg = OpTypePointer CrossWorkgroup %u32\n%fn = OpTypeFunction %void %pg\n"
      "%z = OpConstant %u64 0\n%lid = OpVariable %pin Input\n%wgid = OpVariable %pin Input\n"
      "%main = OpFunction %void None %fn\n%out = OpFunctionParameter %pg\n%entry = OpLabel\n"
      "%l = OpLoad %v3 %lid Aligned 32\n%l0 = OpCompositeExtract %u64 %l 0\n"
      "%g = OpLoad %v3 %wgid Aligned 32\n%g2 = OpCompositeExtract %u64 %g 2\n"
      "%first = OpIEqual %bool %l0 %z\nOpBranchConditional %first %w %end\n"
      "%w = OpLabel\n%v = OpUConvert %u32 %g2\nOpStore %out %v Aligned 4\nOpBranch %end\n"
      "%end = OpLabel\nOpReturn\nOpFunctionEnd\n";
   xe_module *m = assemble("far_groups", text);
   uint32_t out[1] = {7};
   xe_launch l = { .kernel = "far_groups", .global = {65536, 1, 2}, .local = {65536, 1, 1}, .dims = 3,
                   .racecheck = true };
   buf(&l, 0, out, sizeof out);
   run(m, &l);
   ck_assert_uint_eq(out[0], 1);
   ck_assert_uint_ge(l.races, 1);
   ck_assert_msg(strstr(l.race, "write-write"), "%s", l.race);
   xe_module_free(m);
}
END_TEST

/* The race checker's sub-groups in a 2-D work-group of 8 x 4 (two
 * sub-groups of 16, y < 2 and y >= 2): each item writes tmp[lin] (lin =
 * x + 8 y), and reads tmp[lin ^ (y >> 1)]: its own element in sub-group 0,
 * its neighbour's (same sub-group) in sub-group 1.  With a sub-group
 * barrier with local-memory semantics in between there is no race; without
 * it sub-group 1's exchange races, and only there: the checker must keep
 * stamps for the second sub-group too (it counts the work-group's items
 * over all three dimensions). */
static const char *sg_exchange_kernel =
   "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n"
   "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %%main \"sg_exchange\" %%lid %%tmp\n"
   "OpDecorate %%lid BuiltIn LocalInvocationId\nOpDecorate %%lid Constant\n"
   "%%u64 = OpTypeInt 64 0\n%%u32 = OpTypeInt 32 0\n%%void = OpTypeVoid\n"
   "%%v3 = OpTypeVector %%u64 3\n%%pin = OpTypePointer Input %%v3\n"
   "%%n32 = OpConstant %%u32 32\n%%arr = OpTypeArray %%u32 %%n32\n"
   "%%parr = OpTypePointer Workgroup %%arr\n%%pw = OpTypePointer Workgroup %%u32\n"
   "%%pg = OpTypePointer CrossWorkgroup %%u32\n%%fn = OpTypeFunction %%void %%pg\n"
   "%%eight = OpConstant %%u64 8\n%%one = OpConstant %%u64 1\n%%hundred = OpConstant %%u32 100\n"
   "%%sg = OpConstant %%u32 3\n%%sem = OpConstant %%u32 0x110\n"
   "%%lid = OpVariable %%pin Input\n%%tmp = OpVariable %%parr Workgroup\n"
   "%%main = OpFunction %%void None %%fn\n%%out = OpFunctionParameter %%pg\n%%entry = OpLabel\n"
   "%%l = OpLoad %%v3 %%lid Aligned 32\n%%x = OpCompositeExtract %%u64 %%l 0\n"
   "%%y = OpCompositeExtract %%u64 %%l 1\n%%y8 = OpIMul %%u64 %%y %%eight\n"
   "%%lin = OpIAdd %%u64 %%x %%y8\n%%lin32 = OpUConvert %%u32 %%lin\n"
   "%%v = OpIAdd %%u32 %%lin32 %%hundred\n"
   "%%mine = OpInBoundsAccessChain %%pw %%tmp %%lin\nOpStore %%mine %%v Aligned 4\n"
   "%s"
   "%%half = OpShiftRightLogical %%u64 %%y %%one\n%%nb = OpBitwiseXor %%u64 %%lin %%half\n%%their = OpInBoundsAccessChain %%pw %%tmp %%nb\n"
   "%%r = OpLoad %%u32 %%their Aligned 4\n"
   "%%o = OpInBoundsPtrAccessChain %%pg %%out %%lin\nOpStore %%o %%r Aligned 4\n"
   "OpReturn\nOpFunctionEnd\n";

START_TEST(race_subgroups_2d)
{
   char text[4096];
   snprintf(text, sizeof text, sg_exchange_kernel, "OpControlBarrier %sg %sg %sem\n");
   xe_module *m = assemble("sg_exchange", text);
   uint32_t out[32] = {0};
   xe_launch l = { .kernel = "sg_exchange", .global = {8, 4, 1}, .local = {8, 4, 1}, .dims = 2,
                   .subgroup_size = 16, .racecheck = true };
   buf(&l, 0, out, sizeof out);
   run(m, &l);
   ck_assert_msg(l.races == 0, "%s", l.race);
   for (unsigned k = 0; k < 32; k++) ck_assert_uint_eq(out[k], (k < 16 ? k : k ^ 1) + 100);
   xe_module_free(m);
   /* Without the barrier: a read-write race between items 16 and 17. */
   snprintf(text, sizeof text, sg_exchange_kernel, "");
   m = assemble("sg_exchange_racy", text);
   l.races = 0;
   run(m, &l);
   ck_assert_uint_ge(l.races, 1);
   ck_assert_msg(strstr(l.race, "read-write") && strstr(l.race, "work-item (0,2,0)") &&
                 strstr(l.race, "work-item (1,2,0)"), "%s", l.race);
   xe_module_free(m);
}
END_TEST

/* The race report names work-items by their global ids, from the group
 * number split over the groups of each dimension: in a 2-D launch of 4 x 2
 * items, groups of 1 x 1, only the items with x == 2 write out[0] (their
 * y), groups 2 and 6, a write-write race between work-items (2,0,0) and
 * (2,1,0).  The groups in x are counted from the global size in x (4), not
 * in y (2), which would name them (0,1,0) and (0,1,1). */
START_TEST(race_names_2d)
{
   static const char *text =
      "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n"
      "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %main \"column\" %gid\n"
      "OpDecorate %gid BuiltIn GlobalInvocationId\nOpDecorate %gid Constant\n"
      "%u64 = OpTypeInt 64 0\n%u32 = OpTypeInt 32 0\n%void = OpTypeVoid\n%bool = OpTypeBool\n"
      "%v3 = OpTypeVector %u64 3\n%pin = OpTypePointer Input %v3\n"
      "%pg = OpTypePointer CrossWorkgroup %u32\n%fn = OpTypeFunction %void %pg\n"
      "%two = OpConstant %u64 2\n%gid = OpVariable %pin Input\n"
      "%main = OpFunction %void None %fn\n%out = OpFunctionParameter %pg\n%entry = OpLabel\n"
      "%g = OpLoad %v3 %gid Aligned 32\n%x = OpCompositeExtract %u64 %g 0\n"
      "%y = OpCompositeExtract %u64 %g 1\n"
      "%hit = OpIEqual %bool %x %two\nOpBranchConditional %hit %w %end\n"
      "%w = OpLabel\n%v = OpUConvert %u32 %y\nOpStore %out %v Aligned 4\nOpBranch %end\n"
      "%end = OpLabel\nOpReturn\nOpFunctionEnd\n";
   xe_module *m = assemble("column", text);
   uint32_t out[1] = {7};
   xe_launch l = { .kernel = "column", .global = {4, 2, 1}, .local = {1, 1, 1}, .dims = 2,
                   .racecheck = true };
   buf(&l, 0, out, sizeof out);
   run(m, &l);
   ck_assert_uint_eq(out[0], 1);
   ck_assert_uint_ge(l.races, 1);
   ck_assert_msg(strstr(l.race, "write-write") && strstr(l.race, "by work-item (2,0,0) and") &&
                 strstr(l.race, "by work-item (2,1,0)"), "%s", l.race);
   xe_module_free(m);
}
END_TEST

/* OpGenericCastToPtrExplicit (OpenCL C's to_global, to_local, to_private)
 * gives the pointer when the generic pointer is in the requested space and
 * null otherwise.  Item i casts a generic pointer to its local element, its
 * private variable and its global element to each of the three classes:
 * out[i] = 1 (global -> CrossWorkgroup) + 2 (local -> Workgroup) + 4
 * (private -> Function), each tested non-null and written and read back
 * through, plus 8 for each of the six mismatched casts that is null. */
START_TEST(generic_cast_explicit)
{
   static const char *text =
      "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\nOpCapability GenericPointer\n"
      "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %main \"casts\" %gid %tmp\n"
      "OpDecorate %gid BuiltIn GlobalInvocationId\nOpDecorate %gid Constant\n"
      "%u64 = OpTypeInt 64 0\n%u32 = OpTypeInt 32 0\n%void = OpTypeVoid\n%bool = OpTypeBool\n"
      "%v3 = OpTypeVector %u64 3\n%pin = OpTypePointer Input %v3\n"
      "%n4 = OpConstant %u32 4\n%arr = OpTypeArray %u32 %n4\n%parr = OpTypePointer Workgroup %arr\n"
      "%pw = OpTypePointer Workgroup %u32\n%pf = OpTypePointer Function %u32\n"
      "%pg = OpTypePointer CrossWorkgroup %u32\n%pgen = OpTypePointer Generic %u32\n"
      "%fn = OpTypeFunction %void %pg\n"
      "%c0 = OpConstant %u32 0\n%c1 = OpConstant %u32 1\n%c2 = OpConstant %u32 2\n"
      "%c4 = OpConstant %u32 4\n%c8 = OpConstant %u32 8\n"
      "%ng = OpConstantNull %pg\n%nw = OpConstantNull %pw\n%nf = OpConstantNull %pf\n"
      "%gid = OpVariable %pin Input\n%tmp = OpVariable %parr Workgroup\n"
      "%main = OpFunction %void None %fn\n%out = OpFunctionParameter %pg\n%entry = OpLabel\n"
      "%priv = OpVariable %pf Function\n"
      "%g = OpLoad %v3 %gid Aligned 32\n%i = OpCompositeExtract %u64 %g 0\n"
      "%ge = OpInBoundsPtrAccessChain %pg %out %i\n%le = OpInBoundsAccessChain %pw %tmp %i\n"
      "%gg = OpPtrCastToGeneric %pgen %ge\n%lg = OpPtrCastToGeneric %pgen %le\n"
      "%fg = OpPtrCastToGeneric %pgen %priv\n"
      /* The matching casts: non-null, and a store through each reads back. */
      "%tg = OpGenericCastToPtrExplicit %pg %gg CrossWorkgroup\n"
      "%tl = OpGenericCastToPtrExplicit %pw %lg Workgroup\n"
      "%tf = OpGenericCastToPtrExplicit %pf %fg Function\n"
      "%okg = OpPtrNotEqual %bool %tg %ng\n%okl = OpPtrNotEqual %bool %tl %nw\n"
      "%okf = OpPtrNotEqual %bool %tf %nf\n"
      "OpStore %tl %c2 Aligned 4\nOpStore %tf %c4 Aligned 4\n"
      "%rl = OpLoad %u32 %le Aligned 4\n%rf = OpLoad %u32 %priv Aligned 4\n"
      "%sg = OpSelect %u32 %okg %c1 %c0\n%sl = OpSelect %u32 %okl %rl %c0\n"
      "%sf = OpSelect %u32 %okf %rf %c0\n"
      /* The mismatched casts: null. */
      "%xg1 = OpGenericCastToPtrExplicit %pg %lg CrossWorkgroup\n"
      "%xg2 = OpGenericCastToPtrExplicit %pg %fg CrossWorkgroup\n"
      "%xl1 = OpGenericCastToPtrExplicit %pw %gg Workgroup\n"
      "%xl2 = OpGenericCastToPtrExplicit %pw %fg Workgroup\n"
      "%xf1 = OpGenericCastToPtrExplicit %pf %gg Function\n"
      "%xf2 = OpGenericCastToPtrExplicit %pf %lg Function\n"
      "%n1 = OpPtrEqual %bool %xg1 %ng\n%n2 = OpPtrEqual %bool %xg2 %ng\n"
      "%n3 = OpPtrEqual %bool %xl1 %nw\n%n4b = OpPtrEqual %bool %xl2 %nw\n"
      "%n5 = OpPtrEqual %bool %xf1 %nf\n%n6 = OpPtrEqual %bool %xf2 %nf\n"
      "%m1 = OpSelect %u32 %n1 %c8 %c0\n%m2 = OpSelect %u32 %n2 %c8 %c0\n"
      "%m3 = OpSelect %u32 %n3 %c8 %c0\n%m4 = OpSelect %u32 %n4b %c8 %c0\n"
      "%m5 = OpSelect %u32 %n5 %c8 %c0\n%m6 = OpSelect %u32 %n6 %c8 %c0\n"
      "%a1 = OpIAdd %u32 %sg %sl\n%a2 = OpIAdd %u32 %a1 %sf\n%a3 = OpIAdd %u32 %a2 %m1\n"
      "%a4 = OpIAdd %u32 %a3 %m2\n%a5 = OpIAdd %u32 %a4 %m3\n%a6 = OpIAdd %u32 %a5 %m4\n"
      "%a7 = OpIAdd %u32 %a6 %m5\n%a8 = OpIAdd %u32 %a7 %m6\n"
      "OpStore %tg %a8 Aligned 4\nOpReturn\nOpFunctionEnd\n";
   xe_module *m = assemble("casts", text);
   uint32_t out[4] = {0, 0, 0, 0};
   xe_launch l = { .kernel = "casts", .global = {4, 1, 1}, .local = {4, 1, 1}, .dims = 1 };
   buf(&l, 0, out, sizeof out);
   run(m, &l);
   for (unsigned k = 0; k < 4; k++) ck_assert_uint_eq(out[k], 1 + 2 + 4 + 6 * 8);
   xe_module_free(m);
}
END_TEST

/* The SubgroupSize and SubgroupId built-ins per work-item, in work-groups
 * of 40 (sub-groups of 16: two full, then one of 8) and 48 (three full):
 * only the last sub-group of a work-group may be partial, and it holds
 * exactly the items left over.  out[i] = 1000 * size + id. */
START_TEST(subgroup_sizes)
{
   const char *text =
      "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n"
      "OpMemoryModel Physical64 OpenCL\n"
      "OpEntryPoint Kernel %main \"sg_sizes\" %gid %sgsize %sgid\n"
      "OpDecorate %gid BuiltIn GlobalInvocationId\nOpDecorate %gid Constant\n"
      "OpDecorate %sgsize BuiltIn SubgroupSize\nOpDecorate %sgsize Constant\n"
      "OpDecorate %sgid BuiltIn SubgroupId\nOpDecorate %sgid Constant\n"
      "%u64 = OpTypeInt 64 0\n%u32 = OpTypeInt 32 0\n%void = OpTypeVoid\n"
      "%v3 = OpTypeVector %u64 3\n%pin = OpTypePointer Input %v3\n%pu = OpTypePointer Input %u32\n"
      "%pg = OpTypePointer CrossWorkgroup %u32\n%fn = OpTypeFunction %void %pg\n"
      "%thousand = OpConstant %u32 1000\n"
      "%gid = OpVariable %pin Input\n%sgsize = OpVariable %pu Input\n%sgid = OpVariable %pu Input\n"
      "%main = OpFunction %void None %fn\n%out = OpFunctionParameter %pg\n%entry = OpLabel\n"
      "%g = OpLoad %v3 %gid Aligned 32\n%i = OpCompositeExtract %u64 %g 0\n"
      "%s = OpLoad %u32 %sgsize Aligned 4\n%d = OpLoad %u32 %sgid Aligned 4\n"
      "%s1000 = OpIMul %u32 %s %thousand\n%v = OpIAdd %u32 %s1000 %d\n"
      "%po = OpInBoundsPtrAccessChain %pg %out %i\nOpStore %po %v Aligned 4\n"
      "OpReturn\nOpFunctionEnd\n";
   xe_module *m = assemble("sg_sizes", text);
   static const unsigned locals[] = {40, 48};
   for (unsigned t = 0; t < 2; t++) {
      unsigned ls = locals[t];
      uint32_t out[96];
      for (unsigned i = 0; i < 96; i++) out[i] = 7;
      xe_launch l = { .kernel = "sg_sizes", .global = {2 * ls, 1, 1}, .local = {ls, 1, 1}, .dims = 1,
                      .subgroup_size = 16 };
      buf(&l, 0, out, 2 * ls * sizeof(uint32_t));
      run(m, &l);
      for (unsigned i = 0; i < 2 * ls; i++) {
         unsigned lin = i % ls, id = lin / 16, size = lin < 32 ? 16 : ls - 32;
         ck_assert_msg(out[i] == 1000 * size + id, "local %u, item %u: size*1000+id %u, want %u",
                       ls, i, out[i], 1000 * size + id);
      }
   }
   xe_module_free(m);
}
END_TEST

/* The scalar and element types of argument texts, with their sizes and
 * kinds as OpenCL C has them (a double is 8 bytes). */
START_TEST(arg_types)
{
   static const struct { const char *name; unsigned size; bool f, s; } types[] = {
      {"char", 1, false, true}, {"uchar", 1, false, false}, {"short", 2, false, true},
      {"ushort", 2, false, false}, {"int", 4, false, true}, {"uint", 4, false, false},
      {"long", 8, false, true}, {"ulong", 8, false, false}, {"half", 2, true, true},
      {"float", 4, true, true}, {"double", 8, true, true},
   };
   char text[64];
   xe_arg_spec a;
   for (unsigned k = 0; k < sizeof types / sizeof types[0]; k++) {
      snprintf(text, sizeof text, "%s:3", types[k].name);
      ck_assert_msg(xe_arg_spec_parse(text, &a), "%s refused", text);
      ck_assert_int_eq(a.kind, XE_ARG_SCALAR);
      ck_assert_msg(a.elem == types[k].size && a.is_float == types[k].f && a.is_signed == types[k].s,
                    "%s: %u bytes, float %d, signed %d", text, a.elem, a.is_float, a.is_signed);
      xe_exec_arg e;
      xe_arg_materialize(&a, &e, 1);
      ck_assert_uint_eq(e.size, types[k].size);
      if (types[k].f && types[k].size == 8) { double d; memcpy(&d, e.data, 8); ck_assert(d == 3.0); }
      free(e.data);
      snprintf(text, sizeof text, "buf:%s:5", types[k].name);
      ck_assert_msg(xe_arg_spec_parse(text, &a), "%s refused", text);
      ck_assert_int_eq(a.kind, XE_ARG_BUFFER);
      ck_assert_uint_eq(a.elem, types[k].size);
   }
   ck_assert(!xe_arg_spec_parse("quad:3", &a));
   ck_assert(!xe_arg_spec_parse("buf:int2:4", &a));
}
END_TEST

/* --verify and `run --compare` launch the input's NDRange: a dimension it
 * does not have has no offset (OpenCL ignores global_work_offset past
 * work_dim), so get_global_id(1) is 0 in every launch of a 1-D kernel and
 * `out[i + get_global_id(1)]` is a correct rewrite of `out[i]` there. */
START_TEST(offset_dims)
{
   static const char *head =
      "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n"
      "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %main \"copy\" %gid\n"
      "OpDecorate %gid BuiltIn GlobalInvocationId\nOpDecorate %gid Constant\n"
      "%u64 = OpTypeInt 64 0\n%u32 = OpTypeInt 32 0\n%void = OpTypeVoid\n"
      "%v3 = OpTypeVector %u64 3\n%pin = OpTypePointer Input %v3\n"
      "%pg = OpTypePointer CrossWorkgroup %u32\n%fn = OpTypeFunction %void %pg %pg\n"
      "%gid = OpVariable %pin Input\n%main = OpFunction %void None %fn\n"
      "%out = OpFunctionParameter %pg\n%in = OpFunctionParameter %pg\n%entry = OpLabel\n"
      "%g = OpLoad %v3 %gid Aligned 32\n%i = OpCompositeExtract %u64 %g 0\n";
   static const char *tail =
      "%pi = OpInBoundsPtrAccessChain %pg %in %i\n%v = OpLoad %u32 %pi Aligned 4\n"
      "%po = OpInBoundsPtrAccessChain %pg %out %j\nOpStore %po %v Aligned 4\n"
      "OpReturn\nOpFunctionEnd\n";
   static const char *mid[2] = {
      "%j = OpCopyObject %u64 %i\n",
      "%g2 = OpLoad %v3 %gid Aligned 32\n%y = OpCompositeExtract %u64 %g2 1\n%j = OpIAdd %u64 %i %y\n",
   };
   char *spv[2];
   for (int k = 0; k < 2; k++) {
      char name[32], text[2048];
      snprintf(text, sizeof text, "%s%s%s", head, mid[k], tail);
      snprintf(name, sizeof name, "offset_dims_%d.spvasm", k);
      char *src = tu_tmp(name);
      tu_write(src, text, strlen(text));
      snprintf(name, sizeof name, "offset_dims_%d.spv", k);
      spv[k] = tu_tmp(name);
      ck_assert_int_eq(tu_sh(NULL, NULL, "spirv-as --target-env spv1.4 %s -o %s", src, spv[k]), 0);
      free(src);
   }
   char *out = NULL, *err = NULL;
   int rc = tu_sh(&out, &err, "%s run --compare %s %s --launches 8", tu_xeopt(), spv[0], spv[1]);
   ck_assert_msg(rc == 0, "%s", err);
   ck_assert_msg(strstr(err, "8 of 8 launches verified"), "%s", err);
   free(out); free(err); free(spv[0]); free(spv[1]);
}
END_TEST

/* Sub-group shuffles: OpGroupNonUniformShuffle (scope,
 * value, lane) and SPV_INTEL_subgroups' OpSubgroupShuffleINTEL (value,
 * lane) and OpSubgroupShuffleXorINTEL (value, mask) over two sub-groups
 * of 8: out[i] = in[base + lane'], lane' = (lane + 3) % 8 or lane ^ 5. */
START_TEST(shuffles)
{
   static const char *ops[3] = {
      "OpGroupNonUniformShuffle %u32 %scope %v %idx",
      "OpSubgroupShuffleINTEL %u32 %v %idx",
      "OpSubgroupShuffleXorINTEL %u32 %v %k5",
   };
   for (unsigned o = 0; o < 3; o++) {
      char text[4096];
      snprintf(text, sizeof text,
         "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n"
         "OpCapability GroupNonUniform\nOpCapability GroupNonUniformShuffle\n"
         "OpCapability SubgroupShuffleINTEL\nOpExtension \"SPV_INTEL_subgroups\"\n"
         "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %%main \"shuf\" %%gid %%lane\n"
         "OpDecorate %%gid BuiltIn GlobalInvocationId\nOpDecorate %%gid Constant\n"
         "OpDecorate %%lane BuiltIn SubgroupLocalInvocationId\nOpDecorate %%lane Constant\n"
         "%%u64 = OpTypeInt 64 0\n%%u32 = OpTypeInt 32 0\n%%void = OpTypeVoid\n"
         "%%v3 = OpTypeVector %%u64 3\n%%pin = OpTypePointer Input %%v3\n%%pl = OpTypePointer Input %%u32\n"
         "%%pg = OpTypePointer CrossWorkgroup %%u32\n%%fn = OpTypeFunction %%void %%pg %%pg\n"
         "%%scope = OpConstant %%u32 3\n%%k3 = OpConstant %%u32 3\n%%k5 = OpConstant %%u32 5\n"
         "%%k8 = OpConstant %%u32 8\n"
         "%%gid = OpVariable %%pin Input\n%%lane = OpVariable %%pl Input\n"
         "%%main = OpFunction %%void None %%fn\n%%in = OpFunctionParameter %%pg\n"
         "%%out = OpFunctionParameter %%pg\n%%entry = OpLabel\n"
         "%%g = OpLoad %%v3 %%gid Aligned 32\n%%i = OpCompositeExtract %%u64 %%g 0\n"
         "%%l = OpLoad %%u32 %%lane Aligned 4\n%%l3 = OpIAdd %%u32 %%l %%k3\n"
         "%%idx = OpUMod %%u32 %%l3 %%k8\n"
         "%%pi = OpInBoundsPtrAccessChain %%pg %%in %%i\n%%v = OpLoad %%u32 %%pi Aligned 4\n"
         "%%s = %s\n"
         "%%po = OpInBoundsPtrAccessChain %%pg %%out %%i\nOpStore %%po %%s Aligned 4\n"
         "OpReturn\nOpFunctionEnd\n", ops[o]);
      char *err = NULL;
      xe_module *m = assemble("shuf", text);
      uint32_t in[16], out[16];
      for (unsigned i = 0; i < 16; i++) { in[i] = 100 + 7 * i; out[i] = 1; }
      xe_launch l = {.kernel = "shuf", .global = {16, 1, 1}, .local = {16, 1, 1}, .dims = 1,
                     .subgroup_size = 8, .nargs = 2};
      l.args[0] = (xe_exec_arg){.kind = XE_ARG_BUFFER, .data = (uint8_t *)in, .size = sizeof in};
      l.args[1] = (xe_exec_arg){.kind = XE_ARG_BUFFER, .data = (uint8_t *)out, .size = sizeof out};
      ck_assert_msg(xe_exec_run(m, &l, &err), "%s", err ? err : "?");
      for (unsigned i = 0; i < 16; i++) {
         unsigned base = i / 8 * 8, lane = i % 8, src_lane = o == 2 ? lane ^ 5 : (lane + 3) % 8;
         uint32_t want = in[base + src_lane];
         ck_assert_msg(out[i] == want, "%s: item %u got %u, want %u", ops[o], i, out[i], want);
      }
      xe_module_free(m);
   }
}
END_TEST

/* SPV_INTEL_subgroups' OpSubgroupShuffleUpINTEL (previous, current,
 * delta) and OpSubgroupShuffleDownINTEL (current, next, delta) over two
 * sub-groups of 8, for every delta from 0 to the sub-group size: lane l of
 * up reads current[l - delta], or previous[l - delta + 8] when that is
 * negative; down reads current[l + delta], or next[l + delta - 8] past the
 * end.  Delta == 8 (allowed: at most the sub-group size) is the edge where
 * lane 0 of up reads previous's lane 0 and every lane of down next's own
 * lane. */
START_TEST(shuffle_up_down)
{
   static const char *ops[2] = {
      "OpSubgroupShuffleUpINTEL %u32 %prev %v %d",
      "OpSubgroupShuffleDownINTEL %u32 %v %prev %d",
   };
   for (unsigned o = 0; o < 2; o++) {
      char text[4096];
      snprintf(text, sizeof text,
         "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n"
         "OpCapability SubgroupShuffleINTEL\nOpExtension \"SPV_INTEL_subgroups\"\n"
         "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %%main \"shuf\" %%gid\n"
         "OpDecorate %%gid BuiltIn GlobalInvocationId\nOpDecorate %%gid Constant\n"
         "%%u64 = OpTypeInt 64 0\n%%u32 = OpTypeInt 32 0\n%%void = OpTypeVoid\n"
         "%%v3 = OpTypeVector %%u64 3\n%%pin = OpTypePointer Input %%v3\n"
         "%%pg = OpTypePointer CrossWorkgroup %%u32\n%%fn = OpTypeFunction %%void %%pg %%pg %%u32\n"
         "%%k1000 = OpConstant %%u32 1000\n"
         "%%gid = OpVariable %%pin Input\n"
         "%%main = OpFunction %%void None %%fn\n%%in = OpFunctionParameter %%pg\n"
         "%%out = OpFunctionParameter %%pg\n%%d = OpFunctionParameter %%u32\n%%entry = OpLabel\n"
         "%%g = OpLoad %%v3 %%gid Aligned 32\n%%i = OpCompositeExtract %%u64 %%g 0\n"
         "%%pi = OpInBoundsPtrAccessChain %%pg %%in %%i\n%%v = OpLoad %%u32 %%pi Aligned 4\n"
         "%%prev = OpIAdd %%u32 %%v %%k1000\n"
         "%%s = %s\n"
         "%%po = OpInBoundsPtrAccessChain %%pg %%out %%i\nOpStore %%po %%s Aligned 4\n"
         "OpReturn\nOpFunctionEnd\n", ops[o]);
      char *spv = tu_assemble(text, o ? "shuf_down" : "shuf_up", NULL), *err = NULL;
      size_t n;
      void *bytes = tu_read(spv, &n);
      xe_module *m = xe_read(bytes, n, &err);
      ck_assert_msg(m, "%s", err ? err : "?");
      for (int d = 0; d <= 8; d++) {
         uint32_t in[16], out[16];
         for (unsigned i = 0; i < 16; i++) { in[i] = 100 + 7 * i; out[i] = 1; }
         xe_launch l = {.kernel = "shuf", .global = {16, 1, 1}, .local = {16, 1, 1}, .dims = 1,
                        .subgroup_size = 8, .nargs = 3};
         l.args[0] = (xe_exec_arg){.kind = XE_ARG_BUFFER, .data = (uint8_t *)in, .size = sizeof in};
         l.args[1] = (xe_exec_arg){.kind = XE_ARG_BUFFER, .data = (uint8_t *)out, .size = sizeof out};
         l.args[2] = (xe_exec_arg){.kind = XE_ARG_SCALAR, .data = (uint8_t *)&d, .size = 4};
         ck_assert_msg(xe_exec_run(m, &l, &err), "%s", err ? err : "?");
         for (int i = 0; i < 16; i++) {
            int base = i / 8 * 8, j = o ? i % 8 + d : i % 8 - d;
            /* The second operand (prev for down) is in + 1000. */
            uint32_t want = j >= 0 && j < 8 ? in[base + j] : in[base + (j + 8) % 8] + 1000;
            ck_assert_msg(out[i] == want, "%s delta %d: item %d got %u, want %u", ops[o], d, i,
                          out[i], want);
         }
      }
      xe_module_free(m);
      free(bytes); free(spv);
   }
}
END_TEST

/* Float collectives (OpGroupFAdd, OpGroupFMin, OpGroupFMax) at Subgroup and
 * Workgroup scope, as Reduce, InclusiveScan and ExclusiveScan: one
 * work-group of 12 with sub-groups of 8 (a full and a partial one).  Pins
 * down that every lane receives the float result in its own result slot
 * (collective.c stores facc for K_FLOAT collectives separately from the
 * integer ones; test_exec_group_mul covers only OpGroupFMulKHR).  Inputs
 * are small multiples of 0.25, so every sum is exact in any order. */
START_TEST(float_collectives)
{
   enum { N = 12, SG = 8, K = 7 };
   static const char *ops[K] = {
      "OpGroupFAdd %f32 %sg Reduce %x", "OpGroupFAdd %f32 %sg InclusiveScan %x",
      "OpGroupFAdd %f32 %sg ExclusiveScan %x", "OpGroupFAdd %f32 %wg Reduce %x",
      "OpGroupFAdd %f32 %wg InclusiveScan %x", "OpGroupFMin %f32 %sg Reduce %x",
      "OpGroupFMax %f32 %wg Reduce %x",
   };
   char body[2048] = "";
   for (unsigned k = 0; k < K; k++) {
      char line[256];
      snprintf(line, sizeof line,
               "%%r%u = %s\n%%o%u = OpIAdd %%u64 %%i %%off%u\n"
               "%%q%u = OpInBoundsPtrAccessChain %%pf %%out %%o%u\nOpStore %%q%u %%r%u Aligned 4\n",
               k, ops[k], k, k, k, k, k, k);
      strcat(body, line);
   }
   char text[8192];
   snprintf(text, sizeof text,
      "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\nOpCapability Groups\n"
      "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %%main \"fcoll\" %%gid\n"
      "OpDecorate %%gid BuiltIn GlobalInvocationId\nOpDecorate %%gid Constant\n"
      "%%u64 = OpTypeInt 64 0\n%%u32 = OpTypeInt 32 0\n%%f32 = OpTypeFloat 32\n%%void = OpTypeVoid\n"
      "%%v3 = OpTypeVector %%u64 3\n%%pin = OpTypePointer Input %%v3\n"
      "%%pf = OpTypePointer CrossWorkgroup %%f32\n%%fn = OpTypeFunction %%void %%pf %%pf\n"
      "%%sg = OpConstant %%u32 3\n%%wg = OpConstant %%u32 2\n"
      "%%off0 = OpConstant %%u64 0\n%%off1 = OpConstant %%u64 12\n%%off2 = OpConstant %%u64 24\n"
      "%%off3 = OpConstant %%u64 36\n%%off4 = OpConstant %%u64 48\n%%off5 = OpConstant %%u64 60\n"
      "%%off6 = OpConstant %%u64 72\n"
      "%%gid = OpVariable %%pin Input\n"
      "%%main = OpFunction %%void None %%fn\n%%in = OpFunctionParameter %%pf\n"
      "%%out = OpFunctionParameter %%pf\n%%entry = OpLabel\n"
      "%%g = OpLoad %%v3 %%gid Aligned 32\n%%i = OpCompositeExtract %%u64 %%g 0\n"
      "%%pi = OpInBoundsPtrAccessChain %%pf %%in %%i\n%%x = OpLoad %%f32 %%pi Aligned 4\n"
      "%sOpReturn\nOpFunctionEnd\n", body);
   char *spv = tu_assemble(text, "fcoll", NULL), *err = NULL;
   xe_module *m = tu_load(spv);
   float in[N] = {1.5f, -2, 0.25f, 3, -0.5f, 4, 1, -1.25f, 2.5f, -3, 0.75f, 5}, out[K * N];
   for (unsigned i = 0; i < K * N; i++) out[i] = -999;
   xe_launch l = {.kernel = "fcoll", .global = {N, 1, 1}, .local = {N, 1, 1}, .dims = 1,
                  .subgroup_size = SG, .nargs = 2};
   l.args[0] = (xe_exec_arg){.kind = XE_ARG_BUFFER, .data = (uint8_t *)in, .size = sizeof in};
   l.args[1] = (xe_exec_arg){.kind = XE_ARG_BUFFER, .data = (uint8_t *)out, .size = sizeof out};
   ck_assert_msg(xe_exec_run(m, &l, &err), "%s", err ? err : "?");
   for (unsigned i = 0; i < N; i++) {
      unsigned lo = i / SG * SG, hi = lo + SG < N ? lo + SG : N;
      float red = 0, inc = 0, exc = 0, wred = 0, winc = 0, mn = INFINITY, mx = -INFINITY;
      for (unsigned j = lo; j < hi; j++) {
         red += in[j];
         mn = fminf(mn, in[j]);
         if (j <= i) inc += in[j];
         if (j < i) exc += in[j];
      }
      for (unsigned j = 0; j < N; j++) {
         wred += in[j];
         mx = fmaxf(mx, in[j]);
         if (j <= i) winc += in[j];
      }
      const float want[K] = {red, inc, exc, wred, winc, mn, mx};
      for (unsigned k = 0; k < K; k++)
         ck_assert_msg(out[k * N + i] == want[k], "%s, work-item %u: got %g, want %g", ops[k], i,
                       (double)out[k * N + i], (double)want[k]);
   }
   xe_module_free(m);
   free(spv);
}
END_TEST

/* A ulong3 is stored as 32 bytes (sizeof(ulong3), OpenCL C 6.3.5): storing
 * the EnqueuedWorkgroupSize built-in writes its 3 components and the 4th,
 * padding lane of its slot, which nothing but the 3 components is written
 * to (it stays 0).  Writing a 4-component value there would put whatever
 * follows the 3-entry size array into out[3]. */
START_TEST(enqueued_size_padding)
{
   static const char *text =
      "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n"
      "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %main \"enq\" %enq\n"
      "OpDecorate %enq BuiltIn EnqueuedWorkgroupSize\nOpDecorate %enq Constant\n"
      "%u64 = OpTypeInt 64 0\n%void = OpTypeVoid\n"
      "%v3 = OpTypeVector %u64 3\n%pin = OpTypePointer Input %v3\n"
      "%pg = OpTypePointer CrossWorkgroup %v3\n%fn = OpTypeFunction %void %pg\n"
      "%enq = OpVariable %pin Input\n"
      "%main = OpFunction %void None %fn\n%out = OpFunctionParameter %pg\n%entry = OpLabel\n"
      "%e = OpLoad %v3 %enq Aligned 32\nOpStore %out %e Aligned 32\n"
      "OpReturn\nOpFunctionEnd\n";
   xe_module *m = assemble("enq_padding", text);
   uint64_t out[4] = {9, 9, 9, 9};
   xe_launch l = { .kernel = "enq", .global = {2, 3, 1}, .local = {2, 3, 1}, .dims = 2,
                   .subgroup_size = 16 };
   buf(&l, 0, out, sizeof out);
   run(m, &l);
   ck_assert_uint_eq(out[0], 2);
   ck_assert_uint_eq(out[1], 3);
   ck_assert_uint_eq(out[2], 1);
   ck_assert_uint_eq(out[3], 0);
   xe_module_free(m);
}
END_TEST

/* The step count (xe_launch.steps, `xeopt run`'s "work-item
 * instructions") counts a sub-group collective once per work-item, like
 * any other instruction: the kernel with OpGroupIAdd executes exactly as
 * many as the same kernel with OpCopyObject in its place, 7 per item
 * (load, extract, convert, the op, chain, store, return). */
START_TEST(collective_steps)
{
   static const char *ops[2] = {
      "OpCopyObject %u32 %v",
      "OpGroupIAdd %u32 %scope Reduce %v",
   };
   for (unsigned o = 0; o < 2; o++) {
      char text[4096];
      snprintf(text, sizeof text,
         "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\nOpCapability Groups\n"
         "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %%main \"steps\" %%gid\n"
         "OpDecorate %%gid BuiltIn GlobalInvocationId\nOpDecorate %%gid Constant\n"
         "%%u64 = OpTypeInt 64 0\n%%u32 = OpTypeInt 32 0\n%%void = OpTypeVoid\n"
         "%%v3 = OpTypeVector %%u64 3\n%%pin = OpTypePointer Input %%v3\n"
         "%%pg = OpTypePointer CrossWorkgroup %%u32\n%%fn = OpTypeFunction %%void %%pg\n"
         "%%scope = OpConstant %%u32 3\n%%gid = OpVariable %%pin Input\n"
         "%%main = OpFunction %%void None %%fn\n%%out = OpFunctionParameter %%pg\n%%entry = OpLabel\n"
         "%%g = OpLoad %%v3 %%gid Aligned 32\n%%i = OpCompositeExtract %%u64 %%g 0\n"
         "%%v = OpUConvert %%u32 %%i\n%%s = %s\n"
         "%%po = OpInBoundsPtrAccessChain %%pg %%out %%i\nOpStore %%po %%s Aligned 4\n"
         "OpReturn\nOpFunctionEnd\n", ops[o]);
      char name[32];
      snprintf(name, sizeof name, "steps_%u", o);
      xe_module *m = assemble(name, text);
      uint32_t out[16];
      xe_launch l = { .kernel = "steps", .global = {16, 1, 1}, .local = {16, 1, 1}, .dims = 1,
                      .subgroup_size = 8 };
      buf(&l, 0, out, sizeof out);
      run(m, &l);
      ck_assert_uint_eq(out[9], o ? 8 + 9 + 10 + 11 + 12 + 13 + 14 + 15 : 9);
      ck_assert_uint_eq(l.steps, 7 * 16);
      xe_module_free(m);
   }
}
END_TEST

/* A measuring run (xe_launch.measure, --verify's buffer sizing) records
 * how far past the end of a buffer the kernel went, and only that: an
 * access below the kernel's start of the buffer (the host's bytes before
 * a sub-buffer) and one at 2^36 bytes or more still fail as out of
 * bounds, with nothing recorded.  out[p] = 7 on a 16-byte buffer that
 * starts 8 bytes into a 24-byte allocation. */
START_TEST(measure_limits)
{
   static const char *text =
      "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n"
      "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %main \"put\"\n"
      "%u64 = OpTypeInt 64 0\n%u32 = OpTypeInt 32 0\n%void = OpTypeVoid\n"
      "%pg = OpTypePointer CrossWorkgroup %u32\n%fn = OpTypeFunction %void %pg %u64\n"
      "%seven = OpConstant %u32 7\n"
      "%main = OpFunction %void None %fn\n%out = OpFunctionParameter %pg\n"
      "%p = OpFunctionParameter %u64\n%entry = OpLabel\n"
      "%e = OpInBoundsPtrAccessChain %pg %out %p\nOpStore %e %seven Aligned 4\n"
      "OpReturn\nOpFunctionEnd\n";
   xe_module *m = assemble("measure_limits", text);
   static const struct { int64_t p; bool ok; uint64_t reach; } cases[] = {
      { 3, true, 0 },                                  /* in bounds */
      { 10, true, 8 + 44 },                            /* past the end: recorded */
      { ((int64_t)1 << 34) - 4, true, 8 + ((uint64_t)1 << 36) - 12 },
      { (int64_t)1 << 34, false, 0 },                  /* 8 + 2^36: too far */
      { -1, false, 0 },                                /* below the start */
   };
   for (unsigned c = 0; c < sizeof cases / sizeof *cases; c++) {
      uint32_t data[6] = {0};
      int64_t p = cases[c].p;
      xe_launch l = { .kernel = "put", .global = {1, 1, 1}, .local = {1, 1, 1}, .dims = 1,
                      .measure = true };
      buf(&l, 0, data, sizeof data);
      l.args[0].start = 8;
      l.args[1] = (xe_exec_arg){ .kind = XE_ARG_SCALAR, .data = (uint8_t *)&p, .size = 8 };
      l.nargs = 2;
      char *err = NULL;
      bool ok = xe_exec_run(m, &l, &err);
      ck_assert_msg(ok == cases[c].ok, "p = %lld: %s", (long long)p, err ? err : "ran");
      if (!ok) {
         ck_assert_msg(err && strstr(err, "out-of-bounds store of 4 bytes"), "%s", err);
         ck_assert_int_eq(l.fault.kind, XE_FAULT_BOUNDS);
      } else {
         ck_assert_uint_eq(l.reach[0], cases[c].reach);
      }
      free(err);
      ck_assert_uint_eq(data[2 + 3], c == 0 ? 7 : 0);   /* only the in-bounds store lands */
   }
   xe_module_free(m);
}
END_TEST

/* OpCompositeConstruct in a function body (llvm-spirv writes insert
 * chains, so no compiled module has one): each constituent lands in its
 * own component, constants and values alike: (x, x + 7, 7, x) per item.
 * The decoder's table of constituents and their sizes must hold all of
 * them (an under-allocated one is a heap overflow ASan reports here). */
START_TEST(composite_construct)
{
   static const char *text =
      "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n"
      "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %main \"cc\" %gid\n"
      "OpDecorate %gid BuiltIn GlobalInvocationId\nOpDecorate %gid Constant\n"
      "%u64 = OpTypeInt 64 0\n%v3 = OpTypeVector %u64 3\n%pin = OpTypePointer Input %v3\n"
      "%u32 = OpTypeInt 32 0\n%v4 = OpTypeVector %u32 4\n%void = OpTypeVoid\n"
      "%pg = OpTypePointer CrossWorkgroup %v4\n%fn = OpTypeFunction %void %pg\n"
      "%c7 = OpConstant %u32 7\n%gid = OpVariable %pin Input\n"
      "%main = OpFunction %void None %fn\n%out = OpFunctionParameter %pg\n%e = OpLabel\n"
      "%g = OpLoad %v3 %gid Aligned 32\n%x = OpCompositeExtract %u64 %g 0\n"
      "%t = OpUConvert %u32 %x\n%t2 = OpIAdd %u32 %t %c7\n"
      "%v = OpCompositeConstruct %v4 %t %t2 %c7 %t\n"
      "%p = OpInBoundsPtrAccessChain %pg %out %x\nOpStore %p %v Aligned 16\n"
      "OpReturn\nOpFunctionEnd\n";
   char *spv = tu_assemble(text, "composite_construct", NULL), *out = NULL, *err = NULL;
   int rc = tu_sh(&out, &err, "%s run '%s' --kernel cc --global 3 --arg 0=buf:uint:12", tu_xeopt(), spv);
   ck_assert_msg(rc == 0, "%s", err);
   ck_assert_msg(strstr(out, "arg 0 (uint[12]): 0 7 7 0 1 8 7 1 2 9 7 2\n"), "%s", out);
   free(out); free(err); free(spv);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("exec");
   TCase *tc = tcase_create("kernels");
   tcase_set_timeout(tc, 120);
   tcase_add_loop_test(tc, vadd, 0, 2);
   tcase_add_loop_test(tc, guarded, 0, 2);
   tcase_add_loop_test(tc, reduce, 0, 2);
   tcase_add_loop_test(tc, hist, 0, 2);
   tcase_add_loop_test(tc, loop, 0, 2);
   tcase_add_loop_test(tc, generic, 0, 2);
   tcase_add_loop_test(tc, subgroup, 0, 2);
   tcase_add_loop_test(tc, vec, 0, 2);
   tcase_add_loop_test(tc, workgroup, 0, 2);
   tcase_add_loop_test(tc, misc, 0, 2);
   tcase_add_test(tc, phi_entry_spec);
   tcase_add_test(tc, spec_constant_bitcast);
   tcase_add_test(tc, cli_run);
   tcase_add_test(tc, oob);
   tcase_add_test(tc, padding_contract);
   tcase_add_test(tc, unsupported);
   tcase_add_test(tc, wrong_rewrite);
   tcase_add_test(tc, arg_specs);
   tcase_add_test(tc, import_call);
   tcase_add_test(tc, local_memory_limit);
   tcase_add_test(tc, scalar_arg_size);
   tcase_add_test(tc, variable_alignment);
   tcase_add_test(tc, fault_end);
   tcase_add_test(tc, race_far_groups);
   tcase_add_test(tc, race_subgroups_2d);
   tcase_add_test(tc, race_names_2d);
   tcase_add_test(tc, generic_cast_explicit);
   tcase_add_test(tc, subgroup_sizes);
   tcase_add_test(tc, arg_types);
   tcase_add_test(tc, offset_dims);
   tcase_add_test(tc, shuffles);
   tcase_add_test(tc, enqueued_size_padding);
   tcase_add_test(tc, collective_steps);
   tcase_add_test(tc, measure_limits);
   tcase_add_test(tc, float_collectives);
   tcase_add_test(tc, shuffle_up_down);
   tcase_add_test(tc, composite_construct);
   suite_add_tcase(s, tc);
   return tu_run_suite(s) ? 1 : 0;
}
