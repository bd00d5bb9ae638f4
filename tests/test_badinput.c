/*
 * Bad input and usage: every case runs the xeopt binary and checks the
 * exact diagnostic and exit status, and that no output file appears (or an
 * existing one is left untouched); and what the command line reports
 * beside the output (--report's pass table).
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cjson/cJSON.h>

#include "testutil.h"

/* A minimal valid kernel module:
 *   OpCapability Addresses; OpCapability Kernel;
 *   OpMemoryModel Physical64 OpenCL; OpEntryPoint Kernel %3 "k";
 *   %1 = OpTypeVoid; %2 = OpTypeFunction %1;
 *   %3 = OpFunction %1 None %2; %4 = OpLabel; OpReturn; OpFunctionEnd */
static const uint32_t good[] = {
   0x07230203, 0x00010400, 0, 5, 0,
   2 << 16 | 17, 4,
   2 << 16 | 17, 6,
   3 << 16 | 14, 2, 2,
   4 << 16 | 15, 6, 3, 'k',
   2 << 16 | 19, 1,
   3 << 16 | 33, 2, 1,
   5 << 16 | 54, 1, 3, 0, 2,
   2 << 16 | 248, 4,
   1 << 16 | 253,
   1 << 16 | 56,
};
#define NGOOD (sizeof(good) / 4)
/* Word offsets of instructions in good[]. */
enum { W_VOID = 16, W_FN = 21, W_LABEL = 26, W_END = 29 };

typedef struct bad_case {
   const char *name;
   int exit_code;
   const char *message; /* after "xeopt: error: FILE: " */
} bad_case;

static char *path_of(const char *name)
{
   char *n, *p;
   if (asprintf(&n, "%s.spv", name) < 0)
      abort();
   p = tu_tmp(n);
   free(n);
   return p;
}

/* Runs xeopt on the file and checks status and the whole stderr. */
static void expect(const char *in, const char *args, int code, const char *msg)
{
   char *out = tu_tmp("bad-out.spv");
   tu_write(out, "OLD", 3);
   size_t nin_before = 0, nin_after = 0;
   char *in_before = tu_read(in, &nin_before);
   char *err = NULL;
   int rc = tu_sh(NULL, &err, "%s %s '%s' -o '%s'", tu_xeopt(), args, in, out);
   char *want;
   if (asprintf(&want, "xeopt: error: %s: %s\n", in, msg) < 0)
      abort();
   ck_assert_msg(rc == code, "%s: exit %d, expected %d (%s)", in, rc, code, err);
   ck_assert_str_eq(err, want);
   size_t n;
   char *kept = tu_read(out, &n);
   ck_assert_msg(kept && n == 3 && !memcmp(kept, "OLD", 3), "%s: output was touched", in);
   char *in_after = tu_read(in, &nin_after);
   ck_assert_msg(nin_before == nin_after && (!in_before || !memcmp(in_before, in_after, nin_after)),
                 "%s: the input was modified", in);
   free(in_before);
   free(in_after);
   free(kept);
   free(want);
   free(err);
   free(out);
}

static void expect_words(const char *name, const uint32_t *w, size_t nwords, const char *msg)
{
   char *p = path_of(name);
   tu_write(p, w, nwords * 4);
   expect(p, "-O2", 1, msg);
   free(p);
}

static uint32_t *copy_good(void)
{
   uint32_t *w = malloc(sizeof(good) + 64);
   memcpy(w, good, sizeof(good));
   return w;
}

START_TEST(good_module_passes)
{
   char *p = path_of("good"), *o = tu_tmp("good-out.spv");
   tu_write(p, good, sizeof(good));
   int rc = tu_sh(NULL, NULL, "%s -O0 '%s' -o '%s' && cmp '%s' '%s'", tu_xeopt(), p, o, p, o);
   ck_assert_int_eq(rc, 0);
   tu_spirv_val(o);
   free(p);
   free(o);
}
END_TEST

START_TEST(header_errors)
{
   char *p = path_of("empty");
   tu_write(p, "", 0);
   expect(p, "", 1, "empty file");
   free(p);
   expect_words("short", good, 3, "truncated header: 12 bytes, a SPIR-V header has 20");
   p = path_of("odd");
   tu_write(p, good, sizeof(good) - 2);
   expect(p, "", 1, "size 118 bytes is not a whole number of 32-bit words");
   free(p);
   uint32_t *w = copy_good();
   w[0] = 0x12345678;
   expect_words("magic", w, NGOOD, "not a SPIR-V module: magic number 0x12345678, expected 0x07230203");
   w[0] = good[0];
   w[1] = 0x00020000;
   expect_words("version", w, NGOOD, "unsupported SPIR-V version 0x00020000 (xeopt reads 1.0 to 1.6)");
   w[1] = good[1];
   w[3] = 0;
   expect_words("bound0", w, NGOOD, "id bound is 0, but every module defines ids");
   w[3] = 4000000000u;
   expect_words("bound4g", w, NGOOD, "id bound 4000000000 is too large (xeopt accepts up to 67108864)");
   /* A valid header and nothing else: an error, not a silent pass. */
   w[3] = good[3];
   expect_words("header_only", w, 5, "a header and no instructions: not a module of kernels (it "
                                     "needs at least OpMemoryModel and an OpEntryPoint)");
   free(w);
}
END_TEST

START_TEST(instruction_errors)
{
   uint32_t *w = copy_good();
   expect_words("trunc", w, NGOOD - 1, "missing OpFunctionEnd at the end of the module (at word 29)");
   expect_words("trunc_mid", w, W_FN + 3,
                "End of input reached while decoding OpFunction starting at word 21: "
                "missing function control operand at word offset 3.");
   w[W_VOID] = 0 << 16 | 19;
   expect_words("wc0", w, NGOOD, "Invalid instruction word count: 0");
   w[W_VOID] = 9 << 16 | 19;
   expect_words("wc_past", w, NGOOD,
                "Invalid instruction OpTypeVoid starting at word 16: expected no more operands "
                "after 2 words, but stated word count is 9.");
   /* An unknown opcode that breaks the framing is still an error. */
   w[W_VOID] = 0xffffu << 16 | 9999;
   expect_words("unknown_op_framing", w, NGOOD, "Invalid opcode: 9999");
   memcpy(w, good, sizeof(good));
   w[W_LABEL + 1] = 7; /* label id 7 >= bound 5 */
   expect_words("id_bound", w, NGOOD, "OpLabel uses id 7, outside the id bound 5 (at word 26)");
   w[W_LABEL + 1] = 3; /* the function's id again */
   expect_words("dup", w, NGOOD, "Id 3 is defined more than once");
   memcpy(w, good, sizeof(good));
   /* OpTypeFunction naming its return type before it exists. */
   w[W_VOID + 4] = 9;
   w[3] = 10;
   expect_words("forward", w, NGOOD, "OpTypeFunction refers to id 9 before its definition (at word 18)");
   free(w);
}
END_TEST

/* Runs xeopt ARGS on the words; expects exit 0, exactly stderr_want on
 * stderr and an output byte-identical to the input. */
static void expect_unchanged(const char *name, const uint32_t *w, size_t nwords, const char *args,
                             const char *stderr_fmt)
{
   char *p = path_of(name), *o = tu_tmp("unchanged-out.spv"), *err = NULL, *want;
   tu_write(p, w, nwords * 4);
   int rc = tu_sh(NULL, &err, "%s %s '%s' -o '%s'", tu_xeopt(), args, p, o);
   ck_assert_msg(rc == 0, "%s: exit %d: %s", name, rc, err);
   if (asprintf(&want, stderr_fmt, p) < 0)
      abort();
   ck_assert_str_eq(err, want);
   ck_assert_int_eq(tu_sh(NULL, NULL, "cmp -s '%s' '%s'", p, o), 0);
   free(want);
   free(err);
   free(o);
   free(p);
}

static uint32_t bswap(uint32_t v)
{
   return v >> 24 | (v >> 8 & 0xff00) | (v << 8 & 0xff0000) | v << 24;
}

/* Opcodes and extended instruction sets newer than our SPIRV-Tools: xeopt
 * cannot tell their id operands from literals, so the module goes through
 * as it came, with a warning; --validate and --verify cannot check it. */
START_TEST(unknown_passed_through)
{
   uint32_t w[64];
   size_t n = 0;
   memcpy(w, good, W_LABEL * 4 + 8);   /* through OpLabel */
   n = W_LABEL + 2;
   w[n++] = 3 << 16 | 9999;             /* word 28: unknown opcode, two operands */
   w[n++] = 1;
   w[n++] = 77;
   w[n++] = 1 << 16 | 253;
   w[n++] = 1 << 16 | 56;
   const char *warning = "xeopt: warning: %s: opcode 9999 at word 28 is unknown to SPIRV-Tools; "
                         "the module is passed through unchanged\n";
   expect_unchanged("unknown_op", w, n, "-O2", warning);
   uint32_t be[64];
   for (size_t k = 0; k < n; k++)
      be[k] = bswap(w[k]);
   expect_unchanged("unknown_op_be", be, n, "-O2 --remarks", warning);
   char *p = path_of("unknown_op");
   expect(p, "-O2 --validate", 1,
          "opcode 9999 at word 28 is unknown to SPIRV-Tools, so --validate cannot check it "
          "(without either option the module is passed through unchanged)");
   expect(p, "--verify", 1,
          "opcode 9999 at word 28 is unknown to SPIRV-Tools, so --verify cannot check it "
          "(without either option the module is passed through unchanged)");
   free(p);

   /* %6 = OpExtInstImport "Foo.bar" after the capabilities, and a use. */
   n = 0;
   memcpy(w, good, 9 * 4);
   w[3] = 8;
   n = 9;
   w[n++] = 4 << 16 | 11;
   w[n++] = 6;
   memcpy(&w[n], "Foo.bar", 8);
   n += 2;
   memcpy(&w[n], &good[9], (W_LABEL + 2 - 9) * 4);
   n += W_LABEL + 2 - 9;
   w[n++] = 5 << 16 | 12;               /* %7 = OpExtInst %1 %6 3 */
   w[n++] = 1;
   w[n++] = 7;
   w[n++] = 6;
   w[n++] = 3;
   w[n++] = 1 << 16 | 253;
   w[n++] = 1 << 16 | 56;
   expect_unchanged("unknown_set", w, n, "-O2",
                    "xeopt: warning: %s: extended instruction set 'Foo.bar' is unknown to "
                    "SPIRV-Tools; the module is passed through unchanged\n");

   /* The same with a set name of 35 bytes: the import (12 words at word 9)
    * is longer than its own offset, which the framing walk must step over
    * like any other instruction. */
   static const char longname[] = "Foo.bar.with.a.much.longer.name.v12";
   uint32_t w2[96];
   size_t n2 = 0;
   memcpy(w2, w, 9 * 4);
   n2 = 9;
   w2[n2++] = (2 + (uint32_t)(sizeof longname + 3) / 4) << 16 | 11;
   w2[n2++] = 6;
   memset(&w2[n2], 0, (sizeof longname + 3) / 4 * 4);
   memcpy(&w2[n2], longname, sizeof longname);
   n2 += (sizeof longname + 3) / 4;
   ck_assert_uint_gt(w2[9] >> 16, 9);
   memcpy(&w2[n2], &w[13], (n - 13) * 4);
   n2 += n - 13;
   expect_unchanged("unknown_set_long", w2, n2, "-O2",
                    "xeopt: warning: %s: extended instruction set "
                    "'Foo.bar.with.a.much.longer.name.v12' is unknown to SPIRV-Tools; the module "
                    "is passed through unchanged\n");
}
END_TEST

/* A Vulkan compute shader is not what the passes model: written unchanged,
 * and a remark says why. */
START_TEST(shader_passed_through)
{
   char *a = tu_tmp("shader.spvasm"), *p = tu_tmp("shader.spv"), *o = tu_tmp("shader-out.spv");
   const char *text = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n"
                      "OpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 64 1 1\n"
                      "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n"
                      "%main = OpFunction %void None %fn\n%l = OpLabel\nOpReturn\nOpFunctionEnd\n";
   tu_write(a, text, strlen(text));
   ck_assert_int_eq(tu_sh(NULL, NULL, "spirv-as --target-env spv1.3 '%s' -o '%s'", a, p), 0);
   char *err = NULL;
   int rc = tu_sh(NULL, &err, "%s -O2 --validate --remarks '%s' -o '%s'", tu_xeopt(), p, o);
   ck_assert_int_eq(rc, 0);
   ck_assert_str_eq(err, "xeopt: remark: [pipeline] missed: not an OpenCL kernel module (memory "
                         "model GLSL450 is not OpenCL): no pass runs, the module is written "
                         "unchanged\n");
   ck_assert_int_eq(tu_sh(NULL, NULL, "cmp -s '%s' '%s'", p, o), 0);
   free(err);
   free(a);
   free(p);
   free(o);
}
END_TEST

START_TEST(layout_errors)
{
   /* OpLabel outside a function: move the label before the function. */
   uint32_t w[NGOOD];
   memcpy(w, good, sizeof(good));
   uint32_t label[2] = { good[W_LABEL], good[W_LABEL + 1] };
   memmove(w + W_FN + 2, w + W_FN, 5 * 4);
   memcpy(w + W_FN, label, 8);
   expect_words("label_outside", w, NGOOD, "OpLabel outside a function (at word 21)");
   /* OpCapability inside a function. */
   memcpy(w, good, sizeof(good));
   w[W_END - 1] = 2 << 16 | 17;
   w[W_END] = 4;
   uint32_t more[NGOOD + 2];
   memcpy(more, w, sizeof(w));
   more[NGOOD] = 1 << 16 | 253;
   more[NGOOD + 1] = 1 << 16 | 56;
   expect_words("cap_in_fn", more, NGOOD + 2, "OpCapability inside a function (at word 28)");
}
END_TEST

START_TEST(file_errors)
{
   char *p = tu_tmp("does-not-exist.spv");
   unlink(p);
   expect(p, "", 1, "cannot open: No such file or directory");
   free(p);
   p = tu_tmp("a-directory");
   mkdir(p, 0777);
   expect(p, "", 1, "is a directory, not a SPIR-V file");
   free(p);
}
END_TEST

static void expect_usage(const char *args, const char *msg)
{
   char *err = NULL;
   int rc = tu_sh(NULL, &err, "%s %s", tu_xeopt(), args);
   ck_assert_msg(rc == 1, "'%s': exit %d", args, rc);
   char *want;
   if (asprintf(&want, "xeopt: error: %s\n", msg) < 0)
      abort();
   ck_assert_str_eq(err, want);
   free(want);
   free(err);
}

#define PASS_LIST "canonicalize, generic-address, simplify-cfg, padding, block-io, " \
                  "subgroup-versioning, loop-spec-constants, private-arrays, interface-vars, " \
                  "dce, block-order"

START_TEST(usage_errors)
{
   char *p = path_of("good");
   tu_write(p, good, sizeof(good));
   char *args;
   expect_usage("", "no input file (see --help)");
   expect_usage("--frobnicate x.spv", "unknown option --frobnicate (see --help)");
   if (asprintf(&args, "'%s'", p) < 0)
      abort();
   expect_usage(args, "no output file: give -o FILE (or -o - for standard output)");
   free(args);
   if (asprintf(&args, "-O3 '%s' -o /dev/null", p) < 0)
      abort();
   expect_usage(args, "unknown optimization level -O3 (use -O0, -O1 or -O2)");
   free(args);
   if (asprintf(&args, "--passes=nope '%s' -o /dev/null", p) < 0)
      abort();
   expect_usage(args, "unknown pass 'nope' (the passes: " PASS_LIST ")");
   free(args);
   if (asprintf(&args, "--print-after=foo '%s' -o /dev/null", p) < 0)
      abort();
   expect_usage(args, "option --print-after: unknown pass 'foo' (the passes: " PASS_LIST ")");
   free(args);
   free(p);
}
END_TEST

/* Launch options are parsed and checked once, by the option layer, before
 * any pass runs: a bad value is a usage error, not a remark (block-io once
 * parsed them itself, so `--local-size=abc --subgroup-size=banana` exited
 * 0). */
START_TEST(launch_option_errors)
{
   char *p = path_of("launch");
   tu_write(p, good, sizeof(good));
   static const struct { const char *opts, *msg; } cases[] = {
      { "--local-size=abc --subgroup-size=banana",
        "option --local-size: 'abc' is not a local size (expected [KERNEL:]X[,Y,Z])" },
      { "--subgroup-size=banana",
        "option --subgroup-size: 'banana' is not a number (expected [KERNEL:]N with N 8, 16 or 32)" },
      { "--subgroup-size=12",
        "option --subgroup-size: sub-group size 12 is not supported (use 8, 16 or 32)" },
      { "--subgroup-size=k:-16",
        "option --subgroup-size: '-16' is not a number (expected [KERNEL:]N with N 8, 16 or 32)" },
      { "--subgroup-size=:16", "option --subgroup-size=:16: empty kernel name before ':'" },
      { "--local-size=0", "option --local-size: local size 0 is out of range (each dimension 1 to 1024)" },
      { "--local-size=k:64,2048",
        "option --local-size: local size 64,2048 is out of range (each dimension 1 to 1024)" },
      { "--local-size=8,8,8,8", "option --local-size: '8,8,8,8' is not a local size (expected [KERNEL:]X[,Y,Z])" },
      { "--local-size=16,", "option --local-size: '16,' is not a local size (expected [KERNEL:]X[,Y,Z])" },
      { "--local-size 16x2", "option --local-size: '16x2' is not a local size (expected [KERNEL:]X[,Y,Z])" },
   };
   for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
      char *args;
      if (asprintf(&args, "%s '%s' -o /dev/null", cases[k].opts, p) < 0)
         abort();
      expect_usage(args, cases[k].msg);
      free(args);
   }
   /* Promises: malformed values, and kernels the module does not have
    * (they were once ignored: each of these exited 0). */
   static const struct { const char *opts, *msg; } promises[] = {
      { "--specialize=foo", "option --specialize: 'foo' is not KERNEL:ARG=VALUE" },
      { "--specialize=k:=3", "option --specialize: 'k:=3' is not KERNEL:ARG=VALUE" },
      { "--specialize=k:n=", "option --specialize: 'k:n=' is not KERNEL:ARG=VALUE" },
      { "--specialize=k:n=ten", "option --specialize=k:n=ten: 'ten' is not an integer" },
      { "--assume-padded=", "option --assume-padded=: an empty kernel name (give --assume-padded "
                            "for every kernel, or --assume-padded=K1,K2)" },
      { "--assume-padded=k,", "option --assume-padded=k,: an empty kernel name (give "
                              "--assume-padded for every kernel, or --assume-padded=K1,K2)" },
   };
   for (unsigned k = 0; k < sizeof(promises) / sizeof(promises[0]); k++) {
      char *args;
      if (asprintf(&args, "%s '%s' -o /dev/null", promises[k].opts, p) < 0)
         abort();
      expect_usage(args, promises[k].msg);
      free(args);
   }
   static const struct { const char *opts, *msg; } unknown[] = {
      { "--assume-padded=k,kk", "option --assume-padded=k,kk: the module has no kernel 'kk' (its kernels: k)" },
      { "--local-size=x:16", "option --local-size=x:16: the module has no kernel 'x' (its kernels: k)" },
      { "--subgroup-size=K:16", "option --subgroup-size=K:16: the module has no kernel 'K' (its kernels: k)" },
      { "--specialize=kk:n=3", "option --specialize=kk:n=3: the module has no kernel 'kk' (its kernels: k)" },
   };
   for (unsigned k = 0; k < sizeof(unknown) / sizeof(unknown[0]); k++)
      expect(p, unknown[k].opts, 1, unknown[k].msg);
   /* Good values, for every kernel and for one, pass. */
   int rc = tu_sh(NULL, NULL, "%s --subgroup-size=8 --subgroup-size=k:32 --local-size=1024 "
                  "--local-size=k:16,2,1 '%s' -o /dev/null", tu_xeopt(), p);
   ck_assert_int_eq(rc, 0);
   free(p);
}
END_TEST

/* --verify's success is a note, not a warning (nothing is wrong). */
START_TEST(verify_success_is_a_note)
{
   char *p = path_of("verified"), *o = path_of("verified-out"), *err = NULL, *want;
   tu_write(p, good, sizeof(good));
   int rc = tu_sh(NULL, &err, "%s --verify '%s' -o '%s'", tu_xeopt(), p, o);
   ck_assert_int_eq(rc, 0);
   if (asprintf(&want, "xeopt: note: %s: verify: kernel k: 3 of 3 launches verified\n", p) < 0)
      abort();
   ck_assert_str_eq(err, want);
   free(want);
   free(err);
   free(o);
   free(p);
}
END_TEST

START_TEST(output_equal_to_input)
{
   char *p = path_of("inplace"), *q = path_of("inplace-copy");
   tu_write(p, good, sizeof(good));
   tu_write(q, good, sizeof(good));
   int rc = tu_sh(NULL, NULL, "%s -O2 '%s' -o '%s' && cmp '%s' '%s'", tu_xeopt(), p, p, p, q);
   ck_assert_int_eq(rc, 0);
   free(p);
   free(q);
}
END_TEST

START_TEST(stdin_stdout)
{
   char *p = path_of("pipe"), *o = path_of("pipe-out");
   tu_write(p, good, sizeof(good));
   int rc = tu_sh(NULL, NULL, "%s -O0 - -o - < '%s' > '%s' && cmp '%s' '%s'", tu_xeopt(), p, o,
                  p, o);
   ck_assert_int_eq(rc, 0);
   free(p);
   free(o);
}
END_TEST

/* A sub-group copy whose load becomes a block read (4-byte aligned) while
 * its store stays (a block write needs 16 bytes): exactly one access
 * converts.  @ stands for the load's Aligned operand and src's Alignment. */
static const char *one_access_kernel =
   "OpCapability Addresses\n"
   "OpCapability Kernel\n"
   "OpCapability Int64\n"
   "OpCapability SubgroupDispatch\n"
   "OpMemoryModel Physical64 OpenCL\n"
   "OpEntryPoint Kernel %k \"k\" %lid %wgid\n"
   "OpExecutionMode %k LocalSize 16 1 1\n"
   "OpExecutionMode %k SubgroupSize 16\n"
   "OpName %k \"k\"\n"
   "OpName %ps \"ps\"\n"
   "OpDecorate %lid BuiltIn LocalInvocationId\n"
   "OpDecorate %lid Constant\n"
   "OpDecorate %wgid BuiltIn WorkgroupId\n"
   "OpDecorate %wgid Constant\n"
   "OpDecorate %src Alignment @\n"
   "%void = OpTypeVoid\n"
   "%uint = OpTypeInt 32 0\n"
   "%ulong = OpTypeInt 64 0\n"
   "%v3ulong = OpTypeVector %ulong 3\n"
   "%ulong_4 = OpConstant %ulong 4\n"
   "%pin = OpTypePointer Input %v3ulong\n"
   "%pg = OpTypePointer CrossWorkgroup %uint\n"
   "%kfn = OpTypeFunction %void %pg %pg\n"
   "%lid = OpVariable %pin Input\n"
   "%wgid = OpVariable %pin Input\n"
   "%k = OpFunction %void None %kfn\n"
   "%dst = OpFunctionParameter %pg\n"
   "%src = OpFunctionParameter %pg\n"
   "%entry = OpLabel\n"
   "%lv = OpLoad %v3ulong %lid Aligned 32\n"
   "%lx = OpCompositeExtract %ulong %lv 0\n"
   "%wv = OpLoad %v3ulong %wgid Aligned 32\n"
   "%wx = OpCompositeExtract %ulong %wv 0\n"
   "%w16 = OpShiftLeftLogical %ulong %wx %ulong_4\n"
   "%x = OpIAdd %ulong %w16 %lx\n"
   "%ps = OpInBoundsPtrAccessChain %pg %src %x\n"
   "%v = OpLoad %uint %ps Aligned @\n"
   "%pd = OpInBoundsPtrAccessChain %pg %dst %x\n"
   "OpStore %pd %v Aligned 4\n"
   "OpReturn\n"
   "OpFunctionEnd\n";

/* The "changed" flag --report gives pass NAME in the JSON report of a
 * --passes=block-io run on one_access_kernel with alignment align. */
static bool report_changed(const char *name, unsigned align, char **remarks)
{
   char *text = malloc(strlen(one_access_kernel) + 32), *base, *t = text;
   if (!text || asprintf(&base, "one-access-%u", align) < 0)
      abort();
   for (const char *c = one_access_kernel; *c; c++) {
      if (*c == '@')
         t += sprintf(t, "%u", align);
      else
         *t++ = *c;
   }
   *t = 0;
   char *spv = tu_assemble(text, base, NULL), *out = tu_tmp("one-access-out.spv");
   char *rep = tu_tmp("one-access-report.json"), *err = NULL;
   int rc = tu_sh(NULL, &err, "%s --passes=block-io --target=none --report='%s' '%s' -o '%s'",
                  tu_xeopt(), rep, spv, out);
   ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
   size_t n = 0;
   char *json = tu_read(rep, &n);
   cJSON *j = json ? cJSON_ParseWithLength(json, n) : NULL;
   ck_assert_msg(j, "no JSON report in %s", rep);
   const cJSON *p, *found = NULL;
   cJSON_ArrayForEach(p, cJSON_GetObjectItem(j, "passes")) {
      const cJSON *nm = cJSON_GetObjectItem(p, "name");
      if (cJSON_IsString(nm) && !strcmp(nm->valuestring, name))
         found = p;
   }
   ck_assert_msg(found, "no pass %s in the report: %s", name, json);
   bool changed = cJSON_IsTrue(cJSON_GetObjectItem(found, "changed"));
   *remarks = cJSON_PrintUnformatted(cJSON_GetObjectItem(j, "remarks"));
   cJSON_Delete(j);
   free(json);
   free(err);
   free(rep);
   free(out);
   free(spv);
   free(base);
   free(text);
   return changed;
}

/* --report's pass table says whether each pass changed the module: block-io
 * converting one access (and only one: its load) changed it, block-io
 * converting none (a 1-byte aligned source) did not. */
START_TEST(report_pass_changed)
{
   char *rem = NULL;
   ck_assert_msg(report_changed("block-io", 4, &rem), "block-io converted the load: %s", rem);
   ck_assert_ptr_nonnull(strstr(rem, "load via %ps: sub-group block read (SG 16)"));
   ck_assert_ptr_null(strstr(rem, "sub-group block write"));
   free(rem);
   ck_assert_msg(!report_changed("block-io", 1, &rem), "block-io converted nothing: %s", rem);
   ck_assert_ptr_null(strstr(rem, "sub-group block read"));
   free(rem);
}
END_TEST

/* -o naming something that is not a regular file (a FIFO here; /dev/null
 * alike) is written in place: renaming the temporary file over it would
 * replace the FIFO with a file, and as root /dev/null itself. */
START_TEST(output_not_a_regular_file)
{
   char *p = path_of("fifo-in"), *f = path_of("fifo"), *o = path_of("fifo-read");
   tu_write(p, good, sizeof(good));
   int rc = tu_sh(NULL, NULL,
                  "rm -f '%s' && mkfifo '%s' && { cat '%s' > '%s' & } && %s -O0 '%s' -o '%s' && "
                  "wait && test -p '%s' && cmp '%s' '%s'",
                  f, f, f, o, tu_xeopt(), p, f, f, p, o);
   ck_assert_int_eq(rc, 0);
   free(p);
   free(f);
   free(o);
}
END_TEST

/* Runs xeopt ARGS in dir; expects exit 1 and exactly "xeopt: error: MSG"
 * on stderr. */
static void expect_in(const char *dir, const char *args, const char *msg)
{
   char *err = NULL, *want;
   int rc = tu_sh(NULL, &err, "cd '%s' && %s %s", dir, tu_xeopt(), args);
   if (asprintf(&want, "xeopt: error: %s\n", msg) < 0)
      abort();
   ck_assert_msg(rc == 1, "'%s': exit %d (%s)", args, rc, err);
   ck_assert_str_eq(err, want);
   free(want);
   free(err);
}

/* Fails unless the shell condition holds in dir. */
static void check_in(const char *dir, const char *cond)
{
   char *out = NULL;
   int rc = tu_sh(&out, NULL, "cd '%s' && { %s; } 2>&1; r=$?; ls -lA; exit $r", dir, cond);
   ck_assert_msg(rc == 0, "does not hold: %s\n%s", cond, out);
   free(out);
}

/* The module, manifest and report of a run are written as a set: an
 * output that cannot be written stops them all before any is replaced
 * (xeopt once replaced c.spv with the guard-free module, then failed on the
 * manifest).  A read-only file or directory is not written into, even as
 * root; a symbolic link's target is replaced and the link stays; a file
 * keeps its mode; no temporary file is left. */
START_TEST(outputs_written_as_a_set)
{
   char *name, *dir;
   if (asprintf(&name, "outputs-%d", (int)getpid()) < 0)
      abort();
   dir = tu_tmp(name);
   char *in = tu_src("testdata/spv/padding_copy.spv");
   tu_sh(NULL, NULL, "rm -rf '%s' && mkdir -p '%s' && cd '%s' && cp '%s' in.spv && "
         "printf OLD > c.spv && chmod 640 c.spv", dir, dir, dir, in);
   const char *old = "test \"$(cat c.spv)\" = OLD && test \"$(stat -c %a c.spv)\" = 640";
   expect_in(dir, "--assume-padded --manifest=missing/m.json in.spv -o c.spv",
             "missing/m.json: cannot create a file in missing: No such file or directory");
   check_in(dir, old);
   expect_in(dir, "--assume-padded --report=missing/r.html in.spv -o c.spv",
             "missing/r.html: cannot create a file in missing: No such file or directory");
   check_in(dir, old);
   check_in(dir, "test ! -e c.json");
   /* A read-only manifest stops the module too; then a read-only module. */
   check_in(dir, "printf RO > c.json && chmod 444 c.json");
   expect_in(dir, "--assume-padded in.spv -o c.spv",
             "c.json: is read-only: not replaced (make it writable, or remove it)");
   check_in(dir, old);
   check_in(dir, "test \"$(cat c.json)\" = RO && test \"$(stat -c %a c.json)\" = 444 && rm -f c.json");
   check_in(dir, "chmod 444 c.spv");
   expect_in(dir, "in.spv -o c.spv", "c.spv: is read-only: not replaced (make it writable, or remove it)");
   check_in(dir, "test \"$(cat c.spv)\" = OLD && test \"$(stat -c %a c.spv)\" = 444 && chmod 640 c.spv");
   check_in(dir, "mkdir ro && chmod 555 ro");
   expect_in(dir, "--assume-padded --manifest=ro/m.json in.spv -o c.spv",
             "ro/m.json: cannot create a file in ro: Permission denied");
   check_in(dir, old);
   /* Nothing failed so far that left a temporary file. */
   check_in(dir, "test \"$(ls -A | tr '\\n' ' ')\" = 'c.spv in.spv ro '");
   /* Success: the existing file keeps its mode; a link stays a link and
    * its target (mode 600) is replaced. */
   ck_assert_int_eq(tu_sh(NULL, NULL, "cd '%s' && %s --assume-padded in.spv -o c.spv", dir,
                          tu_xeopt()), 0);
   check_in(dir, "test \"$(stat -c %a c.spv)\" = 640 && test -s c.json && ! cmp -s c.spv in.spv");
   check_in(dir, "mkdir t && printf OLD > t/k.spv && chmod 600 t/k.spv && ln -s t/k.spv k.spv");
   ck_assert_int_eq(tu_sh(NULL, NULL, "cd '%s' && %s --assume-padded in.spv -o k.spv", dir,
                          tu_xeopt()), 0);
   check_in(dir, "test -L k.spv && test \"$(readlink k.spv)\" = t/k.spv && cmp -s t/k.spv c.spv && "
                 "test \"$(stat -c %a t/k.spv)\" = 600 && test -z \"$(ls -A t | grep -v '^k.spv$')\"");
   tu_sh(NULL, NULL, "chmod -R u+w '%s'; rm -rf '%s'", dir, dir);
   free(in);
   free(dir);
   free(name);
}
END_TEST

/* A failed write to standard output blames the output, not the input. */
START_TEST(stdout_error_blames_output)
{
   char *p = path_of("full"), *err = NULL;
   tu_write(p, good, sizeof(good));
   int rc = tu_sh(NULL, &err, "%s -O0 '%s' -o - > /dev/full", tu_xeopt(), p);
   ck_assert_int_eq(rc, 1);
   ck_assert_str_eq(err, "xeopt: error: <stdout>: cannot write: No space left on device\n");
   free(err);
   free(p);
}
END_TEST

/* With -o - and no --manifest the manifest is lost: a warning says so
 * when the host must do something, and only then.  Plain -O2's
 * loop-spec-constants makes constants whose defaults keep the input's
 * behaviour: the host may set them, need not (docs/manifest.md), so no
 * warning (there was one, against README's "Without opt-ins the host needs
 * to do nothing"). */
START_TEST(stdout_manifest_warning)
{
   static const char *warning = "xeopt: warning: the host must do what this module's manifest "
                                "says, but the output is standard output: give --manifest=FILE "
                                "to keep the manifest\n";
   static const struct { const char *args, *input; bool warns; } cases[] = {
      { "-O2", "loop_spec_constants_sum", false },
      { "-O2 --specialize=sum:inner=16", "loop_spec_constants_sum", true },
      { "-O2 --assume-padded", "padding_copy", true },
   };
   for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
      char *rel, *in, *err = NULL;
      if (asprintf(&rel, "testdata/spv/%s.spv", cases[k].input) < 0)
         abort();
      in = tu_src(rel);
      int rc = tu_sh(NULL, &err, "%s %s '%s' -o - > /dev/null", tu_xeopt(), cases[k].args, in);
      ck_assert_int_eq(rc, 0);
      ck_assert_str_eq(err, cases[k].warns ? warning : "");
      free(err);
      free(in);
      free(rel);
   }
}
END_TEST

START_TEST(huge_bound_small_memory)
{
   /* A valid module may declare a bound far above its ids (here 2^26 for
    * four ids): per-id tables follow the ids in use, so -O2 runs in 150 MB
    * of address space and writes the module back unchanged. */
#ifdef __SANITIZE_ADDRESS__
   return; /* ASan reserves terabytes of address space: no ulimit -v */
#endif
   const char *vg = getenv("XEOPT_VALGRIND");
   if (vg && !strcmp(vg, "1"))
      return; /* nor does valgrind fit in 150 MB */
   uint32_t w[NGOOD];
   memcpy(w, good, sizeof(good));
   w[3] = 1u << 26;
   char *p = path_of("bigbound"), *o = path_of("bigbound-out");
   tu_write(p, w, sizeof(w));
   int rc = tu_sh(NULL, NULL, "ulimit -v 150000 && %s -O2 '%s' -o '%s' && cmp '%s' '%s'",
                  tu_xeopt(), p, o, p, o);
   ck_assert_int_eq(rc, 0);
   free(p);
   free(o);
}
END_TEST

START_TEST(file_size_limit)
{
   /* ulimit -f 1 allows 1024 bytes: writing a 3 KB module must fail with a
    * message, leave the old output as it was and no temporary file. */
   char *in = tu_src("testdata/spv/convolution.spv");
   char *dir = tu_tmp("fsize"), *out, *err = NULL;
   if (asprintf(&out, "%s/out.spv", dir) < 0)
      abort();
   tu_sh(NULL, NULL, "rm -rf '%s' && mkdir -p '%s'", dir, dir);
   tu_write(out, "OLD", 3);
   int rc = tu_sh(NULL, &err, "ulimit -f 1 && %s -O0 '%s' -o '%s'", tu_xeopt(), in, out);
   ck_assert_int_eq(rc, 1);
   char *want;
   if (asprintf(&want, "xeopt: error: %s: cannot write: File too large\n", out) < 0)
      abort();
   ck_assert_str_eq(err, want);
   size_t n;
   char *kept = tu_read(out, &n);
   ck_assert(kept && n == 3 && !memcmp(kept, "OLD", 3));
   char *ls = NULL;
   tu_sh(&ls, NULL, "ls -A '%s'", dir);
   ck_assert_str_eq(ls, "out.spv\n");
   free(ls);
   free(kept);
   free(want);
   free(err);
   free(out);
   free(dir);
   free(in);
}
END_TEST

/* Malformed input that xeopt passes through: an OpLoad before a function's
 * first OpLabel (the reader keeps it, outside any block, with the
 * parameters).  simplify-cfg folds the cleanup-slot switch on it (as in
 * pass/simplify-cfg-slot-var) but deletes a dead selector's load, and then
 * its slot variable and stores, only when the load is in a block: here
 * the misplaced load, the variable and its stores are all still there. */
START_TEST(simplify_cfg_load_outside_block)
{
   static const char *text =
      "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n"
      "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %guarded \"guarded\" %gid\n"
      "OpName %slot \"slot\"\nOpName %slot_val \"slot_val\"\n"
      "OpDecorate %gid BuiltIn GlobalInvocationId\nOpDecorate %gid Constant\n"
      "%ulong = OpTypeInt 64 0\n%uint = OpTypeInt 32 0\n%bool = OpTypeBool\n"
      "%uint_0 = OpConstant %uint 0\n%uint_1 = OpConstant %uint 1\n"
      "%v3ulong = OpTypeVector %ulong 3\n%ptr_v3in = OpTypePointer Input %v3ulong\n"
      "%ptr_uint = OpTypePointer CrossWorkgroup %uint\n%ptr_fuint = OpTypePointer Function %uint\n"
      "%void = OpTypeVoid\n%fn1 = OpTypeFunction %void %ptr_uint %uint\n"
      "%gid = OpVariable %ptr_v3in Input\n"
      "%guarded = OpFunction %void None %fn1\n%buf = OpFunctionParameter %ptr_uint\n"
      "%n = OpFunctionParameter %uint\n"
      "%slot_val = OpLoad %uint %slot Aligned 4\n"
      "%entry = OpLabel\n%slot = OpVariable %ptr_fuint Function\n"
      "%ids = OpLoad %v3ulong %gid Aligned 32\n%gx = OpCompositeExtract %ulong %ids 0\n"
      "%x = OpUConvert %uint %gx\n%cmp = OpUGreaterThanEqual %bool %x %n\n"
      "OpBranchConditional %cmp %ret %work\n"
      "%ret = OpLabel\nOpStore %slot %uint_1 Aligned 4\nOpBranch %cleanup\n"
      "%work = OpLabel\n%gx64 = OpUConvert %ulong %x\n"
      "%p = OpInBoundsPtrAccessChain %ptr_uint %buf %gx64\nOpStore %p %x Aligned 4\n"
      "OpStore %slot %uint_0 Aligned 4\nOpBranch %cleanup\n"
      "%cleanup = OpLabel\nOpSwitch %slot_val %bad 0 %done 1 %done\n"
      "%done = OpLabel\nOpReturn\n%bad = OpLabel\nOpUnreachable\nOpFunctionEnd\n";
   char *spv = tu_assemble(text, "load-outside-block", NULL);
   char *out = tu_tmp("load-outside-block-out.spv"), *err = NULL;
   int rc = tu_sh(NULL, &err, "%s --passes=simplify-cfg --remarks '%s' -o '%s'", tu_xeopt(), spv, out);
   ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
   ck_assert_msg(strstr(err, "folded 1 branch on known values"), "%s", err);
   char *dis = tu_disassemble_file(out);
   ck_assert_msg(strstr(dis, "%slot_val = OpLoad %uint %slot Aligned 4"), "%s", dis);
   ck_assert_msg(strstr(dis, "%slot = OpVariable"), "%s", dis);
   ck_assert_msg(strstr(dis, "OpStore %slot %uint_1"), "%s", dis);
   ck_assert_msg(!strstr(dis, "OpSwitch"), "%s", dis);
   free(dis);
   free(err);
   free(out);
   free(spv);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("badinput");
   TCase *tc = tcase_create("cases");
   tcase_add_test(tc, good_module_passes);
   tcase_add_test(tc, header_errors);
   tcase_add_test(tc, instruction_errors);
   tcase_add_test(tc, unknown_passed_through);
   tcase_add_test(tc, shader_passed_through);
   tcase_add_test(tc, layout_errors);
   tcase_add_test(tc, file_errors);
   tcase_add_test(tc, usage_errors);
   tcase_add_test(tc, launch_option_errors);
   tcase_add_test(tc, verify_success_is_a_note);
   tcase_add_test(tc, output_equal_to_input);
   tcase_add_test(tc, stdin_stdout);
   tcase_add_test(tc, report_pass_changed);
   tcase_add_test(tc, output_not_a_regular_file);
   tcase_add_test(tc, file_size_limit);
   tcase_add_test(tc, outputs_written_as_a_set);
   tcase_add_test(tc, stdout_error_blames_output);
   tcase_add_test(tc, stdout_manifest_warning);
   tcase_add_test(tc, huge_bound_small_memory);
   tcase_add_test(tc, simplify_cfg_load_outside_block);
   suite_add_tcase(s, tc);
   return tu_run_suite(s) ? 1 : 0;
}
