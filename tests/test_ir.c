/*
 * Unit tests of the IR: the builder's find-or-create, def-use, the
 * clean-up after a rewrite, the kernel body behind llvm-spirv's wrapper,
 * CFG, dominators, loops with their induction variables, and the
 * block-order pass.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builder.h"
#include "cfg.h"
#include "idmap.h"
#include "io.h"
#include "opinfo.h"
#include <spirv/unified1/OpenCL.std.h>
#include "passes.h"
#include "spec_ids.h"
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

/* Only a call passing the wrapper's parameters in order makes an entry
 * function llvm-spirv's wrapper (ir.h, xe_kernel): then body parameter k is
 * kernel argument k.  A call passing them swapped, one twice or a constant
 * instead is an ordinary kernel that calls a helper: body == fn. */
START_TEST(kernel_wrapper_params_in_order)
{
   static const struct { const char *args; bool wrapper; } cases[] = {
      {"%x %y", true}, {"%y %x", false}, {"%x %x", false}, {"%x %c0", false},
   };
   for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++) {
      char text[2048];
      snprintf(text, sizeof text,
               "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n"
               "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %%wrap \"k\"\n"
               "%%void = OpTypeVoid\n%%uint = OpTypeInt 32 0\n%%c0 = OpConstant %%uint 0\n"
               "%%fnty = OpTypeFunction %%void %%uint %%uint\n"
               "%%body = OpFunction %%void None %%fnty\n%%a = OpFunctionParameter %%uint\n"
               "%%b = OpFunctionParameter %%uint\n%%entry = OpLabel\nOpReturn\nOpFunctionEnd\n"
               "%%wrap = OpFunction %%void None %%fnty\n%%x = OpFunctionParameter %%uint\n"
               "%%y = OpFunctionParameter %%uint\n%%wl = OpLabel\n"
               "%%call = OpFunctionCall %%void %%body %s\nOpReturn\nOpFunctionEnd\n", cases[c].args);
      xe_module *m = assemble(text);
      xe_kernel k;
      ck_assert_uint_eq(xe_kernels(m, &k, 1), 1);
      ck_assert_msg((k.body != k.fn) == cases[c].wrapper, "body(%s): wrapper %d, want %d", cases[c].args,
                    k.body != k.fn, cases[c].wrapper);
      ck_assert_uint_eq(k.body_callers, cases[c].wrapper ? 1 : 0);
      xe_module_free(m);
   }
}
END_TEST

/* An entry point that names a function declaration (no blocks: invalid
 * SPIR-V, but the reader passes it through for --validate to report) is
 * its own body: the wrapper test must look at the blocks only when there
 * is one, and listing the kernels (which every pass does) must not read
 * the missing first block. */
START_TEST(kernel_declaration_is_own_body)
{
   xe_module *m = assemble(
      "OpCapability Addresses\nOpCapability Kernel\nOpCapability Linkage\n"
      "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %decl \"k\"\n"
      "OpDecorate %decl LinkageAttributes \"k_impl\" Import\n"
      "%void = OpTypeVoid\n%uint = OpTypeInt 32 0\n%fnty = OpTypeFunction %void %uint\n"
      "%decl = OpFunction %void None %fnty\n%x = OpFunctionParameter %uint\nOpFunctionEnd\n");
   xe_kernel k;
   ck_assert_uint_eq(xe_kernels(m, &k, 1), 1);
   ck_assert_ptr_nonnull(k.fn);
   ck_assert_ptr_null(k.fn->first);
   ck_assert_ptr_eq(k.body, k.fn);
   ck_assert_str_eq(k.name, "k");
   ck_assert_uint_eq(k.body_callers, 0);
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

/* The use lists follow every edit function without a rebuild, stay in
 * layout order, agree with a fresh walk (xe_check_uses), and notice a
 * word written behind their back. */
/* The sparse id map keeps dense indexes in insertion order through its
 * growth; the per-id table reads 0 until set, and both empty on free. */
START_TEST(idmap_sparse)
{
   xe_idmap map = { 0 };
   ck_assert_uint_eq(xe_idmap_find(&map, 7), XE_IDMAP_NONE);
   for (uint32_t k = 0; k < 1000; k++)
      ck_assert_uint_eq(xe_idmap_add(&map, 7 + 13 * k), k);
   ck_assert_uint_eq(xe_idmap_add(&map, 7 + 13 * 500), 500);   /* present: its index */
   ck_assert_uint_eq(map.n, 1000);
   for (uint32_t k = 0; k < 1000; k++) {
      ck_assert_uint_eq(xe_idmap_find(&map, 7 + 13 * k), k);
      ck_assert_uint_eq(xe_idmap_find(&map, 8 + 13 * k), XE_IDMAP_NONE);
   }
   ck_assert_uint_eq(xe_idmap_find(&map, 0), XE_IDMAP_NONE);
   xe_idmap_free(&map);
   ck_assert_uint_eq(xe_idmap_find(&map, 7), XE_IDMAP_NONE);

   xe_idtab t = { 0 };
   ck_assert_uint_eq(xe_idtab_get(&t, 2), 0);
   for (uint32_t k = 1; k <= 300; k++)
      xe_idtab_set(&t, 2 * k * 1009, k);
   xe_idtab_set(&t, 2 * 1009, 77);   /* overwrite */
   ck_assert_uint_eq(xe_idtab_get(&t, 2 * 1009), 77);
   for (uint32_t k = 2; k <= 300; k++) {
      ck_assert_uint_eq(xe_idtab_get(&t, 2 * k * 1009), k);
      ck_assert_uint_eq(xe_idtab_get(&t, 2 * k * 1009 + 1), 0);
   }
   xe_idtab_free(&t);
   ck_assert_uint_eq(xe_idtab_get(&t, 4 * 1009), 0);
}
END_TEST

/* Fresh SpecIds when the caller alternates starting points, as
 * loop-spec-constants does (from 0, then from the id just taken + 1), and
 * after a SpecId below the cursor is freed. */
START_TEST(spec_id_cursor)
{
   xe_module *m = assemble(nest_text(false));
   uint32_t target = 0;
   xe_foreach_inst(i, &m->sec[XE_SEC_GLOBAL])
      if (i->opcode == SpvOpConstant && !target)
         target = i->result_id;
   ck_assert(target);
   for (uint32_t k = 0; k < 20; k++) {
      uint32_t a = xe_spec_id_fresh(m, 0);
      ck_assert_uint_eq(a, 2 * k);
      xe_decorate(m, target, SpvDecorationSpecId, &a, 1);
      uint32_t b = xe_spec_id_fresh(m, a + 1);
      ck_assert_uint_eq(b, 2 * k + 1);
      xe_decorate(m, target, SpvDecorationSpecId, &b, 1);
   }
   xe_foreach_inst_safe(i, nx, &m->sec[XE_SEC_ANNOTATION])
      if (i->opcode == SpvOpDecorate && xe_op(i, 1) == SpvDecorationSpecId && xe_op(i, 2) == 7)
         xe_inst_delete(m, i);
   ck_assert(!xe_spec_id_used(m, 7));
   ck_assert_uint_eq(xe_spec_id_fresh(m, 0), 7);
   ck_assert_uint_eq(xe_spec_id_fresh(m, 8), 40);
   ck_assert_uint_eq(xe_spec_id_fresh(m, 100), 100);
   ck_assert_uint_eq(xe_spec_id_fresh(m, 3), 7);
   ck_assert_uint_eq(xe_spec_id_fresh(m, 0), 7);
   xe_module_free(m);
}
END_TEST

START_TEST(use_lists_follow_edits)
{
   xe_module *m = assemble(nest_text(false));
   char *err = NULL;
   uint32_t c0 = 0, c1 = 0, n;
   xe_foreach_inst(i, &m->sec[XE_SEC_GLOBAL]) {
      uint64_t v;
      if (xe_const_uint(m, i->result_id, &v))
         *(v ? &c1 : &c0) = i->result_id;
   }
   ck_assert(c0 && c1);
   const xe_use *u = xe_uses(m, c1, &n);
   ck_assert_uint_eq(n, 2);   /* the two OpIAdd */
   ck_assert(xe_layout_before(u[0].inst, u[1].inst));
   xe_inst *jnext = u[0].inst, *inext = u[1].inst;
   /* set operand: the use moves from c1 to c0 */
   xe_set_op(jnext, 1, c0);
   ck_assert_uint_eq(xe_use_count(m, c1), 1);
   u = xe_uses(m, c0, &n);
   ck_assert(n >= 3);
   for (uint32_t k = 1; k < n; k++)
      ck_assert(xe_layout_before(u[k - 1].inst, u[k].inst) ||
                (u[k - 1].inst == u[k].inst && u[k - 1].word < u[k].word));
   /* xe_uses_unordered: the same uses, in any order */
   uint32_t nu;
   const xe_use *uu = xe_uses_unordered(m, c0, &nu);
   ck_assert_uint_eq(nu, n);
   for (uint32_t k = 0; k < n; k++) {
      bool found = false;
      for (uint32_t j = 0; j < nu; j++)
         found |= uu[j].inst == u[k].inst && uu[j].word == u[k].word;
      ck_assert(found);
   }
   /* An id past every table has no uses (it is not read from them). */
   ck_assert(xe_uses_unordered(m, m->bound + 4096, &nu) == NULL);
   ck_assert_uint_eq(nu, 0);
   ck_assert_msg(xe_check_uses(m, &err), "%s", err);
   /* replace all uses, then kill the definition with its name */
   xe_replace_all_uses(m, c1, c0);
   ck_assert_uint_eq(xe_use_count(m, c1), 0);
   ck_assert_uint_eq(xe_op(inext, 1), c0);
   xe_set_name(m, c1, "one");
   ck_assert_str_eq(xe_name(m, c1), "one");
   xe_inst_kill(m, xe_def(m, c1));
   ck_assert_ptr_null(xe_name(m, c1));
   ck_assert_ptr_null(xe_def(m, c1));
   ck_assert_msg(xe_check_uses(m, &err), "%s", err);
   /* find-or-create returns the existing constant, then a new one once */
   uint32_t uint = xe_def(m, c0)->type_id;
   ck_assert_uint_eq(xe_const_int(m, uint, 0), c0);
   uint32_t c7 = xe_const_int(m, uint, 7);
   ck_assert_uint_eq(xe_const_int(m, uint, 7), c7);
   /* SpecIds: taken ones are skipped, the cursor follows decorations */
   uint32_t sid = 0;
   xe_decorate(m, c7, SpvDecorationSpecId, &sid, 1);
   ck_assert(xe_spec_id_used(m, 0));
   ck_assert_uint_eq(xe_spec_id_fresh(m, 0), 1);
   sid = 1;
   xe_decorate(m, c0, SpvDecorationSpecId, &sid, 1);
   ck_assert_uint_eq(xe_spec_id_fresh(m, 0), 2);
   ck_assert_msg(xe_check_uses(m, &err), "%s", err);
   /* a direct write is what the check is for */
   inext->words[inext->first_op + 1] = c7;
   ck_assert(!xe_check_uses(m, &err));
   ck_assert_ptr_nonnull(err);
   free(err);
   xe_module_free(m);
}
END_TEST

/* The reader carves instructions from the module's pool in layout order;
 * edits before the use lists exist make the reader's use counts stale,
 * which the first build must absorb; pooled instructions survive operand
 * growth, deletion and cloning (run under ASan and memcheck in CI); the
 * use lists count each function's callers through those edits. */
START_TEST(pool_and_first_build)
{
   xe_module *m = assemble(nest_text(false));
   char *err = NULL;
   const xe_inst *prev = NULL;
   unsigned n = 0;
   xe_foreach_fn(f, m) {
      ck_assert(f->def->pooled);
      xe_foreach_block(b, f) {
         ck_assert(b->label->pooled);
         xe_foreach_inst(i, &b->insts) {
            ck_assert(i->pooled);
            if (prev)   /* neighbours in the layout are neighbours in memory */
               ck_assert((const char *)prev < (const char *)i);
            prev = i;
            n++;
         }
      }
   }
   ck_assert_uint_gt(n, 10);
   /* Before the first build: %jnext = OpIAdd %uint %j %c1 gets %c0 for
    * %c1, so %c0 has one use more than the reader counted. */
   xe_function *body = m->first_fn;   /* %body, written before the wrapper */
   xe_inst *jnext = NULL;
   xe_foreach_block(b, body)
      xe_foreach_inst(i, &b->insts)
         if (i->opcode == SpvOpIAdd && !jnext)
            jnext = i;
   ck_assert_ptr_nonnull(jnext);
   uint32_t c1 = xe_op(jnext, 1), c0 = 0;
   xe_foreach_inst(i, &m->sec[XE_SEC_GLOBAL]) {
      uint64_t v;
      if (xe_const_uint(m, i->result_id, &v) && v == 0)
         c0 = i->result_id;
   }
   ck_assert(c0 && c0 != c1);
   ck_assert_ptr_null(m->defuse);
   xe_set_op(jnext, 1, c0);
   uint32_t before = xe_use_count(m, c0);   /* builds the lists */
   ck_assert_msg(xe_check_uses(m, &err), "%s", err);
   uint32_t nu;
   const xe_use *u = xe_uses(m, c0, &nu);
   ck_assert_uint_eq(nu, before);
   bool found = false;
   for (uint32_t k = 0; k < nu; k++)
      found |= u[k].inst == jnext;
   ck_assert(found);
   /* A pooled instruction whose operands grow moves its words out. */
   uint32_t ops[3] = { xe_op(jnext, 0), c0, c1 };
   ck_assert(xe_set_ops(jnext, ops, 2, NULL));
   ck_assert(xe_set_ops(jnext, ops, 2, NULL));
   ck_assert_msg(xe_check_uses(m, &err), "%s", err);
   /* Clones are carved from the pool too; deleting pooled instructions
    * leaves their memory to the module. */
   xe_function *copy = xe_function_clone(m, body);
   ck_assert(copy->def->pooled && copy->first->insts.first->pooled);
   xe_inst *dead = copy->first->insts.first;
   ck_assert_uint_eq(dead->opcode, SpvOpBranch);
   xe_inst_delete(m, dead);
   ck_assert_msg(xe_check_uses(m, &err), "%s", err);
   /* Callers are counted in the use lists: they follow opcode and operand
    * edits of the call (the wrapper's OpFunctionCall %void %body %wn). */
   xe_inst *call = m->first_fn->next->first->insts.first;
   ck_assert_uint_eq(call->opcode, SpvOpFunctionCall);
   ck_assert_uint_eq(xe_function_callers(m, body), 1);
   xe_set_opcode(call, SpvOpExtInst);
   ck_assert_uint_eq(xe_function_callers(m, body), 0);
   ck_assert_msg(xe_check_uses(m, &err), "%s", err);
   xe_set_opcode(call, SpvOpFunctionCall);
   ck_assert_uint_eq(xe_function_callers(m, body), 1);
   xe_set_op(call, 0, xe_function_id(copy));
   ck_assert_uint_eq(xe_function_callers(m, body), 0);
   ck_assert_uint_eq(xe_function_callers(m, copy), 1);
   ck_assert_msg(xe_check_uses(m, &err), "%s", err);
   xe_module_free(m);
}
END_TEST

/* xe_read_over reads into the old module's pool: the same memory, cleared
 * (nothing of the old module's scratch, use slots or edits shows), and the
 * module it gives is the one xe_read gives. */
START_TEST(read_over_reuses_pool)
{
   char *err = NULL;
   size_t n;
   uint32_t *w = xe_assemble(nest_text(false), 0x10400, &n, &err);
   ck_assert_msg(w, "assembly failed: %s", err);
   xe_module *old = xe_read(w, n * 4, &err);
   ck_assert_msg(old, "read failed: %s", err);
   const xe_inst *first = old->sec[XE_SEC_CAPABILITY].first;
   xe_function_clone(old, old->first_fn);   /* a second chunk */
   ck_assert_uint_gt(xe_use_count(old, xe_function_id(old->first_fn)), 0);
   xe_foreach_fn(f, old) {
      f->def->aux = 7;
      xe_foreach_block(b, f)
         xe_foreach_inst(i, &b->insts)
            i->aux = 7;
   }
   xe_module *m = xe_read_over(old, w, n * 4, &err);
   ck_assert_msg(m, "read failed: %s", err);
   ck_assert_ptr_eq(m->sec[XE_SEC_CAPABILITY].first, first);
   xe_foreach_fn(f, m) {
      ck_assert(f->def->pooled && !f->def->aux && !f->def->tracked);
      xe_foreach_block(b, f)
         xe_foreach_inst(i, &b->insts)
            ck_assert(i->pooled && !i->aux && !i->tracked);
   }
   ck_assert_msg(xe_check_uses(m, &err), "%s", err);
   xe_module *fresh = xe_read(w, n * 4, &err);
   size_t na, nb;
   uint32_t *a = xe_write(m, &na, true), *b = xe_write(fresh, &nb, true);
   ck_assert_uint_eq(na, nb);
   ck_assert(!memcmp(a, b, na * 4));
   free(a);
   free(b);
   xe_module_free(fresh);
   xe_module_free(m);
   free(w);
}
END_TEST

/* A cached CFG stays valid across edits that keep blocks and terminators,
 * and is recomputed after a terminator changes. */
START_TEST(analysis_generations)
{
   xe_module *m = assemble(nest_text(false));
   xe_kernel k;
   ck_assert(xe_kernel_by_name(m, "k", &k));
   xe_function *f = k.body;
   const xe_cfg *c = xe_function_cfg(f);
   const xe_loops *l = xe_function_loops(f);
   ck_assert_uint_eq(l->n, 2);
   xe_builder b = xe_builder_before(m, xe_block_terminator(f->first));
   uint32_t uint = f->params.first->type_id;
   xe_build2(&b, SpvOpIAdd, uint, f->params.first->result_id, f->params.first->result_id);
   ck_assert_ptr_eq(xe_function_cfg(f), c);          /* not a terminator */
   ck_assert_ptr_null(xe_check_cfg(f));
   ck_assert_ptr_ne(xe_function_loops(f), NULL);
   ck_assert_ptr_null(xe_check_loops(f));
   /* retarget the entry's branch to the exit: the CFG must change */
   xe_block *exit = f->last;
   xe_set_op(xe_block_terminator(f->first), 0, xe_block_id(exit));
   const xe_cfg *c2 = xe_function_cfg(f);
   ck_assert_ptr_ne(c2, c);
   ck_assert_uint_eq(c2->succ[c2->succ_start[0]], exit->index);
   ck_assert_ptr_null(xe_check_cfg(f));
   xe_uses_release(m);
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

/* Remarks keep their strings in chunks they own (src/core/remarks.c):
 * remarks across many chunk boundaries, one longer than a chunk, a kernel
 * name stored once for consecutive remarks, and text moved to another set
 * (plain -O2's merge) read back as written after their first set is freed
 * (under the sanitizer build, a chunk freed too early is a use after free). */
START_TEST(remark_text_chunks)
{
   xe_remarks a = { .pass = "p" }, b = { .pass = "q" };
   enum { N = 5000 };
   static char big[100000];
   memset(big, 'x', sizeof(big) - 1);
   xe_remark(&b, NULL, XE_REMARK_APPLIED, "b's own");
   for (unsigned k = 0; k < N; k++)
      xe_remark(&a, k % 3 ? "kern" : "other", XE_REMARK_NOTE, "remark %u: %0*u", k, (int)(k % 200), k);
   xe_remark(&a, "kern", XE_REMARK_MISSED, "%s", big);
   xe_remark(&a, "kern", XE_REMARK_MISSED, "after the long one");
   ck_assert_uint_eq(a.n, N + 2);
   ck_assert_ptr_eq(a.v[1].kernel, a.v[2].kernel);
   ck_assert_ptr_ne(a.v[0].kernel, a.v[3].kernel); /* "other" again, not consecutive */
   xe_remark_entry *moved = malloc(a.n * sizeof(*moved));
   ck_assert_ptr_nonnull(moved);
   memcpy(moved, a.v, a.n * sizeof(*moved));
   for (unsigned k = 0; k < a.n; k++)
      a.v[k] = (xe_remark_entry){ .pass = a.v[k].pass };
   xe_remarks_take_text(&b, &a);
   xe_remarks_free(&a);
   xe_remark(&b, "kern", XE_REMARK_NOTE, "written after the move");
   for (unsigned k = 0; k < N; k++) {
      char want[300];
      snprintf(want, sizeof(want), "remark %u: %0*u", k, (int)(k % 200), k);
      ck_assert_str_eq(moved[k].message, want);
      ck_assert_str_eq(moved[k].kernel, k % 3 ? "kern" : "other");
      ck_assert_str_eq(moved[k].pass, "p");
   }
   ck_assert_str_eq(moved[N].message, big);
   ck_assert_str_eq(moved[N + 1].message, "after the long one");
   ck_assert_str_eq(b.v[0].message, "b's own");
   ck_assert_ptr_null(b.v[0].kernel);
   ck_assert_str_eq(b.v[1].message, "written after the move");
   ck_assert_str_eq(b.v[1].pass, "q");
   free(moved);
   xe_remarks_free(&b);
}
END_TEST

/* The layout facts (src/ir/branches.c), the test block-order and
 * loop-spec-constants ask before building a CFG: a loop nest is not
 * acyclic; written in order it is forward-reachable, with its exit before
 * its dominator it is not (the test is only sufficient: block-order then
 * asks the dominator tree); a single block is both; the labels' scratch is
 * left clear. */
START_TEST(layout_facts_from_terminators)
{
   xe_module *m = assemble(nest_text(false));
   xe_kernel k;
   ck_assert(xe_kernel_by_name(m, "k", &k));
   xe_layout_facts lf = xe_function_layout_facts(m, k.body);
   ck_assert(!lf.acyclic);
   ck_assert(lf.forward_reachable);
   lf = xe_function_layout_facts(m, k.fn);
   ck_assert(lf.acyclic && lf.forward_reachable);
   xe_foreach_block(b, k.body)
      ck_assert_uint_eq(b->label->aux, 0);
   xe_module_free(m);

   m = assemble(nest_text(true));
   ck_assert(xe_kernel_by_name(m, "k", &k));
   lf = xe_function_layout_facts(m, k.body);
   ck_assert(!lf.forward_reachable);
   ck_assert(!lf.acyclic);
   xe_module_free(m);

   /* if/else without a loop: acyclic and in order. */
   m = assemble("OpCapability Addresses\nOpCapability Kernel\nOpMemoryModel Physical64 OpenCL\n"
                "OpEntryPoint Kernel %f \"f\"\n%void = OpTypeVoid\n%bool = OpTypeBool\n"
                "%t = OpConstantTrue %bool\n%fnty = OpTypeFunction %void\n"
                "%f = OpFunction %void None %fnty\n%a = OpLabel\n"
                "OpBranchConditional %t %b %c\n%b = OpLabel\nOpBranch %d\n"
                "%c = OpLabel\nOpBranch %d\n%d = OpLabel\nOpReturn\nOpFunctionEnd\n");
   ck_assert(xe_kernel_by_name(m, "f", &k));
   lf = xe_function_layout_facts(m, k.fn);
   ck_assert(lf.acyclic && lf.forward_reachable);
   xe_module_free(m);
}
END_TEST

/* Layout facts are remembered on the function until an edit of its
 * branches (cfg_gen), and the check between passes finds remembered facts
 * that a change behind the edit functions made stale. */
START_TEST(layout_facts_remembered)
{
   const char *text =
      "OpCapability Addresses\nOpCapability Kernel\nOpMemoryModel Physical64 OpenCL\n"
      "OpEntryPoint Kernel %f \"f\"\n%void = OpTypeVoid\n%bool = OpTypeBool\n"
      "%t = OpConstantTrue %bool\n%fnty = OpTypeFunction %void\n"
      "%f = OpFunction %void None %fnty\n%a = OpLabel\n"
      "OpBranchConditional %t %b %c\n%b = OpLabel\nOpBranch %d\n"
      "%c = OpLabel\nOpBranch %d\n%d = OpLabel\nOpReturn\nOpFunctionEnd\n";
   xe_module *m = assemble(text);
   xe_kernel k;
   ck_assert(xe_kernel_by_name(m, "f", &k));
   xe_layout_facts lf = xe_function_layout_facts(m, k.fn);
   ck_assert(lf.acyclic && lf.forward_reachable);
   /* %b branches back to %a through the edit function: a loop now. */
   xe_block *b = k.fn->first->next;
   xe_inst *br = xe_block_terminator(b);
   xe_set_op(br, 0, k.fn->first->label->result_id);
   lf = xe_function_layout_facts(m, k.fn);
   ck_assert(!lf.acyclic && lf.forward_reachable);
   ck_assert_ptr_null(xe_check_layout_facts(m));
   /* Back to %d by writing the word, as no pass may: the remembered
    * answer is stale, and the check says so. */
   br->words[br->first_op] = k.fn->last->label->result_id;
   ck_assert_ptr_nonnull(xe_check_layout_facts(m));
   xe_module_free(m);

   /* The CFG build remembers them too: the same stale write is found
    * with no call of xe_function_layout_facts. */
   m = assemble(text);
   ck_assert(xe_kernel_by_name(m, "f", &k));
   ck_assert_ptr_null(xe_check_layout_facts(m));
   xe_function_cfg(k.fn);
   br = xe_block_terminator(k.fn->first->next);
   br->words[br->first_op] = k.fn->first->label->result_id;
   ck_assert_ptr_nonnull(xe_check_layout_facts(m));
   xe_module_free(m);
}
END_TEST

/* An edge is what the CFG calls one (xe_terminator_successors): a label
 * in any other operand of a terminator (fuzzed, invalid modules have
 * them) reaches nothing, for the layout facts too.  Else the facts from
 * the terminators and those the CFG build remembers disagree. */
START_TEST(layout_facts_edges_as_cfg)
{
   xe_module *m = assemble(
      "OpCapability Addresses\nOpCapability Kernel\nOpMemoryModel Physical64 OpenCL\n"
      "OpEntryPoint Kernel %f \"f\"\n%void = OpTypeVoid\n%fnty = OpTypeFunction %void\n"
      "%f = OpFunction %void None %fnty\n%a = OpLabel\nOpReturnValue %b\n"
      "%b = OpLabel\nOpReturn\nOpFunctionEnd\n");
   xe_kernel k;
   ck_assert(xe_kernel_by_name(m, "f", &k));
   xe_layout_facts lf = xe_function_layout_facts(m, k.fn);
   ck_assert(lf.acyclic && !lf.forward_reachable);
   ck_assert_uint_eq(xe_function_cfg(k.fn)->nrpo, 1);
   ck_assert_ptr_null(xe_check_layout_facts(m));
   xe_module_free(m);
}
END_TEST

/* The clean-up after a rewrite (cleanup.c): a result used only by names
 * and decorations is unused; xe_delete_if_dead takes a dead value with
 * the operands only it used (an operand met twice once), keeps loads,
 * variables still stored to and anything used; xe_phi_remove_pred drops
 * the entries of one parent.  The use lists follow every step. */
START_TEST(cleanup_dead_values_and_phis)
{
   xe_module *m = assemble(
      "OpCapability Addresses\nOpCapability Kernel\nOpMemoryModel Physical64 OpenCL\n"
      "OpEntryPoint Kernel %f \"f\"\nOpName %x \"x\"\nOpDecorate %x NoSignedWrap\n"
      "%void = OpTypeVoid\n%uint = OpTypeInt 32 0\n%bool = OpTypeBool\n"
      "%c0 = OpConstant %uint 0\n%c1 = OpConstant %uint 1\n%pf = OpTypePointer Function %uint\n"
      "%fnty = OpTypeFunction %void %uint\n%f = OpFunction %void None %fnty\n"
      "%n = OpFunctionParameter %uint\n%entry = OpLabel\n%v = OpVariable %pf Function\n"
      "%a = OpIAdd %uint %n %c1\n%b = OpIMul %uint %a %a\n%keep = OpIAdd %uint %a %c1\n"
      "OpStore %v %keep\n%ld = OpLoad %uint %v\n%x = OpIAdd %uint %ld %c1\n"
      "%d = OpIAdd %uint %n %n\n%e = OpIMul %uint %d %d\n"
      "%cmp = OpULessThan %bool %b %n\nOpBranchConditional %cmp %t %j\n"
      "%t = OpLabel\nOpBranch %j\n"
      "%j = OpLabel\n%p = OpPhi %uint %c0 %entry %c1 %t\n%q = OpPhi %uint %n %t %c1 %entry\n"
      "%r = OpPhi %uint %c1 %t %c0 %t\nOpReturn\nOpFunctionEnd\n");
   xe_kernel k;
   ck_assert(xe_kernel_by_name(m, "f", &k));
   xe_block *entry = k.fn->first, *t = entry->next, *j = t->next;
   xe_inst *term = xe_block_terminator(entry);
   uint32_t cmp = xe_op(term, 0);
   xe_inst *b = xe_def(m, xe_op(xe_def(m, cmp), 0));
   uint32_t a = xe_op(b, 0), bid = b->result_id, x = 0, ld = 0, d = 0, e = 0, v = 0;
   xe_foreach_inst(i, &entry->insts) {
      if (i->opcode == SpvOpLoad)
         ld = i->result_id;
      else if (i->opcode == SpvOpVariable)
         v = i->result_id;
      else if (i->opcode == SpvOpIAdd && xe_op(i, 0) == ld)
         x = i->result_id;
      else if (i->opcode == SpvOpIMul && i != b)
         e = i->result_id, d = xe_op(i, 0);
   }
   ck_assert(x && ld && d && e && v);
   /* Names and decorations are no uses; a compare, a branch and a store are. */
   ck_assert(xe_result_unused(m, x));
   ck_assert(xe_result_unused(m, e));
   ck_assert(!xe_result_unused(m, bid));
   ck_assert(!xe_result_unused(m, cmp));
   ck_assert(!xe_delete_if_dead(m, b));
   ck_assert(!xe_delete_if_dead(m, xe_def(m, v)));
   ck_assert(!xe_delete_if_dead(m, NULL));
   /* The branch goes: the compare, then the product only it used; the sum
    * still feeds the store, the parameter is no instruction of a block. */
   xe_terminator_to_branch(m, term, xe_block_id(t));
   ck_assert(xe_delete_if_dead(m, xe_def(m, cmp)));
   ck_assert_ptr_null(xe_def(m, cmp));
   ck_assert_ptr_null(xe_def(m, bid));
   ck_assert_ptr_nonnull(xe_def(m, a));
   /* Its name and decoration go with x; the load stays (it reads memory). */
   ck_assert_str_eq(xe_name(m, x), "x");
   ck_assert(xe_delete_if_dead(m, xe_def(m, x)));
   ck_assert_ptr_null(xe_def(m, x));
   ck_assert_ptr_null(xe_name(m, x));
   ck_assert_ptr_nonnull(xe_def(m, ld));
   /* d is e's operand twice: deleted once. */
   ck_assert(xe_delete_if_dead(m, xe_def(m, e)));
   ck_assert_ptr_null(xe_def(m, d));
   char *err = NULL;
   ck_assert_msg(xe_check_uses(m, &err), "%s", err ? err : "");
   /* entry no longer branches to j: its phi entries go, t's stay (both of
    * r's, which has no entry from entry and is left as it was). */
   xe_phi_remove_pred(m, j, xe_block_id(entry));
   xe_inst *p = j->insts.first, *q = p->next, *r = q->next;
   ck_assert_uint_eq(xe_nops(p), 2);
   ck_assert_uint_eq(xe_op(p, 1), xe_block_id(t));
   ck_assert_uint_eq(xe_nops(q), 2);
   ck_assert_uint_eq(xe_op(q, 0), k.fn->params.first->result_id);
   ck_assert_uint_eq(xe_nops(r), 4);
   uint32_t nu;
   xe_uses(m, xe_block_id(entry), &nu);
   ck_assert_uint_eq(nu, 0);
   ck_assert_msg(xe_check_uses(m, &err), "%s", err ? err : "");
   xe_module_free(m);
}
END_TEST

/* xe_name remembers its answer until the id's names change. */
START_TEST(name_follows_edits)
{
   xe_module *m = assemble(nest_text(false));
   xe_kernel k;
   ck_assert(xe_kernel_by_name(m, "k", &k));
   uint32_t body = xe_function_id(k.body);
   ck_assert_str_eq(xe_name(m, body), "body");
   xe_inst *old = m->sec[XE_SEC_DEBUG_NAME].first;
   ck_assert_uint_eq(old->opcode, SpvOpName);
   /* A second OpName before the first: the first in layout order names. */
   uint32_t ops[3] = { body, 0, 0 };
   memcpy(&ops[1], "alt", 4);
   uint8_t kinds[3] = { XE_W_ID, XE_W_LIT, XE_W_LIT };
   xe_inst *alt = xe_inst_create(SpvOpName, 0, 0, ops, 2, kinds);
   xe_list_insert_before(m, old, alt);
   ck_assert_str_eq(xe_name(m, body), "alt");
   char *err = NULL;
   ck_assert_msg(xe_check_uses(m, &err), "%s", err ? err : "");
   xe_inst_kill(m, alt);
   ck_assert_str_eq(xe_name(m, body), "body");
   xe_inst_kill(m, old);
   ck_assert_ptr_null(xe_name(m, body));
   ck_assert_msg(xe_check_uses(m, &err), "%s", err ? err : "");
   xe_module_free(m);
}
END_TEST

/* The index of global variables (xe_global_variables) follows edits, and
 * the use-list check catches an index out of step with the module. */
START_TEST(global_variables_index)
{
   xe_module *m = assemble("OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n"
                           "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %f \"f\" %g\n"
                           "%void = OpTypeVoid\n%ulong = OpTypeInt 64 0\n"
                           "%v3 = OpTypeVector %ulong 3\n%pin = OpTypePointer Input %v3\n"
                           "%pw = OpTypePointer Workgroup %ulong\n"
                           "%pf = OpTypePointer Function %ulong\n"
                           "%g = OpVariable %pin Input\n%w = OpVariable %pw Workgroup\n"
                           "%fnty = OpTypeFunction %void\n%f = OpFunction %void None %fnty\n"
                           "%a = OpLabel\n%p = OpVariable %pf Function\nOpReturn\nOpFunctionEnd\n");
   uint32_t n;
   xe_inst *const *v = xe_global_variables(m, &n);
   ck_assert_uint_eq(n, 2);   /* %g and %w; the Function variable is not global */
   ck_assert(v[0]->opcode == SpvOpVariable && v[1]->opcode == SpvOpVariable);
   char *err = NULL;
   ck_assert_msg(xe_check_uses(m, &err), "%s", err);
   /* A new global variable joins; a deleted one leaves. */
   uint32_t id = xe_fresh_id(m);
   xe_inst *w = NULL;
   for (uint32_t k = 0; k < n; k++)
      if (xe_op(v[k], 0) == SpvStorageClassWorkgroup)
         w = v[k];
   ck_assert_ptr_nonnull(w);
   uint32_t ops[1] = { SpvStorageClassWorkgroup };
   uint8_t kinds[1] = { XE_W_LIT };
   xe_inst *nv = xe_inst_create(SpvOpVariable, w->type_id, id, ops, 1, kinds);
   xe_list_append(m, &m->sec[XE_SEC_GLOBAL], nv);
   v = xe_global_variables(m, &n);
   ck_assert_uint_eq(n, 3);
   ck_assert_msg(xe_check_uses(m, &err), "%s", err);
   xe_inst_kill(m, w);
   v = xe_global_variables(m, &n);
   ck_assert_uint_eq(n, 2);
   for (uint32_t k = 0; k < n; k++)
      ck_assert_ptr_ne(v[k], w);
   ck_assert_msg(xe_check_uses(m, &err), "%s", err);
   xe_module_free(m);
}
END_TEST

/* The kernel list is remembered (facts.c) and must follow the edits that
 * change it: an execution mode set, a second call of the body (its caller
 * count), the wrapper's call removed (the entry function is its own body
 * then).  xe_check_kernels agrees with a fresh list after each. */
START_TEST(kernel_list_follows_edits)
{
   xe_module *m = assemble(nest_text(false));
   xe_kernel k;
   ck_assert_uint_eq(xe_kernels(m, &k, 1), 1);
   ck_assert_uint_eq(k.local_size[0], 0);
   ck_assert_uint_eq(k.body_callers, 1);
   uint32_t ls[3] = { 64, 1, 1 };
   xe_set_execution_mode(m, xe_function_id(k.fn), SpvExecutionModeLocalSize, ls, 3);
   ck_assert_ptr_null(xe_check_kernels(m));
   ck_assert_uint_eq(xe_kernels(m, &k, 1), 1);
   ck_assert_uint_eq(k.local_size[0], 64);
   /* A second call of the body, before the wrapper's: the entry function
    * is no wrapper then (two calls) and is its own body, and the body has
    * two callers. */
   xe_function *body = k.body;
   xe_inst *call = k.fn->first->insts.first;
   ck_assert_uint_eq(call->opcode, SpvOpFunctionCall);
   xe_builder b = xe_builder_before(m, call);
   uint32_t ops[2] = { xe_op(call, 0), xe_op(call, 1) };
   xe_build(&b, SpvOpFunctionCall, call->type_id, 2, ops);
   ck_assert_uint_eq(xe_kernels(m, &k, 1), 1);
   ck_assert_ptr_eq(k.body, k.fn);
   ck_assert_uint_eq(k.body_callers, 0);
   ck_assert_uint_eq(xe_function_callers(m, body), 2);
   ck_assert_ptr_null(xe_check_kernels(m));
   /* The first call killed: a wrapper again, of one caller. */
   xe_inst_kill(m, call);
   ck_assert_uint_eq(xe_kernels(m, &k, 1), 1);
   ck_assert_ptr_eq(k.body, body);
   ck_assert_uint_eq(k.body_callers, 1);
   ck_assert_ptr_null(xe_check_kernels(m));
   /* Code in the wrapper besides the call, with no call added or removed
    * (only the entry function's code_gen moves, and its entry alone is
    * filled again): no wrapper then, until the code goes. */
   xe_inst *ret = k.fn->first->insts.last;
   ck_assert_uint_eq(ret->opcode, SpvOpReturn);
   b = xe_builder_before(m, ret);
   uint32_t add_ops[2] = { xe_op(k.fn->first->insts.first, 1), xe_op(k.fn->first->insts.first, 1) };
   uint32_t uint_ty = xe_def(m, add_ops[0])->type_id;
   xe_inst *add = xe_build(&b, SpvOpIAdd, uint_ty, 2, add_ops);
   ck_assert_uint_eq(xe_kernels(m, &k, 1), 1);
   ck_assert_ptr_eq(k.body, k.fn);
   ck_assert_ptr_null(xe_check_kernels(m));
   xe_inst_kill(m, add);
   ck_assert_uint_eq(xe_kernels(m, &k, 1), 1);
   ck_assert_ptr_eq(k.body, body);
   ck_assert_ptr_null(xe_check_kernels(m));
   xe_module_free(m);
}
END_TEST

/* The kernel list's memo must also follow a call added or removed outside
 * every entry function (only calls_gen moves then, no entry function's
 * code_gen): a second call of the body, made from the body itself, gives
 * it two callers while the wrapper stays a wrapper; killing that call
 * gives one again.  The list is asked for before each edit so that a memo
 * exists to go stale. */
START_TEST(kernel_list_follows_calls_elsewhere)
{
   xe_module *m = assemble(nest_text(false));
   xe_kernel k;
   ck_assert_uint_eq(xe_kernels(m, &k, 1), 1);
   ck_assert_uint_eq(k.body_callers, 1);
   xe_function *body = k.body, *wrap = k.fn;
   ck_assert_ptr_ne(body, wrap);
   uint32_t wrap_code = wrap->code_gen;
   xe_inst *ret = body->last->insts.last, *call = wrap->first->insts.first;
   ck_assert_uint_eq(ret->opcode, SpvOpReturn);
   ck_assert_uint_eq(call->opcode, SpvOpFunctionCall);
   /* body(c1) before the body's return, c1 taken from %jnext = %j + %c1. */
   uint32_t c1 = 0;
   for (xe_block *bl = body->first; bl && !c1; bl = bl->next)
      xe_foreach_inst(i, &bl->insts)
         if (i->opcode == SpvOpIAdd) { c1 = xe_op(i, 1); break; }
   ck_assert_uint_ne(c1, 0);
   xe_builder b = xe_builder_before(m, ret);
   uint32_t ops[2] = { xe_function_id(body), c1 };
   xe_inst *rec = xe_build(&b, SpvOpFunctionCall, call->type_id, 2, ops);
   ck_assert_uint_eq(wrap->code_gen, wrap_code);
   ck_assert_uint_eq(xe_kernels(m, &k, 1), 1);
   ck_assert_ptr_eq(k.body, body);
   ck_assert_uint_eq(k.body_callers, 2);
   ck_assert_ptr_null(xe_check_kernels(m));
   xe_inst_kill(m, rec);
   ck_assert_uint_eq(wrap->code_gen, wrap_code);
   unsigned n;
   xe_kernel *all = xe_kernels_all(m, &n);
   ck_assert_uint_eq(n, 1);
   ck_assert_ptr_eq(all[0].body, body);
   ck_assert_uint_eq(all[0].body_callers, 1);
   free(all);
   ck_assert_ptr_null(xe_check_kernels(m));
   xe_module_free(m);
}
END_TEST

/* One layout for passes and interpreter (src/ir/layout.c), with OpenCL C's
 * rules: struct { double4 v; char c; } is 64 bytes (double4 aligned to
 * 32, the size rounded up to it); facts.c once capped alignment at 16 and
 * said 48 while exec/decode.c said 64.  Structs holding arrays and structs,
 * once "unknown" (0) to the passes, get their size. */
START_TEST(type_layout_opencl)
{
   xe_module *m = assemble(
      "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\nOpCapability Int8\n"
      "OpCapability Float64\nOpMemoryModel Physical64 OpenCL\n"
      "OpName %sd \"sd\"\nOpName %sa \"sa\"\nOpName %sn \"sn\"\nOpName %sp \"sp\"\n"
      "OpDecorate %sp CPacked\n"
      "%char = OpTypeInt 8 0\n%uint = OpTypeInt 32 0\n%double = OpTypeFloat 64\n"
      "%float = OpTypeFloat 32\n%d4 = OpTypeVector %double 4\n%f3 = OpTypeVector %float 3\n"
      "%c3 = OpConstant %uint 3\n%arr = OpTypeArray %uint %c3\n"
      "%sd = OpTypeStruct %d4 %char\n"           /* 64: 32 + 1, rounded to 32 */
      "%sa = OpTypeStruct %char %arr\n"          /* 16: int[3] at 4 */
      "%sn = OpTypeStruct %char %sd %f3\n"       /* 128: sd at 32, float3 at 96 */
      "%sp = OpTypeStruct %char %d4\n");        /* 33: packed */
   uint32_t sd = 0, sa = 0, sn = 0, sp = 0, d4 = 0, f3 = 0;
   xe_foreach_inst(i, &m->sec[XE_SEC_GLOBAL]) {
      if (i->opcode == SpvOpTypeStruct)
         *(!sd ? &sd : !sa ? &sa : !sn ? &sn : &sp) = i->result_id;
      if (i->opcode == SpvOpTypeVector)
         *(!d4 ? &d4 : &f3) = i->result_id;
   }
   uint64_t a = 0;
   ck_assert_uint_eq(xe_type_layout(m, d4, &a), 32);
   ck_assert_uint_eq(a, 32);
   ck_assert_uint_eq(xe_type_layout(m, f3, &a), 16);
   ck_assert_uint_eq(a, 16);
   ck_assert_uint_eq(xe_type_layout(m, sd, &a), 64);
   ck_assert_uint_eq(a, 32);
   ck_assert_uint_eq(xe_type_size(m, sd), 64);
   ck_assert_uint_eq(xe_type_member_offset(m, sd, 1), 32);
   ck_assert_uint_eq(xe_type_size(m, sa), 16);
   ck_assert_uint_eq(xe_type_member_offset(m, sa, 1), 4);
   ck_assert_uint_eq(xe_type_size(m, sn), 128);
   ck_assert_uint_eq(xe_type_member_offset(m, sn, 1), 32);
   ck_assert_uint_eq(xe_type_member_offset(m, sn, 2), 96);
   ck_assert_uint_eq(xe_type_layout(m, sp, &a), 33);
   ck_assert_uint_eq(a, 1);
   ck_assert_uint_eq(xe_type_member_offset(m, sp, 1), 1);
   xe_module_free(m);
}
END_TEST

/* The generated opcode table (src/ir/opinfo.h) on a few opcodes of each
 * kind, and an opcode no grammar has. */
START_TEST(opcode_info)
{
   ck_assert_uint_eq(xe_opcode_info(SpvOpIAdd), XE_OPI_PURE);
   ck_assert_uint_eq(xe_opcode_info(SpvOpLoad), XE_OPI_READS);
   ck_assert_uint_eq(xe_opcode_info(SpvOpStore), XE_OPI_WRITES);
   ck_assert_uint_eq(xe_opcode_info(SpvOpInBoundsPtrAccessChain), XE_OPI_PURE | XE_OPI_ADDRESS);
   ck_assert(xe_opcode_info(SpvOpAtomicIAdd) & XE_OPI_ATOMIC);
   ck_assert(xe_opcode_info(SpvOpControlBarrier) & XE_OPI_BARRIER);
   ck_assert(xe_opcode_info(SpvOpControlBarrier) & XE_OPI_CONVERGENT);
   ck_assert_uint_eq(xe_opcode_info(SpvOpGroupBroadcast), XE_OPI_CONVERGENT);
   ck_assert_uint_eq(xe_opcode_info(SpvOpSubgroupBlockReadINTEL), XE_OPI_READS | XE_OPI_CONVERGENT);
   ck_assert(xe_opcode_info(SpvOpFunctionCall) & XE_OPI_WRITES);
   ck_assert_uint_eq(xe_opcode_info(60000), XE_OPI_READS | XE_OPI_WRITES | XE_OPI_EFFECT);
   ck_assert_uint_eq(xe_ocl_ext_info(OpenCLstd_Sqrt), XE_OPI_PURE);
   ck_assert_uint_eq(xe_ocl_ext_info(OpenCLstd_Vloadn), XE_OPI_READS);
   ck_assert_uint_eq(xe_ocl_ext_info(OpenCLstd_Vstore_half), XE_OPI_WRITES);
   ck_assert_uint_eq(xe_ocl_ext_info(OpenCLstd_Sincos), XE_OPI_WRITES);
   ck_assert(xe_ocl_ext_info(OpenCLstd_Printf) & XE_OPI_EFFECT);
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

/* xe_uses hands out copies from an arena of 1,024-use chunks; a value with
 * exactly 1,024 uses fills a fresh chunk to the last slot.  Both values
 * here have exactly 1,024 uses (%n and %one in 1,024 adds): each copy
 * lists every add in layout order with the right operand word, the first
 * copy is intact after the second is taken, and the lists are released
 * cleanly.  A chunk one use short would be a heap overflow: ASan reports
 * the copy; without it, glibc's free aborts on the damaged heap. */
START_TEST(use_copy_of_exactly_one_chunk)
{
   enum { NU = 1024 };
   size_t cap = 64 * NU, len = 0;
   char *text = malloc(cap);
   ck_assert_ptr_nonnull(text);
   len += (size_t)snprintf(text + len, cap - len,
                           "OpCapability Addresses\nOpCapability Kernel\n"
                           "OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %%k \"k\"\n"
                           "%%void = OpTypeVoid\n%%uint = OpTypeInt 32 0\n%%one = OpConstant %%uint 1\n"
                           "%%fnty = OpTypeFunction %%void %%uint\n"
                           "%%k = OpFunction %%void None %%fnty\n%%n = OpFunctionParameter %%uint\n"
                           "%%entry = OpLabel\n");
   for (int k = 0; k < NU; k++)
      len += (size_t)snprintf(text + len, cap - len, "%%a%d = OpIAdd %%uint %%n %%one\n", k);
   snprintf(text + len, cap - len, "OpReturn\nOpFunctionEnd\n");
   xe_module *m = assemble(text);
   free(text);
   uint32_t one = 0;
   xe_foreach_inst(i, &m->sec[XE_SEC_GLOBAL]) {
      uint64_t v;
      if (xe_const_uint(m, i->result_id, &v) && v == 1)
         one = i->result_id;
   }
   ck_assert(one);
   uint32_t nc, nn;
   const xe_use *uc = xe_uses(m, one, &nc);
   ck_assert_uint_eq(nc, NU);
   xe_inst *add0 = uc[0].inst;
   uint32_t n = xe_op(add0, 0);
   const xe_use *un = xe_uses(m, n, &nn);
   ck_assert_uint_eq(nn, NU);
   xe_inst *i = add0;
   for (uint32_t k = 0; k < NU; k++, i = i->next) {
      ck_assert_ptr_eq(uc[k].inst, i);
      ck_assert_uint_eq(uc[k].word, i->first_op + 1);
      ck_assert_ptr_eq(un[k].inst, i);
      ck_assert_uint_eq(un[k].word, i->first_op);
   }
   xe_uses_release(m);
   ck_assert_uint_eq(xe_use_count(m, one), NU);
   xe_module_free(m);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("ir");
   TCase *tc = tcase_create("ir");
   tcase_add_test(tc, kernel_body_behind_wrapper);
   tcase_add_test(tc, kernel_wrapper_params_in_order);
   tcase_add_test(tc, kernel_declaration_is_own_body);
   tcase_add_test(tc, cfg_dominators_loops);
   tcase_add_test(tc, builder_find_or_create);
   tcase_add_test(tc, use_copy_of_exactly_one_chunk);
   tcase_add_test(tc, block_order_fixes_dominance);
   tcase_add_test(tc, remark_text_chunks);
   tcase_add_test(tc, layout_facts_from_terminators);
   tcase_add_test(tc, global_variables_index);
   tcase_add_test(tc, kernel_list_follows_edits);
   tcase_add_test(tc, kernel_list_follows_calls_elsewhere);
   tcase_add_test(tc, layout_facts_remembered);
   tcase_add_test(tc, layout_facts_edges_as_cfg);
   tcase_add_test(tc, name_follows_edits);
   tcase_add_test(tc, cleanup_dead_values_and_phis);
   tcase_add_test(tc, type_layout_opencl);
   tcase_add_test(tc, opcode_info);
   tcase_add_test(tc, use_lists_follow_edits);
   tcase_add_test(tc, pool_and_first_build);
   tcase_add_test(tc, read_over_reuses_pool);
   tcase_add_test(tc, idmap_sparse);
   tcase_add_test(tc, spec_id_cursor);
   tcase_add_test(tc, analysis_generations);
   tcase_add_test(tc, version_raised_for_new_features);
   suite_add_tcase(s, tc);
   return tu_run_suite(s) ? 1 : 0;
}
