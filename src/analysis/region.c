/*
 * Memory effects of a guarded region; see region.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opinfo.h"
#include "region.h"

static bool fail(xe_region *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(xe_region *r, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(r->why, sizeof(r->why), fmt, ap);
   va_end(ap);
   return false;
}

static int param_of(const xe_region *r, uint32_t id)
{
   for (unsigned k = 0; k < r->nparams; k++) {
      if (r->param_ids[k] == id)
         return (int)k;
   }
   return -1;
}

uint32_t xe_pointee(const xe_module *m, uint32_t ptr_type, uint32_t *sc)
{
   const xe_inst *t = xe_def(m, ptr_type);
   if (!t || t->opcode != SpvOpTypePointer)
      return 0;
   if (sc)
      *sc = xe_op(t, 0);
   return xe_op(t, 1);
}

/* ---- the guarded region ---- */

bool xe_region_collect(xe_region *r)
{
   const xe_cfg *cfg = r->cfg;
   uint32_t si = xe_cfg_block_index(cfg, xe_block_id(r->in));
   uint32_t ji = xe_cfg_block_index(cfg, xe_block_id(r->out));
   if (si == ji)
      return fail(r, "both edges of the branch go to the same block");
   if (cfg->pred_start[si + 1] - cfg->pred_start[si] != 1)
      return fail(r, "the guarded block has other predecessors");
   r->blocks = calloc(cfg->n, 1);
   uint32_t *stack = malloc(cfg->n * sizeof(uint32_t)), sp = 0;
   bool reaches_j = false;
   r->blocks[si] = 1;
   stack[sp++] = si;
   while (sp) {
      uint32_t x = stack[--sp];
      xe_inst *t = xe_block_terminator(cfg->blocks[x]);
      if (!t || t->opcode == SpvOpUnreachable || t->opcode == SpvOpKill) {
         free(stack);
         return fail(r, "the guarded region ends in %s", t ? xe_opcode_name(t->opcode) : "nothing");
      }
      for (uint32_t e = cfg->succ_start[x]; e < cfg->succ_start[x + 1]; e++) {
         uint32_t y = cfg->succ[e];
         if (y == ji) {
            reaches_j = true;
         } else if (r->blocks[y]) {
            if (xe_dominates(cfg, y, x)) {
               free(stack);
               return fail(r, "the guarded region contains a loop");
            }
         } else if (!xe_dominates(cfg, si, y)) {
            free(stack);
            return fail(r, "the guarded region has another entry or leaves to a block other "
                           "than the merge");
         } else {
            r->blocks[y] = 1;
            stack[sp++] = y;
         }
      }
   }
   free(stack);
   if (!reaches_j)
      return fail(r, "the guarded region never reaches the merge block");
   xe_foreach_inst(i, &r->out->insts) {
      uint32_t n = 0;
      if (i->opcode == SpvOpPhi && (xe_uses(r->m, i->result_id, &n), n))
         return fail(r, "a value merged after the guard (%%%u) is used", i->result_id);
   }
   return true;
}

/* Instructions with no effect beyond their result (src/ir/opinfo.h),
 * address arithmetic aside: callers treat access chains as pointer
 * operations (pointer_op). */
bool xe_pure_opcode(const xe_module *m, const xe_inst *i)
{
   unsigned f = xe_inst_info(m, i);
   return (f & XE_OPI_PURE) && !(f & XE_OPI_ADDRESS);
}

/* May i write memory through one of its operands (stores, copies, calls,
 * atomics, vstoren, sincos's cosine pointer ...)? */
static bool writes_memory(const xe_module *m, const xe_inst *i)
{
   return xe_inst_info(m, i) & XE_OPI_WRITES;
}

static bool pointer_op(unsigned op)
{
   return op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain || op == SpvOpPtrAccessChain ||
          op == SpvOpInBoundsPtrAccessChain || op == SpvOpBitcast || op == SpvOpCopyObject ||
          (op >= SpvOpPtrCastToGeneric && op <= SpvOpGenericCastToPtrExplicit);
}

/* The kernel argument a pointer is derived from, -1 if it comes from a
 * variable (private, local, input: not a host buffer), -2 if unknown. */
int xe_region_pointer_root(xe_region *r, uint32_t id)
{
   for (int depth = 0; depth < 32; depth++) {
      const xe_inst *d = xe_def(r->m, id);
      if (!d)
         return -2;
      if (d->opcode == SpvOpFunctionParameter)
         return param_of(r, id) >= 0 ? param_of(r, id) : -2;
      if (d->opcode == SpvOpVariable)
         return -1;
      if (!pointer_op(d->opcode) || d->opcode == SpvOpBitcast)
         return d->opcode == SpvOpBitcast ? xe_region_pointer_root(r, xe_op(d, 0)) : -2;
      id = xe_op(d, 0);
   }
   return -2;
}

/* A CrossWorkgroup access `param[offset]`, offset in elements of the
 * parameter's xe_pointee, through (InBounds)PtrAccessChain with one index. */
static bool resolve(xe_region *r, uint32_t ptr, xe_access *a)
{
   const xe_inst *d = xe_def(r->m, ptr);
   /* A parameter cast to another pointee in its own storage class is the
    * buffer seen as elements of that type (clang's SPIR-V backend types
    * a float* parameter uchar* and casts it at each use): element_size in
    * the manifest then says the cast's size. */
   const xe_inst *cast = NULL;
   if (d && d->opcode == SpvOpBitcast) {
      const xe_inst *s = xe_def(r->m, xe_op(d, 0));
      uint32_t sc_cast = 0, sc_param = 1;
      if (s && s->opcode == SpvOpFunctionParameter && param_of(r, s->result_id) >= 0) {
         xe_pointee(r->m, d->type_id, &sc_cast);
         xe_pointee(r->m, s->type_id, &sc_param);
      }
      if (sc_cast == sc_param) {
         cast = d;
         ptr = s->result_id;
         d = s;
      }
   }
   if (d && d->opcode == SpvOpFunctionParameter && param_of(r, ptr) >= 0) {
      uint32_t sc;
      a->arg = param_of(r, ptr);
      a->elem = xe_pointee(r->m, (cast ? cast : d)->type_id, &sc);
      memset(&a->off, 0, sizeof(a->off));
      a->off.min_bits = 64;
      if (sc != SpvStorageClassCrossWorkgroup)
         return fail(r, "argument %s is not a global buffer", r->names[a->arg]);
      return true;
   }
   if (d && (d->opcode == SpvOpPtrAccessChain || d->opcode == SpvOpInBoundsPtrAccessChain) &&
       xe_nops(d) == 2) {
      if (!resolve(r, xe_op(d, 0), a))
         return false;
      if (xe_pointee(r->m, d->type_id, NULL) != a->elem)
         return fail(r, "an access to %s changes the element type", r->names[a->arg]);
      const xe_affine *ix = xe_affine_of(r->aff, xe_op(d, 1));
      if (!ix)
         return fail(r, "the index into %s is not affine in the ids (loaded or computed)",
                     r->names[a->arg]);
      xe_affine sum;
      if (!xe_affine_add(&sum, &a->off, ix))
         return fail(r, "the index into %s is too complex", r->names[a->arg]);
      a->off = sum;
      return true;
   }
   int root = xe_region_pointer_root(r, ptr);
   if (root >= 0)
      return fail(r, "an access to %s is not a plain element index", r->names[root]);
   uint32_t sc = 0;
   xe_pointee(r->m, d ? d->type_id : 0, &sc);
   if (sc == SpvStorageClassWorkgroup)
      return fail(r, "an access to local (Workgroup) memory");
   if (sc == SpvStorageClassFunction)
      return fail(r, "an access to private (Function) memory");
   return fail(r, "an access through a pointer that is not a buffer argument");
}

bool xe_region_scan(xe_region *r)
{
   for (uint32_t b = 0; b < r->cfg->n; b++) {
      if (!r->blocks[b])
         continue;
      xe_foreach_inst(i, &r->cfg->blocks[b]->insts) {
         /* Integer division by zero is undefined behaviour in SPIR-V, and
          * an excluded work-item may divide by a zero it loaded from the
          * padding: only constant non-zero divisors pass. */
         uint64_t dv;
         if ((i->opcode == SpvOpUDiv || i->opcode == SpvOpSDiv || i->opcode == SpvOpUMod ||
              i->opcode == SpvOpSRem || i->opcode == SpvOpSMod) &&
             (!xe_const_uint(r->m, xe_op(i, 1), &dv) || dv == 0))
            return fail(r, "integer division by a non-constant in the guarded region");
         if (xe_pure_opcode(r->m, i) || pointer_op(i->opcode) || xe_opcode_is_terminator(i->opcode))
            continue;
         if (i->opcode == SpvOpLoad || i->opcode == SpvOpStore) {
            uint32_t ptr = xe_op(i, 0), sc = 0;
            const xe_inst *pd = xe_def(r->m, ptr);
            xe_pointee(r->m, pd ? pd->type_id : 0, &sc);
            if (i->opcode == SpvOpLoad && sc == SpvStorageClassInput)
               continue; /* built-in ids */
            if (r->nacc == XE_REGION_MAX_ACCESS)
               return fail(r, "too many accesses");
            xe_access *a = &r->acc[r->nacc];
            if (!resolve(r, ptr, a))
               return false;
            if (!xe_affine_nonneg(&a->off)) {
               char *s = xe_affine_str(&a->off, r->names, XE_AFF_SPELL_OPENCL);
               fail(r, "the index %s into %s may be negative", s, r->names[a->arg]);
               free(s);
               return false;
            }
            a->store = i->opcode == SpvOpStore;
            a->value = a->store ? xe_op(i, 1) : i->result_id;
            r->nacc++;
            continue;
         }
         unsigned info = xe_inst_info(r->m, i);
         if (info & XE_OPI_ATOMIC)
            return fail(r, "atomic %s in the guarded region", xe_opcode_name(i->opcode));
         if (i->opcode == SpvOpFunctionCall)
            return fail(r, "function call in the guarded region");
         if (info & XE_OPI_BARRIER)
            return fail(r, "barrier in the guarded region");
         return fail(r, "%s in the guarded region", xe_opcode_name(i->opcode));
      }
   }
   return true;
}

/* Buffers the region stores to (and loads from) are used nowhere else;
 * nothing outside writes through a pointer of unknown origin. */
bool xe_region_buffers_private(xe_region *r, const uint8_t *stored)
{
   xe_foreach_block(blk, r->f) {
      uint32_t bi = xe_cfg_block_index(r->cfg, xe_block_id(blk));
      if (bi != XE_NONE && r->blocks[bi])
         continue;
      xe_foreach_inst(i, &blk->insts) {
         if (pointer_op(i->opcode) || i->opcode == SpvOpLine || xe_inst_is_debug_info(r->m, i))
            continue;
         bool writes = writes_memory(r->m, i);
         for (unsigned k = 0; k < xe_nops(i); k++) {
            if (xe_op_kind(i, k) != XE_W_ID)
               continue;
            const xe_inst *d = xe_def(r->m, xe_op(i, k));
            if (!d || !d->type_id || !xe_pointee(r->m, d->type_id, NULL))
               continue;
            int root = xe_region_pointer_root(r, xe_op(i, k));
            if (root >= 0 && stored[root])
               return fail(r, "buffer %s is also used outside the guarded region",
                           r->names[root]);
            if (root == -2 && writes)
               return fail(r, "%s outside the region writes through a pointer that may alias "
                              "a padded buffer", xe_opcode_name(i->opcode));
         }
      }
   }
   return true;
}

bool xe_region_buffer_written(xe_region *r, int arg)
{
   xe_foreach_block(blk, r->f) {
      xe_foreach_inst(i, &blk->insts) {
         bool writes = writes_memory(r->m, i);
         if (!writes)
            continue;
         unsigned nptr = i->opcode == SpvOpStore ? 1 : xe_nops(i);
         for (unsigned k = 0; k < nptr; k++) {
            if (xe_op_kind(i, k) == XE_W_ID) {
               int root = xe_region_pointer_root(r, xe_op(i, k));
               if (root == arg || root == -2) {
                  const xe_inst *d = xe_def(r->m, xe_op(i, k));
                  if (d && d->type_id && xe_pointee(r->m, d->type_id, NULL))
                     return true;
               }
            }
         }
      }
   }
   return false;
}


void xe_region_free(xe_region *r)
{
   free(r->blocks);
   r->blocks = NULL;
}
