/*
 * subgroup-versioning: the fast copy runs only where its test holds.
 *
 * guarded_copy (`if (i < n) dst[i] = src[i]`, SPIR-V 1.0, no sub-group or
 * local size) goes through -O2 --target=none (the cost model refuses this
 * small copy by default: golden versioning-guarded-model; here the
 * transformation itself is under test); the output must validate, compile
 * with IGC, and compute exactly what the input computes (xeopt run on both
 * modules, buffers compared byte for byte) on launches where some
 * sub-group must take the original code: the guard fails in some lanes of
 * a sub-group (buffers exactly n elements long, so a lane past n that
 * block-reads or -writes goes out of bounds), partial sub-groups (local
 * size not a multiple of the sub-group size), sub-group sizes 8, 16 and 32,
 * and a global offset of 1 (every sub-group's base misaligned for a block
 * write).
 *
 * The mutation check shows the launches can fail: the same output with
 * the sub-group reduction replaced by the maximum sub-group size (the test
 * always passes) must fail or differ on the guard launch.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

typedef struct launch {
   const char *what;
   unsigned global, local, sg, offset, n;
} launch;

static const launch launches[] = {
   { "guard fails in lanes 5..15 of the third sub-group", 48, 16, 16, 0, 37 },
   { "every lane passes", 64, 16, 16, 0, 64 },
   { "partial sub-groups (local 24, SG 16)", 48, 24, 16, 0, 48 },
   { "SG 8, guard fails mid sub-group", 40, 8, 8, 0, 35 },
   { "SG 32, partial sub-group and guard", 96, 48, 32, 0, 90 },
   { "global offset 1: no 16-byte aligned base", 48, 16, 16, 1, 49 },
};
#define NLAUNCH (int)(sizeof(launches) / sizeof(launches[0]))

static char *out_module(void)
{
   char *in = tu_src("testdata/spv/guarded_copy.spv"), *out = tu_tmp("gc_v.spv"), *err = NULL, *rem = NULL;
   int rc = tu_sh(&rem, &err, "'%s' -O2 --target=none --validate --remarks '%s' -o '%s' 2>&1", tu_xeopt(), in, out);
   ck_assert_msg(rc == 0, "xeopt: %s", rem ? rem : "");
   ck_assert_msg(rem && strstr(rem, "[subgroup-versioning] applied: versioned the region guarded by %cmp"),
                 "no versioning remark: %s", rem ? rem : "");
   free(in);
   free(rem);
   free(err);
   return out;
}

/* Runs kernel guarded_copy of module on launch l; dst goes to *dst
 * (malloc'd, n ints).  Returns xeopt run's exit status. */
static int run(const char *module, const launch *l, const char *tag, char **dst, size_t *len)
{
   char *dir = tu_tmp(tag), *err = NULL;
   tu_sh(NULL, NULL, "mkdir -p '%s'", dir);
   int rc = tu_sh(NULL, &err,
                  "'%s' run '%s' --kernel guarded_copy --global %u --local %u --subgroup-size %u "
                  "--offset %u --arg 0=buf:int:%u:zero --arg 1=buf:int:%u:iota --arg 2=int:%u --dump '%s'",
                  tu_xeopt(), module, l->global, l->local, l->sg, l->offset, l->n, l->n, l->n, dir);
   char *path;
   if (asprintf(&path, "%s/arg0.bin", dir) < 0)
      abort();
   *dst = rc == 0 ? tu_read(path, len) : NULL;
   free(path);
   free(dir);
   free(err);
   return rc;
}

START_TEST(fast_copy_only_where_tested)
{
   char *out = out_module();
   char *in = tu_src("testdata/spv/guarded_copy.spv");
   const launch *l = &launches[_i];
   char *a = NULL, *b = NULL, ta[32], tb[32];
   size_t na = 0, nb = 0;
   snprintf(ta, sizeof(ta), "in%d", _i);
   snprintf(tb, sizeof(tb), "out%d", _i);
   ck_assert_msg(run(in, l, ta, &a, &na) == 0, "%s: the input fails", l->what);
   ck_assert_msg(run(out, l, tb, &b, &nb) == 0, "%s: the output fails", l->what);
   ck_assert_msg(na == nb && na == l->n * 4u && !memcmp(a, b, na), "%s: results differ", l->what);
   free(a);
   free(b);
   free(in);
   free(out);
}
END_TEST

START_TEST(mutated_test_is_caught)
{
   char *out = out_module(), *text = NULL, *err = NULL;
   tu_spirv_val(out);
   tu_ocloc(out);
   char *asm_path = tu_tmp("mut.spvasm"), *mut = tu_tmp("mut.spv");
   /* The reduction replaced by the maximum sub-group size: every sub-group
    * takes the fast copy. */
   int rc = tu_sh(&text, &err, "spirv-dis --raw-id '%s' | sed -E "
                  "'s/OpGroupIAdd (%%[0-9]+) (%%[0-9]+) Reduce %%[0-9]+/OpLoad \\1 %%MAXV/' > '%s' && "
                  "grep -c OpGroupIAdd '%s' || true", out, asm_path, asm_path);
   ck_assert_int_eq(rc, 0);
   /* %MAXV: the SubgroupMaxSize variable (the one decorated BuiltIn SubgroupMaxSize). */
   free(text);
   free(err);
   err = NULL;
   rc = tu_sh(&text, &err, "v=$(grep -E 'OpDecorate %%[0-9]+ BuiltIn SubgroupMaxSize' '%s' | awk '{print $2}') && "
              "sed -i \"s/%%MAXV/$v/\" '%s' && spirv-as --target-env spv1.1 '%s' -o '%s'",
              asm_path, asm_path, asm_path, mut);
   ck_assert_msg(rc == 0, "mutation: %s", err ? err : "");
   char *a = NULL, *b = NULL, *in = tu_src("testdata/spv/guarded_copy.spv");
   size_t na = 0, nb = 0;
   ck_assert_int_eq(run(in, &launches[0], "min", &a, &na), 0);
   int mr = run(mut, &launches[0], "mmut", &b, &nb);
   ck_assert_msg(mr != 0 || na != nb || memcmp(a, b, na),
                 "the always-fast mutant computes the same results: the launch tests nothing");
   free(a);
   free(b);
   free(in);
   free(text);
   free(err);
   free(asm_path);
   free(mut);
   free(out);
}
END_TEST

/* priv_len64 reads in[i * 64 + k]: lanes 64 elements apart, so the
 * contiguity test would fail in every sub-group of a launch where lanes are
 * consecutive global ids.  The load is not a candidate even without the
 * cost model (--target=none); with it (the default) the kernel is left as
 * it was, since one block write does not pay for the test. */
START_TEST(strided_load_not_a_candidate)
{
   char *in = tu_src("testdata/spv/priv_len64.spv"), *out = tu_tmp("p64.spv"), *err = NULL;
   ck_assert_int_eq(tu_sh(NULL, &err, "%s -O2 --target=none --remarks '%s' -o '%s'", tu_xeopt(), in,
                          out), 0);
   ck_assert_msg(strstr(err, "[subgroup-versioning] missed: load via %arrayidx6 stays per-lane: its "
                             "address does not move by one element per lane (the run-time test "
                             "could never pass)"), "%s", err);
   free(err);
   ck_assert_int_eq(tu_sh(NULL, &err, "%s -O2 --remarks '%s' -o '%s'", tu_xeopt(), in, out), 0);
   ck_assert_msg(!strstr(err, "versioned the kernel body"), "%s", err);
   ck_assert_msg(strstr(err, "[subgroup-versioning] missed: no fast copy of the kernel body: the cost "
                             "model says slower"), "%s", err);
   free(err);
   free(in);
   free(out);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("versioning");
   TCase *tc = tcase_create("versioning");
   tcase_set_timeout(tc, 300);
   tcase_add_loop_test(tc, fast_copy_only_where_tested, 0, NLAUNCH);
   tcase_add_test(tc, mutated_test_is_caught);
   tcase_add_test(tc, strided_load_not_a_candidate);
   suite_add_tcase(s, tc);
   return tu_run_suite(s) ? 1 : 0;
}
