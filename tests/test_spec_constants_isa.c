/*
 * What IGC makes of loop-spec-constants' output, from its ISA (dg2, pvc):
 *
 *  - unspecialized (flag false) the sum kernel compiles to the same size as
 *    the input, within a few instructions, and keeps its loop;
 *  - `--specialize sum:inner=16` compiles without any control flow (fully
 *    unrolled), within a few instructions of the same kernel written with
 *    a literal 16 (sum16).
 *
 * Skips when ocloc or iga64 is missing unless XEOPT_REQUIRE_OCLOC=1.
 */
#define _GNU_SOURCE
#include <check.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* "A few instructions": the select itself and a move or two around it. */
#define SLACK 4

typedef struct isa_stats {
   unsigned insts;
   unsigned control;   /* goto, join, jmpi, while, brc, brd, break, cont */
} isa_stats;

static const struct device {
   const char *name, *platform;
} devices[] = { { "dg2", "12p71" }, { "pvc", "12p72" } };

static isa_stats count(const char *isa)
{
   static const char *cf[] = { "goto", "join", "jmpi", "while", "brc", "brd", "break", "cont" };
   isa_stats s = { 0, 0 };
   for (const char *l = isa; l && *l;) {
      const char *e = strchr(l, '\n');
      size_t n = e ? (size_t)(e - l) : strlen(l);
      const char *p = l;
      while (p < l + n && isspace((unsigned char)*p))
         p++;
      if (p < l + n && *p == '(') { /* predicate or (W) */
         while (p < l + n && *p != ')')
            p++;
         p++;
         while (p < l + n && isspace((unsigned char)*p))
            p++;
      }
      if (p < l + n && islower((unsigned char)*p)) {
         s.insts++;
         size_t w = strcspn(p, " .(\n");
         for (unsigned k = 0; k < sizeof(cf) / sizeof(cf[0]); k++)
            s.control += strlen(cf[k]) == w && !strncmp(p, cf[k], w);
      }
      l += n + (e != NULL);
   }
   return s;
}

static isa_stats isa_of(const char *spv, const char *kernel, const struct device *d)
{
   char *dir = tu_tmp(d->name), *isa = NULL, *err = NULL;
   int rc = tu_sh(&isa, &err,
                  "rm -rf '%s' && mkdir -p '%s' && cd '%s' && "
                  "ocloc compile -q -spirv_input -file '%s' -device %s -output m >/dev/null && "
                  "ocloc disasm -file m_*.bin -dump dd -device %s >/dev/null && "
                  "iga64 -d -p=%s dd/%s_KernelHeap.dat",
                  dir, dir, dir, spv, d->name, d->name, d->platform, kernel);
   ck_assert_msg(rc == 0, "%s (%s): ISA failed: %s", spv, d->name, err ? err : "");
   isa_stats s = count(isa);
   ck_assert_msg(s.insts > 10, "%s (%s): no ISA read", spv, d->name);
   free(isa);
   free(err);
   free(dir);
   return s;
}

static bool have_tools(void)
{
   if (tu_have("ocloc") && tu_have("iga64"))
      return true;
   const char *req = getenv("XEOPT_REQUIRE_OCLOC");
   ck_assert_msg(!req || strcmp(req, "1"), "ocloc/iga64 required (XEOPT_REQUIRE_OCLOC=1)");
   return false;
}

static char *optimize(const char *name, const char *args)
{
   char *in = tu_src("testdata/spv/loop_spec_constants_sum.spv"), *out = tu_tmp(name), *err = NULL;
   /* -O2 without subgroup-versioning: this measures the spec constants
    * (versioning would add a second copy of the loop). */
   int rc = tu_sh(NULL, &err, "'%s' --passes=generic-address,padding,block-io,loop-spec-constants,"
                  "private-arrays,interface-vars,block-order %s '%s' -o '%s'", tu_xeopt(), args, in, out);
   ck_assert_msg(rc == 0, "xeopt: %s", err ? err : "");
   free(err);
   free(in);
   return out;
}

START_TEST(unspecialized_same_size)
{
   if (!have_tools())
      return;
   const struct device *d = &devices[_i];
   char *in = tu_src("testdata/spv/loop_spec_constants_sum.spv");
   char *out = optimize("flag_false.spv", "");
   isa_stats a = isa_of(in, "sum", d), b = isa_of(out, "sum", d);
   fprintf(stderr, "%s: sum input %u instructions (%u control flow), flag false %u (%u)\n",
           d->name, a.insts, a.control, b.insts, b.control);
   ck_assert_msg(a.control > 0, "%s: the input has no loop control flow", d->name);
   ck_assert_msg(b.control > 0, "%s: the unspecialized output lost its loop", d->name);
   ck_assert_msg(b.insts <= a.insts + SLACK && a.insts <= b.insts + SLACK,
                 "%s: %u instructions against %u in the input", d->name, b.insts, a.insts);
   free(in);
   free(out);
}
END_TEST

START_TEST(specialized_unrolled)
{
   if (!have_tools())
      return;
   const struct device *d = &devices[_i];
   char *lit = tu_src("testdata/spv/loop_spec_constants_sum16.spv");
   char *out = optimize("inner16.spv", "--specialize=sum:inner=16");
   isa_stats a = isa_of(lit, "sum16", d), b = isa_of(out, "sum", d);
   fprintf(stderr, "%s: literal 16 %u instructions (%u control flow), specialized %u (%u)\n",
           d->name, a.insts, a.control, b.insts, b.control);
   ck_assert_msg(a.control == 0, "%s: IGC did not unroll the literal-16 kernel", d->name);
   ck_assert_msg(b.control == 0, "%s: the specialized kernel still has %u control-flow "
                 "instructions", d->name, b.control);
   ck_assert_msg(b.insts <= a.insts + SLACK && a.insts <= b.insts + SLACK,
                 "%s: %u instructions against %u with a literal 16", d->name, b.insts, a.insts);
   free(lit);
   free(out);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("spec_constants_isa");
   TCase *tc = tcase_create("igc");
   tcase_set_timeout(tc, 300);
   unsigned nd = sizeof(devices) / sizeof(devices[0]);
   tcase_add_loop_test(tc, unspecialized_same_size, 0, nd);
   tcase_add_loop_test(tc, specialized_unrolled, 0, nd);
   suite_add_tcase(s, tc);
   return tu_run_suite(s) ? 1 : 0;
}
