/*
 * Golden tests, driven by testdata/golden/NAME.cases files.  Each line is
 *
 *    NAME  INPUT  [xeopt arguments...]
 *
 * with INPUT relative to testdata/.  The test runs the xeopt binary with
 * --validate --verify --remarks and the arguments (so the reference
 * interpreter compares input and output on random launches, honouring the
 * manifest), then checks: exit status 0;
 * spirv-val accepts the output; the disassembly equals NAME.spvasm; the
 * remarks equal NAME.remarks; the manifest equals NAME.json when the golden
 * exists and is absent otherwise; and IGC compiles it (tu_ocloc).  Lines
 * starting with '#' are comments.  XEOPT_UPDATE_GOLDEN=1 rewrites goldens.
 */
#define _GNU_SOURCE
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

typedef struct gcase {
   char name[128];
   char input[256];
   char args[768];
} gcase;

static gcase cases[512];
static int ncases;

static void load_cases(void)
{
   char *dir = tu_src("testdata/golden");
   DIR *d = opendir(dir);
   if (!d)
      return;
   struct dirent *e;
   char *names[64];
   int nn = 0;
   while ((e = readdir(d)) && nn < 64) {
      size_t l = strlen(e->d_name);
      if (l > 6 && !strcmp(e->d_name + l - 6, ".cases"))
         names[nn++] = strdup(e->d_name);
   }
   closedir(d);
   for (int k = 0; k < nn; k++) {
      char *path;
      if (asprintf(&path, "%s/%s", dir, names[k]) < 0)
         abort();
      FILE *f = fopen(path, "r");
      char line[1024];
      while (f && fgets(line, sizeof(line), f) && ncases < 512) {
         line[strcspn(line, "\n")] = 0;
         if (!line[0] || line[0] == '#')
            continue;
         gcase *c = &cases[ncases];
         int off = 0;
         if (sscanf(line, "%127s %255s %n", c->name, c->input, &off) < 2)
            continue;
         snprintf(c->args, sizeof(c->args), "%s", line + off);
         ncases++;
      }
      if (f)
         fclose(f);
      free(path);
      free(names[k]);
   }
   free(dir);
}

static char *golden_path(const char *name, const char *ext)
{
   char *rel, *p;
   if (asprintf(&rel, "testdata/golden/%s.%s", name, ext) < 0)
      abort();
   p = tu_src(rel);
   free(rel);
   return p;
}

/* The manifest names the module by the output path given, which lies in
 * this build's scratch directory: keep only the file name. */
static void strip_dir(char *text, const char *path)
{
   const char *slash = strrchr(path, '/');
   if (!text || !slash)
      return;
   size_t n = (size_t)(slash - path + 1);
   for (char *p = strstr(text, path); p; p = strstr(p, path))
      memmove(p, p + n, strlen(p + n) + 1);
}

/* Remarks lines only (warnings and other stderr noise excluded). */
static char *remark_lines(const char *err)
{
   size_t n = strlen(err);
   char *out = calloc(n + 1, 1);
   const char *s = err;
   while (*s) {
      const char *e = strchr(s, '\n');
      size_t l = e ? (size_t)(e - s + 1) : strlen(s);
      if (!strncmp(s, "xeopt: remark: ", 15))
         strncat(out, s, l);
      s += l;
   }
   return out;
}

START_TEST(golden_case)
{
   gcase *c = &cases[_i];
   char *in_rel, *out_name, *man_name;
   if (asprintf(&in_rel, "testdata/%s", c->input) < 0 ||
       asprintf(&out_name, "%s.spv", c->name) < 0 || asprintf(&man_name, "%s.json", c->name) < 0)
      abort();
   char *in = tu_src(in_rel), *out = tu_tmp(out_name), *man = tu_tmp(man_name);
   unlink(man);
   char *err = NULL;
   int rc = tu_sh(NULL, &err, "%s --validate --verify --remarks %s '%s' -o '%s'", tu_xeopt(), c->args,
                  in, out);
   ck_assert_msg(rc == 0, "%s: xeopt exited %d: %s", c->name, rc, err ? err : "");
   tu_spirv_val(out);
   char *text = tu_disassemble_file(out);
   char *g = golden_path(c->name, "spvasm");
   tu_golden(g, text);
   free(g);
   char *rem = remark_lines(err);
   g = golden_path(c->name, "remarks");
   tu_golden(g, rem);
   free(g);
   g = golden_path(c->name, "json");
   char *manifest = tu_read(man, NULL);
   strip_dir(manifest, out);
   const char *upd = getenv("XEOPT_UPDATE_GOLDEN");
   if (manifest) {
      tu_golden(g, manifest);
   } else if (upd && !strcmp(upd, "1")) {
      unlink(g);
   } else {
      ck_assert_msg(access(g, F_OK) != 0, "%s: expected a manifest like %s", c->name, g);
   }
   tu_ocloc(out);
   free(manifest);
   free(g);
   free(rem);
   free(text);
   free(err);
   free(in);
   free(out);
   free(man);
   free(in_rel);
   free(out_name);
   free(man_name);
}
END_TEST

int main(void)
{
   load_cases();
   Suite *s = suite_create("golden");
   TCase *tc = tcase_create("cases");
   tcase_set_timeout(tc, 300);
   tcase_add_loop_test(tc, golden_case, 0, ncases);
   suite_add_tcase(s, tc);
   int failed = tu_run_suite(s);
   return ncases == 0 || failed ? 1 : 0;
}
