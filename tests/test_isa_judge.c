/*
 * --isa-check's judge either judges every device the user named or fails
 * (src/igc/isa_check.c, ocloc.c):
 *  - a module compiled with -g is judged: ocloc 22.x writes BIN.dbg beside
 *    BIN, and the binary read is BIN by name (needs clang-15,
 *    llvm-spirv-15, ocloc and iga64; ocloc 26 too where the sid toolchain
 *    has it);
 *  - a device the ocloc cannot compile for (bmg under ocloc 22.x), or an
 *    input IGC rejects, is an error naming the device, exit 1, no output
 *    (a made-up ocloc, so without IGC too); an invalid module still gets
 *    its own error;
 *  - --ocloc=PATH stays in its options object: two objects in one process
 *    name two ocloc (C API);
 *  - a SIGINT or SIGTERM during the check leaves no $TMPDIR/xeopt-isa.*.
 */
#define _GNU_SOURCE
#include <check.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <xeopt/xeopt.h>

#include "testutil.h"

/* A made-up ocloc in the scratch directory (path malloc'd): body is the
 * shell script after its #! line. */
static char *fake_ocloc(const char *name, const char *body)
{
   char *path = tu_tmp(name), *text;
   if (asprintf(&text, "#!/bin/sh\n%s", body) < 0)
      abort();
   tu_write(path, text, strlen(text));
   chmod(path, 0755);
   free(text);
   return path;
}

/* ocloc 22.x as far as xeopt can tell (no --version), rejecting every
 * module; iga64 is /bin/true (ocloc 22.x needs one). */
static char *rejecting_ocloc(void)
{
   setenv("IGA64", "/bin/true", 1);
   return fake_ocloc("ocloc-rejects", "[ \"$1\" = compile ] && echo 'fake IGC: rejected' >&2\nexit 1\n");
}

/* guarded_copy.cl compiled with -g by clang-15 and llvm-spirv-15 (path
 * malloc'd), NULL when they are missing. */
static char *debug_module(void)
{
   if (!tu_have("clang-15") || !tu_have("llvm-spirv-15"))
      return NULL;
   char *src = tu_src("testdata/kernels/guarded_copy.cl"), *bc = tu_tmp("g.bc"), *spv = tu_tmp("g.spv");
   char *err = NULL;
   int rc = tu_sh(NULL, &err, "clang-15 -cl-std=CL2.0 -target spir64 -O2 -g -c -emit-llvm -Xclang "
                  "-finclude-default-header '%s' -o '%s' && llvm-spirv-15 '%s' -o '%s'", src, bc, bc, spv);
   ck_assert_msg(rc == 0, "%s", err);
   free(err);
   free(src);
   free(bc);
   return spv;
}

/* The -g module is judged like any other: a verdict for its kernel and
 * the judge's note, never "not checked" (ocloc disasm crashed on the
 * BIN.dbg that was read before). */
static void assert_judged(const char *spv, const char *args)
{
   char *err = NULL, *out = tu_tmp("g.out.spv");
   int rc = tu_sh(NULL, &err, "%s -O2 %s --remarks '%s' -o '%s'", tu_xeopt(), args, spv, out);
   ck_assert_msg(rc == 0, "%s", err);
   ck_assert_msg(strstr(err, "[isa-check] note: judged by ocloc ") && !strstr(err, "not checked"), "%s", err);
   ck_assert_msg(strstr(err, "guarded_copy: [isa-check] "), "no verdict: %s", err);
   free(err);
   free(out);
}

START_TEST(debug_module_judged)
{
   char *spv = debug_module();
   if (!spv || !tu_have_igc()) {
      free(spv);
      return;
   }
   assert_judged(spv, "--isa-check=dg2,pvc");
   char *ocloc = tu_ocloc26(), *args;
   if (ocloc) {
      if (asprintf(&args, "--ocloc='%s' --isa-check=dg2,bmg", ocloc) < 0)
         abort();
      assert_judged(spv, args);
      free(args);
   }
   free(ocloc);
   free(spv);
}
END_TEST

/* Runs xeopt with args on testdata/spv/sg_copy.spv; expects exit 1, no
 * output file and msg after "xeopt: error: FILE: ". */
static void assert_error(const char *args, const char *msg)
{
   char *err = NULL, *src = tu_src("testdata/spv/sg_copy.spv"), *out = tu_tmp("e.spv"), *want;
   unlink(out);
   int rc = tu_sh(NULL, &err, "%s -O2 %s '%s' -o '%s'", tu_xeopt(), args, src, out);
   if (asprintf(&want, "xeopt: error: %s: %s", src, msg) < 0)
      abort();
   ck_assert_msg(rc == 1 && strstr(err, want), "exit %d, want '%s': %s", rc, want, err);
   ck_assert_msg(access(out, F_OK) != 0, "an output was written: %s", err);
   free(want);
   free(err);
   free(src);
   free(out);
}

START_TEST(cannot_judge_is_error)
{
   char *ocloc = rejecting_ocloc(), *args;
   /* bmg needs ocloc 26: named alone or after a device it can judge. */
   if (asprintf(&args, "--ocloc='%s' --isa-check=bmg", ocloc) < 0)
      abort();
   assert_error(args, "--isa-check cannot judge bmg: bmg needs ocloc 26 (IGC 2.x)");
   free(args);
   if (asprintf(&args, "--ocloc='%s' --isa-check=dg2,bmg", ocloc) < 0)
      abort();
   assert_error(args, "--isa-check cannot judge bmg: bmg needs ocloc 26 (IGC 2.x)");
   free(args);
   /* IGC rejects the input: nothing can be judged. */
   if (asprintf(&args, "--ocloc='%s' --isa-check=pvc", ocloc) < 0)
      abort();
   assert_error(args, "--isa-check cannot judge pvc: IGC could not compile the input: ocloc compile for "
                      "pvc failed: fake IGC: rejected");
   free(args);
   /* An invalid module says so, as without --isa-check. */
   char *err = NULL, *bad = tu_tmp("bad.spv"), *out = tu_tmp("e.spv");
   tu_write(bad, "\x03\x02\x23\x07\x00\x00", 6);
   int rc = tu_sh(NULL, &err, "%s --ocloc='%s' --isa-check=pvc '%s' -o '%s'", tu_xeopt(), ocloc, bad, out);
   ck_assert_msg(rc == 1 && !strstr(err, "cannot judge") && strstr(err, "xeopt: error: "), "%s", err);
   free(err);
   free(bad);
   free(out);
   free(ocloc);
}
END_TEST

/* --ocloc=PATH belongs to its options object: the library keeps no
 * process-wide state (it set $XEOPT_OCLOC, and a second object then ran
 * the first one's ocloc). */
START_TEST(ocloc_per_options)
{
   char *ocloc = rejecting_ocloc(), *err = NULL;
   unsetenv("XEOPT_OCLOC");
   setenv("OCLOC", ocloc, 1);
   size_t n;
   char *src = tu_src("testdata/spv/sg_copy.spv");
   char *bytes = tu_read(src, &n);
   xeopt_options *a = xeopt_options_create(), *b = xeopt_options_create();
   ck_assert_int_eq(xeopt_options_set(a, "--ocloc=/nonexistent/ocloc", &err), XEOPT_OK);
   ck_assert_int_eq(xeopt_options_set(a, "--isa-check=dg2", &err), XEOPT_OK);
   ck_assert_int_eq(xeopt_options_set(b, "--isa-check=dg2", &err), XEOPT_OK);
   xeopt_result *ra = xeopt_optimize(a, bytes, n), *rb = xeopt_optimize(b, bytes, n);
   ck_assert_int_eq(xeopt_result_status(ra), XEOPT_ERROR_INPUT);
   ck_assert_str_eq(xeopt_result_error(ra), "--isa-check needs ocloc (IGC), not found");
   /* b runs $OCLOC, which rejects the module: the judge's error, with the device. */
   ck_assert_int_eq(xeopt_result_status(rb), XEOPT_ERROR_INPUT);
   ck_assert_msg(strstr(xeopt_result_error(rb), "--isa-check cannot judge dg2: IGC could not compile the "
                                                "input: ocloc compile for dg2 failed: fake IGC: rejected"),
                 "%s", xeopt_result_error(rb));
   ck_assert_ptr_null(xeopt_result_words(rb, NULL));
   ck_assert_ptr_null(getenv("XEOPT_OCLOC"));
   xeopt_result_destroy(ra);
   xeopt_result_destroy(rb);
   xeopt_options_destroy(a);
   xeopt_options_destroy(b);
   unsetenv("OCLOC");
   free(bytes);
   free(src);
   free(ocloc);
}
END_TEST

/* The xeopt-isa.* directories under dir. */
static int isa_dirs(const char *dir)
{
   DIR *d = opendir(dir);
   struct dirent *de;
   int n = 0;
   while (d && (de = readdir(d)))
      n += !strncmp(de->d_name, "xeopt-isa.", 10);
   if (d)
      closedir(d);
   return n;
}

/* xeopt --isa-check under an ocloc that compiles forever, given sig once
 * its compile started: xeopt dies of sig and its work directory is gone
 * (ocloc with it). */
static void interrupted(int sig)
{
   char *tmp = tu_tmp(sig == SIGINT ? "tmp-int" : "tmp-term"), *marker, *body, *cmd;
   tu_sh(NULL, NULL, "rm -rf '%s' && mkdir -p '%s'", tmp, tmp);
   if (asprintf(&marker, "%s/compiling", tmp) < 0 ||
       asprintf(&body, "case \"$1\" in\n--version) echo 26.0.0 ;;\ncompile) : > '%s'; exec sleep 60 ;;\n"
                "esac\nexit 1\n", marker) < 0)
      abort();
   char *ocloc = fake_ocloc("ocloc-hangs", body), *src = tu_src("testdata/spv/sg_copy.spv"),
        *out = tu_tmp("i.spv");
   if (asprintf(&cmd, "exec %s --ocloc='%s' --isa-check=dg2 '%s' -o '%s'", tu_xeopt(), ocloc, src, out) < 0)
      abort();
   pid_t pid = fork();
   ck_assert_int_ge(pid, 0);
   if (pid == 0) {
      setenv("TMPDIR", tmp, 1);
      signal(SIGINT, SIG_DFL);
      signal(SIGTERM, SIG_DFL);
      execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
      _exit(127);
   }
   for (int k = 0; k < 600 && access(marker, F_OK); k++)
      nanosleep(&(struct timespec){ 0, 50000000 }, NULL);
   ck_assert_msg(access(marker, F_OK) == 0, "ocloc compile never started");
   ck_assert_int_eq(isa_dirs(tmp), 1);
   kill(pid, sig);
   int st;
   ck_assert_int_eq(waitpid(pid, &st, 0), pid);
   ck_assert_msg(WIFSIGNALED(st) && WTERMSIG(st) == sig, "status %#x", st);
   ck_assert_int_eq(isa_dirs(tmp), 0);
   free(tmp);
   free(marker);
   free(body);
   free(cmd);
   free(ocloc);
   free(src);
   free(out);
}

START_TEST(signal_removes_workdir)
{
   interrupted(SIGINT);
   interrupted(SIGTERM);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("isa_judge");
   TCase *tc = tcase_create("isa_judge");
   tcase_set_timeout(tc, 600);
   tcase_add_test(tc, debug_module_judged);
   tcase_add_test(tc, cannot_judge_is_error);
   tcase_add_test(tc, ocloc_per_options);
   tcase_add_test(tc, signal_removes_workdir);
   suite_add_tcase(s, tc);
   return tu_run_suite(s) ? EXIT_FAILURE : EXIT_SUCCESS;
}
