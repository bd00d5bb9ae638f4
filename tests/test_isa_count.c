/*
 * Counting IGC's ISA (src/driver/isa_count.c), which --isa-check judges by:
 *  - a hand-made dg2 listing in iga64's syntax, with the cases the data
 *    flow must tell apart: an a64 message whose address comes from the
 *    hardware thread id sr0 is private, one whose address comes from a
 *    kernel argument is scattered; the prologue's argument loads (computed
 *    from r0.0 & 0xFFFFFFC0) are not classified; a predicated write adds
 *    to a register's tags, a plain one replaces them; loop bodies, fences
 *    and the heap's trailing padding;
 *  - the same listing must give the same numbers from bench/isa's Python
 *    counter (so the two cannot drift apart silently);
 *  - IGC's real output for testdata modules, dg2 and pvc, counted by both
 *    (needs ocloc and iga64; skipped without them unless
 *    XEOPT_REQUIRE_OCLOC=1).
 */
#define _GNU_SOURCE
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa_check.h"
#include "isa_count.h"
#include "testutil.h"

static const char listing[] =
   "L0:\n"
   "(W)     and (1|M0)               r127.2<1>:ud  r0.0<0;1,0>:ud    0xFFFFFFC0:ud\n"
   "(W)     send.dc0 (8|M0)          r1       r127    null:0  0x0            0x024844FD           {A@1,$0} // wr:1h+0, rd:4; oword aligned block read x8\n"
   "(W)     and (1|M0)               r5.0<1>:ud    sr0.0<0;1,0>:ud   16383:w               {A@1}\n"
   "        mul (16|M0)              r10.0<1>:d    r5.0<0;1,0>:d     64:w\n"
   "        mov (16|M0)              r24.0<2>:ud   r10.0<1;1,0>:ud\n"
   "        send.dc1 (16|M0)         null     r24     r64:8   0x0            0x080699FF           {A@1,$3} // wr:4+8, rd:0; a64 dword scattering write\n"
   "        mov (16|M0)              r40.0<1>:ud   r3.0<0;1,0>:ud\n"
   "        send.dc1 (16|M0)         r2       r40     null:0  0x0            0x082411FF           {$5} // wr:4+0, rd:2; a64 dword gathering read\n"
   "        send.dc1 (16|M0)         r28      r8      null:0  0x0            0x04805000           {$11} // wr:2+0, rd:8; untyped surface read with xyzw\n"
   "L1:\n"
   "        add (16|M0)              r12.0<1>:d    r12.0<1;1,0>:d    1:w\n"
   "(f0.0)  mov (16|M0)              r40.0<1>:ud   r10.0<1;1,0>:ud\n"
   "(W&f0.0) jmpi                   L1\n"
   "        send.dc1 (16|M0)         r2       r40     null:0  0x0            0x082411FF           {$5} // wr:4+0, rd:2; a64 dword gathering read\n"
   "        mov (16|M0)              r40.0<1>:ud   0x0:ud\n"
   "        send.dc1 (16|M0)         r2       r40     null:0  0x0            0x082411FF           {$5} // wr:4+0, rd:2; a64 dword gathering read\n"
   "        send.dc0 (16|M0)         r3       r1      null:0  0x0            0x0219E000           {$6} // wr:1+0, rd:1; fence\n"
   "        send.ugm (16|M0)         r6       r7      null:0  0x0            0x0           {$7} // load.ugm.d32x16t.a64\n"
   "        send.ugm (16|M0)         r8       r9      null:0  0x0            0x0           {$8} // load.ugm.d32.a32.ss[a0.2]\n"
   "(W)     send.gtwy (8|M0)         null     r112    null:0  0x0            0x02000010           {EOT,A@1} // wr:1+0, rd:0; end of thread\n"
   "        nop\n"
   "        illegal\n";

/* Expected: 19 instructions (labels and the nop/illegal tail are not);
 * 10 sends; the sr0-derived write and the predicated-tainted read are
 * private, so is the ss[ load; the argument-derived gather, the surface
 * read and the gather after the plain overwrite are scattered; the
 * transposed LSC load is block; the loop L1 -> jmpi is 3 instructions. */
static const xe_isa_counts expected = {
   .instructions = 19, .sends = 10, .scattered = 3, .block = 1, .priv = 3, .loop = 3,
};

static void assert_counts(const char *what, const xe_isa_counts *a, const xe_isa_counts *b)
{
   ck_assert_msg(!memcmp(a, b, sizeof(*a)),
                 "%s: instructions %u/%u sends %u/%u scattered %u/%u block %u/%u private %u/%u loop %u/%u "
                 "simd %u/%u",
                 what, a->instructions, b->instructions, a->sends, b->sends, a->scattered, b->scattered,
                 a->block, b->block, a->priv, b->priv, a->loop, b->loop, a->simd, b->simd);
}

START_TEST(listing_counts)
{
   char *text = strdup(listing);
   xe_isa_counts c;
   ck_assert(xe_isa_count(XE_DEV_DG2, text, &c));
   assert_counts("C counter", &c, &expected);
   free(text);
}
END_TEST

/* bench/isa's counts of an iga64 listing file, "instructions sends
 * scattered block private loop", through its analyze(), and kernel's SIMD
 * width from the PTM.txt at ptm through its ptm_simd() (0 without one). */
static bool bench_counts(const char *asm_path, enum xe_device d, const char *ptm, const char *kernel,
                         xe_isa_counts *c)
{
   char *isa = tu_src("bench/isa"), *out = NULL;
   int rc = tu_sh(&out, NULL,
                  "python3 -c 'import importlib.machinery as m, sys\n"
                  "b = m.SourceFileLoader(\"isa\", sys.argv[1]).load_module()\n"
                  "s = b.analyze(open(sys.argv[2]).read(), int(sys.argv[3]))\n"
                  "w = b.ptm_simd(open(sys.argv[4]).read()).get(sys.argv[5], 0) if sys.argv[4] else 0\n"
                  "print(s[\"instructions\"], s[\"sends\"], s[\"scattered\"], s[\"block\"], s[\"private\"], s[\"loop\"], w)' "
                  "'%s' '%s' %d '%s' '%s'",
                  isa, asm_path, d == XE_DEV_PVC ? 64 : 32, ptm ? ptm : "", kernel ? kernel : "");
   memset(c, 0, sizeof(*c));
   bool ok = rc == 0 && out &&
             sscanf(out, "%u %u %u %u %u %u %u", &c->instructions, &c->sends, &c->scattered, &c->block,
                    &c->priv, &c->loop, &c->simd) == 7;
   free(isa);
   free(out);
   return ok;
}

START_TEST(listing_matches_bench_isa)
{
   char *path = tu_tmp("listing.asm");
   tu_write(path, listing, sizeof(listing) - 1);
   xe_isa_counts py;
   ck_assert_msg(bench_counts(path, XE_DEV_DG2, NULL, NULL, &py), "bench/isa could not count %s", path);
   assert_counts("bench/isa", &py, &expected);
   free(path);
}
END_TEST

/* Modules whose IGC output has private (scratch and, on dg2, stateless
 * a64) traffic, generic-pointer a64 traffic, block and scattered
 * messages, loops and images. */
static const char *const modules[] = {
   "priv_len64", "histogram_private", "gas_global_only", "sg_copy", "version_loop", "exec_image",
};

START_TEST(igc_output_matches_bench_isa)
{
   if (!tu_have_igc())
      return;
   const char *name = modules[_i / XE_DEV_COUNT];
   enum xe_device d = (enum xe_device)(_i % XE_DEV_COUNT);
   char *rel, *spv, *work, *err = NULL;
   if (asprintf(&rel, "testdata/spv/%s.spv", name) < 0 || asprintf(&work, "igc-%s-%s", name, xe_device_name(d)) < 0)
      abort();
   spv = tu_src(rel);
   char *dir = tu_tmp(work);
   tu_sh(NULL, NULL, "rm -rf '%s' && mkdir -p '%s'", dir, dir);
   xe_isa_kernel *k;
   unsigned n;
   ck_assert_msg(xe_isa_module_counts(spv, d, dir, &k, &n, &err), "%s: %s", name, err ? err : "?");
   ck_assert_uint_gt(n, 0);
   char *ptm;
   if (asprintf(&ptm, "%s/%s.dump/PTM.txt", dir, xe_device_name(d)) < 0)
      abort();
   unsigned private_or_a64 = 0;
   for (unsigned i = 0; i < n; i++) {
      char *asm_path, *what;
      if (asprintf(&asm_path, "%s/%s_KernelHeap.dat.%s.asm", dir, k[i].name, xe_device_name(d)) < 0 ||
          asprintf(&what, "%s %s %s", name, k[i].name, xe_device_name(d)) < 0)
         abort();
      xe_isa_counts py;
      ck_assert_msg(bench_counts(asm_path, d, ptm, k[i].name, &py), "bench/isa could not count %s", asm_path);
      assert_counts(what, &k[i].c, &py);
      /* IGC 22.43 dispatches these at SIMD8 (dg2 only), 16 or 32. */
      ck_assert_msg(k[i].c.simd == 16 || k[i].c.simd == 32 || (k[i].c.simd == 8 && d == XE_DEV_DG2),
                    "%s: SIMD width %u", what, k[i].c.simd);
      private_or_a64 += k[i].c.priv;
      free(asm_path);
      free(what);
   }
   /* The modules are chosen to have private traffic somewhere. */
   if (!strcmp(name, "priv_len64") || !strcmp(name, "histogram_private"))
      ck_assert_uint_gt(private_or_a64, 0);
   xe_isa_kernels_free(k, n);
   free(ptm);
   free(rel);
   free(spv);
   free(work);
   free(dir);
}
END_TEST

/* Two kernels, one name a prefix of the other, in ocloc disasm's PTM.txt
 * layout (IGC 22.43); only Token 23's bytes 12-15 matter. */
static const char ptm_text[] =
   "Kernel #0\n"
   "KernelBinaryHeader:\n"
   "\tKernelName k_long\n"
   "Unidentified PatchToken:\n"
   "\t4 Token 21\n"
   "\t4 Size 24\n"
   "\tHex 0 0 0 0 0 0 0 0 0 0 0 0 80 0 0 0\n"
   "Unidentified PatchToken:\n"
   "\t4 Token 23\n"
   "\t4 Size 140\n"
   "\tHex 0 0 0 0 0 0 0 0 0 0 0 0 20 0 0 0 0 0 0 0 1 0 0 0\n"
   "Kernel #1\n"
   "\tKernelName k\n"
   "Unidentified PatchToken:\n"
   "\t4 Token 23\n"
   "\t4 Size 140\n"
   "\tHex 0 0 0 0 0 0 0 0 0 0 0 0 10 0 0 0 0 0 0 0 0 0 0 0\n"
   "Kernel #2\n"
   "\tKernelName no_token\n";

START_TEST(ptm_simd_widths)
{
   ck_assert_uint_eq(xe_isa_ptm_simd(ptm_text, "k_long"), 32);
   ck_assert_uint_eq(xe_isa_ptm_simd(ptm_text, "k"), 16);
   ck_assert_uint_eq(xe_isa_ptm_simd(ptm_text, "no_token"), 0);
   ck_assert_uint_eq(xe_isa_ptm_simd(ptm_text, "absent"), 0);
   /* bench/isa reads the same widths. */
   char *path = tu_tmp("PTM.txt"), *isa = tu_src("bench/isa"), *out = NULL;
   tu_write(path, ptm_text, sizeof(ptm_text) - 1);
   int rc = tu_sh(&out, NULL,
                  "python3 -c 'import importlib.machinery as m, sys\n"
                  "b = m.SourceFileLoader(\"isa\", sys.argv[1]).load_module()\n"
                  "w = b.ptm_simd(open(sys.argv[2]).read())\n"
                  "print(w.get(\"k_long\", 0), w.get(\"k\", 0), w.get(\"no_token\", 0))' '%s' '%s'",
                  isa, path);
   ck_assert_msg(rc == 0 && out && !strcmp(out, "32 16 0\n"), "bench/isa ptm_simd: %s", out ? out : "?");
   free(out);
   free(isa);
   free(path);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("isa_count");
   TCase *tc = tcase_create("count");
   tcase_set_timeout(tc, 600);
   tcase_add_test(tc, listing_counts);
   tcase_add_test(tc, listing_matches_bench_isa);
   tcase_add_test(tc, ptm_simd_widths);
   tcase_add_loop_test(tc, igc_output_matches_bench_isa, 0,
                       (int)(sizeof(modules) / sizeof(modules[0])) * XE_DEV_COUNT);
   suite_add_tcase(s, tc);
   return tu_run_suite(s) ? EXIT_FAILURE : EXIT_SUCCESS;
}
