/*
 * Sub-group collectives, executed once every live lane of the sub-group
 * waits at the instruction.  Lanes are consecutive linear local ids
 * (Intel's layout); lanes that already returned do not take part.
 */
#include <stdio.h>
#include <math.h>
#include "collective.h"
#include "memory.h"
#include "race.h"

static inline uint64_t V64(const uint8_t *v, uint32_t s) { uint64_t x; memcpy(&x, v + s, 8); return x; }

static unsigned op_width(const xe_run *r, const dinst *d, unsigned k)
{
   const xe_inst *i = d->src;
   return xe_type_width(r->p->m, xe_def(r->p->m, xe_op(i, k))->type_id) / 8;
}

static bool reduce(xe_run *r, xe_wi *lanes, unsigned n, const dinst *d)
{
   unsigned gop = d->ops[1], w = d->width;
   const uint32_t x = d->ops[2];
   double facc = 0; uint64_t uacc = 0; int64_t sacc = 0;
   bool first = true;
   for (unsigned l = 0; l < n; l++) {
      xe_wi *L = &lanes[l];
      if (L->state != WI_SG) continue;
      const uint8_t *p = L->v + x;
      if (gop == SpvGroupOperationExclusiveScan) {
         if (first) {
            switch (d->op) {
            case SpvOpGroupFAdd: st_f(L->v + d->res, w, 0); break;
            case SpvOpGroupFMin: st_f(L->v + d->res, w, INFINITY); break;
            case SpvOpGroupFMax: st_f(L->v + d->res, w, -INFINITY); break;
            case SpvOpGroupSMin: st_u(L->v + d->res, w, ~0ull >> (65 - 8 * w)); break;
            case SpvOpGroupSMax: st_u(L->v + d->res, w, 1ull << (8 * w - 1)); break;
            case SpvOpGroupUMin: st_u(L->v + d->res, w, ~0ull); break;
            case SpvOpGroupBitwiseAndKHR: st_u(L->v + d->res, w, ~0ull); break;
            case SpvOpGroupIMulKHR: st_u(L->v + d->res, w, 1); break;
            case SpvOpGroupFMulKHR: st_f(L->v + d->res, w, 1); break;
            default: st_u(L->v + d->res, w, 0); break;
            }
         } else if (d->kind == K_FLOAT) st_f(L->v + d->res, w, facc);
         else st_u(L->v + d->res, w, d->op == SpvOpGroupSMin || d->op == SpvOpGroupSMax ? (uint64_t)sacc : uacc);
      }
      double f = d->kind == K_FLOAT ? ld_f(p, w) : 0;
      uint64_t u = ld_u(p, w); int64_t s = ld_s(p, w);
      if (first) { facc = f; uacc = u; sacc = s; first = false; }
      else switch (d->op) {
      case SpvOpGroupIAdd: uacc += u; break;
      case SpvOpGroupFAdd: facc = w == 4 ? (double)((float)facc + (float)f) : facc + f; break;
      case SpvOpGroupFMin: facc = fmin(facc, f); break;
      case SpvOpGroupFMax: facc = fmax(facc, f); break;
      case SpvOpGroupUMin: uacc = u < uacc ? u : uacc; break;
      case SpvOpGroupUMax: uacc = u > uacc ? u : uacc; break;
      case SpvOpGroupSMin: sacc = s < sacc ? s : sacc; break;
      case SpvOpGroupSMax: sacc = s > sacc ? s : sacc; break;
      /* SPV_KHR_uniform_group_instructions: the product wraps like
       * OpIMul; a float product is rounded to the type at every step, as
       * a sequential loop over the lanes computes it. */
      case SpvOpGroupIMulKHR: uacc *= u; break;
      case SpvOpGroupFMulKHR:
         facc = w == 4 ? (double)((float)facc * (float)f)
              : w == 2 ? xe_half_to_double(xe_double_to_half(facc * f)) : facc * f;
         break;
      case SpvOpGroupBitwiseAndKHR: uacc &= u; break;
      case SpvOpGroupBitwiseOrKHR: uacc |= u; break;
      case SpvOpGroupBitwiseXorKHR: uacc ^= u; break;
      default: return xe_run_fail(r, d, "unsupported group operation");
      }
      if (gop == SpvGroupOperationInclusiveScan) {
         if (d->kind == K_FLOAT) st_f(L->v + d->res, w, facc);
         else st_u(L->v + d->res, w, d->op == SpvOpGroupSMin || d->op == SpvOpGroupSMax ? (uint64_t)sacc : uacc);
      }
   }
   if (gop == SpvGroupOperationReduce)
      for (unsigned l = 0; l < n; l++) {
         xe_wi *L = &lanes[l];
         if (L->state != WI_SG) continue;
         if (d->kind == K_FLOAT) st_f(L->v + d->res, w, facc);
         else st_u(L->v + d->res, w, d->op == SpvOpGroupSMin || d->op == SpvOpGroupSMax ? (uint64_t)sacc : uacc);
      }
   else if (gop != SpvGroupOperationInclusiveScan && gop != SpvGroupOperationExclusiveScan)
      return xe_run_fail(r, d, "unsupported group operation kind");
   return true;
}

bool xe_run_collective(xe_run *r, xe_wi *lanes, unsigned n, const dinst *d)
{
   unsigned sz = d->size;
   switch (d->op) {
   case SpvOpControlBarrier:
      return true;
   case SpvOpGroupBroadcast: case SpvOpGroupNonUniformBroadcast: {
      bool wg = ld_u(lanes[0].v + d->ops[0], 4) == SpvScopeWorkgroup;
      unsigned iw = op_width(r, d, 2);
      uint8_t ik, iwd; uint16_t inc;
      xe_exec_tinfo(r->p->m, xe_def(r->p->m, xe_op(d->src, 2))->type_id, &ik, &iwd, &inc);
      for (unsigned l = 0; l < n; l++) {
         if (lanes[l].state != WI_SG) continue;
         uint64_t id = ld_u(lanes[l].v + d->ops[2], iw ? iw : iwd);
         if (wg && inc > 1) {
            /* Work-group broadcast by (x, y[, z]) local id: linearize. */
            uint64_t y = ld_u(lanes[l].v + d->ops[2] + iwd, iwd);
            uint64_t z = inc > 2 ? ld_u(lanes[l].v + d->ops[2] + 2 * iwd, iwd) : 0;
            id = ld_u(lanes[l].v + d->ops[2], iwd) + r->local[0] * (y + r->local[1] * z);
         }
         if (id >= n) return xe_run_fail(r, d, "broadcast from a work-item outside the group");
         memcpy(lanes[l].v + d->res, lanes[id].v + d->ops[1], sz);
      }
      return true;
   }
   case SpvOpSubgroupShuffleINTEL: case SpvOpSubgroupShuffleXorINTEL:
   case SpvOpGroupNonUniformShuffle: {
      bool nu = d->op == SpvOpGroupNonUniformShuffle;
      uint32_t data = d->ops[nu ? 1 : 0], idx = d->ops[nu ? 2 : 1];
      unsigned iw = op_width(r, d, nu ? 2 : 1);
      for (unsigned l = 0; l < n; l++) {
         if (lanes[l].state != WI_SG) continue;
         uint64_t id = ld_u(lanes[l].v + idx, iw);
         if (d->op == SpvOpSubgroupShuffleXorINTEL) id ^= l;
         if (id >= n) memset(lanes[l].v + d->res, 0, sz);
         else memcpy(lanes[l].v + d->res, lanes[id].v + data, sz);
      }
      return true;
   }
   case SpvOpSubgroupShuffleDownINTEL: case SpvOpSubgroupShuffleUpINTEL: {
      unsigned iw = op_width(r, d, 2);
      for (unsigned l = 0; l < n; l++) {
         if (lanes[l].state != WI_SG) continue;
         int64_t delta = (int64_t)ld_u(lanes[l].v + d->ops[2], iw);
         int64_t j = d->op == SpvOpSubgroupShuffleDownINTEL ? (int64_t)l + delta : (int64_t)l - delta;
         const uint8_t *src;
         if (d->op == SpvOpSubgroupShuffleDownINTEL)
            src = j < (int64_t)n ? lanes[j].v + d->ops[0] : j < 2 * (int64_t)n ? lanes[j - n].v + d->ops[1] : NULL;
         else
            src = j >= 0 ? lanes[j].v + d->ops[1] : j + (int64_t)n >= 0 ? lanes[j + n].v + d->ops[0] : NULL;
         if (src) memcpy(lanes[l].v + d->res, src, sz);
         else memset(lanes[l].v + d->res, 0, sz);
      }
      return true;
   }
   case SpvOpSubgroupBlockReadINTEL: case SpvOpSubgroupBlockWriteINTEL: {
      bool wr = d->op == SpvOpSubgroupBlockWriteINTEL;
      uint8_t kind, w; uint16_t nc;
      if (wr) xe_exec_tinfo(r->p->m, xe_def(r->p->m, xe_op(d->src, 1))->type_id, &kind, &w, &nc);
      else { w = d->width; nc = d->ncomp; }
      int first = -1;
      for (unsigned l = 0; l < n; l++)
         if (lanes[l].state == WI_SG) {
            if (first < 0) first = (int)l;
            else if (V64(lanes[l].v, d->ops[0]) != V64(lanes[first].v, d->ops[0]))
               return xe_run_fail(r, d, "block read/write with a non-uniform pointer");
         }
      uint64_t base = V64(lanes[first].v, d->ops[0]);
      /* What cl_intel_subgroups leaves undefined is an error here, so that
       * --verify catches a rewrite that emits a block access the launch
       * does not allow: a partial sub-group (the hardware message moves
       * the whole sub-group's block), or a base not 4-byte (read) or
       * 16-byte (write) aligned.  Buffer allocations start 16-byte
       * aligned (an argument's start offset shows in the low bits). */
      bool all = true;
      for (unsigned l = 0; l < n; l++) all = all && lanes[l].state == WI_SG;
      if (!all) {
         r->fault.kind = XE_FAULT_BLOCK_IO;
         return xe_run_fail(r, d, "block read/write with inactive lanes (undefined)");
      }
      if (n < r->sg || lanes[0].lane != 0) {
         r->fault.kind = XE_FAULT_BLOCK_IO;
         return xe_run_fail(r, d, "block read/write in a partial sub-group (undefined)");
      }
      if (PTR_SP(base) == SP_GLOBAL && PTR_OFF(base) % (wr ? 16 : 4)) {
         r->fault.kind = XE_FAULT_BLOCK_IO;
         return xe_run_fail(r, d, wr ? "block write to an address that is not 16-byte aligned"
                                     : "block read from an address that is not 4-byte aligned");
      }
      uint8_t *mem = xe_run_mem_ex(r, &lanes[first], d, base, (uint64_t)n * nc * w,
                                   (wr ? XE_MEM_WRITE : 0) | XE_MEM_UNTRACKED, NULL);
      if (!mem) return false;
      for (unsigned l = 0; l < n; l++) {
         if (lanes[l].state != WI_SG) continue;
         for (unsigned k = 0; k < nc; k++) {
            uint8_t *m = mem + ((uint64_t)k * n + l) * w;
            /* Each lane is its own work-item for race detection. */
            if (r->race) xe_race_access(r, &lanes[l], d, base + ((uint64_t)k * n + l) * w, m, w, wr, false,
                                          wr ? lanes[l].v + d->ops[1] + k * w : NULL);
            if (wr) memcpy(m, lanes[l].v + d->ops[1] + k * w, w);
            else memcpy(lanes[l].v + d->res + k * w, m, w);
         }
      }
      return true;
   }
   case SpvOpGroupAll: case SpvOpGroupAny: {
      bool all = true, any = false;
      for (unsigned l = 0; l < n; l++)
         if (lanes[l].state == WI_SG) {
            bool b = lanes[l].v[d->ops[1]];
            all = all && b; any = any || b;
         }
      for (unsigned l = 0; l < n; l++)
         if (lanes[l].state == WI_SG) lanes[l].v[d->res] = d->op == SpvOpGroupAll ? all : any;
      return true;
   }
   case SpvOpGroupIAdd: case SpvOpGroupFAdd: case SpvOpGroupSMin: case SpvOpGroupSMax:
   case SpvOpGroupUMin: case SpvOpGroupUMax: case SpvOpGroupFMin: case SpvOpGroupFMax:
   case SpvOpGroupIMulKHR: case SpvOpGroupFMulKHR: case SpvOpGroupBitwiseAndKHR:
   case SpvOpGroupBitwiseOrKHR: case SpvOpGroupBitwiseXorKHR:
      return reduce(r, lanes, n, d);
   default: {
      char msg[96];
      snprintf(msg, sizeof msg, "unsupported instruction %s", xe_opcode_name(d->op));
      return xe_run_fail(r, d, msg);
   }
   }
}
