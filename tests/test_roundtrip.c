/*
 * Round trip: reading and writing every module in testdata/spv gives the
 * same bytes, in both byte orders; -O0 through the command line does too.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io.h"
#include "testutil.h"

static char *inputs[512];
static int ninputs;

static uint32_t swap32(uint32_t v)
{
   return (v >> 24) | ((v >> 8) & 0xff00) | ((v << 8) & 0xff0000) | (v << 24);
}

START_TEST(roundtrip_identical)
{
   size_t n;
   char *bytes = tu_read(inputs[_i], &n);
   ck_assert(bytes);
   char *err = NULL;
   xe_module *m = xe_read(bytes, n, &err);
   ck_assert_msg(m, "%s: %s", inputs[_i], err);
   ck_assert(!m->big_endian);
   size_t nw;
   uint32_t *w = xe_write(m, &nw, false);
   ck_assert_msg(nw * 4 == n && !memcmp(w, bytes, n), "%s: round trip differs", inputs[_i]);
   free(w);
   xe_module_free(m);

   /* The same module in big-endian byte order reads, and writes back
    * big-endian, byte for byte; in host order it equals the original. */
   uint32_t *be = malloc(n);
   memcpy(be, bytes, n);
   for (size_t k = 0; k < n / 4; k++)
      be[k] = swap32(be[k]);
   m = xe_read(be, n, &err);
   ck_assert_msg(m, "%s (big-endian): %s", inputs[_i], err);
   ck_assert(m->big_endian);
   w = xe_write(m, &nw, false);
   ck_assert_msg(nw * 4 == n && !memcmp(w, be, n), "%s: big-endian round trip differs", inputs[_i]);
   free(w);
   w = xe_write(m, &nw, true);
   ck_assert_msg(nw * 4 == n && !memcmp(w, bytes, n), "%s: host-order write differs", inputs[_i]);
   free(w);
   xe_module_free(m);
   free(be);
   free(bytes);
}
END_TEST

START_TEST(cli_O0_identical)
{
   char *out = tu_tmp("rt.spv");
   int rc = tu_sh(NULL, NULL, "%s -O0 '%s' -o '%s' && cmp '%s' '%s'", tu_xeopt(), inputs[_i], out,
                  inputs[_i], out);
   ck_assert_msg(rc == 0, "%s: xeopt -O0 is not byte-identical", inputs[_i]);
   free(out);
}
END_TEST

int main(void)
{
   ninputs = tu_list("testdata/spv", ".spv", inputs, 512);
   Suite *s = suite_create("roundtrip");
   TCase *tc = tcase_create("inputs");
   tcase_set_timeout(tc, 120);
   tcase_add_loop_test(tc, roundtrip_identical, 0, ninputs);
   tcase_add_loop_test(tc, cli_O0_identical, 0, ninputs);
   suite_add_tcase(s, tc);
   int failed = tu_run_suite(s);
   /* No inputs would make this test pass vacuously. */
   return ninputs == 0 || failed ? 1 : 0;
}
