/*
 * The padding contract, shown by the reference interpreter: the guarded
 * copy optimized with --assume-padded computes the same host-visible
 * elements as the input when its buffers are allocated as the manifest
 * says (n smaller than the global size), and the interpreter reports an
 * out-of-bounds access when they are not.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

START_TEST(padded_buffers_give_the_same_results)
{
   char *in = tu_src("testdata/spv/guarded_copy.spv");
   char *out = tu_tmp("padded.spv"), *man = tu_tmp("padded.json");
   char *d0 = tu_tmp("dump-in"), *d1 = tu_tmp("dump-out"), *err = NULL;
   ck_assert_int_eq(tu_sh(NULL, NULL, "%s -O2 --assume-padded '%s' -o '%s'", tu_xeopt(), in, out), 0);
   /* The manifest asks for global_size[0] + global_offset[0] elements. */
   char *m = tu_read(man, NULL);
   ck_assert_msg(m && strstr(m, "global_size[0] + global_offset[0]"), "manifest: %s", m);

   /* n = 40 of a 64-work-item launch: the input needs 40 elements, the
    * output the padded 64; both start from the same iota source. */
   const char *launch = "--kernel guarded_copy --global 64 --local 16 --arg 2=int:40";
   ck_assert_int_eq(tu_sh(NULL, NULL, "mkdir -p '%s' '%s' && %s run '%s' %s "
                                      "--arg 0=buf:int:40:zero --arg 1=buf:int:40:iota --dump '%s'",
                          d0, d1, tu_xeopt(), in, launch, d0), 0);
   ck_assert_int_eq(tu_sh(NULL, NULL, "%s run '%s' %s --arg 0=buf:int:64:zero "
                                      "--arg 1=buf:int:64:iota --dump '%s'",
                          tu_xeopt(), out, launch, d1), 0);
   /* The host reads the first 40 elements (160 bytes) of dst. */
   ck_assert_int_eq(tu_sh(NULL, NULL, "cmp -n 160 '%s/arg0.bin' '%s/arg0.bin'", d0, d1), 0);

   /* Without the padding the optimized kernel reads and writes past the
    * buffers, and the interpreter says so. */
   int rc = tu_sh(NULL, &err, "%s run '%s' %s --arg 0=buf:int:40:zero --arg 1=buf:int:40:iota",
                  tu_xeopt(), out, launch);
   ck_assert_int_eq(rc, 1);
   ck_assert_msg(err && strstr(err, "out-of-bounds"), "expected an out-of-bounds report: %s", err);
   /* The input, with the same unpadded buffers, is fine. */
   ck_assert_int_eq(tu_sh(NULL, NULL, "%s run '%s' %s --arg 0=buf:int:40:zero "
                                      "--arg 1=buf:int:40:iota",
                          tu_xeopt(), in, launch), 0);
   free(err);
   free(m);
   free(in);
   free(out);
   free(man);
   free(d0);
   free(d1);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("padding_oracle");
   TCase *tc = tcase_create("oracle");
   tcase_set_timeout(tc, 120);
   tcase_add_test(tc, padded_buffers_give_the_same_results);
   suite_add_tcase(s, tc);
   return tu_run_suite(s) ? 1 : 0;
}
