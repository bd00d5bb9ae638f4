/*
 * Lane analysis (src/analysis/lanes.c) on real modules from testdata/spv: strides,
 * the no-wrap proofs of widening conversions, the global-offset opt-in,
 * and sub-group uniform blocks.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io.h"
#include "lanes.h"
#include "testutil.h"

static xe_module *load(const char *name)
{
   char *rel;
   if (asprintf(&rel, "testdata/spv/%s.spv", name) < 0)
      abort();
   xe_module *m = tu_load_src(rel);
   free(rel);
   return m;
}

/* The first value named name (OpName: the body's come before the
 * wrapper's), failing the test when absent. */
static uint32_t named(xe_module *m, const char *name)
{
   xe_foreach_inst(i, &m->sec[XE_SEC_DEBUG_NAME]) {
      if (i->opcode == SpvOpName && !strcmp(xe_op_string(i, 1), name) && xe_def(m, xe_op(i, 0)) &&
          (xe_def(m, xe_op(i, 0))->block || xe_def(m, xe_op(i, 0))->opcode == SpvOpFunctionParameter))
         return xe_op(i, 0);
   }
   ck_abort_msg("no value named %s", name);
   return 0;
}

static xe_lanes *analyze(xe_module *m, xe_kernel *k, unsigned flags)
{
   ck_assert_uint_eq(xe_kernels(m, k, 1), 1);
   ck_assert_ptr_nonnull(k->body);
   return xe_lanes_analyze(m, k->body, k->subgroup_size, k->local_size, flags);
}

#define FACT(l, m, name) xe_lanes_fact((l), named((m), (name)))

START_TEST(copy_strides)
{
   xe_module *m = load("sg_copy");
   xe_kernel k;
   xe_lanes *l = analyze(m, &k, 0);
   const xe_lane_fact *gid = FACT(l, m, "call");
   ck_assert_int_eq(gid->kind, XE_LANE_AFFINE);
   ck_assert_int_eq(gid->stride, 1);
   ck_assert_uint_eq(gid->tz, 0);   /* global offset unknown */
   const xe_lane_fact *p = FACT(l, m, "arrayidx");
   ck_assert_int_eq(p->kind, XE_LANE_AFFINE);
   ck_assert_int_eq(p->stride, 4);
   ck_assert_uint_eq(p->root, named(m, "data2"));
   ck_assert(xe_lanes_block_uniform(l, named(m, "entry")));
   xe_lanes_free(l);
   /* Under the opt-in the lane-0 global id is a multiple of SG = 16. */
   l = analyze(m, &k, XE_LANES_ASSUME_OFFSET);
   ck_assert_uint_eq(FACT(l, m, "call")->tz, 4);
   ck_assert_uint_eq(FACT(l, m, "arrayidx")->tz, 6);
   xe_lanes_free(l);
   xe_module_free(m);
}
END_TEST

START_TEST(strided)
{
   xe_module *m = load("sg_strided");
   xe_kernel k;
   xe_lanes *l = analyze(m, &k, 0);
   ck_assert_int_eq(FACT(l, m, "mul")->kind, XE_LANE_AFFINE);
   ck_assert_int_eq(FACT(l, m, "mul")->stride, 2);
   ck_assert_int_eq(FACT(l, m, "arrayidx")->stride, 8);
   ck_assert_int_eq(FACT(l, m, "arrayidx1")->stride, 4);
   xe_lanes_free(l);
   xe_module_free(m);
}
END_TEST

/* `int x = get_global_id(0)`, `y * width + x` sign-extended: the 32-bit
 * values are affine modulo 2^32, but the sign extension is proven only
 * when the lanes cannot straddle 2^31 (global offset opt-in). */
START_TEST(two_d_wrap)
{
   xe_module *m = load("sg_copy_2d");
   xe_kernel k;
   xe_lanes *l = analyze(m, &k, 0);
   ck_assert_int_eq(FACT(l, m, "conv")->kind, XE_LANE_AFFINE);
   ck_assert(!FACT(l, m, "conv")->nowrap_s);
   ck_assert_int_eq(FACT(l, m, "call1")->kind, XE_LANE_UNIFORM);   /* y */
   ck_assert_int_eq(FACT(l, m, "mul")->kind, XE_LANE_UNIFORM);
   ck_assert_int_eq(FACT(l, m, "add")->stride, 1);
   ck_assert_int_eq(FACT(l, m, "idxprom")->kind, XE_LANE_UNKNOWN);
   xe_lanes_free(l);
   l = analyze(m, &k, XE_LANES_ASSUME_OFFSET);
   ck_assert(FACT(l, m, "conv")->nowrap_s);
   ck_assert(FACT(l, m, "add")->nowrap_s);   /* NoSignedWrap on the add */
   ck_assert_int_eq(FACT(l, m, "idxprom")->kind, XE_LANE_AFFINE);
   ck_assert_int_eq(FACT(l, m, "idxprom")->stride, 1);
   ck_assert_int_eq(FACT(l, m, "arrayidx")->stride, 4);
   ck_assert_uint_eq(FACT(l, m, "arrayidx")->tz, 2);   /* row offset unknown */
   xe_lanes_free(l);
   xe_module_free(m);
}
END_TEST

START_TEST(guarded)
{
   xe_module *m = load("sg_guarded");
   xe_kernel k;
   xe_lanes *l = analyze(m, &k, 0);
   ck_assert(xe_lanes_block_uniform(l, named(m, "entry")));
   ck_assert(!xe_lanes_block_uniform(l, named(m, "if.then")));
   ck_assert_uint_eq(xe_lanes_divergent_cause(l, named(m, "if.then")), named(m, "cmp"));
   ck_assert_int_eq(FACT(l, m, "cmp")->kind, XE_LANE_UNKNOWN);
   xe_lanes_free(l);
   xe_module_free(m);
}
END_TEST

/* Local id with LocalSize.x = SG: lane 0's x is 0, so the 32-bit
 * `group * 128 + lid + k*16` sign-extends exactly (and the wide form can
 * prove the k*16 steps do not wrap in lane 0). */
START_TEST(wide_local_id)
{
   xe_module *m = load("sg_wide");
   xe_kernel k;
   xe_lanes *l = analyze(m, &k, 0);
   ck_assert_int_eq(FACT(l, m, "conv")->stride, 1);
   ck_assert_uint_eq(FACT(l, m, "conv")->tz, 32);   /* LocalSize.x == SG: lane 0 at x = 0 */
   ck_assert_int_eq(FACT(l, m, "conv2")->kind, XE_LANE_UNIFORM);
   ck_assert_uint_eq(FACT(l, m, "conv2")->tz, 7);
   ck_assert_uint_eq(FACT(l, m, "add")->tz, 7);
   ck_assert_int_eq(FACT(l, m, "idxprom.3")->kind, XE_LANE_AFFINE);
   ck_assert_int_eq(FACT(l, m, "arrayidx.7")->stride, 4);
   xe_lanes_free(l);
   xe_module_free(m);
}
END_TEST

START_TEST(no_subgroup_size)
{
   xe_module *m = load("sg_no_sgsize");
   xe_kernel k;
   xe_lanes *l = analyze(m, &k, 0);
   ck_assert_uint_eq(k.subgroup_size, 0);
   ck_assert_int_eq(FACT(l, m, "call")->kind, XE_LANE_UNKNOWN);
   xe_lanes_free(l);
   /* The same module analysed as if launched with SG 16, local 32. */
   uint32_t ls[3] = { 32, 1, 1 };
   l = xe_lanes_analyze(m, k.body, 16, ls, 0);
   ck_assert_int_eq(FACT(l, m, "arrayidx")->stride, 4);
   xe_lanes_free(l);
   /* LocalSize.x not a multiple of SG: sub-groups may straddle rows. */
   ls[0] = 24;
   l = xe_lanes_analyze(m, k.body, 16, ls, 0);
   ck_assert_int_eq(FACT(l, m, "call")->kind, XE_LANE_UNKNOWN);
   xe_lanes_free(l);
   xe_module_free(m);
}
END_TEST

/* A loop with a uniform exit stays uniform (its phi counter is uniform);
 * a loop bounded by the global id is divergent, and so is what follows
 * it (no reconvergence analysis). */
START_TEST(loops)
{
   xe_module *m = load("block_io_loop");
   xe_kernel k;
   xe_lanes *l = analyze(m, &k, 0);
   ck_assert(xe_lanes_block_uniform(l, named(m, "for.body")));
   ck_assert_int_eq(FACT(l, m, "k.032")->kind, XE_LANE_UNIFORM);
   ck_assert_int_eq(FACT(l, m, "cmp")->kind, XE_LANE_UNIFORM);
   ck_assert_int_eq(FACT(l, m, "arrayidx")->stride, 4);
   ck_assert(!xe_lanes_block_uniform(l, named(m, "for.body7")));
   ck_assert_uint_eq(xe_lanes_divergent_cause(l, named(m, "for.body7")), named(m, "cmp433.not"));
   ck_assert(!xe_lanes_block_uniform(l, named(m, "for.cond.cleanup6")));
   xe_lanes_free(l);
   xe_module_free(m);
}
END_TEST

/* `local_id < 32` and `< 16` are the same in all 16 lanes of a sub-group
 * (lane 0's local x is a multiple of 16); `< 8` is not. */
START_TEST(aligned_compares)
{
   xe_module *m = load("barrier_local");
   xe_kernel k;
   ck_assert_uint_eq(xe_kernels(m, &k, 1), 1);
   uint32_t ls[3] = { 64, 1, 1 };
   xe_lanes *l = xe_lanes_analyze(m, k.body, 16, ls, 0);
   ck_assert_int_eq(FACT(l, m, "cmp4")->kind, XE_LANE_UNIFORM);
   ck_assert_int_eq(FACT(l, m, "cmp4.1")->kind, XE_LANE_UNIFORM);
   ck_assert_int_eq(FACT(l, m, "cmp4.2")->kind, XE_LANE_UNKNOWN);
   ck_assert(xe_lanes_block_uniform(l, named(m, "if.then")));
   ck_assert(!xe_lanes_block_uniform(l, named(m, "if.then.2")));
   xe_lanes_free(l);
   /* With sub-groups of 32 even `< 16` splits a sub-group. */
   l = xe_lanes_analyze(m, k.body, 32, ls, 0);
   ck_assert_int_eq(FACT(l, m, "cmp4")->kind, XE_LANE_UNIFORM);
   ck_assert_int_eq(FACT(l, m, "cmp4.1")->kind, XE_LANE_UNKNOWN);
   xe_lanes_free(l);
   xe_module_free(m);
}
END_TEST

/* vload4 reads memory (OpenCL.std vloadn): like an OpLoad its result is
 * not known to be uniform, even from an address all lanes share.  The
 * lane analysis once kept its own list of pure opcodes in which every
 * OpExtInst but printf was pure, so this value came out uniform. */
START_TEST(vloadn_reads_memory)
{
   xe_module *m = load("lanes_vloadn");
   xe_kernel k;
   xe_lanes *l = analyze(m, &k, 0);
   ck_assert_int_eq(FACT(l, m, "call1")->kind, XE_LANE_UNKNOWN);
   ck_assert_int_eq(FACT(l, m, "add")->kind, XE_LANE_UNKNOWN);
   ck_assert(xe_lanes_block_uniform(l, named(m, "entry")));
   xe_lanes_free(l);
   xe_module_free(m);
}
END_TEST

/* get_sub_group_size() is SG when every sub-group is full (LocalSize.x a
 * multiple of SG): hist_uint's load index base + lane + k * SG (clang
 * reassociates it and drops NoSignedWrap) keeps lane 0 at a multiple of
 * SG, so its sign extension cannot wrap between lanes.  With LocalSize.x
 * = 24 the second sub-group of a work-group has 8 lanes: SubgroupSize is
 * then not known, and neither is the extension. */
START_TEST(subgroup_size_alignment)
{
   xe_module *m = load("hist_uint");
   xe_kernel k;
   xe_lanes *l = analyze(m, &k, 0);
   ck_assert_uint_eq(k.subgroup_size, 16);
   ck_assert_int_eq(FACT(l, m, "call3")->kind, XE_LANE_UNIFORM);
   ck_assert_uint_eq(FACT(l, m, "call3")->tz, 4);
   ck_assert_uint_eq(FACT(l, m, "mul16")->tz, 4);
   ck_assert(FACT(l, m, "add18")->nowrap_s);
   ck_assert_int_eq(FACT(l, m, "idxprom19")->kind, XE_LANE_AFFINE);
   ck_assert_int_eq(FACT(l, m, "arrayidx20")->stride, 8);
   xe_lanes_free(l);
   const uint32_t partial[3] = { 24, 1, 1 };
   l = xe_lanes_analyze(m, k.body, 16, partial, 0);
   ck_assert_int_eq(FACT(l, m, "call3")->kind, XE_LANE_UNIFORM);
   ck_assert_uint_eq(FACT(l, m, "call3")->tz, 0);
   ck_assert_int_eq(FACT(l, m, "idxprom19")->kind, XE_LANE_UNKNOWN);
   xe_lanes_free(l);
   xe_module_free(m);
}
END_TEST

/* A truncation keeps a stride only when it fits the narrow type's signed
 * range [-2^(to-1), 2^(to-1)): lane * -200 truncated to 8 bits is not
 * known (-200 is below -128; modulo 256 the lanes step by 56), while
 * lane * -100 keeps its stride -100.  The lane id is the sub-group local
 * id, stride 1 with SG 16. */
START_TEST(narrowing_negative_stride)
{
   static const char *text =
      "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int8\n"
      "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %main \"narrow\" %lane_id\n"
      "OpName %t200 \"t200\"\nOpName %t100 \"t100\"\nOpName %m200 \"m200\"\n"
      "OpDecorate %lane_id BuiltIn SubgroupLocalInvocationId\n"
      "OpDecorate %lane_id Constant\n"
      "%u32 = OpTypeInt 32 0\n%u8 = OpTypeInt 8 0\n%void = OpTypeVoid\n"
      "%pi = OpTypePointer Input %u32\n%pg = OpTypePointer CrossWorkgroup %u8\n"
      "%fn = OpTypeFunction %void %pg\n"
      "%lane_id = OpVariable %pi Input\n"
      "%zero = OpConstant %u32 0\n%c200 = OpConstant %u32 200\n%c100 = OpConstant %u32 100\n"
      "%main = OpFunction %void None %fn\n%out = OpFunctionParameter %pg\n%entry = OpLabel\n"
      "%lane = OpLoad %u32 %lane_id Aligned 4\n"
      "%x200 = OpIMul %u32 %lane %c200\n%m200 = OpISub %u32 %zero %x200\n"
      "%x100 = OpIMul %u32 %lane %c100\n%m100 = OpISub %u32 %zero %x100\n"
      "%t200 = OpUConvert %u8 %m200\n%t100 = OpUConvert %u8 %m100\n"
      "%s = OpIAdd %u8 %t200 %t100\n"
      "OpStore %out %s Aligned 1\nOpReturn\nOpFunctionEnd\n";
   char *bin = tu_assemble(text, "narrow_stride", NULL);
   xe_module *m = tu_load(bin);
   xe_kernel k;
   ck_assert(xe_kernel_by_name(m, "narrow", &k));
   const uint32_t ls[3] = { 16, 1, 1 };
   xe_lanes *l = xe_lanes_analyze(m, k.body, 16, ls, 0);
   ck_assert_int_eq(FACT(l, m, "m200")->kind, XE_LANE_AFFINE);
   ck_assert_int_eq(FACT(l, m, "m200")->stride, -200);
   ck_assert_int_eq(FACT(l, m, "t200")->kind, XE_LANE_UNKNOWN);
   ck_assert_int_eq(FACT(l, m, "t100")->kind, XE_LANE_AFFINE);
   ck_assert_int_eq(FACT(l, m, "t100")->stride, -100);
   xe_lanes_free(l);
   xe_module_free(m);
   free(bin);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("lanes");
   TCase *tc = tcase_create("facts");
   tcase_add_test(tc, copy_strides);
   tcase_add_test(tc, strided);
   tcase_add_test(tc, two_d_wrap);
   tcase_add_test(tc, guarded);
   tcase_add_test(tc, wide_local_id);
   tcase_add_test(tc, no_subgroup_size);
   tcase_add_test(tc, loops);
   tcase_add_test(tc, aligned_compares);
   tcase_add_test(tc, vloadn_reads_memory);
   tcase_add_test(tc, subgroup_size_alignment);
   tcase_add_test(tc, narrowing_negative_stride);
   suite_add_tcase(s, tc);
   return tu_run_suite(s) ? 1 : 0;
}
