/*
 * Regression inputs in testdata/bad/: each NAME.spv (most found by the
 * fuzzers, see fuzz/README.md) comes with NAME.expect, whose first line is
 * the exit status xeopt -O2 --validate must give, whose second line is the
 * message after "xeopt: error: FILE: " (empty for status 0; then the output
 * must validate if the input does), and whose
 * optional third line gives more options (--verify for interpreter
 * findings).
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static char *inputs[256];
static int ninputs;

START_TEST(bad_file)
{
   const char *in = inputs[_i];
   char *exp_path;
   if (asprintf(&exp_path, "%.*s.expect", (int)strlen(in) - 4, in) < 0)
      abort();
   char *expect = tu_read(exp_path, NULL);
   ck_assert_msg(expect, "missing %s", exp_path);
   int code = atoi(expect);
   char *msg = strchr(expect, '\n');
   msg = msg ? msg + 1 : "";
   char *opts = strchr(msg, '\n');
   if (opts) {
      *opts++ = 0;
      opts[strcspn(opts, "\n")] = 0;
   } else {
      opts = "";
   }
   char *out = tu_tmp("bad.spv"), *err = NULL;
   int rc = tu_sh(NULL, &err, "%s -O2 --validate %s '%s' -o '%s'", tu_xeopt(), opts, in, out);
   ck_assert_msg(rc == code, "%s: exit %d, expected %d: %s", in, rc, code, err);
   if (code) {
      char *want;
      if (asprintf(&want, "xeopt: error: %s: %s\n", in, msg) < 0)
         abort();
      /* The error is the last line (warnings and notes may come first). */
      size_t le = strlen(err), lw = strlen(want);
      ck_assert_msg(le >= lw && !strcmp(err + le - lw, want), "%s: got %s", in, err);
      free(want);
   } else if (tu_sh(NULL, NULL, "spirv-val '%s' >/dev/null 2>&1", in) == 0) {
      /* Invalid input may stay invalid; valid input must stay valid. */
      tu_spirv_val(out);
   }
   free(err);
   free(out);
   free(expect);
   free(exp_path);
}
END_TEST

int main(void)
{
   ninputs = tu_list("testdata/bad", ".spv", inputs, 256);
   Suite *s = suite_create("badfiles");
   TCase *tc = tcase_create("files");
   tcase_set_timeout(tc, 60);
   tcase_add_loop_test(tc, bad_file, 0, ninputs);
   suite_add_tcase(s, tc);
   int failed = tu_run_suite(s);
   return ninputs == 0 || failed ? 1 : 0;
}
