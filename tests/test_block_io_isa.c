/*
 * IGC evidence for block-io: compiles each golden input before and after
 * the pass for dg2 and pvc (tests/isa_counts.sh) and checks the data
 * messages: every converted access is a block message (dg2 oword block
 * read/write, pvc load/store.ugm.dNxMt) and no scattered message is left
 * for it; kernels the pass leaves alone compile to the same messages.
 * Skips when ocloc or iga64 is missing, unless XEOPT_REQUIRE_OCLOC=1.
 * Prints `| case | device | before | after |` rows (instructions sends
 * scattered block) for the report.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

typedef struct isa_case {
   const char *name, *input, *kernel, *args;
   int scattered_after;   /* -1: same as before (not converted) */
   int block_after[2];    /* dg2, pvc */
} isa_case;

/* Kernels that declare their work-group size: on pvc IGC 2.40 makes their
 * accesses block messages itself (igc_block), so with pvc a target the
 * model refuses these conversions; the judge here, ocloc 22.43, does not,
 * and compiles the converted module for both devices. */
#define NOT_PVC " --target=dg2,bmg,lnl,ptl"

static const isa_case cases[] = {
   /* Load-only conversions: the cost model refuses them for pvc (IGC keeps
    * both address forms there), so these ask for dg2 only. */
   { "copy", "sg_copy", "sg_copy", "--target=dg2", 1, { 1, 1 } },
   { "copy-aligned", "sg_copy", "sg_copy", "--assume-aligned" NOT_PVC, 0, { 2, 2 } },
   { "float", "sg_copy_float", "sg_copy_float", "--assume-aligned" NOT_PVC, 0, { 2, 2 } },
   /* The 2-D load's address depends on get_global_id(1): IGC computes it
    * per lane anyway and the conversion makes both devices worse (dg2 ISA
    * estimate 46 -> 49), so the model refuses it; --target=none checks the
    * conversion itself. */
   { "2d", "sg_copy_2d", "sg_copy_2d", "--assume-aligned --target=none", 1, { 1, 1 } },
   { "strided", "sg_strided", "sg_strided", "", -1, { -1, -1 } },
   /* SPIR-V 1.0 input: SubgroupSize raises it to 1.1; the load converts
    * (load-only: dg2 only, as above) */
   { "nosg", "sg_no_sgsize", "sg_no_sgsize", "--subgroup-size=16 --target=dg2", 1, { 1, 1 } },
   { "nosg-opted-in", "block_io_nosg11", "sg_no_sgsize",
     "--subgroup-size=16 --local-size=32 --assume-aligned", 0, { 2, 2 } },
   { "guarded", "sg_guarded", "sg_guarded", "--assume-aligned", -1, { -1, -1 } },
   /* one 8-wide block read: IGC splits it into 4 oword block reads on dg2,
    * 2 transposed loads on pvc */
   { "wide", "sg_wide", "sg_wide", "", 1, { 4, 2 } },
   { "loop", "block_io_loop", "block_io_loop", "--assume-aligned" NOT_PVC, 2, { 1, 1 } },
   { "wide-store", "block_io_wide_store", "block_io_wide_store", "", 2, { 2, 2 } },
   { "types", "block_io_types", "block_io_types", "--assume-aligned" NOT_PVC, 0, { 8, 8 } },
};
#define NCASES (int)(sizeof(cases) / sizeof(cases[0]))

typedef struct counts {
   int insts, sends, scattered, block;
} counts;

/* false when the tools are missing (skip). */
static bool measure(const char *spv, const char *dev, const char *kernel, counts *c)
{
   char *script = tu_src("tests/isa_counts.sh"), *out = NULL, *err = NULL;
   int rc = tu_sh(&out, &err, "'%s' '%s' %s %s", script, spv, dev, kernel);
   free(script);
   if (rc == 77) {
      const char *req = getenv("XEOPT_REQUIRE_OCLOC");
      ck_assert_msg(!req || strcmp(req, "1"), "ocloc/iga64 required but missing");
      free(out);
      free(err);
      return false;
   }
   ck_assert_msg(rc == 0, "isa_counts %s %s: %s", spv, dev, err ? err : "");
   ck_assert_int_eq(sscanf(out, "%d %d %d %d", &c->insts, &c->sends, &c->scattered, &c->block), 4);
   free(out);
   free(err);
   return true;
}

START_TEST(isa_case_test)
{
   const isa_case *k = &cases[_i];
   char *rel, *name, *err = NULL;
   if (asprintf(&rel, "testdata/spv/%s.spv", k->input) < 0 || asprintf(&name, "%s.spv", k->name) < 0)
      abort();
   char *in = tu_src(rel), *out = tu_tmp(name);
   int rc = tu_sh(NULL, &err, "'%s' --passes=block-io %s '%s' -o '%s'", tu_xeopt(), k->args, in, out);
   ck_assert_msg(rc == 0, "xeopt: %s", err ? err : "");
   static const char *devs[] = { "dg2", "pvc" };
   for (int d = 0; d < 2; d++) {
      counts b, a;
      if (!measure(in, devs[d], k->kernel, &b) || !measure(out, devs[d], k->kernel, &a))
         break;
      printf("| %s | %s | %d %d %d %d | %d %d %d %d |\n", k->name, devs[d], b.insts, b.sends,
             b.scattered, b.block, a.insts, a.sends, a.scattered, a.block);
      ck_assert_msg(b.block == 0, "%s/%s: the input already has block messages", k->name, devs[d]);
      if (k->scattered_after < 0) {
         ck_assert_int_eq(a.scattered, b.scattered);
         ck_assert_int_eq(a.block, b.block);
      } else {
         ck_assert_msg(a.scattered == k->scattered_after && a.block == k->block_after[d],
                       "%s/%s: after: %d scattered, %d block; expected %d, %d", k->name, devs[d],
                       a.scattered, a.block, k->scattered_after, k->block_after[d]);
      }
   }
   fflush(stdout);
   free(in);
   free(out);
   free(rel);
   free(name);
   free(err);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("block_io_isa");
   TCase *tc = tcase_create("isa");
   tcase_set_timeout(tc, 300);
   tcase_add_loop_test(tc, isa_case_test, 0, NCASES);
   suite_add_tcase(s, tc);
   SRunner *sr = srunner_create(s);
   srunner_set_fork_status(sr, CK_NOFORK);
   srunner_run_all(sr, CK_NORMAL);
   int failed = srunner_ntests_failed(sr);
   srunner_free(sr);
   return failed ? 1 : 0;
}
