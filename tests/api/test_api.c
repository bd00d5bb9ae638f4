/*
 * The public C API, linked against the shared library only: options,
 * errors as codes and messages, outputs, and two threads optimizing at
 * once giving the same bytes as one thread alone.
 */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xeopt/xeopt.h>

static char *read_file(const char *path, size_t *n)
{
   FILE *f = fopen(path, "rb");
   ck_assert_msg(f, "cannot open %s", path);
   fseek(f, 0, SEEK_END);
   *n = (size_t)ftell(f);
   fseek(f, 0, SEEK_SET);
   char *b = malloc(*n);
   ck_assert(fread(b, 1, *n, f) == *n);
   fclose(f);
   return b;
}

static const char *inputs[] = { "guarded_copy", "convolution", "histogram_private", "vector_add" };
#define NINPUTS 4

static char *input_path(int k)
{
   static char buf[4][1024];
   snprintf(buf[k], sizeof(buf[k]), "%s/testdata/spv/%s.spv", XEOPT_SOURCE_DIR, inputs[k]);
   return buf[k];
}

START_TEST(options_and_errors)
{
   xeopt_options *o = xeopt_options_create();
   char *err = NULL;
   ck_assert_int_eq(xeopt_options_set(o, "-O1", &err), XEOPT_OK);
   ck_assert_ptr_null(err);
   ck_assert_int_eq(xeopt_options_set(o, "--passes=block-order", NULL), XEOPT_OK);
   ck_assert_int_eq(xeopt_options_set(o, "--bogus", &err), XEOPT_ERROR_INPUT);
   ck_assert_str_eq(err, "unknown option --bogus (see --help)");
   free(err);
   ck_assert_int_eq(xeopt_options_set(o, "--verify=0", &err), XEOPT_ERROR_INPUT);
   free(err);
   ck_assert_int_eq(xeopt_options_set(o, "-o", &err), XEOPT_ERROR_INPUT);
   free(err);

   static const unsigned char junk[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
   xeopt_result *r = xeopt_optimize(o, junk, sizeof(junk));
   ck_assert_int_eq(xeopt_result_status(r), XEOPT_ERROR_INPUT);
   ck_assert_str_eq(xeopt_result_error(r), "truncated header: 8 bytes, a SPIR-V header has 20");
   size_t n = 99;
   ck_assert_ptr_null(xeopt_result_words(r, &n));
   ck_assert_uint_eq(n, 0);
   ck_assert_str_eq(xeopt_result_remarks_json(r), "[]");
   ck_assert_ptr_null(xeopt_result_manifest_json(r));
   xeopt_result_destroy(r);
   xeopt_options_destroy(o);
   ck_assert_str_eq(xeopt_version(), XEOPT_VERSION);
}
END_TEST

/* A promise naming a kernel the module does not have is refused, with
 * the module's kernels in the message; a malformed one when it is set. */
START_TEST(promise_for_unknown_kernel)
{
   char path[1024], *err = NULL;
   snprintf(path, sizeof path, "%s/testdata/spv/loop_spec_constants_sum.spv", XEOPT_SOURCE_DIR);
   size_t n;
   char *bytes = read_file(path, &n);
   xeopt_options *o = xeopt_options_create();
   ck_assert_int_eq(xeopt_options_set(o, "--specialize=foo", &err), XEOPT_ERROR_INPUT);
   ck_assert_str_eq(err, "option --specialize: 'foo' is not KERNEL:ARG=VALUE");
   free(err);
   ck_assert_int_eq(xeopt_options_set(o, "--assume-padded=", &err), XEOPT_ERROR_INPUT);
   free(err);
   ck_assert_int_eq(xeopt_options_set(o, "--local-size=sumx:16", NULL), XEOPT_OK);
   xeopt_result *r = xeopt_optimize(o, bytes, n);
   ck_assert_int_eq(xeopt_result_status(r), XEOPT_ERROR_INPUT);
   ck_assert_str_eq(xeopt_result_error(r), "option --local-size=sumx:16: the module has no kernel "
                                           "'sumx' (its kernels: sum)");
   ck_assert_ptr_null(xeopt_result_words(r, NULL));
   xeopt_result_destroy(r);
   xeopt_options_destroy(o);
   free(bytes);
}
END_TEST

START_TEST(optimize_O0_is_identity)
{
   xeopt_options *o = xeopt_options_create();
   ck_assert_int_eq(xeopt_options_set(o, "-O0", NULL), XEOPT_OK);
   size_t n;
   char *bytes = read_file(input_path(0), &n);
   xeopt_result *r = xeopt_optimize(o, bytes, n);
   ck_assert_int_eq(xeopt_result_status(r), XEOPT_OK);
   ck_assert_ptr_null(xeopt_result_error(r));
   size_t nw;
   const uint32_t *w = xeopt_result_words(r, &nw);
   ck_assert_uint_eq(nw * 4, n);
   ck_assert(!memcmp(w, bytes, n));
   xeopt_result_destroy(r);
   xeopt_options_destroy(o);
   free(bytes);
}
END_TEST

/* A library prints nothing: --verify's findings come back as warnings. */
START_TEST(verify_findings_are_warnings)
{
   xeopt_options *o = xeopt_options_create();
   ck_assert_int_eq(xeopt_options_set(o, "--verify", NULL), XEOPT_OK);
   char path[1024];
   snprintf(path, sizeof path, "%s/testdata/spv/exec_unsupported_O2.spv", XEOPT_SOURCE_DIR);
   size_t n;
   char *bytes = read_file(path, &n);
   fflush(stderr);
   int saved = dup(2);
   FILE *tmp = tmpfile();
   dup2(fileno(tmp), 2);
   xeopt_result *r = xeopt_optimize(o, bytes, n);
   fflush(stderr);
   dup2(saved, 2);
   close(saved);
   ck_assert_int_eq(fseek(tmp, 0, SEEK_END), 0);
   ck_assert_int_eq(ftell(tmp), 0);
   fclose(tmp);
   ck_assert_int_eq(xeopt_result_status(r), XEOPT_OK);
   const char *w = xeopt_result_warnings(r);
   ck_assert_msg(strstr(w, "verify: kernel exec_unsupported NOT verified: "), "%s", w);
   xeopt_result_destroy(r);
   xeopt_options_destroy(o);
   free(bytes);
}
END_TEST

typedef struct job {
   const xeopt_options *o;
   char *bytes;
   size_t n;
   uint32_t *out;
   size_t nout;
   int status;
} job;

static void *work(void *arg)
{
   job *j = arg;
   /* Several rounds so the threads really overlap. */
   for (int round = 0; round < 20; round++) {
      xeopt_result *r = xeopt_optimize(j->o, j->bytes, j->n);
      j->status = xeopt_result_status(r);
      size_t nw;
      const uint32_t *w = xeopt_result_words(r, &nw);
      if (round == 0 && w) {
         j->out = malloc(nw * 4);
         memcpy(j->out, w, nw * 4);
         j->nout = nw;
      } else if (w && (nw != j->nout || memcmp(w, j->out, nw * 4))) {
         j->status = -1;
      }
      xeopt_result_destroy(r);
      if (j->status)
         break;
   }
   return NULL;
}

START_TEST(two_threads)
{
   xeopt_options *o = xeopt_options_create();
   ck_assert_int_eq(xeopt_options_set(o, "-O2", NULL), XEOPT_OK);
   ck_assert_int_eq(xeopt_options_set(o, "--validate", NULL), XEOPT_OK);
   job single[NINPUTS], threaded[NINPUTS];
   for (int k = 0; k < NINPUTS; k++) {
      single[k] = (job){ .o = o };
      single[k].bytes = read_file(input_path(k), &single[k].n);
      work(&single[k]);
      ck_assert_int_eq(single[k].status, 0);
      threaded[k] = (job){ .o = o, .bytes = single[k].bytes, .n = single[k].n };
   }
   pthread_t t[NINPUTS];
   for (int k = 0; k < NINPUTS; k++)
      ck_assert_int_eq(pthread_create(&t[k], NULL, work, &threaded[k]), 0);
   for (int k = 0; k < NINPUTS; k++)
      pthread_join(t[k], NULL);
   for (int k = 0; k < NINPUTS; k++) {
      ck_assert_msg(threaded[k].status == 0, "%s: status %d", inputs[k], threaded[k].status);
      ck_assert_uint_eq(threaded[k].nout, single[k].nout);
      ck_assert(!memcmp(threaded[k].out, single[k].out, single[k].nout * 4));
      free(threaded[k].out);
      free(single[k].out);
      free(single[k].bytes);
   }
   xeopt_options_destroy(o);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("api");
   TCase *tc = tcase_create("api");
   tcase_set_timeout(tc, 300);
   tcase_add_test(tc, options_and_errors);
   tcase_add_test(tc, optimize_O0_is_identity);
   tcase_add_test(tc, promise_for_unknown_kernel);
   tcase_add_test(tc, verify_findings_are_warnings);
   tcase_add_test(tc, two_threads);
   suite_add_tcase(s, tc);
   SRunner *sr = srunner_create(s);
   srunner_run_all(sr, CK_NORMAL);
   int failed = srunner_ntests_failed(sr);
   srunner_free(sr);
   return failed ? 1 : 0;
}
