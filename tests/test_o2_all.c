/*
 * The whole -O2 pipeline, with --validate and --verify, on every module in
 * testdata/spv: xeopt succeeds, spirv-val accepts the output (including
 * for the llvm-spirv-15 modules that do not validate), and IGC compiles it
 * for dg2 and pvc.  The golden tests pin down what each pass writes; this
 * one keeps the default pipeline safe on every input as passes are added.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static char *inputs[512];
static int ninputs;

START_TEST(o2_valid_and_compiles)
{
   char *out = tu_tmp("o2.spv"), *err = NULL;
   int rc = tu_sh(NULL, &err, "%s -O2 --validate --verify '%s' -o '%s'", tu_xeopt(), inputs[_i], out);
   ck_assert_msg(rc == 0, "%s: exit %d: %s", inputs[_i], rc, err);
   tu_spirv_val(out);
   tu_ocloc(out);
   free(err);
   free(out);
}
END_TEST

int main(void)
{
   ninputs = tu_list("testdata/spv", ".spv", inputs, 512);
   Suite *s = suite_create("o2_all");
   TCase *tc = tcase_create("inputs");
   tcase_set_timeout(tc, 120);
   tcase_add_loop_test(tc, o2_valid_and_compiles, 0, ninputs);
   suite_add_tcase(s, tc);
   int failed = tu_run_suite(s);
   return ninputs == 0 || failed ? 1 : 0;
}
