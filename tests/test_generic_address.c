/*
 * generic-address: facts of src/analysis/address_spaces.c on the clang modules of
 * testdata/kernels/generic_address.cl, and IGC evidence that a generic
 * access costs a run-time address-space check which the pass removes.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "address_spaces.h"
#include "pass.h"
#include "passes.h"
#include "io.h"
#include "testutil.h"

static xe_function *fn_named(xe_module *m, const char *name)
{
   xe_foreach_fn(f, m) {
      const char *n = xe_name(m, xe_function_id(f));
      if (n && !strcmp(n, name) && f->first)
         return f;
   }
   ck_abort_msg("no function %s", name);
   return NULL;
}

/* The space of the pointer operand of the first load/store in f that
 * goes through a Generic pointer; sets *conflict. */
static int first_generic_access(xe_module *m, xe_function *f, const int *ps, bool *conflict)
{
   xe_as_info a;
   xe_as_analyze(m, f, ps, m->bound, &a);
   int s = 1000;
   xe_foreach_block(b, f) {
      xe_foreach_inst(i, &b->insts) {
         if ((i->opcode != SpvOpLoad && i->opcode != SpvOpStore) || s != 1000)
            continue;
         xe_inst *d = xe_def(m, xe_op(i, 0));
         if (d && xe_is_generic_ptr_type(m, d->type_id)) {
            s = xe_as_space(&a, xe_op(i, 0));
            *conflict = xe_as_conflict(&a, xe_op(i, 0));
         }
      }
   }
   xe_as_free(&a);
   ck_assert_msg(s != 1000, "no generic access");
   return s;
}

START_TEST(o2_inlined_facts)
{
   xe_module *m = tu_load_src("testdata/spv/generic_address_O2.spv");
   bool c = false;
   /* The inlined memcpy: first generic access reads the global source. */
   ck_assert_int_eq(first_generic_access(m, fn_named(m, "generic_address_memcpy"), NULL, &c),
                    SpvStorageClassCrossWorkgroup);
   ck_assert(!c);
   /* The select of a global and a local pointer really holds both. */
   ck_assert_int_eq(first_generic_access(m, fn_named(m, "generic_address_phi"), NULL, &c), XE_AS_UNKNOWN);
   ck_assert(c);
   xe_module_free(m);
}
END_TEST

START_TEST(o0_private_and_params)
{
   xe_module *m = tu_load_src("testdata/spv/generic_address_O0.spv");
   uint8_t *conf;
   /* clang -O0 exports every helper: another module may call it with any
    * space, so nothing is assumed about its parameters... */
   int *ps = xe_as_param_spaces(m, &conf);
   xe_foreach_inst(p, &fn_named(m, "generic_xtoy_g")->params)
      if (xe_is_generic_ptr_type(m, p->type_id))
         ck_assert_int_eq(ps[p->result_id], XE_AS_UNKNOWN);
   free(ps);
   free(conf);
   /* ...until the module is closed (what the pass's internal copies are). */
   xe_foreach_inst_safe(d, nx, &m->sec[XE_SEC_ANNOTATION])
      if (d->opcode == SpvOpDecorate && xe_op(d, 1) == SpvDecorationLinkageAttributes)
         xe_inst_delete(m, d);
   xe_module_invalidate(m);
   ps = xe_as_param_spaces(m, &conf);
   /* generic_xtoy_g is only called with global pointers; generic_xtoy gets
    * a global and a local source, and a global destination. */
   xe_function *g = fn_named(m, "generic_xtoy_g"), *x = fn_named(m, "generic_xtoy");
   int seen = 0;
   xe_foreach_inst(p, &g->params)
      if (xe_is_generic_ptr_type(m, p->type_id)) {
         ck_assert_int_eq(ps[p->result_id], SpvStorageClassCrossWorkgroup);
         seen++;
      }
   ck_assert_int_eq(seen, 2);
   xe_inst *in = x->params.first, *out = in->next;
   ck_assert_int_eq(ps[in->result_id], XE_AS_UNKNOWN);
   ck_assert(conf[in->result_id]);
   ck_assert_int_eq(ps[out->result_id], SpvStorageClassCrossWorkgroup);
   /* -O0 keeps pointers in private variables: the reload sees the store. */
   bool c = false;
   ck_assert_int_eq(first_generic_access(m, g, ps, &c), SpvStorageClassCrossWorkgroup);
   ck_assert_int_eq(first_generic_access(m, fn_named(m, "generic_address_private_var"), ps, &c),
                    SpvStorageClassCrossWorkgroup);
   ck_assert_int_eq(first_generic_access(m, fn_named(m, "generic_address_phi"), ps, &c), XE_AS_UNKNOWN);
   ck_assert(c);
   free(ps);
   free(conf);
   xe_module_free(m);
}
END_TEST

/* The casts generic-address leaves in each kernel's body (the function
 * where its work happens), after running with the judge keeping `exclude`'s
 * original (as --isa-check does) and without. */
static void casts_per_kernel(const char *spv, const char *exclude, unsigned *count, unsigned max,
                             unsigned *nk)
{
   xe_module *m = tu_load(spv);
   xe_options o;
   xe_options_init(&o);
   o.target = XE_TARGET_NONE;
   xe_judge j;
   xe_judge_init(&j, &o, XE_JUDGE_MODEL);
   if (exclude)
      xe_judge_set(&j, exclude, XE_JUDGE_ORIGINAL);
   xe_remarks r = { .pass = "generic-address" };
   xe_ctx ctx = { .module = m, .options = &o, .remarks = &r, .judge = &j };
   xeopt_pass_generic_address(&ctx);
   xe_kernel *ks = xe_kernels_all(m, nk);
   ck_assert_uint_le(*nk, max);
   for (unsigned k = 0; k < *nk; k++) {
      count[k] = 0;
      xe_foreach_block(b, ks[k].body)
         xe_foreach_inst(i, &b->insts)
            count[k] += i->opcode == SpvOpGenericCastToPtr;
   }
   free(ks);
   xe_remarks_free(&r);
   xe_judge_free(&j);
   xe_options_free(&o);
   xe_module_free(m);
}

/* A kernel the driver excludes keeps its body; every other kernel, the
 * first one listed included, is rewritten as when none is excluded. */
START_TEST(excluded_kernel_only)
{
   char *src = tu_src("tests/generic_address/two_kernels.spvasm"), *spv = tu_tmp("two_kernels.spv");
   ck_assert_int_eq(tu_sh(NULL, NULL, "spirv-as --target-env spv1.4 '%s' -o '%s'", src, spv), 0);
   unsigned ref[8], got[8], nk, nk2;
   casts_per_kernel(spv, NULL, ref, 8, &nk);
   xe_module *m = tu_load(spv);
   xe_kernel *ks = xe_kernels_all(m, &nk2);
   ck_assert_uint_eq(nk, nk2);
   unsigned rewritten = 0;
   for (unsigned k = 0; k < nk; k++)
      rewritten += ref[k] > 0;
   ck_assert_uint_eq(rewritten, nk);
   for (unsigned e = 0; e < nk; e++) {
      casts_per_kernel(spv, ks[e].name, got, 8, &nk2);
      for (unsigned k = 0; k < nk; k++)
         ck_assert_msg(got[k] == (k == e ? 0 : ref[k]), "excluding %s: %s has %u casts, not %u",
                       ks[e].name, ks[k].name, got[k], k == e ? 0 : ref[k]);
   }
   free(ks);
   xe_module_free(m);
   free(src);
   free(spv);
}
END_TEST

/* Exported helpers must work for callers in other modules: the pass
 * leaves their words alone and sends this module's calls to copies. */
START_TEST(exported_helper_kept)
{
   char *after = tu_tmp("exported.spv");
   char *in = tu_src("testdata/spv/generic_address_O0.spv");
   ck_assert_int_eq(tu_sh(NULL, NULL, "'%s' --passes=generic-address '%s' -o '%s'", tu_xeopt(), in, after), 0);
   xe_module *a = tu_load_src("testdata/spv/generic_address_O0.spv");
   size_t n;
   char *bytes = tu_read(after, &n);
   char *err = NULL;
   xe_module *b = xe_read(bytes, n, &err);
   ck_assert_msg(b, "%s", err ? err : "");
   static const char *helpers[] = { "generic_xtoy", "generic_xtoy_g" };
   for (int h = 0; h < 2; h++) {
      xe_function *fa = fn_named(a, helpers[h]), *fb = fn_named(b, helpers[h]);
      ck_assert_uint_eq(xe_function_callers(b, fb), 0);
      xe_block *bb = fb->first;
      xe_foreach_block(ba, fa) {
         ck_assert_ptr_nonnull(bb);
         xe_inst *ib = bb->insts.first;
         xe_foreach_inst(ia, &ba->insts) {
            ck_assert_msg(ib && ib->nwords == ia->nwords &&
                          !memcmp(ib->words, ia->words, ia->nwords * sizeof(uint32_t)),
                          "%s changed", helpers[h]);
            ib = ib->next;
         }
         ck_assert_ptr_null(ib);
         bb = bb->next;
      }
      ck_assert_ptr_null(bb);
   }
   xe_module_free(a);
   xe_module_free(b);
   free(bytes);
   free(in);
   free(after);
}
END_TEST

/* IGC lowers an access through a generic pointer to a check of the
 * address tag (and with 0xE0000000, compare against the local window)
 * and two paths, SLM and global.  Counts the tag masks in one kernel. */
/* IGC keeps the -O0 helper as a subroutine whose loop closes with a jmpi
 * back; returns the largest such loop body (instructions), or with
 * count_tags the number of tag masks. */
static int isa_stat(const char *spv, const char *dev, const char *platform, const char *kernel,
                    bool count_tags)
{
   char *dir = tu_tmp(dev);
   char *out = NULL;
   int rc = tu_sh(&out, NULL,
                  "mkdir -p '%s' && cd '%s' && rm -rf d k_* && ocloc compile -spirv_input -file '%s' -device %s -output k >/dev/null 2>&1 && "
                  "ocloc disasm -file k_*%s*.bin -dump d -device %s >/dev/null 2>&1 && "
                  "iga64 -d -p=%s d/%s_KernelHeap.dat > isa.txt; %s",
                  dir, dir, spv, dev, dev, dev, platform, kernel,
                  count_tags ? "grep -c -- '-536870912' isa.txt"
                             : "awk '/^L[0-9]+:/{l=$1;sub(\":\",\"\",l);p[l]=n;next}"
                               "/^ *(\\(|[a-z])/{n++;if($0~/jmpi/){match($0,/L[0-9]+/);t=substr($0,RSTART,RLENGTH);"
                               "if((t in p)&&n-p[t]>b)b=n-p[t]}}END{print b+0}' isa.txt");
   ck_assert_msg(out, "ocloc/iga64 did not run (rc %d)", rc);
   int n = atoi(out);
   free(out);
   free(dir);
   return n;
}

START_TEST(isa_generic_check_removed)
{
   if (!tu_have("ocloc") || !tu_have("iga64")) {
      ck_assert_msg(!getenv("XEOPT_REQUIRE_OCLOC") || strcmp(getenv("XEOPT_REQUIRE_OCLOC"), "1"),
                    "ocloc required");
      return;
   }
   char *in = tu_src("testdata/spv/generic_address_O0.spv");
   char *after = tu_tmp("after.spv");
   ck_assert_int_eq(tu_sh(NULL, NULL, "'%s' --passes=generic-address '%s' -o '%s'", tu_xeopt(), in, after), 0);
   static const char *devs[][2] = { { "dg2", "12p71" }, { "pvc", "12p72" } };
   for (int d = 0; d < 2; d++) {
      const char *dv = devs[d][0], *pl = devs[d][1];
      /* The helper called with a global and a local source pays the check... */
      ck_assert_int_ge(isa_stat(in, dv, pl, "generic_address_memcpy", true), 1);
      /* ...until it is cloned per space. */
      ck_assert_int_eq(isa_stat(after, dv, pl, "generic_address_memcpy", true), 0);
      /* A select of global and local must keep it. */
      ck_assert_int_ge(isa_stat(after, dv, pl, "generic_address_phi", true), 1);
      /* Per iteration the copy loop gets shorter (two loops now, the
       * larger one still below the generic loop). */
      int lb = isa_stat(in, dv, pl, "generic_address_memcpy", false);
      int la = isa_stat(after, dv, pl, "generic_address_memcpy", false);
      ck_assert_msg(la > 0 && la < lb, "%s: loop body %d -> %d", dv, lb, la);
   }
   free(in);
   free(after);
}
END_TEST

/* bench/isa --stats: the instruction count of kernel in spv on dev. */
static int isa_instructions(const char *spv, const char *dev, const char *kernel)
{
   char *isa = tu_src("bench/isa"), *out = NULL;
   int rc = tu_sh(&out, NULL, "'%s' --stats '%s' %s | awk '$1 == \"%s\" { print $2 }'", isa, spv,
                  dev, kernel);
   ck_assert_msg(rc == 0 && out && atoi(out) > 0, "bench/isa --stats %s %s failed", spv, dev);
   int n = atoi(out);
   free(out);
   free(isa);
   return n;
}

/* The -O0 helper called with a global and a local source: its copies lose
 * the check and, not DontInline, are inlined; the kernel gets shorter. */
START_TEST(isa_helper_copies_shorter)
{
   if (!tu_have("ocloc") || !tu_have("iga64")) {
      ck_assert_msg(!getenv("XEOPT_REQUIRE_OCLOC") || strcmp(getenv("XEOPT_REQUIRE_OCLOC"), "1"),
                    "ocloc required");
      return;
   }
   char *in = tu_src("testdata/spv/generic_helper.spv"), *after = tu_tmp("helper.spv");
   ck_assert_int_eq(tu_sh(NULL, NULL, "'%s' -O2 -q '%s' -o '%s'", tu_xeopt(), in, after), 0);
   static const char *devs[][2] = { { "dg2", "12p71" }, { "pvc", "12p72" } };
   for (int d = 0; d < 2; d++) {
      int b = isa_instructions(in, devs[d][0], "generic_helper");
      int a = isa_instructions(after, devs[d][0], "generic_helper");
      ck_assert_msg(a < b, "%s: %d -> %d instructions", devs[d][0], b, a);
      ck_assert_int_ge(isa_stat(in, devs[d][0], devs[d][1], "generic_helper", true), 1);
      ck_assert_int_eq(isa_stat(after, devs[d][0], devs[d][1], "generic_helper", true), 0);
   }
   free(in);
   free(after);
}
END_TEST

/* canonicalize's byte-chain fold stays within one storage class: a
 * global byte chain `src + 4 * id` cast straight to a Generic float* (%fp)
 * keeps its chain and its one cast (the class change stays where the
 * input put it, for generic-address to see), while the same chain cast to
 * a global float* (%gp) becomes an element chain.  IGC rejects the
 * cross-class OpBitcast itself, so this cannot be a tests/passes file:
 * xeopt (--validate --verify) runs here and the output is disassembled. */
START_TEST(canonicalize_byte_chain_other_class)
{
   static const char *text =
      "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\nOpCapability Int8\n"
      "OpCapability GenericPointer\nOpMemoryModel Physical64 OpenCL\n"
      "OpEntryPoint Kernel %k \"k\" %gid\nOpName %k \"k\"\nOpName %src \"src\"\nOpName %id \"id\"\n"
      "OpName %bytep \"bytep\"\nOpName %fp \"fp\"\nOpName %gp \"gp\"\nOpName %v \"v\"\nOpName %w \"w\"\n"
      "OpDecorate %gid BuiltIn GlobalInvocationId\nOpDecorate %gid Constant\n"
      "%ulong = OpTypeInt 64 0\n%uchar = OpTypeInt 8 0\n%bool = OpTypeBool\n%void = OpTypeVoid\n"
      "%float = OpTypeFloat 32\n%v3ulong = OpTypeVector %ulong 3\n"
      "%_ptr_Input_v3ulong = OpTypePointer Input %v3ulong\n"
      "%_ptr_CrossWorkgroup_float = OpTypePointer CrossWorkgroup %float\n"
      "%_ptr_Generic_float = OpTypePointer Generic %float\n"
      "%_ptr_CrossWorkgroup_uchar = OpTypePointer CrossWorkgroup %uchar\n"
      "%kfn = OpTypeFunction %void %_ptr_CrossWorkgroup_float %_ptr_CrossWorkgroup_uchar %ulong\n"
      "%ulong_4 = OpConstant %ulong 4\n%gid = OpVariable %_ptr_Input_v3ulong Input\n"
      "%k = OpFunction %void None %kfn\n%dst = OpFunctionParameter %_ptr_CrossWorkgroup_float\n"
      "%src = OpFunctionParameter %_ptr_CrossWorkgroup_uchar\n%n = OpFunctionParameter %ulong\n"
      "%entry = OpLabel\n%ids = OpLoad %v3ulong %gid Aligned 32\n%id = OpCompositeExtract %ulong %ids 0\n"
      "%lt = OpULessThan %bool %id %n\nOpBranchConditional %lt %body %end\n"
      "%body = OpLabel\n%off = OpIMul %ulong %id %ulong_4\n"
      "%bytep = OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup_uchar %src %off\n"
      "%fp = OpBitcast %_ptr_Generic_float %bytep\n%v = OpLoad %float %fp Aligned 4\n"
      "%gp = OpBitcast %_ptr_CrossWorkgroup_float %bytep\n%w = OpLoad %float %gp Aligned 4\n"
      "%sum = OpFAdd %float %v %w\n%dp = OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup_float %dst %id\n"
      "OpStore %dp %sum Aligned 4\nOpBranch %end\n%end = OpLabel\nOpReturn\nOpFunctionEnd\n";
   char *in = tu_assemble(text, "byte_chain_other_class", NULL);
   char *after = tu_tmp("byte_chain_other_class.out.spv");
   char *rem = NULL, *dis = NULL;
   ck_assert_int_eq(tu_sh(NULL, &rem, "'%s' --validate --verify --remarks --passes=canonicalize '%s' -o '%s'",
                          tu_xeopt(), in, after), 0);
   ck_assert_msg(strstr(rem, "[canonicalize] applied: rewrote 1 instruction(s) in kernel k"), "remarks: %s", rem);
   ck_assert_int_eq(tu_sh(&dis, NULL, "spirv-dis '%s'", after), 0);
   ck_assert_msg(strstr(dis, "%bytep = OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup_uchar %src %"), "%s", dis);
   ck_assert_msg(strstr(dis, "%fp = OpBitcast %_ptr_Generic_float %bytep\n"), "%s", dis);
   ck_assert_msg(strstr(dis, "%v = OpLoad %float %fp Aligned 4\n"), "%s", dis);
   ck_assert_msg(!strstr(dis, "OpInBoundsPtrAccessChain %_ptr_Generic_float"), "%s", dis);
   /* The global cast became an element chain (which takes over its name). */
   ck_assert_msg(strstr(dis, "%gp = OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup_float %"), "%s", dis);
   free(rem);
   free(dis);
   free(in);
   free(after);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("generic_address");
   TCase *tc = tcase_create("facts");
   tcase_add_test(tc, o2_inlined_facts);
   tcase_add_test(tc, o0_private_and_params);
   tcase_add_test(tc, excluded_kernel_only);
   tcase_add_test(tc, exported_helper_kept);
   tcase_add_test(tc, canonicalize_byte_chain_other_class);
   suite_add_tcase(s, tc);
   TCase *isa = tcase_create("isa");
   tcase_set_timeout(isa, 300);
   tcase_add_test(isa, isa_generic_check_removed);
   tcase_add_test(isa, isa_helper_copies_shorter);
   suite_add_tcase(s, isa);
   return tu_run_suite(s) ? 1 : 0;
}
