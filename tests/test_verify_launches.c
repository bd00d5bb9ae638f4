/*
 * --verify's launches (src/exec/verify.c): synthesized launches reach a
 * kernel whose sizes must agree with the NDRange; --verify-launch adds the
 * user's own; the launch variety (partial sub-groups, global offsets,
 * buffers that start 4 bytes into their allocation) catches miscompiles
 * that a plain launch does not; the interpreter runs non-uniform NDRanges.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <malloc.h>
#include <cjson/cJSON.h>
#include "testutil.h"
#include "io.h"
#include "exec.h"

/* Assembles testdata/exec/NAME.spvasm into the scratch directory. */
static char *assemble(const char *name)
{
   char rel[128], out[128];
   snprintf(rel, sizeof rel, "testdata/exec/%s.spvasm", name);
   snprintf(out, sizeof out, "%s.spv", name);
   char *src = tu_src(rel), *spv = tu_tmp(out);
   ck_assert_int_eq(tu_sh(NULL, NULL, "spirv-as --target-env spv1.4 '%s' -o '%s'", src, spv), 0);
   tu_spirv_val(spv);
   free(src);
   return spv;
}

/* xe_exec_verify_ex on two modules; the log in *log (malloc'd). */
static int verify(const char *a, const char *b, unsigned n, const char *user_json, char **log)
{
   xe_module *ma = tu_load(a), *mb = tu_load(b);
   cJSON *user = user_json ? cJSON_Parse(user_json) : NULL;
   ck_assert(!user_json || user);
   size_t len;
   FILE *f = open_memstream(log, &len);
   int rc = xe_exec_verify_ex(ma, mb, n, user, NULL, false, f);
   fclose(f);
   cJSON_Delete(user);
   xe_module_free(ma);
   xe_module_free(mb);
   return rc;
}

/* xeopt -O0 --verify=N on testdata/spv/NAME.spv: every launch of its one
 * kernel, NAME, verified. */
static void all_verified(const char *name, unsigned n)
{
   char rel[96], *err = NULL, want[128];
   snprintf(rel, sizeof rel, "testdata/spv/%s.spv", name);
   char *in = tu_src(rel), *out = tu_tmp("verified.spv");
   int rc = tu_sh(NULL, &err, "%s -O0 --verify=%u '%s' -o '%s'", tu_xeopt(), n, in, out);
   snprintf(want, sizeof want, "kernel %s: %u of %u launches verified", name, n, n);
   ck_assert_msg(rc == 0 && strstr(err, want) && !strstr(err, "NOT verified"), "%s", err);
   free(err);
   free(in);
   free(out);
}

/* out[y * w + x] = in[x * 65536 + y] * 2: the random launches of old had
 * no valid launch (1-D, buffers too small for the compile-time pitch). */
START_TEST(rowmajor_reached)
{
   all_verified("verify_rowmajor", 3);
   all_verified("verify_rowmajor", 6);
}
END_TEST

/* A `uchar *` argument the kernel reads as uints (LLVM's opaque pointers)
 * is filled with small uints: with random bytes, the index it holds is
 * past every buffer and no launch is valid. */
START_TEST(byte_buffer_read_as_uints)
{
   all_verified("verify_byte_params", 3);
}
END_TEST

/* --verify-launch: the user's launch runs (the log says so), implies
 * --verify, and a malformed file is an error at option time. */
START_TEST(user_launch)
{
   char *in = tu_src("testdata/spv/verify_rowmajor.spv"), *out = tu_tmp("user.spv");
   char *js = tu_tmp("user.json"), *bad = tu_tmp("bad.json"), *err = NULL;
   const char *j = "[{\"kernel\": \"verify_rowmajor\", \"global\": [8, 4], \"local\": [8, 2],"
                   " \"offset\": [3, 1], \"args\": [\"buf:float:64\", \"buf:float:720000:random\","
                   " \"int:9\"]}, {\"kernel\": \"not_here\", \"global\": [1]}]";
   tu_write(js, j, strlen(j));
   int rc = tu_sh(NULL, &err, "%s -O0 --verify-launch=%s '%s' -o '%s'", tu_xeopt(), js, in, out);
   ck_assert_msg(rc == 0, "%s", err);
   ck_assert_msg(strstr(err, "kernel verify_rowmajor: 3 of 3 launches verified, and 1 user launch"),
                 "%s", err);
   free(err);
   rc = tu_sh(NULL, &err, "%s -O0 --verify=1 --verify-launch %s '%s' -o '%s'", tu_xeopt(), js, in,
              out);
   ck_assert_msg(rc == 0 && strstr(err, "1 of 1 launches verified, and 1 user launch"), "%s", err);
   free(err);
   /* A launch the input fails on is a warning, not a difference. */
   const char *oob = "{\"kernel\": \"verify_rowmajor\", \"global\": [8, 4],"
                     " \"args\": [\"buf:float:64\", \"buf:float:16\", \"int:8\"]}";
   tu_write(js, oob, strlen(oob));
   rc = tu_sh(NULL, &err, "%s -O0 --verify=1 --verify-launch=%s '%s' -o '%s'", tu_xeopt(), js, in,
              out);
   ck_assert_msg(rc == 0 && strstr(err, "user launch 1 not verified, the input fails on it"), "%s",
                 err);
   free(err);
   /* Malformed: caught when the option is read, or when the launch runs. */
   tu_write(bad, "{\"global\": [4]}", 15);
   rc = tu_sh(NULL, &err, "%s -O0 --verify-launch=%s '%s' -o '%s'", tu_xeopt(), bad, in, out);
   ck_assert_msg(rc == 1 && strstr(err, "every launch needs \"kernel\""), "%s", err);
   free(err);
   const char *few = "{\"kernel\": \"verify_rowmajor\", \"global\": [4], \"args\": [\"int:3\"]}";
   tu_write(bad, few, strlen(few));
   rc = tu_sh(NULL, &err, "%s -O0 --verify-launch=%s '%s' -o '%s'", tu_xeopt(), bad, in, out);
   ck_assert_msg(rc != 0 && strstr(err, "gives 1 arguments, the kernel takes 3"), "%s", err);
   free(err);
   rc = tu_sh(NULL, &err, "%s -O0 --verify-launch=/nonexistent.json '%s' -o '%s'", tu_xeopt(), in,
              out);
   ck_assert_msg(rc == 1 && strstr(err, "cannot read"), "%s", err);
   free(err);
   free(in); free(out); free(js); free(bad);
}
END_TEST

/* A manifest that names an argument the kernel does not have (written
 * for another module, or by hand) stops verification with exit 2 and says
 * which; the kernel's last argument is still a name it may use. */
START_TEST(manifest_missing_argument)
{
   char *in = tu_src("testdata/spv/verify_rowmajor.spv"), *mf = tu_tmp("missing_arg.json");
   static const char *entry[] = {
      "\"padding\": [{\"kind\": \"buffer\", \"arg\": %d, \"name\": \"x\", \"element_size\": 4,"
      " \"min_elements\": {\"text\": \"0\", \"terms\": []}, \"zero_fill\": false,"
      " \"distinct_allocation\": true, \"requires\": {\"nonnegative_args\": [],"
      " \"max_elements\": 2147483648}}]",
      "\"alignment\": [{\"pass\": \"block-io\", \"requirement\": \"argument_alignment\","
      " \"argument\": %d, \"name\": \"x\", \"bytes\": 16, \"origin\": \"--assume-aligned\"}]",
   };
   static const char *section[] = {"padding", "alignment"};
   for (unsigned e = 0; e < 2; e++)
      for (int arg = 2; arg <= 3; arg++) {
         char body[512], *js = NULL, *err = NULL;
         snprintf(body, sizeof body, entry[e], arg);
         if (asprintf(&js, "{\"xeopt_manifest\": 1, \"kernels\": {\"verify_rowmajor\": {%s}}}",
                      body) < 0)
            abort();
         tu_write(mf, js, strlen(js));
         int rc = tu_sh(NULL, &err, "%s run --compare '%s' '%s' --launches 1 --manifest '%s'",
                        tu_xeopt(), in, in, mf);
         if (arg == 2) {
            ck_assert_msg(rc == 0 && strstr(err, "agree"), "%s %d: %s", section[e], arg, err);
         } else {
            char want[160];
            snprintf(want, sizeof want, "cannot verify kernel verify_rowmajor against the "
                     "manifest: its %s section names argument 3, the kernel has 3 parameters",
                     section[e]);
            ck_assert_msg(rc == 2 && strstr(err, want), "%s %d: rc %d: %s", section[e], arg, rc,
                          err);
         }
         free(err);
         free(js);
      }
   free(in);
   free(mf);
}
END_TEST

/* A padding entry sizes only the argument it names: plant_copy's `in`
 * (argument 1) padded to at least 100000 elements gets a buffer of that
 * many (400000 bytes past its start) in --compare's launches, while `out`
 * (argument 0, no padding entry) keeps its ordinary size, far smaller.
 * The planted plant_copy_no_offset differs on an offset launch, so the
 * log prints the launch with both sizes. */
START_TEST(manifest_padding_sizes_its_argument)
{
   char *a = assemble("plant_copy"), *b = assemble("plant_copy_no_offset");
   char *mf = tu_tmp("pad_one.json"), *err = NULL;
   const char *js =
      "{\"xeopt_manifest\": 1, \"kernels\": {\"plant_copy\": {\"padding\": [{\"kind\": \"buffer\","
      " \"arg\": 1, \"name\": \"in\", \"element_size\": 4, \"min_elements\": {\"text\": \"100000\","
      " \"terms\": [{\"coeff\": 100000}]}, \"zero_fill\": false, \"distinct_allocation\": true,"
      " \"requires\": {\"nonnegative_args\": [], \"max_elements\": 2147483648}}]}}}";
   tu_write(mf, js, strlen(js));
   int rc = tu_sh(NULL, &err, "%s run --compare '%s' '%s' --launches 3 --manifest '%s'",
                  tu_xeopt(), a, b, mf);
   ck_assert_msg(rc == 1 && strstr(err, "argument 0 differs"), "rc %d: %s", rc, err);
   const char *a0 = strstr(err, " arg0=buf["), *a1 = strstr(err, " arg1=buf[");
   ck_assert_msg(a0 && a1, "%s", err);
   unsigned long long s0 = strtoull(a0 + 10, NULL, 10), s1 = strtoull(a1 + 10, NULL, 10);
   ck_assert_msg(s1 >= 400000, "arg1 %llu bytes: %s", s1, err);
   ck_assert_msg(s0 < 100000, "arg0 %llu bytes, sized by arg1's padding: %s", s0, err);
   free(err); free(mf); free(a); free(b);
}
END_TEST

/* --verify frees every launch's buffers, the first argument's included:
 * verifying the same user launch again (a 4 MB argument 0, held by the
 * launch, the input's run and the output's run) leaves the heap as it
 * was.  mallinfo2 sees glibc's heap; under ASan it reads zeros and
 * LeakSanitizer checks the same instead. */
START_TEST(verify_frees_arguments)
{
   char *a = assemble("plant_copy"), *log = NULL;
   const char *big =
      "[{\"kernel\": \"plant_copy\", \"global\": [64], \"local\": [32], \"subgroup_size\": 16,"
      " \"args\": [\"buf:uint:1000000\", \"buf:uint:64:random\"]}]";
   ck_assert_int_eq(verify(a, a, 0, big, &log), 0);
   free(log);
   struct mallinfo2 before = mallinfo2();
   for (int r = 0; r < 3; r++) {
      ck_assert_int_eq(verify(a, a, 0, big, &log), 0);
      ck_assert_msg(strstr(log, "1 user launch"), "%s", log);
      free(log);
   }
   struct mallinfo2 after = mallinfo2();
   size_t b = before.uordblks + before.hblkhd, f = after.uordblks + after.hblkhd;
   ck_assert_msg(f < b + 65536, "heap grew from %zu to %zu bytes", b, f);
   free(a);
}
END_TEST

/* A plain launch: one 1-D work-group of 32, sub-group 16, no offset, every
 * buffer at the start of its allocation. */
static const char *plain_launch =
   "[{\"kernel\": \"plant_copy\", \"global\": [64], \"local\": [32], \"subgroup_size\": 16,"
   " \"args\": [\"buf:uint:64\", \"buf:uint:64:random\"]}]";

/* Miscompiles that only show under one launch feature: a plain launch
 * passes them, the synthesized launches catch each (and say on which
 * launch).  n = 0 runs only the user's launches. */
static void planted(const char *broken, const char *expect, const char *feature)
{
   char *a = assemble("plant_copy"), *b = assemble(broken), *log = NULL;
   int rc = verify(a, b, 0, plain_launch, &log);
   ck_assert_msg(rc == 0, "%s: a plain launch should not show it: %s", broken, log);
   free(log);
   rc = verify(a, b, 3, NULL, &log);
   ck_assert_msg(rc == 1, "%s: not caught: %s", broken, log);
   ck_assert_msg(strstr(log, expect) && strstr(log, feature), "%s: %s", broken, log);
   free(log);
   /* The reference against itself: no finding, every launch verified. */
   rc = verify(a, a, 3, NULL, &log);
   ck_assert_msg(rc == 0 && strstr(log, "3 of 3 launches verified"), "%s", log);
   free(log);
   free(a);
   free(b);
}

START_TEST(planted_offset)
{
   planted("plant_copy_no_offset", "kernel plant_copy: argument 0 differs", "--offset ");
}
END_TEST

START_TEST(planted_partial_subgroup)
{
   planted("plant_copy_blockread", "block read/write in a partial sub-group", "--subgroup-size 32");
}
END_TEST

START_TEST(planted_unaligned_start)
{
   planted("plant_copy_unaligned", "kernel plant_copy: argument 0 differs", "starting at byte 4");
}
END_TEST

/* A difference in a buffer of 16-byte elements (float4) is reported by
 * byte: the element index and value are those of the differing byte, as
 * for any element wider than the 8 bytes a value is printed with.  Here
 * out[gid] = (1, 2, 3, 4) against (1, 2, 3, 5): 4.0f = 0x40800000 and
 * 5.0f = 0x40a00000 first differ in byte 14 of the first element written
 * (element 14 of a float4 buffer read as bytes, 0x80 against 0xa0). */
static const char *store_v4 =
   "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n"
   "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %main \"store_v4\" %gid\n"
   "OpDecorate %gid BuiltIn GlobalInvocationId\nOpDecorate %gid Constant\n"
   "%u64 = OpTypeInt 64 0\n%v3 = OpTypeVector %u64 3\n%pin = OpTypePointer Input %v3\n"
   "%f32 = OpTypeFloat 32\n%v4 = OpTypeVector %f32 4\n%void = OpTypeVoid\n"
   "%pg = OpTypePointer CrossWorkgroup %v4\n%fn = OpTypeFunction %void %pg\n"
   "%f1 = OpConstant %f32 1\n%f2 = OpConstant %f32 2\n%f3 = OpConstant %f32 3\n"
   "%fl = OpConstant %f32 LAST\n%c = OpConstantComposite %v4 %f1 %f2 %f3 %fl\n"
   "%gid = OpVariable %pin Input\n"
   "%main = OpFunction %void None %fn\n%out = OpFunctionParameter %pg\n%entry = OpLabel\n"
   "%g = OpLoad %v3 %gid Aligned 32\n%x = OpCompositeExtract %u64 %g 0\n"
   "%p = OpInBoundsPtrAccessChain %pg %out %x\nOpStore %p %c Aligned 16\n"
   "OpReturn\nOpFunctionEnd\n";

START_TEST(wide_element_difference_by_byte)
{
   char *ta = strdup(store_v4), *tb = strdup(store_v4);
   memcpy(strstr(ta, "LAST"), "4   ", 4);
   memcpy(strstr(tb, "LAST"), "5   ", 4);
   char *a = tu_assemble(ta, "store_v4_a", NULL), *b = tu_assemble(tb, "store_v4_b", NULL);
   char *log = NULL;
   int rc = verify(a, b, 1, NULL, &log);
   ck_assert_int_eq(rc, 1);
   /* The launch's buffer may start a few bytes into its allocation: the
    * element is the byte counted from the start, whatever the start. */
   char *at = strstr(log, "kernel store_v4: argument 0 differs at element ");
   ck_assert_msg(at, "%s", log);
   unsigned long long el, by;
   unsigned in, opt;
   ck_assert_msg(sscanf(at, "kernel store_v4: argument 0 differs at element %llu (byte %llu): "
                        "input 0x%x, optimized 0x%x", &el, &by, &in, &opt) == 4, "%s", log);
   ck_assert_uint_eq(el, by);
   ck_assert_uint_eq(by % 16, 14);
   ck_assert_uint_eq(in, 0x80);
   ck_assert_uint_eq(opt, 0xa0);
   free(log);
   free(a);
   free(b);
   free(ta);
   free(tb);
}
END_TEST

/* The interpreter runs a non-uniform NDRange (OpenCL 2.0): the partial
 * group's work-items run, the built-ins tell actual from enqueued sizes. */
START_TEST(nonuniform_ndrange)
{
   char *spv = tu_tmp("sizes.spv"), *src = tu_tmp("sizes.spvasm"), *out = NULL, *err = NULL;
   /* out[gid] = local_size * 10000 + enqueued_local_size * 100 + sub_group_size */
   const char *text =
      "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n"
      "OpMemoryModel Physical64 OpenCL\n"
      "OpEntryPoint Kernel %k \"sizes\" %gid %ls %els %sgs\n"
      "OpDecorate %gid BuiltIn GlobalInvocationId\nOpDecorate %ls BuiltIn WorkgroupSize\n"
      "OpDecorate %els BuiltIn EnqueuedWorkgroupSize\nOpDecorate %sgs BuiltIn SubgroupSize\n"
      "%ulong = OpTypeInt 64 0\n%uint = OpTypeInt 32 0\n%v3 = OpTypeVector %ulong 3\n"
      "%p3 = OpTypePointer Input %v3\n%p1 = OpTypePointer Input %uint\n%void = OpTypeVoid\n"
      "%gp = OpTypePointer CrossWorkgroup %ulong\n%fn = OpTypeFunction %void %gp\n"
      "%c100 = OpConstant %ulong 100\n%c10000 = OpConstant %ulong 10000\n"
      "%gid = OpVariable %p3 Input\n%ls = OpVariable %p3 Input\n%els = OpVariable %p3 Input\n"
      "%sgs = OpVariable %p1 Input\n"
      "%k = OpFunction %void None %fn\n%out = OpFunctionParameter %gp\n%e = OpLabel\n"
      "%g3 = OpLoad %v3 %gid\n%g = OpCompositeExtract %ulong %g3 0\n"
      "%l3 = OpLoad %v3 %ls\n%l = OpCompositeExtract %ulong %l3 0\n"
      "%e3 = OpLoad %v3 %els\n%el = OpCompositeExtract %ulong %e3 0\n"
      "%s32 = OpLoad %uint %sgs\n%s = OpUConvert %ulong %s32\n"
      "%a = OpIMul %ulong %l %c10000\n%b = OpIMul %ulong %el %c100\n%ab = OpIAdd %ulong %a %b\n"
      "%v = OpIAdd %ulong %ab %s\n%p = OpInBoundsPtrAccessChain %gp %out %g\n"
      "OpStore %p %v\nOpReturn\nOpFunctionEnd\n";
   tu_write(src, text, strlen(text));
   ck_assert_int_eq(tu_sh(NULL, NULL, "spirv-as --target-env spv1.4 '%s' -o '%s'", src, spv), 0);
   int rc = tu_sh(&out, &err, "%s run '%s' --kernel sizes --global 21 --local 8 --subgroup-size 8 "
                  "--arg 0=buf:long:21 --print-all", tu_xeopt(), spv);
   ck_assert_msg(rc == 0, "%s", err);
   /* Groups of 8, 8 and 5: the last one's local size is 5, its enqueued
    * size 8, its one sub-group has 5 lanes. */
   ck_assert_msg(strstr(out, "arg 0 (long[21]): 80808 80808 80808 80808 80808 80808 80808 80808 "
                             "80808 80808 80808 80808 80808 80808 80808 80808 50805 50805 50805 "
                             "50805 50805"), "%s", out);
   free(out); free(err); free(spv); free(src);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("verify_launches");
   TCase *tc = tcase_create("launches");
   tcase_set_timeout(tc, 300);
   tcase_add_test(tc, rowmajor_reached);
   tcase_add_test(tc, byte_buffer_read_as_uints);
   tcase_add_test(tc, user_launch);
   tcase_add_test(tc, manifest_missing_argument);
   tcase_add_test(tc, manifest_padding_sizes_its_argument);
   tcase_add_test(tc, verify_frees_arguments);
   tcase_add_test(tc, planted_offset);
   tcase_add_test(tc, planted_partial_subgroup);
   tcase_add_test(tc, planted_unaligned_start);
   tcase_add_test(tc, wide_element_difference_by_byte);
   tcase_add_test(tc, nonuniform_ndrange);
   suite_add_tcase(s, tc);
   return tu_run_suite(s) ? 1 : 0;
}
