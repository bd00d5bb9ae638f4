/*
 * Unit tests of the IR: the builder's find-or-create, def-use, the kernel
 * body behind llvm-spirv's wrapper, CFG, dominators, loops with their
 * induction variables, and the block-order pass.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builder.h"
#include "cfg.h"
#include "io.h"
#include "passes.h"
#include "testutil.h"

/* A loop nest in the shape clang emits, called through a wrapper.  When
 * exit_first is set, the exit block is written before its dominator, as
 * llvm-spirv-15 sometimes does. */
static const char *nest_text(bool exit_first)
{
   static char buf[4096];
   const char *exit_block = "%exit = OpLabel\nOpReturn\n";
   snprintf(buf, sizeof(buf),
            "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n"
            "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %%wrap \"k\"\n"
            "OpName %%body \"body\"\n"
            "%%void = OpTypeVoid\n%%uint = OpTypeInt 32 0\n%%bool = OpTypeBool\n"
            "%%c0 = OpConstant %%uint 0\n%%c1 = OpConstant %%uint 1\n"
            "%%fnty = OpTypeFunction %%void %%uint\n"
            "%%body = OpFunction %%void None %%fnty\n%%n = OpFunctionParameter %%uint\n"
            "%%entry = OpLabel\nOpBranch %%outer\n"
            "%s"
            "%%outer = OpLabel\n%%i = OpPhi %%uint %%c0 %%entry %%inext %%latch\nOpBranch %%inner\n"
            "%%inner = OpLabel\n%%j = OpPhi %%uint %%c0 %%outer %%jnext %%inner\n"
            "%%jnext = OpIAdd %%uint %%j %%c1\n%%jc = OpULessThan %%bool %%jnext %%n\n"
            "OpBranchConditional %%jc %%inner %%latch\n"
            "%%latch = OpLabel\n%%inext = OpIAdd %%uint %%i %%c1\n"
            "%%ic = OpULessThan %%bool %%inext %%n\nOpBranchConditional %%ic %%outer %%exit\n"
            "%s"
            "OpFunctionEnd\n"
            "%%wrap = OpFunction %%void None %%fnty\n%%wn = OpFunctionParameter %%uint\n"
            "%%wl = OpLabel\n%%call = OpFunctionCall %%void %%body %%wn\nOpReturn\nOpFunctionEnd\n",
            exit_first ? exit_block : "", exit_first ? "" : exit_block);
   return buf;
}

static xe_module *assemble(const char *text)
{
   char *err = NULL;
   size_t n;
   uint32_t *w = xe_assemble(text, 0x10400, &n, &err);
   ck_assert_msg(w, "assembly failed: %s", err);
   xe_module *m = xe_read(w, n * 4, &err);
   ck_assert_msg(m, "read failed: %s", err);
   free(w);
   return m;
}

START_TEST(kernel_body_behind_wrapper)
{
   xe_module *m = assemble(nest_text(false));
   xe_kernel k[2];
   ck_assert_uint_eq(xe_kernels(m, k, 2), 1);
   ck_assert_str_eq(k[0].name, "k");
   ck_assert_ptr_ne(k[0].body, k[0].fn);
   ck_assert_str_eq(xe_name(m, xe_function_id(k[0].body)), "body");
   ck_assert_uint_eq(k[0].body_callers, 1);
   xe_module_free(m);
}
END_TEST

START_TEST(cfg_dominators_loops)
{
   xe_module *m = assemble(nest_text(false));
   xe_kernel k;
   ck_assert(xe_kernel_by_name(m, "k", &k));
   xe_function *f = k.body;
   const xe_cfg *c = xe_function_cfg(f);
   ck_assert_uint_eq(c->n, 5);
   ck_assert_uint_eq(c->nrpo, 5);
   /* Blocks by position: entry 0, outer 1, inner 2, latch 3, exit 4. */
   ck_assert_uint_eq(c->idom[1], 0);
   ck_assert_uint_eq(c->idom[2], 1);
   ck_assert_uint_eq(c->idom[3], 2);
   ck_assert_uint_eq(c->idom[4], 3);
   ck_assert(xe_dominates(c, 1, 4));
   ck_assert(!xe_dominates(c, 4, 1));
   ck_assert_uint_eq(c->succ_start[3 + 1] - c->succ_start[3], 2);
   ck_assert_uint_eq(c->pred_start[1 + 1] - c->pred_start[1], 2);

   const xe_loops *ls = xe_function_loops(f);
   ck_assert_uint_eq(ls->n, 2);
   const xe_loop *outer = &ls->loops[0], *inner = &ls->loops[1];
   ck_assert_uint_eq(outer->header, 1);
   ck_assert_uint_eq(outer->nblocks, 3);
   ck_assert_uint_eq(outer->depth, 1);
   ck_assert_uint_eq(outer->preheader, 0);
   ck_assert_uint_eq(outer->nexits, 1);
   ck_assert_uint_eq(outer->exits[0], 4);
   ck_assert_uint_eq(inner->header, 2);
   ck_assert_uint_eq(inner->nblocks, 1);
   ck_assert_uint_eq(inner->depth, 2);
   ck_assert_uint_eq(inner->parent, 0);
   ck_assert_uint_eq(inner->preheader, 1);
   /* Induction variables: phi, +1 step, compare against the parameter. */
   ck_assert_ptr_nonnull(inner->iv);
   ck_assert_ptr_nonnull(outer->iv);
   uint64_t step;
   ck_assert(xe_const_uint(m, inner->iv_step, &step));
   ck_assert_uint_eq(step, 1);
   ck_assert_uint_eq(inner->exit_cmp->opcode, SpvOpULessThan);
   ck_assert_uint_eq(xe_op(inner->exit_cmp, 1), f->params.first->result_id);
   ck_assert_uint_eq(xe_loop_of_block(ls, 2), 1);
   ck_assert_uint_eq(xe_loop_of_block(ls, 3), 0);
   ck_assert_uint_eq(xe_loop_of_block(ls, 4), XE_NONE);
   xe_module_free(m);
}
END_TEST

START_TEST(builder_find_or_create)
{
   xe_module *m = assemble(nest_text(false));
   uint32_t bound = m->bound;
   uint32_t u32 = xe_type_int(m, 32);
   ck_assert_uint_eq(m->bound, bound); /* found, not created */
   ck_assert_uint_eq(xe_def(m, u32)->opcode, SpvOpTypeInt);
   uint32_t one = xe_const_int(m, u32, 1);
   ck_assert_uint_eq(m->bound, bound);
   uint64_t v;
   ck_assert(xe_const_uint(m, one, &v) && v == 1);
   uint32_t u64 = xe_type_int(m, 64);
   ck_assert_uint_eq(u64, bound);
   uint32_t big = xe_const_int(m, u64, 0x100000002ull);
   ck_assert(xe_const_uint(m, big, &v) && v == 0x100000002ull);
   ck_assert_uint_eq(xe_type_size(m, u64), 8);
   uint32_t p = xe_type_pointer(m, SpvStorageClassCrossWorkgroup, u32);
   ck_assert_uint_eq(xe_type_pointer(m, SpvStorageClassCrossWorkgroup, u32), p);

   /* Insert an add before the inner loop's compare and use it. */
   xe_kernel k;
   xe_kernel_by_name(m, "k", &k);
   const xe_loops *ls = xe_function_loops(k.body);
   xe_inst *cmp = ls->loops[1].exit_cmp;
   xe_builder b = xe_builder_before(m, cmp);
   uint32_t n = xe_op(cmp, 1);
   uint32_t sum = xe_build2(&b, SpvOpIAdd, u32, n, one);
   xe_set_op(cmp, 1, sum);
   uint32_t count;
   const xe_use *uses = xe_uses(m, sum, &count);
   ck_assert_uint_eq(count, 1);
   ck_assert_ptr_eq(uses[0].inst, cmp);
   xe_uses(m, n, &count);
   ck_assert_uint_eq(count, 2); /* the new add and the outer compare */
   char *err = NULL;
   ck_assert_msg(xe_validate(m, &err), "%s", err);
   xe_module_free(m);
}
END_TEST

START_TEST(block_order_fixes_dominance)
{
   xe_module *m = assemble(nest_text(true));
   char *err = NULL;
   ck_assert(!xe_validate(m, &err)); /* exit before its dominator */
   free(err);
   xe_options o;
   xe_options_init(&o);
   xe_remarks r = { 0 };
   xe_ctx ctx = { .module = m, .options = &o, .remarks = &r };
   ck_assert(xeopt_pass_block_order(&ctx));
   xe_module_invalidate(m);
   err = NULL;
   ck_assert_msg(xe_validate(m, &err), "%s", err);
   ck_assert_uint_eq(r.n, 1);
   ck_assert_uint_eq(r.v[0].kind, XE_REMARK_APPLIED);
   /* A second run finds nothing to do. */
   ck_assert(!xeopt_pass_block_order(&ctx));
   xe_remarks_free(&r);
   xe_module_free(m);
}
END_TEST

/* Emitting what a newer SPIR-V version introduced raises the version word,
 * never past 1.4 (ocloc 22.43 rejects 1.5 and 1.6), never lowers it. */
START_TEST(version_raised_for_new_features)
{
   char *err = NULL;
   size_t n;
   uint32_t *w = xe_assemble(nest_text(false), 0x10000, &n, &err);
   ck_assert_msg(w, "assembly failed: %s", err);
   xe_module *m = xe_read(w, n * 4, &err);
   free(w);
   ck_assert_uint_eq(m->version, 0x10000);
   xe_add_capability(m, SpvCapabilityGroups);
   ck_assert_uint_eq(m->version, 0x10000);
   xe_kernel k;
   ck_assert(xe_kernel_by_name(m, "k", &k));
   uint32_t sg = 16;
   xe_set_execution_mode(m, xe_function_id(k.fn), SpvExecutionModeSubgroupSize, &sg, 1);
   ck_assert_uint_eq(m->version, 0x10100);
   xe_add_capability(m, SpvCapabilitySubgroupDispatch);
   ck_assert_uint_eq(m->version, 0x10100);
   ck_assert(!xe_require_version(m, 0x10500));
   ck_assert_uint_eq(m->version, 0x10100);
   ck_assert(xe_require_version(m, 0x10400));
   ck_assert(xe_require_version(m, 0x10100));
   ck_assert_uint_eq(m->version, 0x10400);
   char *msg = NULL;
   ck_assert_msg(xe_validate(m, &msg), "invalid: %s", msg);
   xe_module_free(m);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("ir");
   TCase *tc = tcase_create("ir");
   tcase_add_test(tc, kernel_body_behind_wrapper);
   tcase_add_test(tc, cfg_dominators_loops);
   tcase_add_test(tc, builder_find_or_create);
   tcase_add_test(tc, block_order_fixes_dominance);
   tcase_add_test(tc, version_raised_for_new_features);
   suite_add_tcase(s, tc);
   return tu_run_suite(s) ? 1 : 0;
}
