#define _GNU_SOURCE
/*
 * The run loop.  A work-group at a time; each work-item is a context with
 * its own value area and private memory, run until it finishes, reaches a
 * barrier, or reaches a sub-group collective.  A collective completes when
 * every live lane of the sub-group waits at it; a barrier releases when
 * every live work-item of the group waits at one.  Work-items run one after
 * the other, so atomics are plain read-modify-writes.
 */
#include <stdio.h>
#include <stdlib.h>
#include "state.h"
#include "memory.h"
#include "race.h"
#include "collective.h"
#include "other.h"

static bool jump(xe_run *r, xe_wi *w, uint32_t label)
{
   const xe_prog *p = r->p;
   uint32_t pc = p->label_pc[label];
   uint32_t from = w->block;
   w->block = label;
   /* Phis of the target read the incoming values all at once. */
   uint32_t start = pc, tmp = 0;
   while (p->code[pc].op == SpvOpPhi) {
      const dinst *d = &p->code[pc];
      unsigned k;
      for (k = 0; k + 1 < d->nops; k += 2)
         if (d->src->words[d->src->first_op + k + 1] == from) {
            memcpy(r->phi_tmp + tmp, w->v + d->ops[k], d->size);
            break;
         }
      if (k + 1 >= d->nops)
         return xe_run_fail(r, d, "OpPhi has no value for the predecessor block");
      tmp += (d->size + 7) & ~7u;
      pc++;
   }
   tmp = 0;
   for (uint32_t q = start; q < pc; q++) {
      memcpy(w->v + p->code[q].res, r->phi_tmp + tmp, p->code[q].size);
      tmp += (p->code[q].size + 7) & ~7u;
   }
   w->pc = pc;
   return true;
}

static inline uint64_t V64(const xe_wi *w, uint32_t s) { uint64_t x; memcpy(&x, w->v + s, 8); return x; }

static uint64_t chain(const dinst *d, const xe_wi *w)
{
   uint64_t p = V64(w, d->ops[0]);
   for (unsigned k = 0; k < d->aux; k++) {
      uint32_t s = d->ops[1 + 3 * k], stride = d->ops[2 + 3 * k];
      if (s == NOSLOT) p += stride;
      else p += (uint64_t)ld_s(w->v + s, d->ops[3 + 3 * k]) * stride;
   }
   return p;
}

/* Runs one work-item until it stops.  Returns false on error. */
static bool run_wi(xe_run *r, xe_wi *w)
{
   const xe_prog *p = r->p;
   const dinst *code = p->code;
   uint8_t *v = w->v;
   uint64_t steps = 0;
   for (;;) {
      const dinst *d = &code[w->pc];
      steps++;
      switch (d->op) {
      case SpvOpLoad: {
         uint8_t *a = xe_run_mem(r, w, d, V64(w, d->ops[0]), d->aux, false);
         if (!a) return false;
         memcpy(v + d->res, a, d->aux);
         break;
      }
      case SpvOpStore: {
         uint8_t *a = xe_run_mem_ex(r, w, d, V64(w, d->ops[0]), d->aux, XE_MEM_WRITE, v + d->ops[1]);
         if (!a) return false;
         memcpy(a, v + d->ops[1], d->aux);
         break;
      }
      case SpvOpAccessChain: case SpvOpInBoundsAccessChain:
      case SpvOpPtrAccessChain: case SpvOpInBoundsPtrAccessChain: {
         uint64_t q = chain(d, w);
         memcpy(v + d->res, &q, 8);
         break;
      }
      case SpvOpBranch:
         if (!jump(r, w, d->ops[0])) return false;
         continue;
      case SpvOpBranchConditional:
         if (!jump(r, w, v[d->ops[0]] ? d->ops[1] : d->ops[2])) return false;
         continue;
      case SpvOpSwitch: {
         uint64_t sel = ld_u(v + d->ops[0], d->swidth), target = d->ops[1];
         for (unsigned k = 2; k + d->aux < d->nops; k += d->aux + 1) {
            uint64_t lit = d->ops[k];
            if (d->aux == 2) lit |= (uint64_t)d->ops[k + 1] << 32;
            else if (d->swidth < 4) lit &= (1ull << (8 * d->swidth)) - 1;
            if (lit == sel) { target = d->ops[k + d->aux]; break; }
         }
         if (!jump(r, w, (uint32_t)target)) return false;
         continue;
      }
      case SpvOpSelectionMerge: case SpvOpLoopMerge: case SpvOpNop:
      case SpvOpLifetimeStart: case SpvOpLifetimeStop: case SpvOpMemoryBarrier:
      case SpvOpAssumeTrueKHR: /* a hint (SPV_KHR_expect_assume): false is undefined */
         steps--;
         break;
      case SpvOpVariable: {
         uint64_t q = PTR(SP_PRIVATE, d->ops[2] + 1, d->aux);
         memcpy(v + d->res, &q, 8);
         if (d->ops[1] != NOSLOT) memcpy(w->priv + d->aux, v + d->ops[1], d->aux2);
         break;
      }
      case SpvOpFunctionCall:
         if (d->aux == NO_BODY)
            return xe_run_failf(r, d, "call of a function without a body (LinkageAttributes Import)");
         if (w->depth >= XE_MAX_DEPTH) return xe_run_failf(r, d, "call stack too deep");
         for (unsigned k = 0; k < d->nops; k += 3)
            memcpy(v + d->ops[k + 1], v + d->ops[k], d->ops[k + 2]);
         w->stack[w->depth].pc = w->pc;
         w->stack[w->depth].block = w->block;
         w->depth++;
         w->pc = d->aux;
         w->block = code[d->aux].src->block ? xe_block_id(code[d->aux].src->block) : 0;
         continue;
      case SpvOpReturn: case SpvOpReturnValue: {
         if (!w->depth) { w->state = WI_DONE; r->steps += steps; return true; }
         w->depth--;
         w->pc = w->stack[w->depth].pc;
         w->block = w->stack[w->depth].block;
         const dinst *call = &code[w->pc];
         if (d->op == SpvOpReturnValue && call->res != NOSLOT)
            memcpy(v + call->res, v + d->ops[0], d->aux);
         break;
      }
      case SpvOpControlBarrier: {
         uint64_t scope = ld_u(v + d->ops[0], 4);
         /* A sub-group barrier completes like a collective, which
          * executes the instruction at pc and then steps past it. */
         if (scope == SpvScopeSubgroup) { w->state = WI_SG; r->steps += steps; return true; }
         w->state = WI_BARRIER;
         w->pc++;
         r->steps += steps;
         return true;
      }
      case SpvOpGroupBroadcast: case SpvOpSubgroupShuffleINTEL:
      case SpvOpSubgroupShuffleDownINTEL: case SpvOpSubgroupShuffleUpINTEL:
      case SpvOpSubgroupShuffleXorINTEL: case SpvOpSubgroupBlockReadINTEL:
      case SpvOpSubgroupBlockWriteINTEL: case SpvOpGroupAll: case SpvOpGroupAny:
      case SpvOpGroupIAdd: case SpvOpGroupFAdd: case SpvOpGroupSMin: case SpvOpGroupSMax:
      case SpvOpGroupUMin: case SpvOpGroupUMax: case SpvOpGroupFMin: case SpvOpGroupFMax:
      case SpvOpGroupIMulKHR: case SpvOpGroupFMulKHR: case SpvOpGroupBitwiseAndKHR:
      case SpvOpGroupBitwiseOrKHR: case SpvOpGroupBitwiseXorKHR:
      case SpvOpGroupNonUniformBroadcast: case SpvOpGroupNonUniformShuffle:
         /* Work-group collectives (work_group_reduce_add ...) wait like a
          * barrier; everything else is a sub-group collective. */
         w->state = WI_SG;
         if ((d->op == SpvOpGroupBroadcast || d->op == SpvOpGroupAll || d->op == SpvOpGroupAny ||
              (d->op >= SpvOpGroupIAdd && d->op <= SpvOpGroupSMax) ||
              (d->op >= SpvOpGroupIMulKHR && d->op <= SpvOpGroupBitwiseXorKHR)) &&
             ld_u(v + d->ops[0], 4) == SpvScopeWorkgroup)
            w->state = WI_WG;
         /* Counted here: the scheduler runs it and steps past it. */
         r->steps += steps;
         return true;
      case SpvOpUnreachable: case SpvOpKill:
         return xe_run_failf(r, d, "reached OpUnreachable");
      default:
         if (!xe_run_other(r, w, d)) return false;
         break;
      }
      w->pc++;
      if (r->l->max_steps && r->steps + steps > r->l->max_steps) {
         if (!r->failed) r->fault.kind = XE_FAULT_STEPS;
         return xe_run_failf(r, d, "step limit exceeded (infinite loop?)");
      }
   }
}


static void set_builtin(const xe_prog *p, xe_wi *w, unsigned b, const uint64_t *vals, unsigned n)
{
   if (!p->builtin_off[b]) return;
   uint8_t *dst = w->priv + p->builtin_off[b] - 1;
   for (unsigned k = 0; k < n; k++)
      st_u(dst + k * p->builtin_w[b], p->builtin_w[b], vals[k]);
}

static void init_wi(xe_run *r, xe_wi *w, const uint64_t *gid, const uint64_t *lid, const uint64_t *grp,
                    uint64_t lin, uint64_t ls)
{
   const xe_prog *p = r->p;
   const xe_launch *l = r->l;
   uint64_t ng[3], g[3], linear, enq = 1;
   for (int k = 0; k < 3; k++) {
      /* OpenCL 2.0 non-uniform work-groups: the last group of a dimension
       * may be smaller; get_num_groups counts it. */
      ng[k] = (l->global[k] + r->enq_local[k] - 1) / r->enq_local[k];
      g[k] = gid[k] + l->offset[k];
      enq *= r->enq_local[k];
   }
   memset(w->priv, 0, p->psize);
   set_builtin(p, w, SpvBuiltInGlobalInvocationId, g, 3);
   set_builtin(p, w, SpvBuiltInLocalInvocationId, lid, 3);
   set_builtin(p, w, SpvBuiltInWorkgroupId, grp, 3);
   set_builtin(p, w, SpvBuiltInNumWorkgroups, ng, 3);
   set_builtin(p, w, SpvBuiltInWorkgroupSize, r->local, 3);
   set_builtin(p, w, SpvBuiltInEnqueuedWorkgroupSize, r->enq_local, 3);
   set_builtin(p, w, SpvBuiltInGlobalSize, l->global, 3);
   set_builtin(p, w, SpvBuiltInGlobalOffset, l->offset, 3);
   linear = gid[0] + l->global[0] * (gid[1] + l->global[1] * gid[2]);
   set_builtin(p, w, SpvBuiltInGlobalLinearId, &linear, 1);
   set_builtin(p, w, SpvBuiltInLocalInvocationIndex, &lin, 1);
   uint64_t sg = r->sg, sgid = lin / sg, sgl = lin % sg, nsg = (ls + sg - 1) / sg;
   uint64_t nesg = (enq + sg - 1) / sg;
   uint64_t this_sg = (sgid + 1) * sg <= ls ? sg : ls - sgid * sg, dim = l->dims ? l->dims : 1;
   set_builtin(p, w, SpvBuiltInSubgroupLocalInvocationId, &sgl, 1);
   set_builtin(p, w, SpvBuiltInSubgroupId, &sgid, 1);
   set_builtin(p, w, SpvBuiltInSubgroupSize, &this_sg, 1);
   set_builtin(p, w, SpvBuiltInSubgroupMaxSize, &sg, 1);
   set_builtin(p, w, SpvBuiltInNumSubgroups, &nsg, 1);
   set_builtin(p, w, SpvBuiltInNumEnqueuedSubgroups, &nesg, 1);
   set_builtin(p, w, SpvBuiltInWorkDim, &dim, 1);
   w->pc = p->entry_pc;
   w->block = xe_block_id(p->code[p->entry_pc].src->block);
   w->depth = 0;
   w->state = WI_RUN;
   w->lane = (unsigned)sgl;
   w->lin = (uint32_t)lin;
   /* Unique across the launch, partial work-groups included: groups are
    * numbered with the enqueued local size (race.c inverts this). */
   uint64_t enq_ls = r->enq_local[0] * r->enq_local[1] * r->enq_local[2];
   (void)ls;
   w->id = (uint32_t)(r->group_linear * enq_ls + lin);
}

static bool run_group(xe_run *r, const uint64_t *grp)
{
   const xe_prog *p = r->p;
   for (int d = 0; d < 3; d++) {
      uint64_t left = r->l->global[d] - grp[d] * r->enq_local[d];
      r->local[d] = left < r->enq_local[d] ? left : r->enq_local[d];
   }
   uint64_t ls = r->local[0] * r->local[1] * r->local[2];
   if (r->local_mem) memset(r->local_mem, 0, p->lsize);
   for (unsigned a = 0; a < r->l->nargs; a++)
      if (r->local_args[a]) memset(r->local_args[a], 0, r->l->args[a].size);
   uint64_t ng0 = (r->l->global[0] + r->enq_local[0] - 1) / r->enq_local[0];
   uint64_t ng1 = (r->l->global[1] + r->enq_local[1] - 1) / r->enq_local[1];
   r->group_linear = grp[0] + ng0 * (grp[1] + ng1 * grp[2]);
   if (r->race) xe_race_group(r, r->group_linear);
   uint64_t lin = 0;
   for (uint64_t z = 0; z < r->local[2]; z++)
      for (uint64_t y = 0; y < r->local[1]; y++)
         for (uint64_t x = 0; x < r->local[0]; x++, lin++) {
            uint64_t lid[3] = {x, y, z};
            uint64_t gid[3] = {grp[0] * r->enq_local[0] + x, grp[1] * r->enq_local[1] + y,
                               grp[2] * r->enq_local[2] + z};
            init_wi(r, &r->wi[lin], gid, lid, grp, lin, ls);
         }
   for (;;) {
      bool all_done = true;
      for (uint64_t i = 0; i < ls; i++) {
         xe_wi *w = &r->wi[i];
         if (w->state == WI_RUN && !run_wi(r, w)) return false;
         if (w->state != WI_DONE) all_done = false;
      }
      if (all_done) return true;
      bool progress = false;
      for (uint64_t s = 0; s < ls; s += r->sg) {
         uint64_t n = ls - s < r->sg ? ls - s : r->sg;
         int at = -1;
         bool ready = true, any = false;
         for (uint64_t k = 0; k < n; k++) {
            xe_wi *w = &r->wi[s + k];
            if (w->state == WI_DONE) continue;
            if (w->state != WI_SG) { ready = false; break; }
            if (at < 0) at = (int)w->pc;
            else if ((uint32_t)at != w->pc) {
               return xe_run_fail(r, &p->code[w->pc], "sub-group lanes diverge at a collective");
            }
            any = true;
         }
         if (!ready || !any) continue;
         if (!xe_run_collective(r, &r->wi[s], (unsigned)n, &p->code[at])) return false;
         if (r->race && p->code[at].op == SpvOpControlBarrier)
            xe_race_barrier(r, (int64_t)(s / r->sg), (uint32_t)ld_u(r->wi[s].v + p->code[at].ops[2], 4));
         for (uint64_t k = 0; k < n; k++)
            if (r->wi[s + k].state == WI_SG) { r->wi[s + k].state = WI_RUN; r->wi[s + k].pc++; }
         progress = true;
      }
      if (progress) continue;
      /* A work-group collective completes when every live work-item waits
       * at the same one. */
      int wg_at = -1;
      bool wg_ready = true;
      for (uint64_t i = 0; i < ls && wg_ready; i++) {
         if (r->wi[i].state == WI_DONE) continue;
         if (r->wi[i].state != WI_WG || (wg_at >= 0 && (uint32_t)wg_at != r->wi[i].pc)) wg_ready = false;
         else wg_at = (int)r->wi[i].pc;
      }
      if (wg_ready && wg_at >= 0) {
         for (uint64_t i = 0; i < ls; i++)
            if (r->wi[i].state == WI_WG) r->wi[i].state = WI_SG;
         if (!xe_run_collective(r, r->wi, (unsigned)ls, &p->code[wg_at])) return false;
         for (uint64_t i = 0; i < ls; i++)
            if (r->wi[i].state == WI_SG) { r->wi[i].state = WI_RUN; r->wi[i].pc++; }
         continue;
      }
      for (uint64_t i = 0; i < ls; i++) {
         if (r->wi[i].state == WI_SG || r->wi[i].state == WI_RUN || r->wi[i].state == WI_WG)
            return xe_run_fail(r, &p->code[r->wi[i].pc], "deadlock: work-items wait at different barriers/collectives");
      }
      /* Every live work-item waits at a barrier: it orders the storage
       * classes any of them names (race detection). */
      uint32_t sem = 0;
      for (uint64_t i = 0; i < ls; i++)
         if (r->wi[i].state == WI_BARRIER) {
            sem |= (uint32_t)ld_u(r->wi[i].v + p->code[r->wi[i].pc - 1].ops[2], 4);
            r->wi[i].state = WI_RUN;
         }
      if (r->race) xe_race_barrier(r, -1, sem);
   }
}

bool xe_exec_run(xe_module *m, xe_launch *l, char **err)
{
   xe_kernel k;
   *err = NULL;
   memset(&l->fault, 0, sizeof l->fault);
   memset(l->reach, 0, sizeof l->reach);
   l->fault.kind = XE_FAULT_OTHER;
   if (!xe_kernel_by_name(m, l->kernel, &k)) {
      if (asprintf(err, "no kernel named '%s'", l->kernel) < 0) *err = NULL;
      return false;
   }
   char *perr = NULL;
   xe_prog *p = xe_prog_build(m, l->kernel, l, &perr);
   if (!p) {
      if (asprintf(err, "kernel %s: %s", l->kernel, perr) < 0) *err = NULL;
      free(perr);
      return false;
   }
   xe_run r = {0};
   r.p = p;
   r.l = l;
   r.kernel = l->kernel;
   r.sg = l->subgroup_size ? l->subgroup_size : k.subgroup_size ? k.subgroup_size : 16;
   for (int d = 0; d < 3; d++) {
      if (!l->global[d]) l->global[d] = 1;
      r.enq_local[d] = l->local[d] ? l->local[d] : k.local_size[0] ? k.local_size[d] : d == 0 ? (l->global[0] < 16 ? l->global[0] : 16) : 1;
      if (!r.enq_local[d]) {
         if (asprintf(err, "kernel %s: local size 0 in dimension %d", l->kernel, d) < 0) *err = NULL;
         xe_prog_free(p);
         return false;
      }
      /* A global size that is not a multiple of the local size is an
       * OpenCL 2.0 non-uniform NDRange: the last group is partial. */
      r.local[d] = r.enq_local[d];
   }
   if (l->nargs < p->nparams) {
      if (asprintf(err, "kernel %s takes %u arguments, %u given", l->kernel, p->nparams, l->nargs) < 0) *err = NULL;
      xe_prog_free(p);
      return false;
   }
   /* A scalar argument is copied into its parameter's value slot: more
    * bytes than the parameter has would land in the slot's padding (which
    * narrower reads assume zero) or in the next value's slot.  OpenCL's
    * clSetKernelArg refuses them too (CL_INVALID_ARG_SIZE); fewer bytes
    * are the low ones, zero-extended. */
   unsigned pa = 0;
   for (xe_inst *pi = k.fn->params.first; pi; pi = pi->next) {
      if (pi->opcode != SpvOpFunctionParameter) continue;
      uint64_t psz = xe_type_layout(m, pi->type_id, NULL);
      if (pa < l->nargs && l->args[pa].kind == XE_ARG_SCALAR && l->args[pa].size > psz) {
         if (asprintf(err, "kernel %s: argument %u: %llu bytes given for a parameter of %llu",
                      l->kernel, pa, (unsigned long long)l->args[pa].size,
                      (unsigned long long)psz) < 0)
            *err = NULL;
         xe_prog_free(p);
         return false;
      }
      pa++;
   }
   uint64_t ls = r.local[0] * r.local[1] * r.local[2];
   /* A work-group's values and private memory, and local memory, must fit
    * a sane budget: a kernel with a huge private array is an error, not an
    * attempt to allocate it. */
   const uint64_t limit = 1ull << 30;
   uint64_t per_wi = (uint64_t)p->vsize + p->psize + sizeof(xe_wi);
   if (ls > limit / (per_wi ? per_wi : 1) || p->lsize > limit) {
      if (asprintf(err, "kernel %s: a work-group of %llu needs more than 1 GiB of interpreter "
                        "memory (private arrays of %u bytes, local memory of %llu bytes)",
                   l->kernel, (unsigned long long)ls, p->psize,
                   (unsigned long long)p->lsize) < 0)
         *err = NULL;
      xe_prog_free(p);
      return false;
   }
   r.wi = calloc(ls, sizeof(xe_wi));
   r.vmem = malloc(ls * p->vsize + 8);
   r.pmem = malloc(ls * p->psize + 8);
   r.phi_tmp = malloc(p->vsize + 64);
   r.local_mem = p->lsize ? malloc(p->lsize) : NULL;
   for (uint64_t i = 0; i < ls; i++) {
      r.wi[i].v = r.vmem + i * p->vsize;
      r.wi[i].priv = r.pmem + i * p->psize;
      memcpy(r.wi[i].v, p->tmpl, p->vsize);
   }
   for (unsigned a = 0; a < l->nargs && a < p->nparams; a++) {
      uint64_t q = 0;
      if (l->args[a].kind == XE_ARG_BUFFER) q = PTR(SP_GLOBAL, a, l->args[a].start);
      else if (l->args[a].kind == XE_ARG_IMAGE) q = PTR(SP_GLOBAL, a, 0);   /* image.c */
      else if (l->args[a].kind == XE_ARG_SAMPLER) q = ld_u(l->args[a].data, 4);
      else if (l->args[a].kind == XE_ARG_LOCAL) {
         r.local_args[a] = malloc(l->args[a].size + 1);
         q = PTR(SP_LOCAL, a + 1, 0);
      }
      for (uint64_t i = 0; i < ls; i++) {
         if (l->args[a].kind == XE_ARG_SCALAR)
            memcpy(r.wi[i].v + p->param_slot[a], l->args[a].data, l->args[a].size);
         else
            memcpy(r.wi[i].v + p->param_slot[a], &q, 8);
      }
   }
   uint64_t ng[3];
   for (int d = 0; d < 3; d++) ng[d] = (l->global[d] + r.enq_local[d] - 1) / r.enq_local[d];
   l->races = 0;
   l->race[0] = 0;
   bool ok = !l->racecheck || xe_race_begin(&r);
   for (uint64_t z = 0; z < ng[2] && ok; z++)
      for (uint64_t y = 0; y < ng[1] && ok; y++)
         for (uint64_t x = 0; x < ng[0] && ok; x++) {
            uint64_t grp[3] = {x, y, z};
            ok = run_group(&r, grp);
         }
   l->steps = r.steps;
   xe_race_end(&r);
   l->fault = r.fault;
   memcpy(l->reach, r.reach, sizeof l->reach);
   if (!ok) *err = strdup(r.err);
   for (unsigned a = 0; a < XE_EXEC_MAX_ARGS; a++) free(r.local_args[a]);
   free(r.scratch[0]); free(r.scratch[1]);
   free(r.wi); free(r.vmem); free(r.pmem); free(r.phi_tmp); free(r.local_mem);
   xe_prog_free(p);
   return ok;
}
