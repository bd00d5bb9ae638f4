/*
 * IGC evidence for the padding pass: the guarded kernels compile to
 * divergent control flow (goto/join on Xe) and, after `-O2 --assume-padded`,
 * to none (fewer for a narrowed guard), on dg2 (Xe-HPG) and pvc (Xe-HPC).  Skipped when ocloc or iga64 is missing
 * unless XEOPT_REQUIRE_OCLOC=1.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static bool have_tools(void)
{
   if (tu_have("ocloc") && tu_have("iga64"))
      return true;
   const char *req = getenv("XEOPT_REQUIRE_OCLOC");
   ck_assert_msg(!req || strcmp(req, "1"), "ocloc/iga64 required (XEOPT_REQUIRE_OCLOC=1) but missing");
   return false;
}

/* Divergent-branch instructions in the ISA of kernel in module spv. */
static int branches(const char *spv, const char *kernel, const char *device, const char *platform,
                    int *ninst)
{
   char *dir = tu_tmp(device);
   char *isa = NULL;
   int rc = tu_sh(&isa, NULL,
                  "rm -rf '%s' && mkdir -p '%s' && cd '%s' && ocloc compile -q -spirv_input "
                  "-file '%s' -device %s -output m >/dev/null && ocloc disasm -file m_*%s*.bin "
                  "-dump d -device %s >/dev/null && iga64 -d -p=%s d/%s_KernelHeap.dat",
                  dir, dir, dir, spv, device, device, device, platform, kernel);
   ck_assert_msg(rc == 0 && isa, "ISA of %s for %s: status %d", spv, device, rc);
   int n = 0, lines = 0;
   for (char *s = isa; *s;) {
      char *e = strchr(s, '\n');
      if (e)
         *e = 0;
      /* An instruction line names its opcode after an optional predicate. */
      char op[32] = "";
      const char *p = s + strspn(s, " \t");
      if (*p == '(') {
         p = strchr(p, ')');
         p = p ? p + 1 + strspn(p + 1, " \t") : "";
      }
      /* "illegal" pads the kernel heap after the last instruction. */
      if (sscanf(p, "%31[a-z0-9_.]", op) == 1 && strcmp(op, "illegal")) {
         lines++;
         char *dot = strchr(op, '.');
         if (dot)
            *dot = 0;
         n += !strcmp(op, "goto") || !strcmp(op, "join") || !strcmp(op, "if") ||
              !strcmp(op, "else") || !strcmp(op, "endif");
      }
      s = e ? e + 1 : s + strlen(s);
   }
   *ninst = lines;
   free(isa);
   free(dir);
   return n;
}

/* Kernels (testdata/spv/NAME.spv, kernel NAME) and the divergent branches
 * their ISA may keep after -O2 --assume-padded (without versioning): none where the whole guard
 * goes; for padding_merged the guard stays on the atomic's branch. */
static const struct {
   const char *name;
   int max_after;
} kernels[] = {
   { "padding_copy", 0 },
   { "padding_early", 0 },
   { "padding_2d", 0 },
   { "padding_group", 0 },
   { "padding_merged", 2 },
};

START_TEST(guard_removal_removes_divergent_branches)
{
   if (!have_tools())
      return;
   const char *name = kernels[_i].name;
   char rel[128], outname[128];
   snprintf(rel, sizeof(rel), "testdata/spv/%s.spv", name);
   snprintf(outname, sizeof(outname), "%s_O2.spv", name);
   char *in = tu_src(rel), *out = tu_tmp(outname);
   char *err = NULL;
   /* The -O2 pipeline without subgroup-versioning: this measures the
    * guard removal (versioning then adds its own uniform branch, which
    * IGC 22.43 emits as a goto on dg2; test_versioning covers it). */
   int rc = tu_sh(NULL, &err, "'%s' --passes=generic-address,padding,block-io,loop-spec-constants,"
                  "private-arrays,interface-vars,block-order --assume-padded --validate '%s' -o '%s' "
                  "--manifest=/dev/null", tu_xeopt(), in, out);
   ck_assert_msg(rc == 0, "xeopt: %s", err ? err : "");
   static const char *dev[][2] = { { "dg2", "12p71" }, { "pvc", "12p72" } };
   for (int d = 0; d < 2; d++) {
      int ib, ia;
      int before = branches(in, name, dev[d][0], dev[d][1], &ib);
      int after = branches(out, name, dev[d][0], dev[d][1], &ia);
      fprintf(stderr, "%s %s: goto/join/if before %d (%d instructions), after %d (%d)\n", name,
              dev[d][0], before, ib, after, ia);
      /* The input really branches, or the test proves nothing. */
      ck_assert_int_gt(before, 0);
      ck_assert_int_le(after, kernels[_i].max_after);
      ck_assert_int_lt(after, before);
      /* Fewer instructions too when the whole guard went; a narrowed
       * guard adds the `&&` and runs the copy unguarded (it pays off with
       * block loads, not by itself). */
      if (kernels[_i].max_after == 0)
         ck_assert_int_lt(ia, ib);
   }
   free(err);
   free(in);
   free(out);
}
END_TEST

/* Every padding golden manifest validates against docs/manifest.schema.json
 * (skipped without python3-jsonschema), and the schema rejects a term with
 * an unknown launch quantity, so the check is not vacuous. */
START_TEST(golden_manifests_match_schema)
{
   if (tu_sh(NULL, NULL, "python3 -c 'import jsonschema' 2>/dev/null") != 0)
      return;
   char *schema = tu_src("docs/manifest.schema.json"), *dir = tu_src("testdata/golden");
   static const char script[] =
      "import glob, json, sys, jsonschema\n"
      "s = json.load(open(sys.argv[1]))\n"
      "v = jsonschema.Draft202012Validator(s)\n"
      "files = sorted(glob.glob(sys.argv[2] + '/padding*.json'))\n"
      "assert files, 'no padding manifests'\n"
      "for f in files:\n"
      "    v.validate(json.load(open(f)))\n"
      "m = json.load(open(files[0]))\n"
      "k = next(iter(m['kernels'].values()))['padding']\n"
      "b = [e for e in k if e['kind'] == 'buffer'][0]\n"
      "b['min_elements']['terms'][0]['launch'] = 'global_sz'\n"
      "assert not v.is_valid(m), 'schema accepts a bad launch quantity'\n";
   char *py = tu_tmp("schema_check.py"), *out = NULL, *err = NULL;
   tu_write(py, script, strlen(script));
   int rc = tu_sh(&out, &err, "python3 '%s' '%s' '%s'", py, schema, dir);
   ck_assert_msg(rc == 0, "schema check failed: %s", err ? err : "");
   free(out);
   free(err);
   free(py);
   free(schema);
   free(dir);
}
END_TEST

/* The manifest of an opted-in run goes when a later run with other
 * options changes no contract: it would describe another module.  A file
 * that is not our manifest for this output stays. */
START_TEST(stale_manifest_removed)
{
   char *in = tu_src("testdata/spv/padding_copy.spv"), *out = tu_tmp("stale.spv");
   char *json = tu_tmp("stale.json"), *err = NULL;
   ck_assert_int_eq(tu_sh(NULL, NULL, "rm -f '%s' && %s -O2 --assume-padded '%s' -o '%s' && test -s '%s'",
                          json, tu_xeopt(), in, out, json), 0);
   ck_assert_int_eq(tu_sh(NULL, &err, "%s -O2 '%s' -o '%s'", tu_xeopt(), in, out), 0);
   char *want;
   if (asprintf(&want, "xeopt: note: %s: removed: a manifest of an earlier run; this run changed "
                       "no host contract\n", json) < 0)
      abort();
   ck_assert_str_eq(err, want);
   ck_assert_int_ne(tu_sh(NULL, NULL, "test -e '%s'", json), 0);
   free(err);
   tu_write(json, "{\"mine\": 1}", 11);
   ck_assert_int_eq(tu_sh(NULL, &err, "%s -O2 '%s' -o '%s'", tu_xeopt(), in, out), 0);
   ck_assert_str_eq(err, "");
   ck_assert_int_eq(tu_sh(NULL, NULL, "grep -q mine '%s'", json), 0);
   free(err);
   free(want);
   free(in);
   free(out);
   free(json);
}
END_TEST

/* Nothing is written beside an output that is no regular file: with -o
 * /dev/null the manifest went to /dev/null.json.  A FIFO stands in for the
 * device (the test may not run as root). */
START_TEST(no_manifest_beside_a_stream)
{
   char *in = tu_src("testdata/spv/padding_copy.spv"), *fifo = tu_tmp("stream.spv");
   char *json = tu_tmp("stream.json"), *err = NULL;
   int rc = tu_sh(NULL, &err, "rm -f '%s' '%s' && mkfifo '%s' && (cat '%s' > /dev/null &) && "
                              "%s -O2 --assume-padded '%s' -o '%s'",
                  fifo, json, fifo, fifo, tu_xeopt(), in, fifo);
   ck_assert_int_eq(rc, 0);
   ck_assert_int_ne(tu_sh(NULL, NULL, "test -e '%s'", json), 0);
   ck_assert_msg(strstr(err, "the output is not a regular file: give --manifest=FILE"),
                 "no warning: %s", err);
   free(err);
   free(in);
   free(fifo);
   free(json);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("padding");
   TCase *tc = tcase_create("isa");
   tcase_set_timeout(tc, 300);
   tcase_add_loop_test(tc, guard_removal_removes_divergent_branches, 0,
                       sizeof(kernels) / sizeof(kernels[0]));
   tcase_add_test(tc, golden_manifests_match_schema);
   tcase_add_test(tc, stale_manifest_removed);
   tcase_add_test(tc, no_manifest_beside_a_stream);
   suite_add_tcase(s, tc);
   return tu_run_suite(s) ? 1 : 0;
}
