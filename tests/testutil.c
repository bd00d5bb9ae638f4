#define _GNU_SOURCE
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "io.h"
#include "testutil.h"

char *tu_src(const char *rel)
{
   char *p;
   if (asprintf(&p, "%s/%s", XEOPT_SOURCE_DIR, rel) < 0)
      abort();
   return p;
}

char *tu_tmp(const char *name)
{
   char *dir, *p;
   /* One directory per test program: ctest runs programs in parallel. */
   if (asprintf(&dir, "%s/scratch-%s", XEOPT_TEST_DIR, program_invocation_short_name) < 0)
      abort();
   mkdir(dir, 0777);
   if (asprintf(&p, "%s/%s", dir, name) < 0)
      abort();
   free(dir);
   return p;
}

char *tu_assemble(const char *text, const char *name, const char *flags)
{
   char *base, *src, *spv, *err = NULL;
   if (asprintf(&base, "%s.spvasm", name) < 0)
      abort();
   src = tu_tmp(base);
   free(base);
   if (asprintf(&base, "%s.spv", name) < 0)
      abort();
   spv = tu_tmp(base);
   free(base);
   tu_write(src, text, strlen(text));
   int rc = tu_sh(NULL, &err, "spirv-as --target-env spv1.4 %s '%s' -o '%s'", flags ? flags : "", src, spv);
   ck_assert_msg(rc == 0, "spirv-as %s: %s", src, err ? err : "");
   free(err);
   free(src);
   return spv;
}

const char *tu_xeopt(void)
{
   /* XEOPT_VALGRIND=1 runs every command-line test under memcheck; an
    * error or a definite leak makes xeopt exit 99, which no test expects. */
   static char cmd[1024];
   const char *vg = getenv("XEOPT_VALGRIND");
   if (vg && !strcmp(vg, "1"))
      snprintf(cmd, sizeof(cmd), "valgrind -q --error-exitcode=99 --leak-check=full "
               "--errors-for-leak-kinds=definite '%s'", XEOPT_BIN);
   else
      snprintf(cmd, sizeof(cmd), "'%s'", XEOPT_BIN);
   return cmd;
}

char *tu_read(const char *path, size_t *n)
{
   struct stat st;
   if (stat(path, &st) || !S_ISREG(st.st_mode))
      return NULL;
   FILE *f = fopen(path, "rb");
   if (!f)
      return NULL;
   fseek(f, 0, SEEK_END);
   long len = ftell(f);
   fseek(f, 0, SEEK_SET);
   char *buf = malloc(len + 1);
   size_t got = fread(buf, 1, len, f);
   fclose(f);
   buf[got] = 0;
   if (n)
      *n = got;
   return buf;
}

void tu_write(const char *path, const void *data, size_t n)
{
   FILE *f = fopen(path, "wb");
   ck_assert_msg(f, "cannot write %s", path);
   fwrite(data, 1, n, f);
   fclose(f);
}

int tu_sh(char **out, char **err, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   char *cmd, *full;
   if (vasprintf(&cmd, fmt, ap) < 0)
      abort();
   va_end(ap);
   char *o = tu_tmp("sh.out"), *e = tu_tmp("sh.err");
   if (asprintf(&full, "(%s) >'%s' 2>'%s' </dev/null", cmd, o, e) < 0)
      abort();
   int st = system(full);
   if (out)
      *out = tu_read(o, NULL);
   if (err)
      *err = tu_read(e, NULL);
   unlink(o);
   unlink(e);
   free(o);
   free(e);
   free(full);
   free(cmd);
   return st == -1 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

bool tu_have(const char *tool)
{
   return tu_sh(NULL, NULL, "command -v %s", tool) == 0;
}

void tu_golden(const char *golden_path, const char *actual)
{
   const char *upd = getenv("XEOPT_UPDATE_GOLDEN");
   if (upd && !strcmp(upd, "1")) {
      tu_write(golden_path, actual, strlen(actual));
      return;
   }
   char *want = tu_read(golden_path, NULL);
   ck_assert_msg(want, "missing golden file %s (run with XEOPT_UPDATE_GOLDEN=1)", golden_path);
   if (strcmp(want, actual)) {
      char *base = strrchr(golden_path, '/');
      char *act = tu_tmp(base ? base + 1 : golden_path);
      tu_write(act, actual, strlen(actual));
      ck_abort_msg("output differs from %s; actual output in %s", golden_path, act);
   }
   free(want);
}

xe_module *tu_load(const char *path)
{
   size_t n;
   char *bytes = tu_read(path, &n);
   ck_assert_msg(bytes, "cannot read %s", path);
   char *err = NULL;
   xe_module *m = xe_read(bytes, n, &err);
   ck_assert_msg(m, "%s: %s", path, err ? err : "");
   free(bytes);
   return m;
}

xe_module *tu_load_src(const char *rel)
{
   char *path = tu_src(rel);
   xe_module *m = tu_load(path);
   free(path);
   return m;
}

char *tu_disassemble_file(const char *path)
{
   xe_module *m = tu_load(path);
   char *text = xe_disassemble(m, true);
   ck_assert_msg(text, "cannot disassemble %s", path);
   xe_module_free(m);
   return text;
}

void tu_spirv_val(const char *path)
{
   char *err = NULL;
   int rc = tu_sh(NULL, &err, "spirv-val '%s'", path);
   ck_assert_msg(rc == 0, "spirv-val rejects %s: %s", path, err ? err : "");
   free(err);
}

bool tu_have_igc(void)
{
   if (tu_have("ocloc") && tu_have("iga64"))
      return true;
   const char *req = getenv("XEOPT_REQUIRE_OCLOC");
   ck_assert_msg(!req || strcmp(req, "1"), "ocloc/iga64 required but missing");
   return false;
}

char *tu_ocloc26(void)
{
   const char *tc = getenv("XEOPT_TOOLCHAINS");
   char *dir = tc && *tc ? strdup(tc) : tu_src("build/toolchains"), *p;
   if (asprintf(&p, "%s/bin/ocloc-26", dir) < 0)
      abort();
   free(dir);
   if (access(p, X_OK) == 0)
      return p;
   free(p);
   const char *req = getenv("XEOPT_REQUIRE_OCLOC");
   ck_assert_msg(!req || strcmp(req, "1"), "ocloc-26 required (XEOPT_REQUIRE_OCLOC=1) but missing");
   return NULL;
}

void tu_ocloc(const char *path)
{
   if (!tu_have("ocloc")) {
      const char *req = getenv("XEOPT_REQUIRE_OCLOC");
      ck_assert_msg(!req || strcmp(req, "1"), "ocloc is required (XEOPT_REQUIRE_OCLOC=1) but missing");
      return;
   }
   static const char *devices[] = { "dg2", "pvc" };
   for (int d = 0; d < 2; d++) {
      char *dir = tu_tmp("ocloc");
      char *out = NULL;
      int rc = tu_sh(&out, NULL,
                     "rm -rf '%s' && mkdir -p '%s' && cd '%s' && ocloc compile -q -spirv_input "
                     "-file '%s' -device %s -output m",
                     dir, dir, dir, path, devices[d]);
      ck_assert_msg(rc == 0, "IGC (ocloc, %s) rejects %s: %s", devices[d], path, out ? out : "");
      free(out);
      free(dir);
   }
}

static int by_name(const void *a, const void *b)
{
   return strcmp(*(char *const *)a, *(char *const *)b);
}

int tu_list(const char *rel, const char *suffix, char **out, int max)
{
   char *dir = tu_src(rel);
   DIR *d = opendir(dir);
   struct dirent *e;
   int n = 0;
   size_t ls = strlen(suffix);
   while (d && (e = readdir(d)) && n < max) {
      size_t l = strlen(e->d_name);
      if (l > ls && !strcmp(e->d_name + l - ls, suffix) &&
          asprintf(&out[n++], "%s/%s", dir, e->d_name) < 0)
         abort();
   }
   if (d)
      closedir(d);
   free(dir);
   qsort(out, n, sizeof(*out), by_name);
   return n;
}

int tu_run_suite(Suite *s)
{
   SRunner *sr = srunner_create(s);
   srunner_run_all(sr, CK_NORMAL);
   int failed = srunner_ntests_failed(sr);
   srunner_free(sr);
   return failed;
}
