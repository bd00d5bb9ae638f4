/*
 * block-io: per-lane global loads and stores of contiguous addresses
 * become sub-group block reads and writes (SPV_INTEL_subgroups).
 *
 * Guide: "sub-group block load/store" (shared/docs/REWRITES.md section 2).
 * `data[i]` with i = get_global_id(0) makes every lane send its own 64-bit
 * address (a scattered message); a block read needs only the sub-group's
 * base address.  The base is lane 0's address: the lane-varying built-in
 * ids it derives from are broadcast once (OpGroupBroadcast Subgroup, 0)
 * and the index arithmetic is re-emitted on them, so IGC computes it
 * with scalar instructions and emits one transposed block message.
 *
 * Preconditions proved per access (lanes.h does the analysis):
 *  - the kernel has SubgroupSize SG and LocalSize.x % SG == 0 (from the
 *    module, or added by --subgroup-size / --local-size);
 *  - the address is CrossWorkgroup and lane-affine with stride equal to
 *    the element size; elements of 8, 16, 32 or 64 bits (integers, or
 *    floats moved through OpBitcast to the integer of the same width);
 *  - the access is in a sub-group uniform block: every lane of the
 *    sub-group executes it, which block reads require and which makes the
 *    broadcast from lane 0 well defined (lane 0 exists in a full
 *    sub-group: partial sub-groups are excluded by the host contract);
 *  - alignment (cl_intel_subgroups, "Restrictions"): the sub-group's base
 *    pointer 4-byte aligned for reads and 16-byte aligned for writes (the
 *    same for the _char, _short and _long variants).
 *    Reads: the access's own Aligned operand (lane 0's address is one of
 *    the addresses it covers) or the kernel argument's Alignment
 *    decoration plus the known alignment of the offset.  Writes: the
 *    argument alignment and the offset; with --assume-aligned the
 *    argument is taken as 16-byte aligned and the global work offset x as
 *    a multiple of SG (this also makes 32-bit indices such as
 *    `int i = get_global_id(0)` provably non-wrapping across lanes).
 *  - the kernel body is called only from its entry wrapper.
 *
 * Host contract (manifest, see docs/manifest.md): every changed kernel
 * must be launched with a global size that is a multiple of the local size
 * (no partial work-groups, hence no partial sub-groups); modes added by
 * --subgroup-size / --local-size; argument alignment and global offset
 * assumed under --assume-aligned.  Execution modes are added only when
 * the kernel actually changes.  SubgroupSize needs SubgroupDispatch, a
 * SPIR-V 1.1 capability: adding it raises a 1.0 module to 1.1
 * (xe_require_version; llvm-spirv-15 writes 1.0 for most kernels).
 *
 * Wide form: loads of `p[base + k*SG + lane]`, k = 0..n-1 (n = 2, 4, 8),
 * in one block with no memory write between them, become one vector
 * block read (component k = p[k*SG + lane]).  Lane 0's addresses are
 * compared as key + constant (merge_loads).
 *
 * Not done: merging stores; vector elements; reconvergence after a
 * divergent region (the join is treated as divergent).
 *
 * The per-access proof and the wide form's address decomposition are in
 * src/analysis/block_access.c; this file gathers the candidates, asks the
 * cost model, builds the lane-0 bases and rewrites.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "block_access.h"
#include "builder.h"
#include "cfg.h"
#include "cost.h"
#include "lanes.h"
#include "passes.h"

#define SCOPE_SUBGROUP 3

/* The candidates, decided by src/analysis/block_access.h. */
typedef xe_block_access access;

static uint32_t pointer_storage(xe_module *m, uint32_t ptr, uint32_t *pointee)
{
   xe_inst *d = xe_def(m, ptr);
   xe_inst *t = d ? xe_def(m, d->type_id) : NULL;
   if (!t || t->opcode != SpvOpTypePointer)
      return UINT32_MAX;
   *pointee = xe_op(t, 1);
   return xe_op(t, 0);
}

/* Groups acc's loads (those whose inst is set) into wide block reads:
 * first->width, the later members' merged and next_in_group. */
static void merge_loads(xe_module *m, access *acc, unsigned nacc, const xe_lanes *plain,
                        const xe_lanes *assumed, uint32_t sg)
{
   for (unsigned a = 0; a < nacc; a++) {
      access *first = &acc[a];
      if (!first->inst || first->store || first->merged)
         continue;
      xe_lane0_addr la = xe_lane0_addr_of(m, first->use_offset ? assumed : plain, first->ptr);
      if (!la.ok)
         continue;
      uint64_t step = (uint64_t)sg * (xe_type_width(m, first->elem_type) / 8);
      access *members[8] = { first };
      unsigned n = 1;
      unsigned b = a + 1;
      /* Scan forward in the block while nothing writes memory. */
      for (xe_inst *i = first->inst->next; i && n < 8; i = i->next) {
         /* Accesses the pass leaves alone (inst cleared) are judged by
          * no_write below like any other instruction. */
         while (b < nacc && !acc[b].inst)
            b++;
         if (b < nacc && acc[b].inst == i) {
            access *c = &acc[b++];
            if (c->store)
               break;
            if (!c->merged && c->elem_type == first->elem_type) {
               xe_lane0_addr lc = xe_lane0_addr_of(m, c->use_offset ? assumed : plain, c->ptr);
               if (lc.ok && xe_lane0_addr_same_key(&la, &lc) && lc.off == la.off + (int64_t)(n * step))
                  members[n++] = c;
            }
            continue;
         }
         if (!xe_inst_no_memory_write(m, i))
            break;
      }
      unsigned width = n >= 8 ? 8 : n >= 4 ? 4 : n >= 2 ? 2 : 1;
      if (width < 2)
         continue;
      first->width = width;
      for (unsigned k = 1; k < width; k++) {
         members[k]->merged = true;
         members[k - 1]->next_in_group = members[k];
      }
   }
}

/* The applied remark of each group merge_loads made. */
static void remark_merges(xe_module *m, xe_remarks *r, const char *kernel, const access *acc,
                          unsigned nacc)
{
   for (unsigned a = 0; a < nacc; a++) {
      if (!acc[a].inst || acc[a].merged || acc[a].width < 2)
         continue;
      const access *last = &acc[a];
      while (last->next_in_group)
         last = last->next_in_group;
      char n0[64], n1[64];
      xe_remark(r, kernel, XE_REMARK_APPLIED, "loads via %s .. %s: merged into one %u-wide block read",
                xe_id_text(m, acc[a].ptr, n0, sizeof(n0)), xe_id_text(m, last->ptr, n1, sizeof(n1)),
                acc[a].width);
   }
}

/* Lane-0 values.  The sub-group base is the access's address in lane 0.
 * Rather than computing the address in every lane and broadcasting it,
 * we broadcast the lane-varying leaves (built-in ids) once, right after
 * their definition, and re-emit the pure integer/pointer operations on
 * them: lane0(op(a, b)) = op(lane0(a), lane0(b)) holds for any lane-wise
 * operation, and IGC then computes the base with scalar instructions.
 * Uniform values are their own lane-0 value.  A broadcast needs every lane
 * of the sub-group to execute it, so leaves must be in uniform blocks;
 * otherwise we broadcast the final index at the access (uniform block by
 * the transform's precondition). */
typedef struct lane0_ctx {
   xe_module *m;
   const xe_lanes *l;
   xe_idtab memo;     /* by original id; 0 = not built, UINT32_MAX = failed (sparse:
                         one table of the module's bound per kernel was quadratic) */
   uint32_t bound;
} lane0_ctx;

/* The last of the phis and source info from phi i on: code goes after it. */
static xe_inst *after_phis(const xe_module *m, xe_inst *i)
{
   while (i->next && (i->next->opcode == SpvOpPhi || xe_inst_is_source_info(m, i->next)))
      i = i->next;
   return i;
}

static uint32_t broadcast_after(lane0_ctx *c, xe_inst *def)
{
   xe_module *m = c->m;
   xe_inst *t = xe_def(m, def->type_id);
   if (!t || !def->block || !xe_lanes_block_uniform(c->l, def->block->label->result_id))
      return 0;
   xe_inst *pos = def->opcode == SpvOpPhi ? after_phis(m, def) : def;
   uint32_t u32 = xe_type_int(m, 32);
   uint32_t ops[3] = { xe_const_int(m, u32, SCOPE_SUBGROUP), def->result_id, xe_const_int(m, u32, 0) };
   xe_inst *last;
   uint32_t r;
   if (t->opcode == SpvOpTypeInt) {
      r = xe_fresh_id(m);
      last = xe_inst_create(SpvOpGroupBroadcast, def->type_id, r, ops, 3, NULL);
      xe_list_insert_after(m, pos, last);
      return r;
   }
   if (t->opcode != SpvOpTypePointer)
      return 0;
   uint32_t u64 = xe_type_int(m, 64), a = xe_fresh_id(m), b = xe_fresh_id(m);
   r = xe_fresh_id(m);
   xe_inst *i1 = xe_inst_create(SpvOpConvertPtrToU, u64, a, &def->result_id, 1, NULL);
   ops[1] = a;
   xe_inst *i2 = xe_inst_create(SpvOpGroupBroadcast, u64, b, ops, 3, NULL);
   xe_inst *i3 = xe_inst_create(SpvOpConvertUToPtr, def->type_id, r, &b, 1, NULL);
   xe_list_insert_after(m, pos, i1);
   xe_list_insert_after(m, i1, i2);
   xe_list_insert_after(m, i2, i3);
   return r;
}

static uint32_t lane0(lane0_ctx *c, uint32_t id, unsigned depth)
{
   if (id >= c->bound)
      return 0;
   uint32_t mv = xe_idtab_get(&c->memo, id);
   if (mv)
      return mv == UINT32_MAX ? 0 : mv;
   const xe_lane_fact *f = xe_lanes_fact(c->l, id);
   xe_inst *d = xe_def(c->m, id);
   uint32_t r = 0;
   if (f->kind == XE_LANE_UNIFORM) {
      r = id;
   } else if (d && d->block && depth < 64) {
      switch (d->opcode) {
      case SpvOpIAdd: case SpvOpISub: case SpvOpIMul: case SpvOpShiftLeftLogical:
      case SpvOpSConvert: case SpvOpUConvert: case SpvOpBitcast: case SpvOpCopyObject:
      case SpvOpConvertPtrToU: case SpvOpConvertUToPtr:
      case SpvOpPtrAccessChain: case SpvOpInBoundsPtrAccessChain: {
         uint32_t ops[16];
         unsigned n = xe_nops(d);
         bool ok = n <= 16;
         for (unsigned k = 0; ok && k < n; k++) {
            ops[k] = xe_op_kind(d, k) == XE_W_ID ? lane0(c, xe_op(d, k), depth + 1) : xe_op(d, k);
            ok = ops[k] != 0;
         }
         if (ok) {
            r = xe_fresh_id(c->m);
            xe_inst *cl = xe_inst_clone(d);
            xe_set_result(cl, r);
            xe_set_ops(cl, ops, n, d->kinds + d->first_op);
            xe_list_insert_after(c->m, d, cl);
            /* Wrap flags stay true: lane 0's operation is one the original
             * program performs in lane 0. */
            break;
         }
      }
      /* fall through */
      default:
         r = broadcast_after(c, d);
         break;
      }
   }
   xe_idtab_set(&c->memo, id, r ? r : UINT32_MAX);
   return r;
}

/* The lane-0 (sub-group base) pointer of ptr, built before the access. */
static uint32_t build_base(lane0_ctx *c, xe_builder *b, uint32_t ptr)
{
   xe_module *m = c->m;
   uint32_t r = lane0(c, ptr, 0);
   if (r)
      return r;
   uint32_t u32 = xe_type_int(m, 32), zero = xe_const_int(m, u32, 0);
   uint32_t scope = xe_const_int(m, u32, SCOPE_SUBGROUP);
   xe_inst *d = xe_def(m, ptr);
   uint32_t u64 = xe_type_int(m, 64);
   uint32_t addr = xe_build1(b, SpvOpConvertPtrToU, u64, ptr);
   uint32_t addr0 = xe_build3(b, SpvOpGroupBroadcast, u64, scope, addr, zero);
   return xe_build1(b, SpvOpConvertUToPtr, d->type_id, addr0);
}

static void rewrite(lane0_ctx *c, access *a)
{
   xe_module *m = c->m;
   xe_builder b = xe_builder_before(m, a->inst);
   uint32_t base = build_base(c, &b, a->ptr);
   xe_inst *t = xe_def(m, a->elem_type);
   unsigned width = xe_op(t, 0);
   /* Block I/O takes integers: floats are moved as same-width integers
    * (the module may use half or double without 16/64-bit integers). */
   static const SpvCapability int_cap[] = { [8] = SpvCapabilityInt8, [16] = SpvCapabilityInt16,
                                            [64] = SpvCapabilityInt64 };
   if (width != 32)
      xe_add_capability(m, int_cap[width]);
   uint32_t u32 = xe_type_int(m, width);
   bool is_float = t->opcode == SpvOpTypeFloat;
   if (is_float)
      base = xe_build1(&b, SpvOpBitcast, xe_type_pointer(m, SpvStorageClassCrossWorkgroup, u32), base);
   xe_inst *next = a->inst->next;
   if (a->store) {
      uint32_t v = xe_op(a->inst, 1);
      if (is_float)
         v = xe_build1(&b, SpvOpBitcast, u32, v);
      uint32_t ops[2] = { base, v };
      xe_build(&b, SpvOpSubgroupBlockWriteINTEL, 0, 2, ops);
      xe_inst_delete(m, a->inst);
      return;
   }
   if (a->width > 1) {
      /* Component k of the vector is the k-th load of the group; each
       * extract takes over its load's result id (inserting the new
       * definition before deleting the old one keeps the id table right:
       * a removal forgets only its own definition). */
      if (a->width >= 8)
         xe_add_capability(m, SpvCapabilityVector16);   /* 8- and 16-component vectors */
      uint32_t vt = xe_type_vector(m, u32, a->width);
      uint32_t vec = xe_build1(&b, SpvOpSubgroupBlockReadINTEL, vt, base);
      unsigned k = 0;
      for (access *g = a; g; g = g->next_in_group, k++) {
         uint32_t ops[2] = { vec, k }, result = g->inst->result_id;
         uint8_t kinds[2] = { XE_W_ID, XE_W_LIT };
         uint32_t val = vec;
         if (is_float) {
            val = xe_fresh_id(m);
            xe_build_inst(&b, xe_inst_create(SpvOpCompositeExtract, u32, val, ops, 2, kinds));
         }
         xe_build_inst(&b, is_float ? xe_inst_create(SpvOpBitcast, g->elem_type, result, &val, 1, NULL)
                                    : xe_inst_create(SpvOpCompositeExtract, g->elem_type, result, ops,
                                                     2, kinds));
      }
      for (access *g = a, *n; g; g = n) {
         n = g->next_in_group;
         xe_inst_delete(m, g->inst);
      }
      return;
   }
   /* The last instruction takes the load's result id: no use rewriting. */
   uint32_t result = a->inst->result_id;
   xe_inst *fin;
   if (is_float) {
      uint32_t val = xe_build1(&b, SpvOpSubgroupBlockReadINTEL, u32, base);
      fin = xe_inst_create(SpvOpBitcast, a->elem_type, result, &val, 1, NULL);
   } else {
      fin = xe_inst_create(SpvOpSubgroupBlockReadINTEL, a->elem_type, result, &base, 1, NULL);
   }
   xe_inst_delete(m, a->inst);
   xe_list_insert_before(m, next, fin);
}

static cJSON *entry(const char *requirement)
{
   cJSON *e = cJSON_CreateObject();
   cJSON_AddStringToObject(e, "pass", "block-io");
   cJSON_AddStringToObject(e, "requirement", requirement);
   return e;
}

static bool run_kernel(const xe_ctx *ctx, xe_kernel *k)
{
   xe_module *m = ctx->module;
   const xe_options *opt = ctx->options;
   xe_remarks *r = ctx->remarks;
   xe_function *f = k->body;
   access *acc = NULL;
   unsigned nacc = 0;
   xe_foreach_block(b, f) {
      xe_foreach_inst(i, &b->insts) {
         bool st = i->opcode == SpvOpStore;
         if (i->opcode != SpvOpLoad && !st)
            continue;
         uint32_t pointee;
         if (pointer_storage(m, xe_op(i, 0), &pointee) != SpvStorageClassCrossWorkgroup)
            continue;
         acc = realloc(acc, (nacc + 1) * sizeof(*acc));
         acc[nacc++] = (access){ i, xe_op(i, 0), pointee, st, false, false, 0, 1, NULL, false };
      }
   }
   if (!nacc)
      return false;

   uint32_t sg = k->subgroup_size, ls[3] = { k->local_size[0], k->local_size[1], k->local_size[2] };
   bool add_sg = false, add_ls = false;
   /* The option layer checked the values (8, 16 or 32; 1..1024). */
   const xe_kernel_launch_opt *osg = xe_options_subgroup_size(opt, k->name);
   const xe_kernel_launch_opt *ols = xe_options_local_size(opt, k->name);
   if (osg) {
      unsigned v = osg->v[0];
      if (sg && v != sg)
         xe_remark(r, k->name, XE_REMARK_NOTE, "--subgroup-size=%u ignored: the kernel requires %u", v, sg);
      else if (!sg && (v == 8 || v == 16 || v == 32))
         sg = v, add_sg = true;
      else if (!sg)
         sg = v, add_sg = true;
   }
   if (ols) {
      const uint32_t *v = ols->v;
      if (ls[0] && memcmp(v, ls, sizeof(ls)))
         xe_remark(r, k->name, XE_REMARK_NOTE, "--local-size=%s ignored: the kernel requires %u,%u,%u",
                   ols->text, ls[0], ls[1], ls[2]);
      else if (!ls[0])
         memcpy(ls, v, sizeof(ls)), add_ls = true;
   }

   const char *kernel_why = NULL;
   char kwhy[160];
   if (k->body != k->fn && k->body_callers != 1) {
      snprintf(kwhy, sizeof(kwhy), "the kernel body is called from %u places", k->body_callers);
      kernel_why = kwhy;
   } else if (!sg) {
      kernel_why = "unknown sub-group size (no SubgroupSize; --subgroup-size=N opts in)";
   } else if (!ls[0]) {
      kernel_why = "unknown local size (no LocalSize; --local-size=X[,Y,Z] opts in)";
   } else if (ls[0] % sg) {
      snprintf(kwhy, sizeof(kwhy), "LocalSize.x %u is not a multiple of the sub-group size %u",
               ls[0], sg);
      kernel_why = kwhy;
   }
   char nb[64], why[256];
   if (kernel_why) {
      for (unsigned n = 0; n < nacc; n++)
         xe_remark(r, k->name, XE_REMARK_MISSED, "%s via %s: %s", acc[n].store ? "store" : "load",
                   xe_id_text(m, acc[n].ptr, nb, sizeof(nb)), kernel_why);
      free(acc);
      return false;
   }

   xe_lanes *plain = xe_lanes_analyze(m, f, sg, ls, 0);
   xe_lanes *assumed = xe_lanes_analyze(m, f, sg, ls, XE_LANES_ASSUME_OFFSET);
   unsigned nconv = 0;
   bool need_offset = false;
   char **no = calloc(nacc, sizeof(char *));
   xe_inst **conv = calloc(nacc, sizeof(xe_inst *));
   for (unsigned n = 0; n < nacc; n++) {
      const char *w = xe_block_access_decide(m, opt->assume_aligned, plain, assumed, &acc[n], why, sizeof(why));
      if (w)
         no[n] = strdup(w);
      else
         conv[nconv++] = acc[n].inst;
   }
   /* The cost model's say (src/analysis/cost.h): converting a load whose
    * per-lane address another access still needs (a load-only
    * conversion) makes IGC keep both address forms, which is slower on
    * pvc (sg_copy: 22 -> 31 instructions). */
   double before[XE_DEV_COUNT], after[XE_DEV_COUNT];
   enum xe_device worst = XE_DEV_DG2;
   unsigned devs = xe_judge_devices(ctx, k->name);
   /* The wide form's groups, before the model: it prices a load merged
    * into the one before it apart (igc_block).  The accesses refused
    * above take no part. */
   for (unsigned n = 0; n < nacc; n++)
      if (no[n])
         acc[n].inst = NULL;
   merge_loads(m, acc, nacc, plain, assumed, sg);
   xe_inst **merged = calloc(nacc, sizeof(xe_inst *));
   unsigned nmerged = 0;
   for (unsigned n = 0; n < nacc; n++)
      if (acc[n].inst && acc[n].merged)
         merged[nmerged++] = acc[n].inst;
   xe_cost_change ch = { .block = conv, .nblock = nconv, .merged = merged, .nmerged = nmerged,
                         .local_size_declared = k->local_size[0] != 0 };
   /* Refused when slower on a target device, or when the gain there is
    * under XE_COST_MIN_GAIN (cost.h). */
   bool slower = nconv && !xe_cost_compare(m, k->fn, devs, &ch, before, after, &worst);
   if (slower || (nconv && !xe_cost_clear_gain(devs, before, after, &worst))) {
      char est[160], msg[400];
      xe_cost_format(est, sizeof(est), devs, before, after);
      if (slower && xe_cost_igc_blocks(&ch, worst))
         snprintf(msg, sizeof(msg), "not converted: on %s IGC makes it a block message itself, the kernel "
                  "declaring LocalSize, and the conversion only adds lane 0's base (estimate %s cycles)",
                  xe_device_name(worst), est);
      else if (slower)
         snprintf(msg, sizeof(msg), "not converted: the cost model says slower on %s (estimate %s cycles)",
                  xe_device_name(worst), est);
      else
         snprintf(msg, sizeof(msg), "not converted: the cost model's gain on %s is under %.0f%% "
                  "(estimate %s cycles), where IGC's own choices decide",
                  xe_device_name(worst), 100 * XE_COST_MIN_GAIN, est);
      for (unsigned n = 0; n < nacc; n++)
         if (!no[n])
            no[n] = strdup(msg);
      nconv = 0;
   }
   for (unsigned n = 0; n < nacc; n++) {
      if (no[n]) {
         xe_remark(r, k->name, XE_REMARK_MISSED, "%s via %s: %s", acc[n].store ? "store" : "load",
                   xe_id_text(m, acc[n].ptr, nb, sizeof(nb)), no[n]);
         acc[n].inst = NULL;
         free(no[n]);
         continue;
      }
      need_offset |= acc[n].use_offset;
      xe_remark(r, k->name, XE_REMARK_APPLIED, "%s via %s: sub-group block %s (SG %u)%s%s",
                acc[n].store ? "store" : "load", xe_id_text(m, acc[n].ptr, nb, sizeof(nb)),
                acc[n].store ? "write" : "read", sg,
                acc[n].use_argalign ? ", argument alignment assumed" : "",
                acc[n].use_offset ? ", global offset assumed" : "");
   }
   free(no);
   free(conv);
   free(merged);
   if (nconv) {
      /* Lane-0 values do not depend on which facts proved the access;
       * the plain facts only decide what is already uniform. */
      lane0_ctx lc = { m, plain, { { 0 }, 0, 0 }, plain->bound };
      remark_merges(m, r, k->name, acc, nacc);
      for (unsigned n = 0; n < nacc; n++) {
         if (acc[n].inst && !acc[n].merged)
            rewrite(&lc, &acc[n]);
      }
      xe_idtab_free(&lc.memo);
      xe_add_capability(m, SpvCapabilityGroups);
      xe_add_capability(m, SpvCapabilitySubgroupBufferBlockIOINTEL);
      if (!xe_has_extension(m, "SPV_INTEL_subgroups"))
         xe_add_extension(m, "SPV_INTEL_subgroups");
      uint32_t fid = xe_function_id(k->fn);
      if (add_sg) {
         xe_add_capability(m, SpvCapabilitySubgroupDispatch);
         xe_set_execution_mode(m, fid, SpvExecutionModeSubgroupSize, &sg, 1);
         cJSON *e = entry("subgroup_size");
         cJSON_AddNumberToObject(e, "value", sg);
         cJSON_AddStringToObject(e, "origin", "--subgroup-size");
         xe_manifest_add(m, k->name, "launch", e);
      }
      if (add_ls) {
         xe_set_execution_mode(m, fid, SpvExecutionModeLocalSize, ls, 3);
         cJSON *e = entry("local_size");
         cJSON_AddItemToObject(e, "value", cJSON_CreateIntArray((const int[]){ (int)ls[0], (int)ls[1], (int)ls[2] }, 3));
         cJSON_AddStringToObject(e, "origin", "--local-size");
         xe_manifest_add(m, k->name, "launch", e);
      }
      cJSON *e = entry("uniform_work_groups");
      cJSON_AddStringToObject(e, "text", "global size must be a multiple of the local size "
                              "(no partial work-groups or sub-groups)");
      xe_manifest_add(m, k->name, "launch", e);
      /* Every argument a conversion relies on, however many: one left out
       * is one the host may pass unaligned to a block access. */
      uint32_t *done = malloc((nacc + 1) * sizeof(uint32_t));
      if (!done)
         xe_out_of_memory();
      unsigned ndone = 0;
      for (unsigned n = 0; n < nacc; n++) {
         if (!acc[n].inst || !acc[n].use_argalign)
            continue;
         bool seen = false;
         for (unsigned d = 0; d < ndone; d++)
            seen |= done[d] == acc[n].root;
         if (seen)
            continue;
         done[ndone++] = acc[n].root;
         e = entry("argument_alignment");
         cJSON_AddNumberToObject(e, "argument", xe_param_index(f, acc[n].root));
         const char *an = xe_name(m, acc[n].root);
         cJSON_AddStringToObject(e, "name", an ? an : "");
         cJSON_AddNumberToObject(e, "bytes", 16);
         cJSON_AddStringToObject(e, "origin", "--assume-aligned");
         xe_manifest_add(m, k->name, "alignment", e);
      }
      free(done);
      if (need_offset) {
         e = entry("global_offset");
         cJSON_AddNumberToObject(e, "dimension", 0);
         cJSON_AddNumberToObject(e, "multiple_of", sg);
         cJSON_AddStringToObject(e, "origin", "--assume-aligned");
         xe_manifest_add(m, k->name, "alignment", e);
      }
   }
   xe_lanes_free(plain);
   xe_lanes_free(assumed);
   free(acc);
   return nconv > 0;
}

bool xeopt_pass_block_io(xe_ctx *ctx)
{
   unsigned n;
   xe_kernel *ks = xe_kernels_all(ctx->module, &n);
   bool progress = false;
   for (unsigned k = 0; k < n; k++) {
      if (ks[k].body && xe_judge_rewritable(ctx, ks[k].name))
         progress |= run_kernel(ctx, &ks[k]);
   }
   free(ks);
   return progress;
}
