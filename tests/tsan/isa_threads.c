/*
 * xeopt_optimize under --isa-check from 8 threads at once, built with
 * ThreadSanitizer (tests/tsan/tests.cmake): the library keeps no
 * process-wide state (include/xeopt/xeopt.h), and --isa-check once kept
 * ocloc's path and version in unsynchronized statics (src/igc/ocloc.c)
 * that TSan reported.  Each thread must also get the bytes one thread
 * alone gets.
 *
 *   isa_threads MODULE.spv
 *
 * Exit 0 when every thread got the same output, 1 when not, 77 (skipped)
 * without ocloc and iga64 on PATH; a race makes TSan fail the run.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xeopt/xeopt.h>

#define NTHREADS 8

typedef struct job {
   const xeopt_options *o;
   const void *bytes;
   size_t n;
   xeopt_result *r;
} job;

static void *work(void *arg)
{
   job *j = arg;
   j->r = xeopt_optimize(j->o, j->bytes, j->n);
   return NULL;
}

static bool on_path(const char *tool)
{
   char *cmd;
   if (asprintf(&cmd, "command -v %s >/dev/null 2>&1", tool) < 0)
      abort();
   bool ok = system(cmd) == 0;
   free(cmd);
   return ok;
}

static bool same(const xeopt_result *a, const xeopt_result *b)
{
   size_t na, nb;
   const uint32_t *wa = xeopt_result_words(a, &na), *wb = xeopt_result_words(b, &nb);
   return wa && wb && na == nb && !memcmp(wa, wb, na * 4);
}

int main(int argc, char **argv)
{
   if (argc != 2) {
      fprintf(stderr, "usage: isa_threads MODULE.spv\n");
      return 2;
   }
   if (!on_path("ocloc") || !on_path("iga64")) {
      fprintf(stderr, "isa_threads: skipped: ocloc and iga64 are needed\n");
      return 77;
   }
   FILE *f = fopen(argv[1], "rb");
   static char bytes[1 << 20];
   size_t n = f ? fread(bytes, 1, sizeof(bytes), f) : 0;
   if (f)
      fclose(f);
   if (!n) {
      fprintf(stderr, "isa_threads: cannot read %s\n", argv[1]);
      return 2;
   }
   xeopt_options *o = xeopt_options_create();
   char *err = NULL;
   if (xeopt_options_set(o, "--isa-check=dg2", &err) != XEOPT_OK) {
      fprintf(stderr, "isa_threads: %s\n", err);
      return 1;
   }
   /* The threads first: the first call of each is where a lazily filled
    * cache would be written. */
   job alone = { o, bytes, n, NULL }, jobs[NTHREADS];
   pthread_t t[NTHREADS];
   for (int k = 0; k < NTHREADS; k++) {
      jobs[k] = (job){ o, bytes, n, NULL };
      if (pthread_create(&t[k], NULL, work, &jobs[k]))
         abort();
   }
   for (int k = 0; k < NTHREADS; k++)
      pthread_join(t[k], NULL);
   work(&alone);
   if (xeopt_result_status(alone.r) != XEOPT_OK) {
      fprintf(stderr, "isa_threads: %s\n", xeopt_result_error(alone.r));
      return 1;
   }
   int rc = 0;
   for (int k = 0; k < NTHREADS; k++) {
      if (!same(alone.r, jobs[k].r)) {
         fprintf(stderr, "isa_threads: thread %d: %s\n", k,
                 xeopt_result_error(jobs[k].r) ? xeopt_result_error(jobs[k].r) : "other bytes");
         rc = 1;
      }
      xeopt_result_destroy(jobs[k].r);
   }
   xeopt_result_destroy(alone.r);
   xeopt_options_destroy(o);
   return rc;
}
