/*
 * Float classification in the interpreter (testdata/kernels/exec_classify.cl):
 * isfinite, isnormal, signbit, islessgreater, isnan, isinf on values chosen
 * for each edge (denormals, zeros of both signs, infinities, NaNs), checked
 * against the C library's classification of the same floats.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include "testutil.h"
#include "exec.h"

START_TEST(classify)
{
   xe_module *m = tu_load_src("testdata/spv/exec_classify.spv");
   enum { N = 8 };
   float a[N] = {1.5f, -0.0f, 0.0f, 1e-40f, -INFINITY, NAN, -3.0f, 2.0f};
   float b[N] = {1.5f, 0.0f, 1.0f, 0.0f, 0.0f, 1.0f, NAN, 1.0f};
   int out[N];
   xe_launch l = { .kernel = "exec_classify", .global = {N}, .local = {N}, .nargs = 3 };
   l.args[0] = (xe_exec_arg){XE_ARG_BUFFER, (uint8_t *)a, sizeof a, 0, {0}};
   l.args[1] = (xe_exec_arg){XE_ARG_BUFFER, (uint8_t *)b, sizeof b, 0, {0}};
   l.args[2] = (xe_exec_arg){XE_ARG_BUFFER, (uint8_t *)out, sizeof out, 0, {0}};
   char *err = NULL;
   ck_assert_msg(xe_exec_run(m, &l, &err), "%s", err ? err : "?");
   for (int i = 0; i < N; i++) {
      int want = (isfinite(a[i]) ? 1 : 0) | (isnormal(a[i]) ? 2 : 0) | (signbit(a[i]) ? 4 : 0) |
                 (islessgreater(a[i], b[i]) ? 8 : 0) | (isnan(a[i]) ? 16 : 0) | (isinf(a[i]) ? 32 : 0);
      ck_assert_msg(out[i] == want, "element %d (%g): 0x%x, want 0x%x", i, a[i], out[i], want);
   }
   /* 1e-40 is a float denormal (a normal double): isnormal is false. */
   ck_assert_int_eq(out[3] & 2, 0);
   xe_module_free(m);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("exec_classify");
   TCase *tc = tcase_create("classify");
   tcase_add_test(tc, classify);
   suite_add_tcase(s, tc);
   return tu_run_suite(s) ? 1 : 0;
}
