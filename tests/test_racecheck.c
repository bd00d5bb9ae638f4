/*
 * Race detection (src/exec/race.c): kernels written to race are reported by
 * `xeopt run --racecheck` with the exact message and exit status 1;
 * barrier-ordered local memory, a sub-group barrier, an atomic counter and
 * uniform writes are not races; --verify skips a launch the input races on
 * and reports a race only the output has; and on every module the golden
 * tests run, the only kernels whose --verify launches race are the ones
 * listed here, which really are racy.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"

static char *race_spv(void) { return tu_src("testdata/spv/race.spv"); }

/* Runs `xeopt run race.spv --kernel K ARGS --racecheck`; returns the exit
 * status, *err the standard error. */
static int run_k(const char *kernel, const char *args, char **out, char **err)
{
   char *spv = race_spv();
   int rc = tu_sh(out, err, "%s run '%s' --kernel %s %s --racecheck", tu_xeopt(), spv, kernel, args);
   free(spv);
   return rc;
}

START_TEST(store_race_reported)
{
   char *err = NULL;
   int rc = run_k("race_store", "--global 64 --local 16 --arg 0=buf:int:64", NULL, &err);
   ck_assert_int_eq(rc, 1);
   ck_assert_msg(strstr(err, "xeopt run: kernel race_store: data race (write-write) at argument 0 byte 0: "
                             "OpStore in block %15 by work-item (0,0,0) and OpStore in block %15 by "
                             "work-item (1,0,0)\n"), "%s", err);
   ck_assert_msg(strstr(err, "xeopt run: 1 data race\n"), "%s", err);
   free(err);
   /* Without --racecheck the same run succeeds. */
   char *spv = race_spv();
   rc = tu_sh(NULL, NULL, "%s run '%s' --kernel race_store --global 64 --local 16 --arg 0=buf:int:64",
              tu_xeopt(), spv);
   ck_assert_int_eq(rc, 0);
   free(spv);
}
END_TEST

START_TEST(group_race_reported)
{
   char *err = NULL;
   int rc = run_k("race_groups", "--global 64 --local 16 --arg 0=buf:int:64", NULL, &err);
   ck_assert_int_eq(rc, 1);
   ck_assert_msg(strstr(err, "kernel race_groups: data race (write-write) at argument 0 byte 0: "
                             "OpStore in block %24 by work-item (0,0,0) and OpStore in block %24 by "
                             "work-item (16,0,0)\n"), "%s", err);
   free(err);
}
END_TEST

START_TEST(local_barrier_not_a_race)
{
   char *out = NULL, *err = NULL;
   int rc = run_k("local_ordered", "--global 32 --local 16 --arg 0=buf:int:32 --arg 1=local:64", &out, &err);
   ck_assert_msg(rc == 0, "%s", err);
   ck_assert_msg(strstr(err, "xeopt run: 0 data races\n"), "%s", err);
   ck_assert_msg(strstr(out, "arg 0 (int[32]): 15 14 13 12"), "%s", out);
   free(out);
   free(err);
   /* The same kernel without its barrier races. */
   rc = run_k("local_unordered", "--global 32 --local 16 --arg 0=buf:int:32 --arg 1=local:64", NULL, &err);
   ck_assert_int_eq(rc, 1);
   ck_assert_msg(strstr(err, "kernel local_unordered: data race (read-write) at local argument 1 byte 32: "
                             "OpLoad %68 by work-item (7,0,0) and OpStore in block %56 by work-item (8,0,0)\n"),
                 "%s", err);
   free(err);
}
END_TEST

START_TEST(subgroup_barrier_not_a_race)
{
   char *out = NULL, *err = NULL;
   int rc = run_k("subgroup_ordered", "--global 32 --arg 0=buf:int:32 --arg 1=local:64", &out, &err);
   ck_assert_msg(rc == 0, "%s", err);
   ck_assert_msg(strstr(out, "arg 0 (int[32]): 1 0 3 2 5 4"), "%s", out);
   free(out);
   free(err);
}
END_TEST

START_TEST(block_write_lanes)
{
   /* Lanes of one block write are separate work-items: two sub-groups
    * writing one block race, lane 0 with lane 0. */
   char *err = NULL;
   int rc = run_k("block_write_race", "--global 32 --arg 0=buf:uint:16", NULL, &err);
   ck_assert_int_eq(rc, 1);
   ck_assert_msg(strstr(err, "data race (write-write) at argument 0 byte 0: OpSubgroupBlockWriteINTEL in "
                             "block %92 by work-item (0,0,0) and OpSubgroupBlockWriteINTEL in block %92 by "
                             "work-item (16,0,0)\n"), "%s", err);
   free(err);
}
END_TEST

START_TEST(atomic_counter_not_a_race)
{
   char *out = NULL, *err = NULL;
   int rc = run_k("atomic_count", "--global 64 --local 16 --arg 0=buf:int:1", &out, &err);
   ck_assert_msg(rc == 0, "%s", err);
   ck_assert_msg(strstr(out, "arg 0 (int[1]): 64\n"), "%s", out);
   free(out);
   free(err);
}
END_TEST

START_TEST(verify_output_only_race)
{
   /* race_fixed.spv's race_store writes out[i]; race.spv's writes out[i/2]:
    * as an "optimized" module it races where its input does not. */
   char *a = tu_src("testdata/spv/race_fixed.spv"), *b = race_spv(), *err = NULL;
   int rc = tu_sh(NULL, &err, "%s run --compare '%s' '%s'", tu_xeopt(), a, b);
   ck_assert_int_eq(rc, 1);
   ck_assert_msg(strstr(err, "kernel race_store: the optimized module races where the input does not: "
                             "kernel race_store: data race (write-write)"), "%s", err);
   free(err);
   /* The other way round the input races on every size tried: every
    * launch is skipped. */
   rc = tu_sh(NULL, &err, "%s run --compare '%s' '%s'", tu_xeopt(), b, a);
   ck_assert_msg(strstr(err, "note: kernel race_store: launch 1 skipped, the input fails on every "
                             "variant tried: the input races on it: "
                             "kernel race_store: data race (write-write) at argument 0 byte 0"), "%s", err);
   ck_assert_msg(strstr(err, "kernel race_store NOT verified: no launch was valid for the input"), "%s", err);
   free(err);
   free(a);
   free(b);
}
END_TEST

/* Golden kernels that race on some sizes: generic_address_memcpy (every
 * group copies its tile to dst[n..2n)), padding_out0 (every work-item with
 * i < n stores out[0]) and padding_shift (a[i + 1] = a[i]).  --verify
 * retries them with other sizes until a launch does not race (n = 1), so
 * no golden kernel is left unverified because of a race. */
START_TEST(goldens_race_free)
{
   /* Every module a .cases line runs, with --verify's launches (-O0: the
    * output is the input, so only input races can show). */
   char *dir = tu_src("testdata/golden"), *list = NULL;
   tu_sh(&list, NULL, "cd '%s' && grep -hv '^#' *.cases | awk 'NF { print $2 }' | sort -u", dir);
   ck_assert(list && *list);
   int n = 0;
   for (char *l = list, *e; l && *l; l = e ? e + 1 : NULL) {
      if ((e = strchr(l, '\n'))) *e = 0;
      char *rel, *path, *out = tu_tmp("g.spv"), *err = NULL;
      if (asprintf(&rel, "testdata/%s", l) < 0) abort();
      path = tu_src(rel);
      int rc = tu_sh(NULL, &err, "%s -O0 --verify '%s' -o '%s'", tu_xeopt(), path, out);
      ck_assert_msg(rc == 0, "%s: %s", l, err);
      n++;
      ck_assert_msg(!strstr(err, "the input races on it"), "%s: %s", l, err);
      free(err);
      free(path);
      free(rel);
      free(out);
   }
   ck_assert_int_gt(n, 30);
   free(list);
   free(dir);
}
END_TEST

/* The race those retries avoid is real: padding_shift with n = 64 over 64
 * work-items has work-item i store a[i + 1] while work-item i + 1 loads it. */
START_TEST(golden_shift_races)
{
   char *spv = tu_src("testdata/spv/padding_stay.spv"), *err = NULL;
   int rc = tu_sh(NULL, &err, "%s run '%s' --kernel padding_shift --global 64 --local 16 "
                  "--arg 0=buf:float:65 --arg 1=int:64 --racecheck", tu_xeopt(), spv);
   ck_assert_int_eq(rc, 1);
   ck_assert_msg(strstr(err, "kernel padding_shift: data race (read-write) at argument 0 byte 4"), "%s",
                 err);
   free(err);
   free(spv);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("racecheck");
   TCase *tc = tcase_create("racecheck");
   tcase_set_timeout(tc, 900);
   tcase_add_test(tc, store_race_reported);
   tcase_add_test(tc, group_race_reported);
   tcase_add_test(tc, local_barrier_not_a_race);
   tcase_add_test(tc, subgroup_barrier_not_a_race);
   tcase_add_test(tc, block_write_lanes);
   tcase_add_test(tc, atomic_counter_not_a_race);
   tcase_add_test(tc, verify_output_only_race);
   tcase_add_test(tc, goldens_race_free);
   tcase_add_test(tc, golden_shift_races);
   suite_add_tcase(s, tc);
   return tu_run_suite(s);
}
