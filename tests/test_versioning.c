/*
 * subgroup-versioning: the fast copy runs only where its test holds.
 *
 * guarded_copy (`if (i < n) dst[i] = src[i]`, SPIR-V 1.0, no sub-group or
 * local size) goes through -O2 --target=none (the cost model refuses this
 * small copy by default: golden versioning-guarded-model; here the
 * transformation itself is under test); the output must validate, compile
 * with IGC, and compute exactly what the input computes (xeopt run on both
 * modules, buffers compared byte for byte) on launches where some
 * sub-group must take the original code: the guard fails in some lanes of
 * a sub-group (buffers exactly n elements long, so a lane past n that
 * block-reads or -writes goes out of bounds), partial sub-groups (local
 * size not a multiple of the sub-group size), sub-group sizes 8, 16 and 32,
 * and a global offset of 1 (every sub-group's base misaligned for a block
 * write).
 *
 * The mutation check shows the launches can fail: the same output with
 * the sub-group reduction replaced by the maximum sub-group size (the test
 * always passes) must fail or differ on the guard launch.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

typedef struct launch {
   const char *what;
   unsigned global, local, sg, offset, n;
} launch;

static const launch launches[] = {
   { "guard fails in lanes 5..15 of the third sub-group", 48, 16, 16, 0, 37 },
   { "every lane passes", 64, 16, 16, 0, 64 },
   { "partial sub-groups (local 24, SG 16)", 48, 24, 16, 0, 48 },
   { "SG 8, guard fails mid sub-group", 40, 8, 8, 0, 35 },
   { "SG 32, partial sub-group and guard", 96, 48, 32, 0, 90 },
   { "global offset 1: no 16-byte aligned base", 48, 16, 16, 1, 49 },
};
#define NLAUNCH (int)(sizeof(launches) / sizeof(launches[0]))

static char *out_module(void)
{
   char *in = tu_src("testdata/spv/guarded_copy.spv"), *out = tu_tmp("gc_v.spv"), *err = NULL, *rem = NULL;
   int rc = tu_sh(&rem, &err, "'%s' -O2 --target=none --validate --remarks '%s' -o '%s' 2>&1", tu_xeopt(), in, out);
   ck_assert_msg(rc == 0, "xeopt: %s", rem ? rem : "");
   ck_assert_msg(rem && strstr(rem, "[subgroup-versioning] applied: versioned the region guarded by %cmp"),
                 "no versioning remark: %s", rem ? rem : "");
   free(in);
   free(rem);
   free(err);
   return out;
}

/* Runs kernel guarded_copy of module on launch l; dst goes to *dst
 * (malloc'd, n ints).  Returns xeopt run's exit status. */
static int run(const char *module, const launch *l, const char *tag, char **dst, size_t *len)
{
   char *dir = tu_tmp(tag), *err = NULL;
   tu_sh(NULL, NULL, "mkdir -p '%s'", dir);
   int rc = tu_sh(NULL, &err,
                  "'%s' run '%s' --kernel guarded_copy --global %u --local %u --subgroup-size %u "
                  "--offset %u --arg 0=buf:int:%u:zero --arg 1=buf:int:%u:iota --arg 2=int:%u --dump '%s'",
                  tu_xeopt(), module, l->global, l->local, l->sg, l->offset, l->n, l->n, l->n, dir);
   char *path;
   if (asprintf(&path, "%s/arg0.bin", dir) < 0)
      abort();
   *dst = rc == 0 ? tu_read(path, len) : NULL;
   free(path);
   free(dir);
   free(err);
   return rc;
}

START_TEST(fast_copy_only_where_tested)
{
   char *out = out_module();
   char *in = tu_src("testdata/spv/guarded_copy.spv");
   const launch *l = &launches[_i];
   char *a = NULL, *b = NULL, ta[32], tb[32];
   size_t na = 0, nb = 0;
   snprintf(ta, sizeof(ta), "in%d", _i);
   snprintf(tb, sizeof(tb), "out%d", _i);
   ck_assert_msg(run(in, l, ta, &a, &na) == 0, "%s: the input fails", l->what);
   ck_assert_msg(run(out, l, tb, &b, &nb) == 0, "%s: the output fails", l->what);
   ck_assert_msg(na == nb && na == l->n * 4u && !memcmp(a, b, na), "%s: results differ", l->what);
   free(a);
   free(b);
   free(in);
   free(out);
}
END_TEST

START_TEST(mutated_test_is_caught)
{
   char *out = out_module(), *text = NULL, *err = NULL;
   tu_spirv_val(out);
   tu_ocloc(out);
   char *asm_path = tu_tmp("mut.spvasm"), *mut = tu_tmp("mut.spv");
   /* The reduction replaced by the maximum sub-group size: every sub-group
    * takes the fast copy. */
   int rc = tu_sh(&text, &err, "spirv-dis --raw-id '%s' | sed -E "
                  "'s/OpGroupIAdd (%%[0-9]+) (%%[0-9]+) Reduce %%[0-9]+/OpLoad \\1 %%MAXV/' > '%s' && "
                  "grep -c OpGroupIAdd '%s' || true", out, asm_path, asm_path);
   ck_assert_int_eq(rc, 0);
   /* %MAXV: the SubgroupMaxSize variable (the one decorated BuiltIn SubgroupMaxSize). */
   free(text);
   free(err);
   err = NULL;
   rc = tu_sh(&text, &err, "v=$(grep -E 'OpDecorate %%[0-9]+ BuiltIn SubgroupMaxSize' '%s' | awk '{print $2}') && "
              "sed -i \"s/%%MAXV/$v/\" '%s' && spirv-as --target-env spv1.1 '%s' -o '%s'",
              asm_path, asm_path, asm_path, mut);
   ck_assert_msg(rc == 0, "mutation: %s", err ? err : "");
   char *a = NULL, *b = NULL, *in = tu_src("testdata/spv/guarded_copy.spv");
   size_t na = 0, nb = 0;
   ck_assert_int_eq(run(in, &launches[0], "min", &a, &na), 0);
   int mr = run(mut, &launches[0], "mmut", &b, &nb);
   ck_assert_msg(mr != 0 || na != nb || memcmp(a, b, na),
                 "the always-fast mutant computes the same results: the launch tests nothing");
   free(a);
   free(b);
   free(in);
   free(text);
   free(err);
   free(asm_path);
   free(mut);
   free(out);
}
END_TEST

/* priv_len64 reads in[i * 64 + k]: lanes 64 elements apart, so the
 * contiguity test would fail in every sub-group of a launch where lanes are
 * consecutive global ids.  The load is not a candidate even without the
 * cost model (--target=none); with it (the default) the kernel is left as
 * it was, since one block write does not pay for the test. */
START_TEST(strided_load_not_a_candidate)
{
   char *in = tu_src("testdata/spv/priv_len64.spv"), *out = tu_tmp("p64.spv"), *err = NULL;
   ck_assert_int_eq(tu_sh(NULL, &err, "%s -O2 --target=none --remarks '%s' -o '%s'", tu_xeopt(), in,
                          out), 0);
   ck_assert_msg(strstr(err, "[subgroup-versioning] missed: load via %arrayidx6 stays per-lane: its "
                             "address does not move by one element per lane (the run-time test "
                             "could never pass)"), "%s", err);
   free(err);
   ck_assert_int_eq(tu_sh(NULL, &err, "%s -O2 --remarks '%s' -o '%s'", tu_xeopt(), in, out), 0);
   ck_assert_msg(!strstr(err, "versioned the kernel body"), "%s", err);
   ck_assert_msg(strstr(err, "[subgroup-versioning] missed: no fast copy of the kernel body: the cost "
                             "model says slower"), "%s", err);
   free(err);
   free(in);
   free(out);
}
END_TEST

/* A guarded ulong copy whose load goes through a pointer computed in the
 * kernel (`p = in + off; out[i] = p[i] * 3`): p[i] is not a base[index]
 * with a parameter base, so the run-time test compares 64-bit addresses,
 * lane k's with lane 0's plus k * 8 bytes.  With --measure-path=fast the
 * sub-groups whose test fails return without writing, so a launch of full,
 * contiguous, aligned sub-groups writes every out[i] only if the test
 * passes there: it pins down the expected per-lane stride of an 8-byte
 * element (and that the contiguity test holds for such a launch). */
START_TEST(ulong_address_test_passes)
{
   static const char *text =
      "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n"
      "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %main \"copy64\" %gid\nOpName %pa \"pa\"\n"
      "OpDecorate %gid BuiltIn GlobalInvocationId\nOpDecorate %gid Constant\n"
      "OpDecorate %in Alignment 8\nOpDecorate %out Alignment 8\n"
      "%u64 = OpTypeInt 64 0\n%u32 = OpTypeInt 32 0\n%void = OpTypeVoid\n%bool = OpTypeBool\n"
      "%k3 = OpConstant %u64 3\n%v3 = OpTypeVector %u64 3\n%pin = OpTypePointer Input %v3\n"
      "%p64 = OpTypePointer CrossWorkgroup %u64\n%fn = OpTypeFunction %void %p64 %p64 %u32 %u32\n"
      "%gid = OpVariable %pin Input\n%main = OpFunction %void None %fn\n"
      "%in = OpFunctionParameter %p64\n%out = OpFunctionParameter %p64\n"
      "%n = OpFunctionParameter %u32\n%off = OpFunctionParameter %u32\n"
      "%entry = OpLabel\n%g = OpLoad %v3 %gid Aligned 32\n%call = OpCompositeExtract %u64 %g 0\n"
      "%conv = OpUConvert %u32 %call\n%cmp = OpSLessThan %bool %conv %n\n"
      "OpBranchConditional %cmp %then %end\n"
      "%then = OpLabel\n%offx = OpSConvert %u64 %off\n"
      "%p = OpInBoundsPtrAccessChain %p64 %in %offx\n%i = OpSConvert %u64 %conv\n"
      "%pa = OpInBoundsPtrAccessChain %p64 %p %i\n%v = OpLoad %u64 %pa Aligned 8\n"
      "%mul = OpIMul %u64 %v %k3\n%po = OpInBoundsPtrAccessChain %p64 %out %i\n"
      "OpStore %po %mul Aligned 8\nOpBranch %end\n%end = OpLabel\nOpReturn\nOpFunctionEnd\n";
   char *in = tu_assemble(text, "copy64", NULL), *out = tu_tmp("copy64_fast.spv"), *dir = tu_tmp("copy64_run");
   char *rem = NULL, *path = NULL;
   int rc = tu_sh(&rem, NULL, "'%s' --passes=subgroup-versioning --target=none --measure-path=fast --remarks "
                  "'%s' -o '%s' 2>&1", tu_xeopt(), in, out);
   ck_assert_msg(rc == 0, "xeopt: %s", rem ? rem : "");
   ck_assert_msg(strstr(rem, "applied: load via %pa: sub-group block read in the fast copy (tested: contiguous,"),
                 "%s", rem);
   ck_assert_int_eq(tu_sh(NULL, NULL, "mkdir -p '%s' && '%s' run '%s' --kernel copy64 --global 32 --local 16 "
                          "--subgroup-size 16 --arg 0=buf:ulong:40:iota --arg 1=buf:ulong:32:zero "
                          "--arg 2=int:32 --arg 3=int:8 --dump '%s'", dir, tu_xeopt(), out, dir), 0);
   if (asprintf(&path, "%s/arg1.bin", dir) < 0)
      abort();
   size_t len = 0;
   uint64_t *o = (uint64_t *)tu_read(path, &len);
   ck_assert_int_eq(len, 32 * 8);
   for (unsigned k = 0; k < 32; k++)
      ck_assert_msg(o[k] == 3 * (k + 8), "out[%u] = %llu, want %u: the sub-group's run-time test failed",
                    k, (unsigned long long)o[k], 3 * (k + 8));
   free(o);
   free(path);
   free(rem);
   free(dir);
   free(out);
   free(in);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("versioning");
   TCase *tc = tcase_create("versioning");
   tcase_set_timeout(tc, 300);
   tcase_add_loop_test(tc, fast_copy_only_where_tested, 0, NLAUNCH);
   tcase_add_test(tc, mutated_test_is_caught);
   tcase_add_test(tc, strided_load_not_a_candidate);
   tcase_add_test(tc, ulong_address_test_passes);
   suite_add_tcase(s, tc);
   return tu_run_suite(s) ? 1 : 0;
}
