/*
 * Counting IGC's ISA (src/igc/isa_count.c), which --isa-check judges by:
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
 *    XEOPT_REQUIRE_OCLOC=1);
 *  - the same for ocloc 26 (IGC 2.x: .text.<kernel>.asm, .ze_info, the
 *    stats JSON's numCycles), dg2, pvc and bmg, with the sid toolchain's
 *    ocloc-26 (${XEOPT_TOOLCHAINS:-<source>/build/toolchains}/bin; skipped
 *    without it unless XEOPT_REQUIRE_OCLOC=1), named as --ocloc=PATH
 *    names it;
 *  - IGC 2.x's heap tail (nop, four `mov null` lines, illegal) and
 *    .ze_info's simd_size, by both counters.
 */
#define _GNU_SOURCE
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cost.h"
#include "ocloc.h"
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
   "        add (32|M0)              r12.0<1>:d    r12.0<1;1,0>:d    1:w\n"
   "(f0.0)  mov (16|M0)              r40.0<1>:ud   r10.0<1;1,0>:ud\n"
   "(W&f0.0) jmpi                   L1\n"
   "        call (16|M0)             r1.0          L0\n"
   "        send.dc1 (16|M0)         r2       r40     null:0  0x0            0x082411FF           {$5} // wr:4+0, rd:2; a64 dword gathering read\n"
   "        mov (32|M0)              r40.0<1>:ud   0x0:ud\n"
   "        send.dc1 (16|M0)         r2       r40     null:0  0x0            0x082411FF           {$5} // wr:4+0, rd:2; a64 dword gathering read\n"
   "        send.dc0 (16|M0)         r3       r1      null:0  0x0            0x0219E000           {$6} // wr:1+0, rd:1; fence\n"
   "        send.ugm (16|M0)         r6       r7      null:0  0x0            0x0           {$7} // load.ugm.d32x16t.a64\n"
   "        send.ugm (16|M0)         r8       r9      null:0  0x0            0x0           {$8} // load.ugm.d32.a32.ss[a0.2]\n"
   "(W)     send.gtwy (8|M0)         null     r112    null:0  0x0            0x02000010           {EOT,A@1} // wr:1+0, rd:0; end of thread\n"
   "        nop\n"
   "        illegal\n";

/* The end of an IGC 2.x heap, after the same code: not counted. */
static const char tail26[] =
   "L512:\n"
   "        nop\n"
   "(W)     mov (16|M0)              null<1>:ud    0x53B836B0:ud\n"
   "(W)     mov (16|M0)              null<1>:ud    0xF276BB47:ud\n"
   "(W)     mov (16|M0)              null<1>:ud    0x0:ud\n"
   "(W)     mov (16|M0)              null<1>:ud    0x1:ud\n"
   "        illegal\n"
   "        illegal\n";

/* Expected: 20 instructions (labels and the nop/illegal tail are not);
 * 10 sends; the sr0-derived write and the predicated-tainted read are
 * private, so is the ss[ load; the argument-derived gather, the surface
 * read and the gather after the plain overwrite are scattered; the
 * transposed LSC load is block; the loop L1 -> jmpi is 3 instructions.
 * Two run 32 lanes, one of them in the loop; one is a call. */
static const xe_isa_counts expected = {
   .instructions = 20, .sends = 10, .scattered = 3, .block = 1, .priv = 3, .loop = 3, .wide = 2, .loop_wide = 1,
   .calls = 1,
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
 * width from the PTM.txt (or .ze_info) at ptm through its ptm_simd() (or
 * zeinfo_simd(); 0 without one). */
static bool bench_counts(const char *asm_path, enum xe_device d, const char *ptm, const char *kernel,
                         xe_isa_counts *c)
{
   char *isa = tu_src("bench/isa"), *out = NULL;
   int rc = tu_sh(&out, NULL,
                  "python3 -c 'import importlib.machinery as m, sys\n"
                  "b = m.SourceFileLoader(\"isa\", sys.argv[1]).load_module()\n"
                  "s = b.analyze(open(sys.argv[2]).read(), int(sys.argv[3]))\n"
                  "t = open(sys.argv[4]).read() if sys.argv[4] else \"\"\n"
                  "w = (b.zeinfo_simd(t) if sys.argv[4].endswith(\".ze_info\") else b.ptm_simd(t)).get(sys.argv[5], 0)\n"
                  "print(s[\"instructions\"], s[\"sends\"], s[\"scattered\"], s[\"block\"], s[\"private\"], s[\"loop\"], w,\n"
                  "      s[\"wide\"], s[\"loop_wide\"], s[\"calls\"])' "
                  "'%s' '%s' %d '%s' '%s'",
                  isa, asm_path, xe_device_grf_bytes(d), ptm ? ptm : "", kernel ? kernel : "");
   memset(c, 0, sizeof(*c));
   bool ok = rc == 0 && out &&
             sscanf(out, "%u %u %u %u %u %u %u %u %u %u", &c->instructions, &c->sends, &c->scattered, &c->block,
                    &c->priv, &c->loop, &c->simd, &c->wide, &c->loop_wide, &c->calls) == 10;
   free(isa);
   free(out);
   return ok;
}

/* The listing with IGC 2.x's heap tail in place of IGC 1.0's. */
static char *listing26(void)
{
   size_t cut = strstr(listing, "        nop\n") - listing;
   char *t = malloc(cut + sizeof(tail26));
   memcpy(t, listing, cut);
   memcpy(t + cut, tail26, sizeof(tail26));
   return t;
}

START_TEST(listing26_counts)
{
   char *text = listing26();
   xe_isa_counts c;
   ck_assert(xe_isa_count(XE_DEV_DG2, text, &c));
   assert_counts("C counter, IGC 2.x tail", &c, &expected);
   free(text);
   text = listing26();
   char *path = tu_tmp("listing26.asm");
   tu_write(path, text, strlen(text));
   xe_isa_counts py;
   ck_assert_msg(bench_counts(path, XE_DEV_DG2, NULL, NULL, &py), "bench/isa could not count %s", path);
   assert_counts("bench/isa, IGC 2.x tail", &py, &expected);
   free(path);
   free(text);
}
END_TEST

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
   /* dg2 and pvc: the devices ocloc 22.43 knows. */
   const char *name = modules[_i / 2];
   enum xe_device d = _i % 2 ? XE_DEV_PVC : XE_DEV_DG2;
   char *rel, *spv, *work, *err = NULL;
   if (asprintf(&rel, "testdata/spv/%s.spv", name) < 0 || asprintf(&work, "igc-%s-%s", name, xe_device_name(d)) < 0)
      abort();
   spv = tu_src(rel);
   char *dir = tu_tmp(work);
   tu_sh(NULL, NULL, "rm -rf '%s' && mkdir -p '%s'", dir, dir);
   xe_isa_kernel *k;
   unsigned n;
   xe_isa_tools t;
   ck_assert_msg(xe_isa_tools_find(&t, NULL, &err), "%s", err);
   ck_assert_msg(xe_isa_module_counts(&t, spv, d, 0, dir, &k, &n, &err), "%s: %s", name, err ? err : "?");
   xe_isa_tools_free(&t);
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

static const enum xe_device devices26[] = { XE_DEV_DG2, XE_DEV_PVC, XE_DEV_BMG };
#define NDEV26 (sizeof(devices26) / sizeof(devices26[0]))

START_TEST(igc2_output_matches_bench_isa)
{
   char *ocloc = tu_ocloc26();
   if (!ocloc)
      return;
   const char *name = modules[_i / NDEV26];
   enum xe_device d = devices26[_i % NDEV26];
   char *rel, *spv, *work, *err = NULL;
   if (asprintf(&rel, "testdata/spv/%s.spv", name) < 0 ||
       asprintf(&work, "igc2-%s-%s", name, xe_device_name(d)) < 0)
      abort();
   spv = tu_src(rel);
   char *dir = tu_tmp(work);
   tu_sh(NULL, NULL, "rm -rf '%s' && mkdir -p '%s'", dir, dir);
   xe_isa_kernel *k;
   unsigned n;
   xe_isa_tools t;
   ck_assert_msg(xe_isa_tools_find(&t, ocloc, &err), "%s", err); /* as --ocloc=PATH does */
   bool ok = xe_isa_module_counts(&t, spv, d, 0, dir, &k, &n, &err);
   xe_isa_tools_free(&t);
   if (!strcmp(name, "exec_image") && d == XE_DEV_PVC) {
      /* IGC 2.x refuses images on pvc (22.43 compiled them). */
      ck_assert_msg(!ok && err && strstr(err, "images should not be used"), "%s: %s", name, err ? err : "compiled");
      free(err);
      free(rel), free(spv), free(work), free(dir), free(ocloc);
      return;
   }
   ck_assert_msg(ok, "%s: %s", name, err ? err : "?");
   ck_assert_uint_gt(n, 0);
   char *zi, *isa = tu_src("bench/isa"), *igc;
   if (asprintf(&zi, "%s/%s.dump/.ze_info", dir, xe_device_name(d)) < 0 ||
       asprintf(&igc, "%s/%s.igc", dir, xe_device_name(d)) < 0)
      abort();
   unsigned private_msgs = 0;
   bool loop_weighted = false;
   for (unsigned i = 0; i < n; i++) {
      char *asm_path, *what, *out = NULL;
      if (asprintf(&asm_path, "%s/%s.dump/.text.%s.asm", dir, xe_device_name(d), k[i].name) < 0 ||
          asprintf(&what, "%s %s %s (ocloc 26)", name, k[i].name, xe_device_name(d)) < 0)
         abort();
      ck_assert_msg(strcmp(k[i].name, "Intel_Symbol_Table_Void_Program"), "%s: not a kernel", what);
      xe_isa_counts py;
      ck_assert_msg(bench_counts(asm_path, d, zi, k[i].name, &py), "bench/isa could not count %s", asm_path);
      /* IGC's own estimate: read by both, from the same stats JSON. */
      int rc = tu_sh(&out, NULL,
                     "python3 -c 'import importlib.machinery as m, sys\n"
                     "b = m.SourceFileLoader(\"isa\", sys.argv[1]).load_module()\n"
                     "c = b.igc_stats(sys.argv[2])\n"
                     "n = c.get((sys.argv[3], int(sys.argv[4]))) or c.get((sys.argv[3], None)) or 0\n"
                     "x = b.zeinfo_loop_cycles(open(sys.argv[5]).read(), sys.argv[3], b.ASSUMED_TRIPS)\n"
                     "print(n, n + x if n and x is not None else 0)' "
                     "'%s' '%s' '%s' %u '%s'",
                     isa, igc, k[i].name, py.simd, zi);
      ck_assert_msg(rc == 0 && out && sscanf(out, "%u %lf", &py.igc_cycles, &py.igc_estimate) == 2,
                    "bench/isa igc_stats failed: %s", out ? out : "?");
      if (py.calls)
         py.igc_estimate = 0; /* as bench/isa's module_stats */
      assert_counts(what, &k[i].c, &py);
      ck_assert_msg(k[i].c.igc_cycles > 0, "%s: no numCycles", what);
      /* IGC's loop-weighted estimate: read by both from kernels_cost_info,
       * at least numCycles, more where a loop runs more than once. */
      ck_assert_msg(k[i].c.calls || k[i].c.igc_estimate >= k[i].c.igc_cycles,
                    "%s: IGC's estimate %.0f under numCycles %u", what, k[i].c.igc_estimate, k[i].c.igc_cycles);
      if (k[i].c.loop)
         loop_weighted |= k[i].c.igc_estimate > k[i].c.igc_cycles;
      ck_assert_msg(k[i].c.simd == 16 || k[i].c.simd == 32 || k[i].c.simd == 8, "%s: SIMD width %u", what,
                    k[i].c.simd);
      private_msgs += k[i].c.priv;
      free(out);
      free(asm_path);
      free(what);
   }
   if (!strcmp(name, "priv_len64") || !strcmp(name, "histogram_private"))
      ck_assert_uint_gt(private_msgs, 0);
   if (!strcmp(name, "histogram_private"))
      ck_assert_msg(loop_weighted, "%s: no loop weighted in IGC's estimate", name);
   if (!strcmp(name, "sg_copy")) {
      /* bench/isa --stats under ocloc 26: the counts, the ISA estimate and,
       * beside it, IGC 2.40's numCycles. */
      char *out = NULL, kn[64];
      unsigned v[9], igcc;
      double est, igce;
      int rc = tu_sh(&out, NULL, "XEOPT_OCLOC='%s' '%s' --stats '%s' %s", ocloc, isa, spv, xe_device_name(d));
      ck_assert_msg(rc == 0 && out &&
                    sscanf(out, "%63s %u %u %u %u %u %u %u %u %lf %u %lf", kn, &v[0], &v[1], &v[2], &v[3], &v[4],
                           &v[5], &v[6], &v[7], &est, &igcc, &igce) == 12,
                    "bench/isa --stats: %s", out ? out : "?");
      ck_assert_str_eq(kn, "sg_copy");
      ck_assert_uint_eq(v[0], k[0].c.instructions);
      ck_assert_uint_eq(v[7], k[0].c.simd);
      ck_assert_double_eq_tol(est, xe_cost_isa_at(d, &k[0].c, k[0].c.simd), 0.5);
      ck_assert_uint_eq(igcc, k[0].c.igc_cycles);
      ck_assert_double_eq_tol(igce, k[0].c.igc_estimate, 0.5);
      free(out);
   }
   xe_isa_kernels_free(k, n);
   free(zi);
   free(igc);
   free(isa);
   free(rel);
   free(spv);
   free(work);
   free(dir);
   free(ocloc);
}
END_TEST

/* What Python code (b: bench/isa loaded as a module, t: text) prints;
 * the test fails when it does not run. */
static char *bench_on_text(const char *text, const char *code)
{
   char *path = tu_tmp("bench-text"), *isa = tu_src("bench/isa"), *out = NULL;
   tu_write(path, text, strlen(text));
   int rc = tu_sh(&out, NULL,
                  "python3 -c 'import importlib.machinery as m, sys\n"
                  "b = m.SourceFileLoader(\"isa\", sys.argv[1]).load_module()\n"
                  "t = open(sys.argv[2]).read()\n"
                  "%s' '%s' '%s'",
                  code, isa, path);
   ck_assert_msg(rc == 0 && out, "bench/isa: %s", out ? out : "?");
   free(isa);
   free(path);
   return out;
}

/* ocloc 26's .ze_info: simd_size per kernel of `kernels:` (not of
 * kernels_misc_info), one name a prefix of another. */
static const char zeinfo_text[] =
   "---\n"
   "version:         '1.73'\n"
   "kernels:\n"
   "  - name:            k_long\n"
   "    execution_env:\n"
   "      grf_count:       128\n"
   "      simd_size:       32\n"
   "  - name:            k\n"
   "    user_attributes:\n"
   "      intel_reqd_sub_group_size: 16\n"
   "    execution_env:\n"
   "      simd_size:       16\n"
   "  - name:            no_env\n"
   "kernels_misc_info:\n"
   "  - name:            absent_above\n"
   "    args_info:\n"
   "      - index:           0\n"
   "...\n";

/* bench/isa's per-work-item rule (isa_estimate with a width, which
 * bench/o2-judge and bench/isa-sweep use) is --isa-check's (xe_cost_isa_at)
 * on every device and pair of widths: counts scale with the width on dg2;
 * on the 64-byte register devices the estimate counts passes of a 16-lane
 * ALU per 16 work-items (a SIMD32 kernel's scalar instructions count
 * half).  bench/isa once had pvc's rule alone, which doubled a SIMD32 ->
 * SIMD16 change on bmg, lnl and ptl. */
START_TEST(isa_width_matches_c)
{
   static const unsigned widths[] = { 8, 16, 32 };
   char *isa = tu_src("bench/isa"), *out = NULL, names[64] = "";
   for (int d = 0; d < XE_DEV_COUNT; d++) {
      strcat(names, " ");
      strcat(names, xe_device_name((enum xe_device)d));
   }
   /* One Python run prints bench/isa's estimate for every device and pair
    * of widths, in the loops' order below: 1000 instructions, a 10-long
    * loop, 3 scattered messages, and at SIMD32 600 (4) of them 32 lanes. */
   int rc = tu_sh(&out, NULL,
                  "python3 -c 'import importlib.machinery as m, sys\n"
                  "b = m.SourceFileLoader(\"isa\", sys.argv[1]).load_module()\n"
                  "ws = b.model_weights()\n"
                  "for d in sys.argv[2:]:\n"
                  "    for a in (8, 16, 32):\n"
                  "        s = dict(instructions=1000, loop=10, scattered=3, block=0, private=0, simd=a,\n"
                  "                 wide=600 if a > 16 else 0, loop_wide=4 if a > 16 else 0)\n"
                  "        for w in (8, 16, 32): print(b.isa_estimate(s, ws[d], w))\n"
                  "        print(b.isa_estimate(s, ws[d]))' "
                  "'%s'%s", isa, names);
   ck_assert_msg(rc == 0 && out, "bench/isa: %s", out ? out : "");
   const char *p = out;
   for (int d = 0; d < XE_DEV_COUNT; d++) {
      for (unsigned a = 0; a < 3; a++) {
         xe_isa_counts c = { .instructions = 1000, .loop = 10, .scattered = 3, .simd = widths[a],
                             .wide = widths[a] > 16 ? 600 : 0, .loop_wide = widths[a] > 16 ? 4 : 0 };
         for (unsigned b = 0; b < 4; b++) {
            unsigned w = b < 3 ? widths[b] : widths[a];
            double e = xe_cost_isa_at((enum xe_device)d, &c, w), py = 0;
            int used = 0;
            ck_assert_msg(sscanf(p, "%lf%n", &py, &used) == 1, "bench/isa: %s", out);
            p += used;
            ck_assert_msg(py > e - 1e-6 && py < e + 1e-6, "%s SIMD%u against SIMD%u: C %g, bench/isa %g",
                          xe_device_name((enum xe_device)d), widths[a], w, e, py);
         }
      }
   }
   /* bmg: a SIMD32 kernel of 1000 instructions, 600 of 32 lanes and a
    * 10-long loop with 4, counts 1600 + 4 x 15 passes (+ the loop's and
    * messages' estimate) per 32 work-items: half per 16. */
   xe_isa_counts c = { .instructions = 1000, .loop = 10, .simd = 32, .wide = 600, .loop_wide = 4 };
   ck_assert_double_eq_tol(xe_cost_isa_at(XE_DEV_BMG, &c, 16), (1000 + 150 + 600 + 60) / 2.0, 1e-9);
   ck_assert_double_eq_tol(xe_cost_isa_at(XE_DEV_DG2, &c, 16), (1000 + 150) / 2.0, 1e-9);
   free(out);
   free(isa);
}
END_TEST

START_TEST(zeinfo_simd_widths)
{
   ck_assert_uint_eq(xe_isa_zeinfo_simd(zeinfo_text, "k_long"), 32);
   ck_assert_uint_eq(xe_isa_zeinfo_simd(zeinfo_text, "k"), 16);
   ck_assert_uint_eq(xe_isa_zeinfo_simd(zeinfo_text, "no_env"), 0);
   ck_assert_uint_eq(xe_isa_zeinfo_simd(zeinfo_text, "absent_above"), 0);
   ck_assert_uint_eq(xe_isa_zeinfo_simd(zeinfo_text, "absent"), 0);
   char *out = bench_on_text(zeinfo_text, "w = b.zeinfo_simd(t)\n"
                                          "print(w.get(\"k_long\", 0), w.get(\"k\", 0), w.get(\"no_env\", 0), "
                                          "w.get(\"absent_above\", 0))");
   ck_assert_msg(!strcmp(out, "32 16 0 0\n"), "bench/isa zeinfo_simd: %s", out);
   free(out);
}
END_TEST

/* kernels_cost_info as ocloc 26 writes it (EnableKernelCostInfo=1): k_long
 * has a loop of constant count 5 around one of unknown count, then a loop
 * bounded by argument 2; k has no loop; noexp a loop whose count IGC did
 * not write; unpaired more counts than loops (they do not pair: its
 * loop runs 16 times); bad more child loops than entries. */
static const char kcm_text[] =
   "kernels:\n"
   "  - name:            k_long\n"
   "    execution_env:\n"
   "      simd_size:       16\n"
   "kernels_cost_info:\n"
   "  - name:            k_long\n"
   "    kcm_args_sym:\n"
   "      - argNo:           2\n"
   "        byteOffset:      0\n"
   "        sizeInBytes:     4\n"
   "        isInDirect:      false\n"
   "    kcm_loop_count_exps:\n"
   "      - factor:          0\n"
   "        argsym_index:    -1\n"
   "        C:               5\n"
   "      - factor:          1\n"
   "        argsym_index:    -1\n"
   "        C:               0\n"
   "      - factor:          0.25\n"
   "        argsym_index:    0\n"
   "        C:               -3\n"
   "    Kcm_loop_costs:\n"
   "      - cycle:           40\n"
   "        bytes_loaded:    0\n"
   "        bytes_stored:    128\n"
   "        num_loops:       2\n"
   "      - cycle:           10\n"
   "        bytes_loaded:    64\n"
   "        bytes_stored:    0\n"
   "        num_loops:       1\n"
   "      - cycle:           100\n"
   "        bytes_loaded:    64\n"
   "        bytes_stored:    0\n"
   "        num_loops:       0\n"
   "      - cycle:           7\n"
   "        bytes_loaded:    0\n"
   "        bytes_stored:    0\n"
   "        num_loops:       0\n"
   "  - name:            k\n"
   "    kcm_loop_count_exps: []\n"
   "    Kcm_loop_costs:\n"
   "      - cycle:           104\n"
   "        bytes_loaded:    128\n"
   "        bytes_stored:    128\n"
   "        num_loops:       0\n"
   "  - name:            noexp\n"
   "    kcm_loop_count_exps: []\n"
   "    Kcm_loop_costs:\n"
   "      - cycle:           50\n"
   "        num_loops:       1\n"
   "      - cycle:           10\n"
   "        num_loops:       0\n"
   "  - name:            unpaired\n"
   "    kcm_loop_count_exps:\n"
   "      - factor:          0\n"
   "        argsym_index:    -1\n"
   "        C:               5\n"
   "      - factor:          0\n"
   "        argsym_index:    -1\n"
   "        C:               5\n"
   "    Kcm_loop_costs:\n"
   "      - cycle:           50\n"
   "        num_loops:       1\n"
   "      - cycle:           10\n"
   "        num_loops:       0\n"
   "  - name:            bad\n"
   "    kcm_loop_count_exps: []\n"
   "    Kcm_loop_costs:\n"
   "      - cycle:           104\n"
   "        num_loops:       1\n"
   "...\n";

/* Each loop adds its cycles times (its trips and its outer loops') - 1:
 * 10 x (5 - 1), 100 x (5 x 16 - 1), 7 x (16 - 1) with 16 assumed trips. */
START_TEST(zeinfo_loop_cycles)
{
   double x = -1;
   ck_assert(xe_isa_zeinfo_loop_cycles(kcm_text, "k_long", 16, &x));
   ck_assert_double_eq_tol(x, 10 * 4 + 100 * 79 + 7 * 15, 1e-9);
   ck_assert(xe_isa_zeinfo_loop_cycles(kcm_text, "k", 16, &x));
   ck_assert_double_eq_tol(x, 0, 1e-9);
   ck_assert(xe_isa_zeinfo_loop_cycles(kcm_text, "noexp", 16, &x));
   ck_assert_double_eq_tol(x, 10 * 15, 1e-9);
   ck_assert(xe_isa_zeinfo_loop_cycles(kcm_text, "unpaired", 16, &x));
   ck_assert_double_eq_tol(x, 10 * 15, 1e-9);
   ck_assert(!xe_isa_zeinfo_loop_cycles(kcm_text, "bad", 16, &x));
   ck_assert(!xe_isa_zeinfo_loop_cycles(kcm_text, "k_lon", 16, &x));
   ck_assert(!xe_isa_zeinfo_loop_cycles(zeinfo_text, "k_long", 16, &x));
   char *out = bench_on_text(kcm_text, "print(*[b.zeinfo_loop_cycles(t, k, 16) for k in "
                                       "(\"k_long\", \"k\", \"noexp\", \"unpaired\", \"bad\", \"k_lon\")])");
   ck_assert_msg(!strcmp(out, "8045.0 0 150.0 150.0 None None\n"), "bench/isa zeinfo_loop_cycles: %s", out);
   free(out);
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
   tcase_add_test(tc, isa_width_matches_c);
   tcase_add_test(tc, listing_matches_bench_isa);
   tcase_add_test(tc, ptm_simd_widths);
   tcase_add_test(tc, listing26_counts);
   tcase_add_test(tc, zeinfo_simd_widths);
   tcase_add_test(tc, zeinfo_loop_cycles);
   tcase_add_loop_test(tc, igc2_output_matches_bench_isa, 0,
                       (int)(sizeof(modules) / sizeof(modules[0]) * NDEV26));
   tcase_add_loop_test(tc, igc_output_matches_bench_isa, 0,
                       (int)(sizeof(modules) / sizeof(modules[0])) * 2);
   suite_add_tcase(s, tc);
   return tu_run_suite(s) ? EXIT_FAILURE : EXIT_SUCCESS;
}
