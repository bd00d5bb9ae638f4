/*
 * The judge (src/core/judge.h): the per-kernel verdicts the passes read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cost.h"
#include "judge.h"
#include "runner.h"
#include "testutil.h"

START_TEST(verdicts_and_devices)
{
   xe_options o;
   xe_options_init(&o);
   o.target = 1u << XE_DEV_BMG;
   xe_judge j;
   xe_judge_init(&j, &o, XE_JUDGE_IGC);
   /* Inserted out of order: each name once, each found again. */
   const char *names[] = { "k5", "k1", "k9", "k3", "k1", "k7" };
   for (unsigned k = 0; k < sizeof(names) / sizeof(names[0]); k++)
      xe_judge_set(&j, names[k], XE_JUDGE_MODEL);
   ck_assert_uint_eq(j.n, 5);
   for (unsigned k = 0; k < sizeof(names) / sizeof(names[0]); k++)
      ck_assert_int_eq(xe_judge_verdict(&j, names[k]), XE_JUDGE_MODEL);
   ck_assert_int_eq(xe_judge_verdict(&j, "k2"), XE_JUDGE_IGC);
   xe_judge_set(&j, "k3", XE_JUDGE_ORIGINAL);
   xe_ctx ctx = { .options = &o, .judge = &j };
   /* A kernel the model judges gets --target's devices; one IGC judges
    * gets none (the model is not asked); a kept one is not rewritten. */
   ck_assert_uint_eq(xe_judge_devices(&ctx, "k5"), 1u << XE_DEV_BMG);
   ck_assert_uint_eq(xe_judge_devices(&ctx, "other"), 0);
   ck_assert_uint_eq(xe_judge_devices(&ctx, NULL), 0);
   ck_assert(xe_judge_rewritable(&ctx, "other"));
   ck_assert(!xe_judge_rewritable(&ctx, "k3"));
   ck_assert(xe_judge_keeps_any(&ctx));
   /* A copy is deep: changing it leaves the original. */
   xe_judge c;
   xe_judge_copy(&c, &j);
   xe_judge_set(&c, "k5", XE_JUDGE_ORIGINAL);
   xe_judge_set(&c, "k0", XE_JUDGE_MODEL);
   ck_assert_int_eq(xe_judge_verdict(&j, "k5"), XE_JUDGE_MODEL);
   ck_assert_int_eq(xe_judge_verdict(&j, "k0"), XE_JUDGE_IGC);
   ck_assert_int_eq(xe_judge_verdict(&c, "k5"), XE_JUDGE_ORIGINAL);
   xe_judge_free(&c);
   /* Every kernel, listed or not, at one verdict. */
   xe_judge_set_all(&j, XE_JUDGE_ORIGINAL);
   ck_assert(!xe_judge_rewritable(&ctx, "k5") && !xe_judge_rewritable(&ctx, "other"));
   xe_judge_free(&j);

   /* No judge: the model for every kernel, --target's devices, every
    * device by default, none for --target=none. */
   xe_ctx bare = { .options = &o };
   ck_assert_uint_eq(xe_judge_devices(&bare, "k"), 1u << XE_DEV_BMG);
   o.target = 0;
   ck_assert_uint_eq(xe_judge_devices(&bare, "k"), XE_DEV_DEFAULT);
   o.target = XE_TARGET_NONE;
   ck_assert_uint_eq(xe_judge_devices(&bare, "k"), 0);
   ck_assert(xe_judge_rewritable(&bare, "k") && !xe_judge_keeps_any(&bare));
   xe_judge_init(&j, &o, XE_JUDGE_MODEL);
   ck_assert_uint_eq(j.target, 0);
   xe_judge_free(&j);
}
END_TEST

/* Thousands of kernels: the index grows and a copy finds every one. */
START_TEST(many_kernels)
{
   xe_options o;
   xe_options_init(&o);
   xe_judge j, c;
   xe_judge_init(&j, &o, XE_JUDGE_IGC);
   char name[32];
   for (unsigned k = 0; k < 5000; k++) {
      snprintf(name, sizeof name, "kernel_%u", (k * 7919u) % 5000);
      xe_judge_set(&j, name, k % 3 ? XE_JUDGE_MODEL : XE_JUDGE_ORIGINAL);
   }
   ck_assert_uint_eq(j.n, 5000);
   xe_judge_copy(&c, &j);
   for (unsigned k = 0; k < 5000; k++) {
      snprintf(name, sizeof name, "kernel_%u", (k * 7919u) % 5000);
      enum xe_verdict want = k % 3 ? XE_JUDGE_MODEL : XE_JUDGE_ORIGINAL;
      ck_assert_int_eq(xe_judge_verdict(&j, name), want);
      ck_assert_int_eq(xe_judge_verdict(&c, name), want);
   }
   ck_assert_int_eq(xe_judge_verdict(&c, "kernel_5000"), XE_JUDGE_IGC);
   xe_judge_free(&c);
   xe_judge_free(&j);
}
END_TEST

START_TEST(plain_flags)
{
   xe_options o;
   xe_options_init(&o);
   xe_judge j;
   xe_judge_init(&j, &o, XE_JUDGE_MODEL);
   xe_kernel ks[3] = { { .name = "a" }, { .name = "b" }, { .name = "c" } };
   ck_assert_ptr_null(xe_judge_plain_flags(&j, XE_PLAIN_CFG, ks, 3));
   ck_assert_ptr_null(xe_judge_plain_flags(NULL, XE_PLAIN_CFG, ks, 3));
   xe_judge_add_plain(&j, "c", XE_PLAIN_CFG);
   xe_judge_add_plain(&j, "a", XE_PLAIN_CANON);
   xe_judge_add_plain(&j, "c", XE_PLAIN_CANON);
   ck_assert_uint_eq(xe_judge_count_plain(&j, XE_PLAIN_CFG), 1);
   ck_assert_uint_eq(xe_judge_count_plain(&j, XE_PLAIN_CFG | XE_PLAIN_CANON), 2);
   bool *f = xe_judge_plain_flags(&j, XE_PLAIN_CFG, ks, 3);
   ck_assert(f && !f[0] && !f[1] && f[2]);
   free(f);
   f = xe_judge_plain_flags(&j, XE_PLAIN_CANON, ks, 3);
   ck_assert(f && f[0] && !f[1] && f[2]);
   free(f);
   ck_assert_uint_eq(xe_judge_plain(&j, "c"), XE_PLAIN_CFG | XE_PLAIN_CANON);
   ck_assert_uint_eq(xe_judge_plain(&j, "b") | xe_judge_plain(NULL, "c"), 0);
   /* The flags do not change a verdict. */
   ck_assert_int_eq(xe_judge_verdict(&j, "c"), XE_JUDGE_MODEL);
   xe_judge_free(&j);
}
END_TEST

/* k0 (kept) calls hs; k1 (XE_PLAIN_CFG) calls hs and h1, h1 calls hl;
 * k2 calls h2 (its body: a wrapper's one call); hd no one calls. */
static const char walk_module[] =
   "OpCapability Addresses\n OpCapability Kernel\n OpCapability Linkage\n"
   "OpMemoryModel Physical64 OpenCL\n"
   "OpEntryPoint Kernel %k0 \"k0\"\n OpEntryPoint Kernel %k1 \"k1\"\n"
   "OpEntryPoint Kernel %k2 \"k2\"\n"
   "OpName %hs \"hs\"\n OpName %h1 \"h1\"\n OpName %hl \"hl\"\n OpName %h2 \"h2\"\n"
   "OpName %hd \"hd\"\n OpName %k0 \"k0\"\n OpName %k1 \"k1\"\n OpName %k2 \"k2\"\n"
   "%void = OpTypeVoid\n %fn = OpTypeFunction %void\n"
   "%hl = OpFunction %void None %fn\n %l0 = OpLabel\n OpReturn\n OpFunctionEnd\n"
   "%hs = OpFunction %void None %fn\n %l1 = OpLabel\n OpReturn\n OpFunctionEnd\n"
   "%hd = OpFunction %void None %fn\n %l2 = OpLabel\n OpReturn\n OpFunctionEnd\n"
   "%h1 = OpFunction %void None %fn\n %l3 = OpLabel\n %c0 = OpFunctionCall %void %hl\n"
   " OpReturn\n OpFunctionEnd\n"
   "%h2 = OpFunction %void None %fn\n %l4 = OpLabel\n OpReturn\n OpFunctionEnd\n"
   "%k0 = OpFunction %void None %fn\n %l5 = OpLabel\n %c1 = OpFunctionCall %void %hs\n"
   " OpReturn\n OpFunctionEnd\n"
   "%k1 = OpFunction %void None %fn\n %l6 = OpLabel\n %c2 = OpFunctionCall %void %hs\n"
   " %c3 = OpFunctionCall %void %h1\n OpReturn\n OpFunctionEnd\n"
   "%k2 = OpFunction %void None %fn\n %l7 = OpLabel\n %c4 = OpFunctionCall %void %h2\n"
   " OpReturn\n OpFunctionEnd\n";

/* What the walk handed over: "name:kernel,rewritable,plain,reach_plain,any;" each. */
static bool note_function(xe_ctx *ctx, xe_function *f, const xe_function_info *fi, void *data)
{
   char *log = data;
   size_t n = strlen(log);
   snprintf(log + n, 1024 - n, "%s:%s,%d,%d,%d,%u;", xe_name(ctx->module, xe_function_id(f)),
            fi->kernel ? fi->kernel->name : "-", fi->rewritable, fi->plain, fi->reach_plain,
            fi->reach_plain_any);
   return false;
}

/* The function walk (runner.h): a helper's own fields are every kernel's,
 * its reach fields the kernels that call it; the gate follows the reach. */
START_TEST(function_walk)
{
   char *path = tu_assemble(walk_module, "walk.spv", "");
   xe_module *m = tu_load(path);
   xe_options o;
   xe_options_init(&o);
   xe_judge j;
   xe_judge_init(&j, &o, XE_JUDGE_MODEL);
   xe_judge_set(&j, "k0", XE_JUDGE_ORIGINAL);
   xe_judge_add_plain(&j, "k1", XE_PLAIN_CFG);
   xe_ctx ctx = { .module = m, .options = &o, .judge = &j };
   char log[1024] = "";
   xe_function_walk w = { .run = note_function, .data = log, .plain = XE_PLAIN_CFG, .reach = true,
                          .reach_any = XE_PLAIN_CFG };
   xe_for_each_function(&ctx, &w);
   ck_assert_str_eq(log, "hl:-,0,0,1,1;hd:-,0,0,1,0;h1:-,0,0,1,1;h2:k2,1,0,0,0;"
                         "k1:k1,1,1,1,1;k2:k2,1,0,0,0;");
   /* Without the reach, a helper waits for every kernel. */
   log[0] = 0;
   w.reach = false;
   xe_for_each_function(&ctx, &w);
   ck_assert_str_eq(log, "h2:k2,1,0,0,0;k1:k1,1,1,0,0;k2:k2,1,0,0,0;");
   xe_judge_free(&j);
   xe_module_free(m);
   free(path);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("judge");
   TCase *tc = tcase_create("judge");
   tcase_add_test(tc, verdicts_and_devices);
   tcase_add_test(tc, many_kernels);
   tcase_add_test(tc, plain_flags);
   tcase_add_test(tc, function_walk);
   suite_add_tcase(s, tc);
   return tu_run_suite(s) ? 1 : 0;
}
