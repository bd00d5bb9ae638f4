/*
 * The affine id analysis (src/analysis/affine.c) and launch formulas
 * (src/analysis/launch_formula.c) on modules clang-15 + llvm-spirv-15 produced
 * (testdata/kernels/padding_*.cl), and the padding pass's decisions on them.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "affine.h"
#include "io.h"
#include "launch_formula.h"
#include "pass.h"
#include "testutil.h"

static xe_function *body_of(xe_module *m, const char *kernel)
{
   xe_kernel k;
   ck_assert(xe_kernel_by_name(m, kernel, &k));
   ck_assert(k.body != k.fn); /* llvm-spirv's wrapper was followed */
   return k.body;
}

/* The value operand of the n-th OpStore of f. */
static uint32_t stored_value(xe_function *f, unsigned n)
{
   xe_foreach_block(b, f) {
      xe_foreach_inst(i, &b->insts) {
         if (i->opcode == SpvOpStore && n-- == 0)
            return xe_op(i, 1);
      }
   }
   ck_abort_msg("no store %u", n);
   return 0;
}

/* The index operand of the n-th OpStore's access chain (0 if none). */
static uint32_t store_index(xe_module *m, xe_function *f, unsigned n)
{
   xe_foreach_block(b, f) {
      xe_foreach_inst(i, &b->insts) {
         if (i->opcode == SpvOpStore && n-- == 0) {
            xe_inst *p = xe_def(m, xe_op(i, 0));
            return p && p->opcode == SpvOpInBoundsPtrAccessChain ? xe_op(p, 1) : 0;
         }
      }
   }
   return 0;
}

static void assert_form(xe_affine_ctx *c, uint32_t id, const char *text, unsigned bits)
{
   const xe_affine *a = xe_affine_of(c, id);
   ck_assert_msg(a, "%%%u is not affine, expected %s", id, text);
   char *s = xe_affine_str(a, NULL, XE_AFF_SPELL_SHORT);
   ck_assert_str_eq(s, text);
   ck_assert_uint_eq(a->min_bits, bits);
   free(s);
}

START_TEST(forms_of_index_expressions)
{
   xe_module *m = tu_load_src("testdata/spv/padding_affine.spv");
   xe_affine_ctx *c = xe_affine_create(m, body_of(m, "padding_affine"));
   xe_function *f = body_of(m, "padding_affine");
   /* (lx << 2) | 3: the OR of disjoint bits is an add */
   assert_form(c, stored_value(f, 0), "4*lx + 3", 32);
   /* y*w*2 + x - 1, with -1 arriving as + 0xffffffff */
   assert_form(c, stored_value(f, 1), "x + 2*y*arg1 - 1", 32);
   ck_assert_ptr_null(xe_affine_of(c, stored_value(f, 2)));   /* x * y */
   ck_assert_ptr_null(xe_affine_of(c, stored_value(f, 3)));   /* w * off */
   assert_form(c, stored_value(f, 4), "4*x + 4*arg2", 32);
   const xe_affine *a = xe_affine_of(c, stored_value(f, 4));
   ck_assert(xe_affine_nonneg(a));
   ck_assert(!xe_affine_is_uniform(a));
   ck_assert(!xe_affine_nonneg(xe_affine_of(c, stored_value(f, 1))));
   xe_affine_free(c);
   xe_module_free(m);
}
END_TEST

START_TEST(index_widths)
{
   /* int i = get_global_id(0): truncated to 32 bits, sign-extended back. */
   xe_module *m = tu_load_src("testdata/spv/padding_copy.spv");
   xe_function *f = body_of(m, "padding_copy");
   xe_affine_ctx *c = xe_affine_create(m, f);
   const xe_affine *a = xe_affine_of(c, store_index(m, f, 0));
   ck_assert(a && xe_affine_is_var(a, XE_AFF_GID_X));
   ck_assert_uint_eq(a->min_bits, 32);
   xe_affine_free(c);
   xe_module_free(m);
   /* size_t i: 64-bit all the way. */
   m = tu_load_src("testdata/spv/padding_early.spv");
   f = body_of(m, "padding_early");
   c = xe_affine_create(m, f);
   a = xe_affine_of(c, store_index(m, f, 0));
   ck_assert(a && xe_affine_is_var(a, XE_AFF_GID_X));
   ck_assert_uint_eq(a->min_bits, 64);
   xe_affine_free(c);
   xe_module_free(m);
}
END_TEST

START_TEST(row_major_index_and_formula)
{
   xe_module *m = tu_load_src("testdata/spv/padding_2d.spv");
   xe_function *f = body_of(m, "padding_2d");
   xe_affine_ctx *c = xe_affine_create(m, f);
   const xe_affine *a = xe_affine_of(c, store_index(m, f, 0));
   const char *names[] = { "out", "in", "w", "h" };
   ck_assert(a);
   char *s = xe_affine_str(a, names, XE_AFF_SPELL_SHORT);
   ck_assert_str_eq(s, "x + y*w");
   free(s);
   int64_t al, be;
   ck_assert(xe_affine_ratio(a, a, &al, &be) && al == 1 && be == 0);

   xe_formula fm;
   ck_assert(xe_formula_min_elements(a, &fm));
   cJSON *j = xe_formula_json(&fm, names);
   /* 100 x 7 items for a 97 x 7 image: (7 - 1) * 97 + 100 = 682 elements. */
   xe_launch l = { { 100, 7, 1 }, { 0, 0, 0 }, { 10, 1, 1 } };
   int64_t args[4] = { 0, 0, 97, 7 }, v;
   ck_assert(xe_formula_eval(j, &l, args, 4, &v));
   ck_assert_int_eq(v, 682);
   /* With a global offset the ids grow by it. */
   l.global_offset[0] = 3;
   l.global_offset[1] = 1;
   ck_assert(xe_formula_eval(j, &l, args, 4, &v));
   ck_assert_int_eq(v, 7 * 97 + 103);
   /* A formula naming an argument the caller did not give fails. */
   ck_assert(!xe_formula_eval(j, &l, args, 2, &v));
   cJSON_Delete(j);
   xe_affine_free(c);
   xe_module_free(m);
}
END_TEST

START_TEST(group_based_index)
{
   /* group_id * local_size + local_id folds to one term below global_size. */
   xe_module *m = tu_load_src("testdata/spv/padding_group.spv");
   xe_function *f = body_of(m, "padding_group");
   xe_affine_ctx *c = xe_affine_create(m, f);
   const xe_affine *a = xe_affine_of(c, store_index(m, f, 0));
   ck_assert(a && xe_affine_is_var(a, XE_AFF_GLIN_X));
   xe_formula fm;
   ck_assert(xe_formula_min_elements(a, &fm));
   char *t = xe_formula_text(&fm, NULL);
   ck_assert_str_eq(t, "global_size[0]");
   free(t);
   xe_affine_free(c);
   xe_module_free(m);
}
END_TEST

/* Operands that are literals, not ids, are never analysed as ids: the
 * index 0 of `x = v.x` (OpCompositeExtract %v 0) leaves no trace in the
 * memo, so %64 (whose hash slot is the one an id 0 would take in the
 * table of 64) is still affine when asked after x.  The ids are fixed
 * with spirv-as --preserve-numeric-ids. */
START_TEST(literal_operand_leaves_memo_alone)
{
   static const char *text =
      "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n"
      "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %main \"extract_then_add\"\n"
      "%u32 = OpTypeInt 32 0\n%v2 = OpTypeVector %u32 2\n%void = OpTypeVoid\n"
      "%pg = OpTypePointer CrossWorkgroup %u32\n%fn = OpTypeFunction %void %pg %v2 %u32\n"
      "%one = OpConstant %u32 1\n"
      "%main = OpFunction %void None %fn\n%out = OpFunctionParameter %pg\n"
      "%v = OpFunctionParameter %v2\n%n = OpFunctionParameter %u32\n%entry = OpLabel\n"
      "%x = OpCompositeExtract %u32 %v 0\n%64 = OpIAdd %u32 %n %one\n"
      "%s = OpIAdd %u32 %x %64\nOpStore %out %s Aligned 4\nOpReturn\nOpFunctionEnd\n";
   char *bin = tu_assemble(text, "literal_operand", "--preserve-numeric-ids");
   xe_module *m = tu_load(bin);
   xe_kernel k;
   ck_assert(xe_kernel_by_name(m, "extract_then_add", &k));
   xe_affine_ctx *c = xe_affine_create(m, k.body);
   uint32_t x = 0;
   xe_foreach_block(b, k.body) {
      xe_foreach_inst(i, &b->insts) {
         if (i->opcode == SpvOpCompositeExtract) x = i->result_id;
      }
   }
   ck_assert_uint_ne(x, 0);
   ck_assert_ptr_null(xe_affine_of(c, x));   /* an element of a vector argument */
   assert_form(c, 64, "arg2 + 1", 32);
   xe_affine_free(c);
   xe_module_free(m);
   free(bin);
}
END_TEST

/* A local id indexes below local_size: get_local_id(1) reaches index
 * local_size[1] - 1, so it needs local_size[1] elements (not one more), and
 * 4*get_local_id(0) + 2*n*get_local_id(1) needs
 * 4*(local_size[0] - 1) + 2*n*(local_size[1] - 1) + 1. */
START_TEST(local_id_formula)
{
   xe_affine a = { .n = 1, .min_bits = 64 };
   a.t[0] = (xe_aff_term){ .coeff = 1, .var = XE_AFF_LID_Y, .arg = -1 };
   xe_formula fm;
   ck_assert(xe_formula_min_elements(&a, &fm));
   char *t = xe_formula_text(&fm, NULL);
   ck_assert_str_eq(t, "local_size[1]");
   free(t);
   a.n = 2;
   a.t[0] = (xe_aff_term){ .coeff = 4, .var = XE_AFF_LID_X, .arg = -1 };
   a.t[1] = (xe_aff_term){ .coeff = 2, .var = XE_AFF_LID_Y, .arg = 0 };
   const char *const names[] = { "n" };
   ck_assert(xe_formula_min_elements(&a, &fm));
   t = xe_formula_text(&fm, names);
   ck_assert_str_eq(t, "4*local_size[0] + 2*n*local_size[1] - 3 - 2*n");
   free(t);
}
END_TEST

/* A formula's argument terms print the argument's name, or argN where the
 * names leave it out (an unnamed argument: clang's SPIR-V backend names
 * none). */
START_TEST(formula_arg_names)
{
   xe_formula fm = { .n = 2 };
   fm.t[0] = (xe_monomial){ .coeff = 2, .arg = 1, .q = XE_Q_ONE, .dim = 0 };
   fm.t[1] = (xe_monomial){ .coeff = 1, .arg = 0, .q = XE_Q_ONE, .dim = 0 };
   const char *const names[] = { "n", NULL };
   char *t = xe_formula_text(&fm, names);
   ck_assert_msg(strstr(t, "arg1") && strstr(t, "n") && !strstr(t, "(null)"), "%s", t);
   free(t);
   t = xe_formula_text(&fm, NULL);
   ck_assert_msg(strstr(t, "arg1") && strstr(t, "arg0"), "%s", t);
   free(t);
}
END_TEST

START_TEST(stencil_dominates)
{
   xe_module *m = tu_load_src("testdata/spv/padding_stencil.spv");
   xe_function *f = body_of(m, "padding_stencil");
   xe_affine_ctx *c = xe_affine_create(m, f);
   /* Collect the load indices: in[i] and in[i + 1]. */
   const xe_affine *ix[2] = { NULL, NULL };
   unsigned n = 0;
   xe_foreach_block(b, f) {
      xe_foreach_inst(i, &b->insts) {
         if (i->opcode != SpvOpLoad || n == 2)
            continue;
         xe_inst *p = xe_def(m, xe_op(i, 0));
         if (p && p->opcode == SpvOpInBoundsPtrAccessChain)
            ix[n++] = xe_affine_of(c, xe_op(p, 1));
      }
   }
   ck_assert_uint_eq(n, 2);
   ck_assert(ix[0] && ix[1]);
   const xe_affine *lo = xe_affine_const(ix[0]) ? ix[1] : ix[0];
   const xe_affine *hi = lo == ix[0] ? ix[1] : ix[0];
   ck_assert_int_eq(xe_affine_const(hi), 1);
   xe_formula fl, fh;
   ck_assert(xe_formula_min_elements(lo, &fl) && xe_formula_min_elements(hi, &fh));
   ck_assert(xe_formula_dominates(&fh, &fl));
   ck_assert(!xe_formula_dominates(&fl, &fh));
   char *t = xe_formula_text(&fh, NULL);
   ck_assert_str_eq(t, "global_size[0] + global_offset[0] + 1");
   free(t);
   xe_affine_free(c);
   xe_module_free(m);
}
END_TEST

START_TEST(max_of_formulas)
{
   /* a[x], a[w*y] (w = argument 0): neither bound covers the other. */
   xe_affine ax = { .n = 1, .t = { { 1, XE_AFF_GID_X, -1 } }, .min_bits = 64 };
   xe_affine ay = { .n = 1, .t = { { 1, XE_AFF_GID_Y, 0 } }, .min_bits = 64 };
   xe_affine ax1 = { .n = 2, .t = { { 1, XE_AFF_NONE, -1 }, { 1, XE_AFF_GID_X, -1 } },
                     .min_bits = 64 };
   xe_formula fx, fy, fx1;
   ck_assert(xe_formula_min_elements(&ax, &fx) && xe_formula_min_elements(&ay, &fy) &&
             xe_formula_min_elements(&ax1, &fx1));
   xe_formula_max m = { 0 };
   ck_assert(xe_formula_max_add(&m, &fx));
   ck_assert(xe_formula_max_add(&m, &fy));
   ck_assert_uint_eq(m.n, 2);
   ck_assert(xe_formula_max_add(&m, &fx1)); /* replaces a[x] */
   ck_assert_uint_eq(m.n, 2);
   ck_assert(xe_formula_max_add(&m, &fx));  /* dominated: no change */
   ck_assert_uint_eq(m.n, 2);
   const char *names[] = { "w" };
   char *t = xe_formula_max_text(&m, names);
   ck_assert_str_eq(t, "max(w*global_size[1] + w*global_offset[1] - w + 1, "
                       "global_size[0] + global_offset[0] + 1)");
   free(t);
   cJSON *j = xe_formula_max_json(&m, names);
   ck_assert_ptr_nonnull(cJSON_GetObjectItem(j, "max_of"));
   xe_launch l = { { 64, 4, 1 }, { 0, 0, 0 }, { 64, 1, 1 } };
   int64_t w = 10, v;
   ck_assert(xe_formula_eval(j, &l, &w, 1, &v));
   ck_assert_int_eq(v, 65);          /* x + 1 wins: 65 > 3*10 + 1 */
   w = 100;
   ck_assert(xe_formula_eval(j, &l, &w, 1, &v));
   ck_assert_int_eq(v, 301);         /* w*y wins */
   cJSON_Delete(j);
}
END_TEST

/* Runs the padding pass; returns the number of OpBranchConditional left in
 * the kernel body. */
static unsigned run_padding(xe_module *m, const char *kernel, const char *assume)
{
   xe_options o;
   xe_options_init(&o);
   if (assume)
      xe_strlist_add(&o.assume_padded, assume);
   xe_remarks r = { 0 };
   xe_ctx ctx = { .module = m, .options = &o, .remarks = &r };
   xe_pass_find("padding")->run(&ctx);
   xe_remarks_free(&r);
   xe_options_free(&o);
   unsigned n = 0;
   xe_foreach_block(b, body_of(m, kernel)) {
      xe_inst *t = xe_block_terminator(b);
      n += t && t->opcode == SpvOpBranchConditional;
   }
   return n;
}

START_TEST(pass_decisions)
{
   static const struct {
      const char *file, *kernel;
      unsigned before, after;
   } k[] = {
      { "padding_copy", "padding_copy", 1, 0 },
      { "padding_early", "padding_early", 1, 0 },
      { "padding_2d", "padding_2d", 1, 0 },
      { "padding_stay", "padding_atomic", 1, 1 },
      { "padding_stay", "padding_out0", 1, 1 },
      { "padding_stay", "padding_gather", 1, 1 },
      { "padding_stay", "padding_shift", 1, 1 },
      { "padding_stay", "padding_div", 1, 1 },
      { "padding_two", "padding_two", 2, 1 },
      { "padding_stencil", "padding_inplace", 1, 0 },
      { "padding_group", "padding_group", 1, 0 },
      /* the guard stays only on the branch to the atomic */
      { "padding_merged", "padding_merged", 2, 1 },
   };
   for (unsigned q = 0; q < sizeof(k) / sizeof(k[0]); q++) {
      char rel[128];
      snprintf(rel, sizeof(rel), "testdata/spv/%s.spv", k[q].file);
      xe_module *m = tu_load_src(rel);
      /* Without the opt-in nothing changes. */
      ck_assert_uint_eq(run_padding(m, k[q].kernel, NULL), k[q].before);
      ck_assert_ptr_null(m->manifest);
      ck_assert_uint_eq(run_padding(m, k[q].kernel, ""), k[q].after);
      char *err = NULL;
      ck_assert_msg(xe_validate(m, &err), "%s: %s", k[q].kernel, err ? err : "");
      free(err);
      xe_module_free(m);
   }
}
END_TEST

START_TEST(manifest_formula_evaluates)
{
   xe_module *m = tu_load_src("testdata/spv/padding_copy.spv");
   run_padding(m, "padding_copy", "padding_copy");
   ck_assert_ptr_nonnull(m->manifest);
   cJSON *sec = cJSON_GetObjectItem(
      cJSON_GetObjectItem(cJSON_GetObjectItem(m->manifest, "kernels"), "padding_copy"), "padding");
   ck_assert_int_eq(cJSON_GetArraySize(sec), 3); /* the guard, out, in */
   cJSON *out = cJSON_GetArrayItem(sec, 1);
   ck_assert_str_eq(cJSON_GetObjectItem(out, "name")->valuestring, "out");
   ck_assert_int_eq(cJSON_GetObjectItem(out, "element_size")->valueint, 4);
   xe_launch l = { { 256, 1, 1 }, { 16, 0, 0 }, { 64, 1, 1 } };
   int64_t args[3] = { 0, 0, 200 }, v;
   ck_assert(xe_formula_eval(cJSON_GetObjectItem(out, "min_elements"), &l, args, 3, &v));
   ck_assert_int_eq(v, 272);
   xe_module_free(m);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("affine");
   TCase *tc = tcase_create("facts");
   tcase_add_test(tc, forms_of_index_expressions);
   tcase_add_test(tc, index_widths);
   tcase_add_test(tc, row_major_index_and_formula);
   tcase_add_test(tc, group_based_index);
   tcase_add_test(tc, local_id_formula);
   tcase_add_test(tc, literal_operand_leaves_memo_alone);
   tcase_add_test(tc, formula_arg_names);
   tcase_add_test(tc, stencil_dominates);
   tcase_add_test(tc, max_of_formulas);
   tcase_add_test(tc, pass_decisions);
   tcase_add_test(tc, manifest_formula_evaluates);
   suite_add_tcase(s, tc);
   return tu_run_suite(s) ? 1 : 0;
}
