/*
 * Value ranges and execution bounds (src/analysis/ranges.h) on real modules
 * compiled by clang-15 + llvm-spirv-15 from testdata/kernels.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "io.h"
#include "ranges.h"
#include "testutil.h"

static uint32_t named(xe_module *m, const char *name)
{
   xe_foreach_inst(i, &m->sec[XE_SEC_DEBUG_NAME]) {
      if (i->opcode == SpvOpName && !strcmp(xe_op_string(i, 1), name))
         return xe_op(i, 0);
   }
   ck_abort_msg("no OpName %s", name);
   return 0;
}

static xe_function *body(xe_module *m, const char *kernel)
{
   xe_kernel k;
   ck_assert(xe_kernel_by_name(m, kernel, &k));
   return k.body;
}

static uint32_t block_of(xe_module *m, xe_function *f, const char *label)
{
   const xe_cfg *c = xe_function_cfg(f);
   uint32_t b = xe_cfg_block_index(c, named(m, label));
   ck_assert_uint_ne(b, XE_NONE);
   return b;
}

START_TEST(histogram_ranges)
{
   xe_module *m = tu_load_src("testdata/spv/histogram_private.spv");
   xe_function *f = body(m, "histogram_private");
   /* x & 0x1F: a bin index */
   xe_range r = xe_range_of(m, f, named(m, "idxprom27.3"));
   ck_assert(r.known);
   ck_assert_uint_eq(r.lo, 0);
   ck_assert_uint_eq(r.hi, 31);
   /* x >> 56 of a ulong: below 256 */
   r = xe_range_of(m, f, named(m, "shr.6"));
   ck_assert(r.known);
   ck_assert_uint_eq(r.hi, 255);
   /* the loaded ulong itself: nothing proven */
   r = xe_range_of(m, f, named(m, "add29"));
   ck_assert(!r.known);
   /* k of `for (k = 0; k < 256; k++)`, rotated with the test k < 255 */
   r = xe_range_of(m, f, named(m, "k7.078"));
   ck_assert(r.known);
   ck_assert_uint_eq(r.lo, 0);
   ck_assert_uint_eq(r.hi, 255);
   uint64_t n;
   ck_assert(xe_block_exec_bound(m, f, block_of(m, f, "for.body12"), &n));
   ck_assert_uint_eq(n, 256);
   ck_assert(xe_block_exec_bound(m, f, block_of(m, f, "entry"), &n));
   ck_assert_uint_eq(n, 1);
   xe_module_free(m);
}
END_TEST

START_TEST(argument_trip_count_unbounded)
{
   xe_module *m = tu_load_src("testdata/spv/hist_ulong_exceeds.spv");
   xe_function *f = body(m, "hist_ulong_exceeds");
   const xe_loops *ls = xe_function_loops(f);
   ck_assert_uint_ge(ls->n, 1);
   /* the counting loop runs `count` (an argument) times: no bound */
   uint64_t n;
   uint32_t sb = xe_def(m, named(m, "add"))->block->index;
   ck_assert(!xe_block_exec_bound(m, f, sb, &n));
   /* x & 0x1F through a uint -> ulong conversion */
   xe_range r = xe_range_of(m, f, named(m, "idxprom8"));
   ck_assert(r.known);
   ck_assert_uint_eq(r.hi, 31);
   xe_module_free(m);
}
END_TEST

START_TEST(len64_index)
{
   xe_module *m = tu_load_src("testdata/spv/priv_len64.spv");
   xe_function *f = body(m, "priv_len64");
   xe_range r = xe_range_of(m, f, named(m, "idxprom7"));
   ck_assert(r.known);
   ck_assert_uint_eq(r.hi, 15);
   xe_module_free(m);
}
END_TEST

/* A narrowing UConvert keeps its operand's range when the range fits the
 * narrow width (x & 100 of a ulong converted to uint stays in [0, 100]),
 * and proves nothing when it does not (x & 0x1ffffffff converted to uint
 * wraps). */
START_TEST(narrowing_uconvert)
{
   static const char *text =
      "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n"
      "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %main \"narrow\"\n"
      "OpName %fits \"fits\"\nOpName %wraps \"wraps\"\n"
      "%u32 = OpTypeInt 32 0\n%u64 = OpTypeInt 64 0\n%void = OpTypeVoid\n"
      "%pg = OpTypePointer CrossWorkgroup %u32\n%fn = OpTypeFunction %void %pg %u64\n"
      "%c100 = OpConstant %u64 100\n%cbig = OpConstant %u64 0x1ffffffff\n"
      "%main = OpFunction %void None %fn\n%out = OpFunctionParameter %pg\n"
      "%x = OpFunctionParameter %u64\n%entry = OpLabel\n"
      "%a = OpBitwiseAnd %u64 %x %c100\n%fits = OpUConvert %u32 %a\n"
      "%b = OpBitwiseAnd %u64 %x %cbig\n%wraps = OpUConvert %u32 %b\n"
      "%s = OpIAdd %u32 %fits %wraps\nOpStore %out %s Aligned 4\nOpReturn\nOpFunctionEnd\n";
   char *bin = tu_assemble(text, "narrowing_uconvert", NULL);
   xe_module *m = tu_load(bin);
   xe_function *f = body(m, "narrow");
   xe_range r = xe_range_of(m, f, named(m, "fits"));
   ck_assert(r.known);
   ck_assert_uint_eq(r.lo, 0);
   ck_assert_uint_eq(r.hi, 100);
   r = xe_range_of(m, f, named(m, "wraps"));
   ck_assert(!r.known);
   ck_assert_uint_eq(r.hi, 0xffffffffu);
   xe_module_free(m);
   free(bin);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("ranges");
   TCase *tc = tcase_create("modules");
   tcase_add_test(tc, histogram_ranges);
   tcase_add_test(tc, argument_trip_count_unbounded);
   tcase_add_test(tc, len64_index);
   tcase_add_test(tc, narrowing_uconvert);
   suite_add_tcase(s, tc);
   SRunner *sr = srunner_create(s);
   srunner_run_all(sr, CK_NORMAL);
   int failed = srunner_ntests_failed(sr);
   srunner_free(sr);
   return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
