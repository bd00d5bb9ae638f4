/*
 * --verify's launches for SYCL kernel shapes (src/exec/verify.c, issue 31):
 * DPC++ passes a kernel's captures by value (a Function-storage pointer
 * parameter, FuncParamAttr ByVal) and dpnp's indexers keep a pointer to
 * their shapes and strides in them; dpnp's choose takes an array of
 * pointers.  With random bytes there, every launch of the input went
 * through a wild pointer: 70 of 222 kernels of the SYCL sample were not
 * verified.  tests/sycl/indexer_copy.spvasm has both shapes.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "io.h"
#include "exec.h"
#include "launch.h"

static char *assemble(const char *text, const char *name)
{
   char *spv = tu_assemble(text, name, NULL);
   tu_spirv_val(spv);
   return spv;
}

static char *module_text(void)
{
   char *path = tu_src("tests/sycl/indexer_copy.spvasm");
   size_t n;
   char *text = tu_read(path, &n);
   free(path);
   return text;
}

/* Both kernels are verified on every launch (before: "no launch was valid
 * for the input", each launch failing at a load through a wild pointer). */
START_TEST(captures_verified)
{
   char *text = module_text();
   char *spv = assemble(text, "indexer_copy"), *out = tu_tmp("indexer_copy_o0.spv"), *err = NULL;
   int rc = tu_sh(NULL, &err, "%s -O0 --verify=4 '%s' -o '%s'", tu_xeopt(), spv, out);
   ck_assert_msg(rc == 0, "%s", err);
   ck_assert_msg(strstr(err, "kernel indexer_copy: 4 of 4 launches verified"), "%s", err);
   ck_assert_msg(strstr(err, "kernel choose_copy: 4 of 4 launches verified"), "%s", err);
   ck_assert_msg(!strstr(err, "NOT verified"), "%s", err);
   free(err);
   free(text);
   free(spv);
   free(out);
}
END_TEST

/* The launches test something: an "optimized" module that takes the
 * index modulo the stride instead of the shape, or reads another pointer
 * of the array, is caught (a difference, or a failure where the input
 * runs). */
START_TEST(captures_planted)
{
   static const struct { const char *from, *to, *name; } plant[] = {
      {"%mod = OpUMod %ulong %rem %shape", "%mod = OpUMod %ulong %rem %stride", "plant_indexer"},
      {"%which = OpUMod %ulong %ci %ulong_2", "%which = OpISub %ulong %ulong_1 %ulong_0", "plant_choose"},
   };
   char *text = module_text();
   char *spv = assemble(text, "indexer_copy");
   for (unsigned k = 0; k < 2; k++) {
      char *t = strdup(text), *at = strstr(t, plant[k].from), *bad;
      ck_assert(at);
      *at = 0;
      if (asprintf(&bad, "%s%s%s", t, plant[k].to, at + strlen(plant[k].from)) < 0) abort();
      char *bspv = assemble(bad, plant[k].name), *err = NULL;
      xe_module *ma = tu_load(spv), *mb = tu_load(bspv);
      size_t len;
      FILE *f = open_memstream(&err, &len);
      int rc = xe_exec_verify(ma, mb, 3, false, f);
      fclose(f);
      ck_assert_msg(rc == 1, "%s: %s", plant[k].name, err);
      ck_assert_msg(strstr(err, "differs") || strstr(err, "fails where the input runs"), "%s: %s",
                    plant[k].name, err);
      xe_module_free(ma);
      xe_module_free(mb);
      free(err);
      free(bad);
      free(bspv);
      free(t);
   }
   free(text);
   free(spv);
}
END_TEST

/* The memory maps behind it: the indexer's scalars and its pointer, whose
 * ulong targets are found through the OpConvertUToPtr of its i8 pointer;
 * the array of pointers' one leaf, a float target. */
START_TEST(param_memory)
{
   char *text = module_text();
   char *spv = assemble(text, "indexer_copy");
   xe_module *m = tu_load(spv);
   xe_param_mem pm;
   ck_assert(xe_exec_param_memory(m, "indexer_copy", 2, &pm));
   ck_assert(pm.by_value);
   ck_assert_uint_eq(pm.nleaves, 3);
   ck_assert(pm.leaf[0].kind == XE_LEAF_INT && pm.leaf[0].offset == 0 && pm.leaf[0].width == 4);
   ck_assert(pm.leaf[1].kind == XE_LEAF_INT && pm.leaf[1].offset == 8 && pm.leaf[1].width == 8);
   ck_assert(pm.leaf[2].kind == XE_LEAF_PTR && pm.leaf[2].offset == 16);
   ck_assert_uint_eq(pm.leaf[2].target_elem, 8);
   ck_assert(!pm.leaf[2].target_float);
   ck_assert(xe_exec_param_memory(m, "indexer_copy", 0, &pm));
   ck_assert(!pm.by_value && pm.nleaves == 0);
   ck_assert(xe_exec_param_memory(m, "choose_copy", 1, &pm));
   ck_assert(!pm.by_value && pm.nleaves == 1 && pm.leaf[0].kind == XE_LEAF_PTR);
   ck_assert(pm.leaf[0].target_elem == 4 && pm.leaf[0].target_float);
   ck_assert(!xe_exec_param_memory(m, "choose_copy", 2, &pm));
   xe_module_free(m);
   free(text);
   free(spv);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("verify_sycl");
   TCase *tc = tcase_create("verify_sycl");
   tcase_set_timeout(tc, 300);
   tcase_add_test(tc, captures_verified);
   tcase_add_test(tc, captures_planted);
   tcase_add_test(tc, param_memory);
   suite_add_tcase(s, tc);
   return tu_run_suite(s) ? 1 : 0;
}
