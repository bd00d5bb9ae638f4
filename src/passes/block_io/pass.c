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
 * compared as key + constant (wide.c).
 *
 * Not done: merging stores; vector elements; reconvergence after a
 * divergent region (the join is treated as divergent).
 *
 * src/analysis/block_access.c.  The files (src/passes/block_io/,
 * block_io.h): this one gathers each kernel's candidates, decides
 * (legality, then the cost model), writes the remarks and the manifest;
 * wide.c groups the wide form's loads; rewrite.c builds the lane-0 bases
 * and rewrites.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "block_io.h"
#include "cost.h"
#include "gate.h"
#include "runner.h"

static uint32_t pointer_storage(xe_module *m, uint32_t ptr, uint32_t *pointee)
{
   xe_inst *d = xe_def(m, ptr);
   xe_inst *t = d ? xe_def(m, d->type_id) : NULL;
   if (!t || t->opcode != SpvOpTypePointer)
      return UINT32_MAX;
   *pointee = xe_op(t, 1);
   return xe_op(t, 0);
}

/* One kernel's state between the steps of run_kernel. */
typedef struct bio_kernel {
   const xe_ctx *ctx;
   xe_module *m;
   xe_kernel *k;
   access *acc;               /* the candidates (malloc'd) */
   unsigned nacc;
   uint32_t sg, ls[3];        /* the launch: sub-group and local size */
   bool add_sg, add_ls;       /* given by an option, added when converting */
   xe_lanes *plain, *assumed; /* the lane facts, without and with the global
                                 offset assumed */
   char **no;                 /* [n]: why acc[n] is not converted (malloc'd),
                                 NULL when it is */
   bool *priced;              /* [n]: no[n] is the cost model's refusal, in gate */
   xe_gate gate;              /* the cost model's say, when it refused */
   xe_inst **conv;            /* the accesses converted, nconv of them */
   unsigned nconv;
   bool need_offset;          /* a conversion assumes the global offset */
} bio_kernel;

/* Candidates: the loads and stores through CrossWorkgroup pointers in the
 * kernel body; how many. */
static unsigned collect_accesses(bio_kernel *s)
{
   xe_module *m = s->m;
   xe_foreach_block(b, s->k->body) {
      xe_foreach_inst(i, &b->insts) {
         bool st = i->opcode == SpvOpStore;
         if (i->opcode != SpvOpLoad && !st)
            continue;
         uint32_t pointee;
         if (pointer_storage(m, xe_op(i, 0), &pointee) != SpvStorageClassCrossWorkgroup)
            continue;
         s->acc = realloc(s->acc, (s->nacc + 1) * sizeof(*s->acc));
         s->acc[s->nacc++] = (access){ i, xe_op(i, 0), pointee, st, false, false, 0, 1, NULL, false };
      }
   }
   return s->nacc;
}

/* The launch: the kernel's SubgroupSize and LocalSize, else those of
 * --subgroup-size and --local-size (a note when the kernel's differ). */
static void resolve_launch(bio_kernel *s)
{
   const xe_kernel *k = s->k;
   xe_remarks *r = s->ctx->remarks;
   s->sg = k->subgroup_size;
   memcpy(s->ls, k->local_size, sizeof(s->ls));
   /* The option layer checked the values (8, 16 or 32; 1..1024). */
   const xe_kernel_launch_opt *osg = xe_options_subgroup_size(s->ctx->options, k->name);
   const xe_kernel_launch_opt *ols = xe_options_local_size(s->ctx->options, k->name);
   if (osg) {
      unsigned v = osg->v[0];
      if (s->sg && v != s->sg)
         xe_remark(r, k->name, XE_REMARK_NOTE, "--subgroup-size=%u ignored: the kernel requires %u", v, s->sg);
      else if (!s->sg && (v == 8 || v == 16 || v == 32))
         s->sg = v, s->add_sg = true;
      else if (!s->sg)
         s->sg = v, s->add_sg = true;
   }
   if (ols) {
      const uint32_t *v = ols->v;
      if (s->ls[0] && memcmp(v, s->ls, sizeof(s->ls)))
         xe_remark(r, k->name, XE_REMARK_NOTE, "--local-size=%s ignored: the kernel requires %u,%u,%u",
                   ols->text, s->ls[0], s->ls[1], s->ls[2]);
      else if (!s->ls[0])
         memcpy(s->ls, v, sizeof(s->ls)), s->add_ls = true;
   }
}

/* Legality for the kernel as a whole: why no access of it converts (in
 * buf, of n bytes, or a constant), NULL when the launch allows it. */
static const char *kernel_refusal(const bio_kernel *s, char *buf, size_t n)
{
   const xe_kernel *k = s->k;
   if (k->body != k->fn && k->body_callers != 1) {
      snprintf(buf, n, "the kernel body is called from %u places", k->body_callers);
      return buf;
   }
   if (!s->sg)
      return "unknown sub-group size (no SubgroupSize; --subgroup-size=N opts in)";
   if (!s->ls[0])
      return "unknown local size (no LocalSize; --local-size=X[,Y,Z] opts in)";
   if (s->ls[0] % s->sg) {
      snprintf(buf, n, "LocalSize.x %u is not a multiple of the sub-group size %u",
               s->ls[0], s->sg);
      return buf;
   }
   return NULL;
}

/* Legality per access (src/analysis/block_access.h): fills no and conv. */
static void decide_accesses(bio_kernel *s)
{
   char why[256];
   s->plain = xe_lanes_analyze(s->m, s->k->body, s->sg, s->ls, 0);
   s->assumed = xe_lanes_analyze(s->m, s->k->body, s->sg, s->ls, XE_LANES_ASSUME_OFFSET);
   s->no = calloc(s->nacc, sizeof(char *));
   s->priced = calloc(s->nacc, sizeof(bool));
   s->conv = calloc(s->nacc, sizeof(xe_inst *));
   for (unsigned n = 0; n < s->nacc; n++) {
      const char *w = xe_block_access_decide(s->m, s->ctx->options->assume_aligned, s->plain,
                                             s->assumed, &s->acc[n], why, sizeof(why));
      if (w)
         s->no[n] = strdup(w);
      else
         s->conv[s->nconv++] = s->acc[n].inst;
   }
}

/* The wide form's groups, before the model: it prices a load merged
 * into the one before it apart (igc_block).  The accesses refused
 * above take no part.  Returns the merged loads (malloc'd, *nmerged). */
static xe_inst **group_loads(bio_kernel *s, unsigned *nmerged)
{
   for (unsigned n = 0; n < s->nacc; n++)
      if (s->no[n])
         s->acc[n].inst = NULL;
   bio_merge_loads(s->m, s->acc, s->nacc, s->plain, s->assumed, s->sg);
   xe_inst **merged = calloc(s->nacc, sizeof(xe_inst *));
   *nmerged = 0;
   for (unsigned n = 0; n < s->nacc; n++)
      if (s->acc[n].inst && s->acc[n].merged)
         merged[(*nmerged)++] = s->acc[n].inst;
   return merged;
}

/* The cost model's say (src/analysis/cost.h): converting a load whose
 * per-lane address another access still needs (a load-only
 * conversion) makes IGC keep both address forms, which is slower on
 * pvc (measured: bench/notes/isa-per-pass.md).  Refused when slower on a
 * target device, or when the gain there is under XE_COST_MIN_GAIN (cost.h): then
 * every access gets the reason and none converts. */
static void ask_cost_model(bio_kernel *s)
{
   unsigned nmerged;
   xe_inst **merged = group_loads(s, &nmerged);
   xe_cost_change ch = { .block = s->conv, .nblock = s->nconv, .merged = merged, .nmerged = nmerged,
                         .local_size_declared = s->k->local_size[0] != 0 };
   xe_gate g;
   if (s->nconv &&
       xe_gate_ask(s->ctx, s->k->name, s->k->fn, &ch, XE_GATE_CLEAR_EVERYWHERE, &g) != XE_GATE_MADE) {
      s->gate = g;
      bool slower = g.verdict == XE_GATE_SLOWER;
      enum xe_device worst = g.worst;
      const char *est = g.est;
      char msg[400];
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
      for (unsigned n = 0; n < s->nacc; n++)
         if (!s->no[n]) {
            s->no[n] = strdup(msg);
            s->priced[n] = true;
         }
      s->nconv = 0;
   }
   free(merged);
}

/* A remark per access, in order: why not converted (and the access
 * dropped; the cost model's refusal with its decision and figures), or
 * the block access it becomes. */
static void remark_accesses(bio_kernel *s)
{
   xe_module *m = s->m;
   xe_remarks *r = s->ctx->remarks;
   char nb[64];
   for (unsigned n = 0; n < s->nacc; n++) {
      access *a = &s->acc[n];
      if (s->no[n]) {
         const char *how = a->store ? "store" : "load", *via = xe_id_text(m, a->ptr, nb, sizeof(nb));
         if (s->priced[n])
            xe_gate_remark(s->ctx, s->k->name, &s->gate, "%s via %s: %s", how, via, s->no[n]);
         else
            xe_remark(r, s->k->name, XE_REMARK_MISSED, "%s via %s: %s", how, via, s->no[n]);
         a->inst = NULL;
         free(s->no[n]);
         continue;
      }
      s->need_offset |= a->use_offset;
      xe_remark(r, s->k->name, XE_REMARK_APPLIED, "%s via %s: sub-group block %s (SG %u)%s%s",
                a->store ? "store" : "load", xe_id_text(m, a->ptr, nb, sizeof(nb)),
                a->store ? "write" : "read", s->sg,
                a->use_argalign ? ", argument alignment assumed" : "",
                a->use_offset ? ", global offset assumed" : "");
   }
}

/* Adds a manifest "launch" or "alignment" entry of this pass. */
static void add_requirement(bio_kernel *s, xe_mf_requirement q)
{
   q.pass = "block-io";
   xe_manifest_add_requirement(s->m, s->k->name, &q);
}

/* The rewrite: the wide groups' remarks, the block accesses, and the
 * capabilities and extension they need. */
static void rewrite_kernel(bio_kernel *s)
{
   xe_module *m = s->m;
   bio_remark_merges(m, s->ctx->remarks, s->k->name, s->acc, s->nacc);
   bio_rewrite_accesses(m, s->plain, s->acc, s->nacc);
   xe_add_capability(m, SpvCapabilityGroups);
   xe_add_capability(m, SpvCapabilitySubgroupBufferBlockIOINTEL);
   if (!xe_has_extension(m, "SPV_INTEL_subgroups"))
      xe_add_extension(m, "SPV_INTEL_subgroups");
}

/* The launch modes the options gave, added now that the kernel changes,
 * each with its manifest entry. */
static void declare_launch(bio_kernel *s)
{
   xe_module *m = s->m;
   uint32_t fid = xe_function_id(s->k->fn);
   if (s->add_sg) {
      xe_add_capability(m, SpvCapabilitySubgroupDispatch);
      xe_set_execution_mode(m, fid, SpvExecutionModeSubgroupSize, &s->sg, 1);
      add_requirement(s, (xe_mf_requirement){ .kind = XE_MF_SUBGROUP_SIZE, .value = { s->sg },
                                              .origin = "--subgroup-size" });
   }
   if (s->add_ls) {
      const uint32_t *ls = s->ls;
      xe_set_execution_mode(m, fid, SpvExecutionModeLocalSize, ls, 3);
      add_requirement(s, (xe_mf_requirement){ .kind = XE_MF_LOCAL_SIZE,
                                              .value = { ls[0], ls[1], ls[2] },
                                              .origin = "--local-size" });
   }
}

/* The host contract of the converted kernel: uniform work-groups, the
 * alignment of each argument a conversion assumes, the global offset. */
static void write_manifest(bio_kernel *s)
{
   xe_module *m = s->m;
   add_requirement(s, (xe_mf_requirement){
      .kind = XE_MF_UNIFORM_WORK_GROUPS,
      .text = "global size must be a multiple of the local size "
              "(no partial work-groups or sub-groups)" });
   /* Every argument a conversion relies on, however many: one left out
    * is one the host may pass unaligned to a block access. */
   uint32_t *done = malloc((s->nacc + 1) * sizeof(uint32_t));
   if (!done)
      xe_out_of_memory();
   unsigned ndone = 0;
   for (unsigned n = 0; n < s->nacc; n++) {
      const access *a = &s->acc[n];
      if (!a->inst || !a->use_argalign)
         continue;
      bool seen = false;
      for (unsigned d = 0; d < ndone; d++)
         seen |= done[d] == a->root;
      if (seen)
         continue;
      done[ndone++] = a->root;
      const char *an = xe_name(m, a->root);
      add_requirement(s, (xe_mf_requirement){
         .kind = XE_MF_ARGUMENT_ALIGNMENT,
         .argument = (unsigned)xe_param_index(s->k->body, a->root),
         .name = an ? an : "", .bytes = 16, .origin = "--assume-aligned" });
   }
   free(done);
   if (s->need_offset) {
      add_requirement(s, (xe_mf_requirement){ .kind = XE_MF_GLOBAL_OFFSET, .dimension = 0,
                                              .multiple_of = s->sg,
                                              .origin = "--assume-aligned" });
   }
}

/* One kernel: collect candidates -> decide (the launch, legality, the
 * cost model) -> remarks -> rewrite -> manifest. */
static bool run_kernel(const xe_ctx *ctx, xe_kernel *k)
{
   bio_kernel s = { .ctx = ctx, .m = ctx->module, .k = k };
   if (!collect_accesses(&s))
      return false;
   resolve_launch(&s);
   char kwhy[160], nb[64];
   const char *kernel_why = kernel_refusal(&s, kwhy, sizeof(kwhy));
   if (kernel_why) {
      for (unsigned n = 0; n < s.nacc; n++)
         xe_remark(ctx->remarks, k->name, XE_REMARK_MISSED, "%s via %s: %s",
                   s.acc[n].store ? "store" : "load",
                   xe_id_text(s.m, s.acc[n].ptr, nb, sizeof(nb)), kernel_why);
      free(s.acc);
      return false;
   }
   decide_accesses(&s);
   ask_cost_model(&s);
   remark_accesses(&s);
   free(s.no);
   free(s.priced);
   free(s.conv);
   if (s.nconv) {
      rewrite_kernel(&s);
      declare_launch(&s);
      write_manifest(&s);
   }
   xe_lanes_free(s.plain);
   xe_lanes_free(s.assumed);
   free(s.acc);
   return s.nconv > 0;
}

static bool run_one(xe_ctx *ctx, xe_kernel *k, void *data)
{
   (void)data;
   return run_kernel(ctx, k);
}

bool xeopt_pass_block_io(xe_ctx *ctx)
{
   return xe_for_each_kernel(ctx, &(xe_kernel_walk){ .run = run_one });
}
