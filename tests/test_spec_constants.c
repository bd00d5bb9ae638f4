/*
 * loop-spec-constants: SpecId allocation, what the pass rewrites on real
 * modules (which compares read the select, which SpecIds it takes), the
 * --specialize defaults, and the Level Zero constants filled from the
 * manifest it writes.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "builder.h"
#include "cfg.h"
#include "io.h"
#include "passes.h"
#include "spec_ids.h"
#include "testutil.h"
#ifdef XEOPT_HAVE_LEVEL_ZERO
#include "xeopt/level_zero.h"
#endif

static xe_module *load(const char *name)
{
   char *rel;
   if (asprintf(&rel, "testdata/spv/%s.spv", name) < 0)
      abort();
   xe_module *m = tu_load_src(rel);
   free(rel);
   return m;
}

/* Runs the pass with optional --specialize values; returns progress. */
static bool run_pass(xe_module *m, const char **specialize, xe_remarks *r)
{
   xe_options o;
   xe_options_init(&o);
   for (; specialize && *specialize; specialize++)
      xe_strlist_add(&o.specialize, *specialize);
   memset(r, 0, sizeof(*r));
   r->pass = "loop-spec-constants";
   xe_ctx ctx = { .module = m, .options = &o, .remarks = r };
   bool progress = xeopt_pass_loop_spec_constants(&ctx);
   xe_options_free(&o);
   return progress;
}

static const cJSON *spec_entry(const xe_module *m, const char *kernel, unsigned k)
{
   ck_assert_ptr_nonnull(m->manifest);
   const cJSON *ks = cJSON_GetObjectItem(m->manifest, "kernels");
   const cJSON *arr = cJSON_GetObjectItem(cJSON_GetObjectItem(ks, kernel), "spec_constants");
   ck_assert_msg(cJSON_IsArray(arr), "no spec_constants for %s", kernel);
   const cJSON *e = cJSON_GetArrayItem(arr, (int)k);
   ck_assert_ptr_nonnull(e);
   return e;
}

static int num(const cJSON *e, const char *key)
{
   const cJSON *x = cJSON_GetObjectItem(e, key);
   ck_assert_msg(cJSON_IsNumber(x), "%s missing", key);
   return x->valueint;
}

/* The id decorated with SpecId sid, 0 if none. */
static uint32_t spec_target(const xe_module *m, uint32_t sid)
{
   xe_foreach_inst(i, &m->sec[XE_SEC_ANNOTATION]) {
      if (i->opcode == SpvOpDecorate && xe_op(i, 1) == SpvDecorationSpecId && xe_op(i, 2) == sid)
         return xe_op(i, 0);
   }
   return 0;
}

static bool uses_id(const xe_inst *i, uint32_t id)
{
   for (unsigned k = 0; k < xe_nops(i); k++) {
      if (xe_op_kind(i, k) == XE_W_ID && xe_op(i, k) == id)
         return true;
   }
   return false;
}

START_TEST(specid_allocation)
{
   xe_module *m = load("loop_spec_constants_specid");
   for (uint32_t k = 0; k < 3; k++)
      ck_assert(xe_spec_id_used(m, k));
   ck_assert(!xe_spec_id_used(m, 3));
   ck_assert_uint_eq(xe_spec_id_fresh(m, 0), 3);
   /* A gap: SpecId 4 taken, 3 still free; from 4 on the next is 5. */
   uint32_t four = 4;
   xe_decorate(m, xe_const_int(m, xe_type_int(m, 32), 7), SpvDecorationSpecId, &four, 1);
   ck_assert_uint_eq(xe_spec_id_fresh(m, 0), 3);
   ck_assert_uint_eq(xe_spec_id_fresh(m, 4), 5);
   xe_module_free(m);

   m = load("loop_spec_constants_sum");
   ck_assert_uint_eq(xe_spec_id_fresh(m, 0), 0);
   xe_module_free(m);
}
END_TEST

/* The module with SpecId 0..2 gets 3 (flag) and 4 (value); the guard and
 * the exit compare read the select, the row computation keeps the argument. */
START_TEST(existing_specids_kept)
{
   xe_module *m = load("loop_spec_constants_specid");
   xe_remarks r;
   ck_assert(run_pass(m, NULL, &r));
   const cJSON *e = spec_entry(m, "specid", 0);
   ck_assert_int_eq(num(e, "flag_spec_id"), 3);
   ck_assert_int_eq(num(e, "value_spec_id"), 4);
   ck_assert_int_eq(num(e, "index"), 2);
   ck_assert_int_eq(num(e, "size"), 4);
   ck_assert_str_eq(cJSON_GetObjectItem(e, "argument")->valuestring, "count");
   xe_inst *flag = xe_def(m, spec_target(m, 3)), *val = xe_def(m, spec_target(m, 4));
   ck_assert_int_eq(flag->opcode, SpvOpSpecConstantFalse);
   ck_assert_int_eq(val->opcode, SpvOpSpecConstant);
   ck_assert_uint_eq(xe_op(val, 0), 0);
   for (uint32_t k = 0; k < 3; k++)
      ck_assert_int_eq(xe_def(m, spec_target(m, k))->opcode, SpvOpSpecConstant);

   xe_kernel k;
   ck_assert(xe_kernel_by_name(m, "specid", &k));
   xe_inst *param = k.body->params.first;
   while (param->opcode != SpvOpFunctionParameter || strcmp(xe_name(m, param->result_id), "count"))
      param = param->next;
   xe_inst *sel = xe_block_first_non_phi(m, k.body->first);
   ck_assert_int_eq(sel->opcode, SpvOpSelect);
   ck_assert_uint_eq(xe_op(sel, 0), flag->result_id);
   ck_assert_uint_eq(xe_op(sel, 1), val->result_id);
   ck_assert_uint_eq(xe_op(sel, 2), param->result_id);
   unsigned cmp_sel = 0, mul_arg = 0, other = 0;
   xe_foreach_block(b, k.body) {
      xe_foreach_inst(i, &b->insts) {
         if (i == sel)
            continue;
         if (i->opcode == SpvOpULessThan && uses_id(i, sel->result_id))
            cmp_sel++;
         else if (i->opcode == SpvOpIMul && uses_id(i, param->result_id))
            mul_arg++;
         else if (uses_id(i, param->result_id) || uses_id(i, sel->result_id))
            other++;
      }
   }
   ck_assert_uint_eq(cmp_sel, 2);   /* guard `start < count` and latch `j + 1 < count` */
   ck_assert_uint_eq(mul_arg, 1);   /* `i * count` is not part of the bound */
   ck_assert_uint_eq(other, 0);
   xe_remarks_free(&r);
   xe_module_free(m);
}
END_TEST

/* Two loops, one argument: one pair of constants, one select, both exit
 * compares and the shared guard read it. */
START_TEST(two_loops_one_pair)
{
   xe_module *m = load("loop_spec_constants_two_loops");
   xe_remarks r;
   ck_assert(run_pass(m, NULL, &r));
   const cJSON *arr = cJSON_GetObjectItem(
      cJSON_GetObjectItem(cJSON_GetObjectItem(m->manifest, "kernels"), "two_loops"),
      "spec_constants");
   ck_assert_int_eq(cJSON_GetArraySize(arr), 1);
   ck_assert_int_eq(num(spec_entry(m, "two_loops", 0), "loops"), 2);
   xe_kernel k;
   ck_assert(xe_kernel_by_name(m, "two_loops", &k));
   unsigned selects = 0;
   uint32_t sel = 0;
   xe_foreach_block(b, k.body) {
      xe_foreach_inst(i, &b->insts) {
         if (i->opcode == SpvOpSelect) {
            selects++;
            sel = i->result_id;
         }
      }
   }
   ck_assert_uint_eq(selects, 1);
   const xe_loops *ls = xe_function_loops(k.body);
   ck_assert_uint_eq(ls->n, 2);
   for (uint32_t l = 0; l < ls->n; l++) {
      ck_assert_ptr_nonnull(ls->loops[l].exit_cmp);
      ck_assert(uses_id(ls->loops[l].exit_cmp, sel));
   }
   uint32_t n, code_uses = 0;
   const xe_use *u = xe_uses(m, sel, &n);
   for (uint32_t j = 0; j < n; j++)
      code_uses += u[j].inst->block != NULL;
   ck_assert_uint_eq(code_uses, 3); /* two exit compares and the guard `n > 0` */
   xe_remarks_free(&r);
   xe_module_free(m);
}
END_TEST

START_TEST(bound_not_argument)
{
   xe_module *m = load("loop_spec_constants_not_arg");
   xe_remarks r;
   ck_assert(!run_pass(m, NULL, &r));
   ck_assert_ptr_null(m->manifest);
   ck_assert_uint_eq(r.n, 1);
   ck_assert_int_eq(r.v[0].kind, XE_REMARK_MISSED);
   xe_remarks_free(&r);
   xe_module_free(m);
}
END_TEST

START_TEST(specialize_defaults)
{
   const char *by_name[] = { "sum:inner=16", NULL };
   const char *by_index[] = { "sum:2=-1", NULL };
   const char *bad[] = { "sum:inner=12x", "sum:a=3", NULL };
   xe_remarks r;

   xe_module *m = load("loop_spec_constants_sum");
   ck_assert(run_pass(m, by_name, &r));
   const cJSON *e = spec_entry(m, "sum", 0);
   ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(e, "flag_default")));
   ck_assert_str_eq(cJSON_GetObjectItem(e, "value_default")->valuestring, "16");
   ck_assert_int_eq(xe_def(m, spec_target(m, 0))->opcode, SpvOpSpecConstantTrue);
   ck_assert_uint_eq(xe_op(xe_def(m, spec_target(m, 1)), 0), 16);
   xe_remarks_free(&r);
   xe_module_free(m);

   m = load("loop_spec_constants_sum");
   ck_assert(run_pass(m, by_index, &r));
   ck_assert_uint_eq(xe_op(xe_def(m, spec_target(m, 1)), 0), 0xffffffffu);
   xe_remarks_free(&r);
   xe_module_free(m);

   /* A malformed value keeps the unspecialized defaults; an argument that
    * bounds no loop is reported. */
   m = load("loop_spec_constants_sum");
   ck_assert(run_pass(m, bad, &r));
   ck_assert_int_eq(xe_def(m, spec_target(m, 0))->opcode, SpvOpSpecConstantFalse);
   unsigned missed = 0, unused = 0;
   for (unsigned k = 0; k < r.n; k++) {
      missed += r.v[k].kind == XE_REMARK_MISSED;
      /* As data, which the OpenCL layer reads: 'a' is argument 0. */
      if (r.v[k].decision == XE_DECISION_SPECIALIZE_UNUSED) {
         ck_assert_int_eq(r.v[k].subject, 0);
         unused++;
      }
   }
   ck_assert_uint_eq(missed, 2);
   ck_assert_uint_eq(unused, 1);
   xe_remarks_free(&r);
   xe_module_free(m);
}
END_TEST

#ifdef XEOPT_HAVE_LEVEL_ZERO
/* The manifest of the halves kernel: n (index 2, i32, SpecIds 0/1) and m
 * (index 3, i64, SpecIds 2/3). */
static char *halves_manifest(void)
{
   xe_module *m = load("loop_spec_constants_halves");
   xe_remarks r;
   ck_assert(run_pass(m, NULL, &r));
   char *text = cJSON_Print(m->manifest);
   xe_remarks_free(&r);
   xe_module_free(m);
   return text;
}

START_TEST(level_zero_fill)
{
   char *json = halves_manifest();
   xeopt_ze_value want[] = {
      { "halves", "m", 0, INT64_C(1) << 40 },
      { "halves", NULL, 2, 7 },
   };
   xeopt_ze_constants c;
   char err[256];
   ck_assert_int_eq(xeopt_ze_constants_from_json(json, want, 2, &c, err, sizeof(err)),
                    XEOPT_ZE_OK);
   ck_assert_uint_eq(c.desc.numConstants, 4);
   ck_assert_ptr_eq(c.desc.pConstantIds, c.ids);
   /* Manifest order: n's pair, then m's. */
   const uint32_t ids[] = { 0, 1, 2, 3 };
   for (unsigned k = 0; k < 4; k++)
      ck_assert_uint_eq(c.desc.pConstantIds[k], ids[k]);
   ck_assert_uint_eq(*(const uint8_t *)c.desc.pConstantValues[0], 1);
   ck_assert_uint_eq(*(const uint32_t *)c.desc.pConstantValues[1], 7);
   ck_assert_uint_eq(*(const uint8_t *)c.desc.pConstantValues[2], 1);
   ck_assert_uint_eq(*(const uint64_t *)c.desc.pConstantValues[3], UINT64_C(1) << 40);
   xeopt_ze_constants_free(&c);
   ck_assert_uint_eq(c.desc.numConstants, 0);
   ck_assert_ptr_null(c.ids);

   /* Only m: n's flag is turned off explicitly (no value for it). */
   ck_assert_int_eq(xeopt_ze_constants_from_json(json, want, 1, &c, err, sizeof(err)),
                    XEOPT_ZE_OK);
   ck_assert_uint_eq(c.desc.numConstants, 3);
   ck_assert_uint_eq(c.desc.pConstantIds[0], 2);
   ck_assert_uint_eq(c.desc.pConstantIds[1], 3);
   ck_assert_uint_eq(c.desc.pConstantIds[2], 0);
   ck_assert_uint_eq(*(const uint8_t *)c.desc.pConstantValues[2], 0);
   xeopt_ze_constants_free(&c);

   /* From cJSON, nothing requested: every flag off. */
   cJSON *j = cJSON_Parse(json);
   ck_assert_int_eq(xeopt_ze_constants_from_cjson(j, NULL, 0, &c, err, sizeof(err)),
                    XEOPT_ZE_OK);
   ck_assert_uint_eq(c.desc.numConstants, 2);
   xeopt_ze_constants_free(&c);
   cJSON_Delete(j);
   free(json);
}
END_TEST

START_TEST(level_zero_errors)
{
   char *json = halves_manifest();
   xeopt_ze_constants c;
   char err[256];
   struct {
      xeopt_ze_value v[2];
      unsigned n;
      xeopt_ze_status want;
   } cases[] = {
      { { { "nope", "n", 0, 1 } }, 1, XEOPT_ZE_UNKNOWN_KERNEL },
      { { { "halves", "a", 0, 1 } }, 1, XEOPT_ZE_UNKNOWN_ARGUMENT },
      { { { "halves", NULL, 1, 1 } }, 1, XEOPT_ZE_UNKNOWN_ARGUMENT },
      { { { "halves", "n", 0, INT64_C(1) << 32 } }, 1, XEOPT_ZE_OUT_OF_RANGE },
      { { { "halves", "n", 0, 3 }, { "halves", NULL, 2, 4 } }, 2, XEOPT_ZE_CONFLICT },
   };
   for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
      xeopt_ze_status s = xeopt_ze_constants_from_json(json, cases[k].v, cases[k].n, &c, err,
                                                       sizeof(err));
      ck_assert_msg(s == cases[k].want, "case %u: %s (%s)", k, xeopt_ze_status_name(s), err);
      ck_assert_msg(err[0], "case %u: no message", k);
      ck_assert_uint_eq(c.desc.numConstants, 0);
      ck_assert_ptr_null(c.ids);
   }
   /* The same value twice is not a conflict. */
   xeopt_ze_value twice[] = { { "halves", "n", 0, 3 }, { "halves", NULL, 2, 3 } };
   ck_assert_int_eq(xeopt_ze_constants_from_json(json, twice, 2, &c, err, sizeof(err)),
                    XEOPT_ZE_OK);
   ck_assert_uint_eq(c.desc.numConstants, 3);
   xeopt_ze_constants_free(&c);
   free(json);

   ck_assert_int_eq(xeopt_ze_constants_from_json("{", NULL, 0, &c, err, sizeof(err)),
                    XEOPT_ZE_BAD_MANIFEST);
   const char *no_size =
      "{\"xeopt_manifest\":1,\"kernels\":{\"k\":{\"spec_constants\":[{\"argument\":\"n\",\"index\":0,"
      "\"flag_spec_id\":0,\"value_spec_id\":1}]}}}";
   ck_assert_int_eq(xeopt_ze_constants_from_json(no_size, NULL, 0, &c, err, sizeof(err)),
                    XEOPT_ZE_BAD_MANIFEST);
   ck_assert_ptr_nonnull(strstr(err, "size"));
}
END_TEST
#endif

int main(void)
{
   Suite *s = suite_create("spec_constants");
   TCase *tc = tcase_create("pass");
   tcase_add_test(tc, specid_allocation);
   tcase_add_test(tc, existing_specids_kept);
   tcase_add_test(tc, two_loops_one_pair);
   tcase_add_test(tc, bound_not_argument);
   tcase_add_test(tc, specialize_defaults);
   suite_add_tcase(s, tc);
#ifdef XEOPT_HAVE_LEVEL_ZERO
   TCase *lz = tcase_create("level_zero");
   tcase_add_test(lz, level_zero_fill);
   tcase_add_test(lz, level_zero_errors);
   suite_add_tcase(s, lz);
#endif
   return tu_run_suite(s) ? 1 : 0;
}
