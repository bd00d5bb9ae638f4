/*
 * The static cost model (cost.h; docs/cost-model.md is the long form).
 *
 * Walk: every instruction of the kernel's entry function and, through
 * OpFunctionCall, of its callees (inlined by IGC, so counted per call),
 * weighted by how often its block runs: the product of the trip counts of
 * the loops around it (ranges.c), XE_COST_ASSUMED_TRIPS for a loop whose
 * count is not a constant.  A value nothing observable uses is dead and
 * costs nothing: liveness runs first, from stores, calls, barriers,
 * control flow and returns backwards through operands.
 *
 * Memory: a load or store costs one send plus the weight of its message
 * kind, decided by its pointer's storage class and, for private arrays,
 * by where IGC will put the array:
 *  - in private (scratch) memory when any access is Volatile, the array
 *    is larger than reg_limit bytes per work-item, or the function's
 *    arrays together are larger than reg_total (IGC promotes arrays live
 *    together from one budget): a scratch message plus its per-lane
 *    address;
 *  - in registers otherwise: an access whose index is a constant, or is
 *    computed from constants and induction variables of constant-trip
 *    loops (which IGC unrolls), is a register read: free; any other index
 *    is per-lane data, and IGC then emits indirect moves per lane, which
 *    cost reg_indirect per byte of the element (the array's length does
 *    not change what IGC emits).  This is the trade private-arrays asks
 *    about.
 * A global access that a candidate block-io rewrite converts costs a
 * block message plus lane0_base (the broadcast and scalar base), and its
 * per-lane address is no longer live through it; if that address (the
 * same index) is still needed by another global access that stays
 * scattered, lane0_shared more: IGC then keeps both forms (a load
 * converted, its store not).
 *
 * Why not simply count SPIR-V instructions: IGC's output differs from the
 * SPIR-V by an order of magnitude exactly where the rewrites trade one
 * cost for another (private arrays, block messages), so those get their
 * own measured terms; everything else is one ISA instruction per SPIR-V
 * instruction and component (docs/cost-model.md, "What the model
 * estimates", says how close that comes to IGC's output).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "cost.h"
#include "cost_weights.h"
#include "idmap.h"
#include "ranges.h"

/* ---- the walk ---- */

typedef struct walk {
   xe_module *m;
   const xe_cost_weights *w;
   const xe_cost_change *ch;
   xe_cost_memo *memo;      /* may be NULL */
   xe_cost c;
   unsigned depth;
} walk;

/* One function's liveness (below) and what it depends on. */
struct xe_cost_live {
   xe_function *f;
   const xe_cost_change *ch;
   bool igc_blocks;
   xe_idmap ids;
   uint8_t *live;
};

static uint32_t storage_of(xe_module *m, uint32_t ptr)
{
   xe_inst *d = xe_def(m, ptr);
   xe_inst *t = d ? xe_def(m, d->type_id) : NULL;
   return t && t->opcode == SpvOpTypePointer ? xe_op(t, 0) : UINT32_MAX;
}

static bool is_chain(uint16_t op)
{
   return op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain || op == SpvOpPtrAccessChain ||
          op == SpvOpInBoundsPtrAccessChain;
}

/* The Function-storage OpVariable a pointer derives from (through chains
 * and bitcasts), NULL if none; *index gets the first array index of the
 * outermost chain (0 when none). */
static xe_inst *root_var(xe_module *m, uint32_t ptr, uint32_t *index)
{
   *index = 0;
   for (int guard = 0; guard < 16; guard++) {
      xe_inst *d = xe_def(m, ptr);
      if (!d)
         return NULL;
      if (d->opcode == SpvOpVariable)
         return xe_op(d, 0) == SpvStorageClassFunction ? d : NULL;
      if (is_chain(d->opcode)) {
         bool p = d->opcode == SpvOpPtrAccessChain || d->opcode == SpvOpInBoundsPtrAccessChain;
         unsigned at = p ? 2 : 1;
         if (xe_nops(d) > at)
            *index = xe_op(d, at);
         ptr = xe_op(d, 0);
      } else if (d->opcode == SpvOpBitcast || d->opcode == SpvOpCopyObject) {
         ptr = xe_op(d, 0);
      } else {
         return NULL;
      }
   }
   return NULL;
}

/* Is the loop-carried phi an induction variable of a loop with a constant
 * trip count (which IGC unrolls, turning the index into a constant)? */
static bool unrolled_iv(xe_module *m, xe_inst *phi)
{
   xe_function *f = phi->block ? phi->block->fn : NULL;
   if (!f)
      return false;
   const xe_loops *ls = xe_function_loops(f);
   for (uint32_t k = 0; k < ls->n; k++) {
      uint64_t trips;
      if (ls->loops[k].iv == phi)
         return xe_loop_trip_count(m, f, k, &trips);
   }
   return false;
}

/* An index IGC knows at compile time once constant-trip loops are
 * unrolled: constants, such induction variables, and arithmetic on them. */
static bool static_index(xe_module *m, uint32_t id, unsigned depth)
{
   uint64_t v;
   if (xe_const_uint(m, id, &v))
      return true;
   xe_inst *d = xe_def(m, id);
   if (!d || depth > 12)
      return false;
   switch (d->opcode) {
   case SpvOpConstant: case SpvOpConstantNull:
      return true;
   case SpvOpPhi:
      return unrolled_iv(m, d);
   case SpvOpIAdd: case SpvOpISub: case SpvOpIMul: case SpvOpBitwiseAnd: case SpvOpBitwiseOr:
   case SpvOpBitwiseXor: case SpvOpShiftLeftLogical: case SpvOpShiftRightLogical:
   case SpvOpShiftRightArithmetic: case SpvOpSConvert: case SpvOpUConvert: case SpvOpUMod:
   case SpvOpSRem: case SpvOpSMod: case SpvOpUDiv: case SpvOpSDiv: case SpvOpCopyObject:
   case SpvOpBitcast:
      for (unsigned k = 0; k < xe_nops(d); k++)
         if (!static_index(m, xe_op(d, k), depth + 1))
            return false;
      return true;
   default:
      return false;
   }
}

/* Shape of a private array as the model sees it, with the what-if. */
typedef struct arr_shape {
   uint32_t len, elem_bytes;
   bool in_memory;
   uint32_t split;   /* split what-if: components per former element, else 0 */
} arr_shape;

static bool any_volatile_access(xe_module *m, xe_inst *var)
{
   /* Accesses of the variable's function with Volatile on a pointer into it. */
   xe_function *f = var->block ? var->block->fn : NULL;
   if (!f)
      return false;
   xe_foreach_block(b, f) {
      xe_foreach_inst(i, &b->insts) {
         if (!xe_access_is_volatile(i))
            continue;
         uint32_t idx;
         if (root_var(m, xe_op(i, 0), &idx) == var)
            return true;
      }
   }
   return false;
}

/* Bytes per work-item of the other Function-storage arrays of var's
 * function, with the what-if ch applied to the one it changes: they
 * compete with var for IGC's register budget (reg_total). */
static double other_arrays_bytes(xe_module *m, xe_inst *var, const xe_cost_change *ch)
{
   xe_function *f = var->block ? var->block->fn : NULL;
   double bytes = 0;
   if (!f || !f->first)
      return 0;
   xe_foreach_inst(v, &f->first->insts) {
      uint64_t len;
      uint32_t elem;
      if (v == var || !xe_variable_array(m, v, &len, &elem))
         continue;
      double esz = (double)xe_type_size(m, elem);
      if (ch && ch->var == v->result_id) {
         if (ch->len)
            len = ch->len;
         if (ch->elem_bytes)
            esz = ch->elem_bytes;
         if (ch->split_comps > 1) {
            unsigned used = 0;
            for (uint32_t c = 0; c < ch->split_comps && c < 32; c++)
               used += (ch->split_used >> c) & 1;
            esz = esz / ch->split_comps * used;
         }
      }
      bytes += (double)len * esz;
   }
   return bytes;
}

static arr_shape shape_of(walk *wk, xe_inst *var)
{
   arr_shape s = { 1, 4, false, 0 };
   xe_module *m = wk->m;
   uint64_t len = 1, esz;
   uint32_t elem;
   if (xe_variable_array(m, var, &len, &elem)) {
      esz = xe_type_size(m, elem);
   } else {
      xe_inst *pt = xe_def(m, var->type_id);
      esz = pt && pt->opcode == SpvOpTypePointer ? xe_type_size(m, xe_op(pt, 1)) : 4;
   }
   s.len = (uint32_t)(len ? len : 1);
   s.elem_bytes = (uint32_t)(esz ? esz : 4);
   bool vol = any_volatile_access(m, var);
   const xe_cost_change *ch = wk->ch;
   if (vol && ch && ch->not_volatile_fn && var->block &&
       xe_function_id(var->block->fn) == ch->not_volatile_fn) {
      bool kept = false;
      for (unsigned k = 0; k < ch->nvolatile_kept && !kept; k++)
         kept = ch->volatile_kept[k] == var->result_id;
      vol = kept;
   }
   if (ch && ch->var == var->result_id) {
      if (ch->len)
         s.len = ch->len;
      if (ch->elem_bytes)
         s.elem_bytes = ch->elem_bytes;
      if (ch->not_volatile)
         vol = false;
      if (ch->split_comps > 1 && s.elem_bytes % ch->split_comps == 0) {
         /* The parts are live together, over the original's range, and
          * compete with the function's other arrays for IGC's register
          * budget (dead parts take nothing).  Over reg_total IGC puts
          * them in scratch, one message per part for what was one
          * whole-vector message.  Within it the split is priced as the
          * array was: IGC keeps such arrays in registers before and after,
          * so the model's own placement of the original is kept, neither
          * better nor worse (docs/cost-model.md, "How passes ask"). */
         unsigned used = 0;
         for (uint32_t c = 0; c < ch->split_comps && c < 32; c++)
            used += (ch->split_used >> c) & 1;
         double part = (double)s.len * (s.elem_bytes / ch->split_comps);
         if (part * used + other_arrays_bytes(m, var, ch) > wk->w->reg_total) {
            s.split = ch->split_comps;
            s.elem_bytes /= ch->split_comps;
            s.in_memory = true;
            return s;
         }
      }
   }
   /* In registers only if the array fits reg_limit and the function's
    * arrays together fit reg_total (IGC promotes arrays live together
    * from one budget). */
   double bytes = (double)s.len * s.elem_bytes;
   s.in_memory = vol || bytes > wk->w->reg_limit ||
                 bytes + other_arrays_bytes(m, var, ch) > wk->w->reg_total;
   return s;
}

static bool in_merged_set(const xe_cost_change *ch, const xe_inst *i)
{
   for (unsigned k = 0; ch && k < ch->nmerged; k++)
      if (ch->merged[k] == i)
         return true;
   return false;
}

/* Does IGC make the candidate block accesses block messages itself with
 * these weights (igc_block; the kernel declares LocalSize)?  Measured for
 * addresses from the x id only; a y/z-varying one keeps lane0_lane. */
static bool igc_blocks(const xe_cost_weights *w, const xe_cost_change *ch)
{
   return w->igc_block && ch && ch->local_size_declared;
}

bool xe_cost_igc_blocks(const xe_cost_change *ch, enum xe_device d)
{
   return igc_blocks(&xe_cost_weight_table[d], ch);
}

static bool in_block_set(const xe_cost_change *ch, const xe_inst *i)
{
   for (unsigned k = 0; ch && k < ch->nblock; k++)
      if (ch->block[k] == i)
         return true;
   return false;
}

/* The per-lane index of a global access's pointer (last index of its
 * chain), or the pointer itself. */
static uint32_t lane_index(xe_module *m, uint32_t ptr)
{
   xe_inst *d = xe_def(m, ptr);
   while (d && (d->opcode == SpvOpBitcast || d->opcode == SpvOpCopyObject))
      d = xe_def(m, xe_op(d, 0));
   if (d && is_chain(d->opcode) && xe_nops(d) >= 2)
      return xe_op(d, xe_nops(d) - 1);
   return ptr;
}

/* Does another global access of f, not in the block set, use the same
 * per-lane index as access a? */
static bool index_shared(xe_module *m, xe_function *f, const xe_cost_change *ch, xe_inst *a)
{
   uint32_t idx = lane_index(m, xe_op(a, 0));
   xe_foreach_block(b, f) {
      xe_foreach_inst(i, &b->insts) {
         if (i == a || (i->opcode != SpvOpLoad && i->opcode != SpvOpStore) || in_block_set(ch, i))
            continue;
         uint32_t sc = storage_of(m, xe_op(i, 0));
         if (sc != SpvStorageClassCrossWorkgroup && sc != SpvStorageClassGeneric)
            continue;
         if (lane_index(m, xe_op(i, 0)) == idx)
            return true;
      }
   }
   return false;
}

static unsigned components(xe_module *m, uint32_t type)
{
   xe_inst *t = xe_def(m, type);
   return t && t->opcode == SpvOpTypeVector ? xe_op(t, 1) : 1;
}

static uint32_t scalar_type(xe_module *m, uint32_t type)
{
   xe_inst *t = xe_def(m, type);
   return t && t->opcode == SpvOpTypeVector ? xe_op(t, 0) : type;
}

/* Does the value depend on a y or z component of the local or global
 * invocation id?  Within a sub-group those are uniform only by the
 * work-group's shape, which IGC does not use: it computes such an address
 * per lane even when only lane 0's is needed (lane0_lane). */
static bool lane_varying_yz(xe_module *m, uint32_t id, unsigned depth)
{
   xe_inst *d = xe_def(m, id);
   if (!d || !d->block || depth > 24)
      return false;
   if (d->opcode == SpvOpCompositeExtract && xe_nops(d) >= 2 && xe_op(d, 1) != 0) {
      xe_inst *ld = xe_def(m, xe_op(d, 0));
      if (ld && ld->opcode == SpvOpLoad) {
         int b = xe_builtin_of(m, xe_op(ld, 0));
         if (b == SpvBuiltInLocalInvocationId || b == SpvBuiltInGlobalInvocationId)
            return true;
      }
   }
   if (d->opcode == SpvOpPhi || d->opcode == SpvOpLoad || d->opcode == SpvOpFunctionCall)
      return false; /* loop-carried values and memory: not followed */
   for (unsigned k = 0; k < xe_nops(d); k++)
      if (xe_op_kind(d, k) == XE_W_ID && lane_varying_yz(m, xe_op(d, k), depth + 1))
         return true;
   return false;
}

static bool has_side_effect(xe_inst *i)
{
   if (!i->result_id)
      return true; /* stores, branches, barriers, block writes, returns */
   switch (i->opcode) {
   case SpvOpFunctionCall: case SpvOpAtomicIAdd: case SpvOpAtomicISub: case SpvOpAtomicExchange:
   case SpvOpAtomicCompareExchange: case SpvOpAtomicIIncrement: case SpvOpAtomicIDecrement:
   case SpvOpAtomicSMin: case SpvOpAtomicUMin: case SpvOpAtomicSMax: case SpvOpAtomicUMax:
   case SpvOpAtomicAnd: case SpvOpAtomicOr: case SpvOpAtomicXor: case SpvOpExtInst:
      return true; /* ExtInst: printf; the math ones are cheap to keep */
   default:
      return false;
   }
}

/* Which of f's values are live, from the observable instructions back:
 * live[k] for the id with index k in *ids (f's own ids, xe_idmap), so one
 * call costs what f holds, not the module's bound (the model runs on every
 * kernel).  Ids of other functions and globals are never asked about. */
/* Is access i converted with its per-lane address dead (the block access
 * uses lane 0's, recomputed)?  Not where the address depends on a y/z id
 * (lane0_lane), nor where IGC makes the block message itself from the
 * per-lane address, unless the wide form merges i into the load before. */
static bool address_dropped(walk *wk, xe_inst *i)
{
   return in_block_set(wk->ch, i) && (!igc_blocks(wk->w, wk->ch) || in_merged_set(wk->ch, i)) &&
          !lane_varying_yz(wk->m, xe_op(i, 0), 0);
}

static uint8_t *liveness(walk *wk, xe_function *f, xe_idmap *ids)
{
   xe_module *m = wk->m;
   xe_idmap_init(ids, 0);
   xe_idmap_add_function(ids, f);
   uint32_t n = ids->n ? ids->n : 1;
   uint8_t *live = calloc(n, 1);
   uint32_t *stack = malloc(n * sizeof(uint32_t));
   unsigned sp = 0;
   if (!live || !stack)
      xe_out_of_memory();
#define MARK(id) do { uint32_t _id = (id), _k = xe_idmap_find(ids, _id); \
      if (_k != XE_IDMAP_NONE && !live[_k]) { live[_k] = 1; stack[sp++] = _id; } } while (0)
   xe_foreach_block(b, f) {
      xe_foreach_inst(i, &b->insts) {
         /* Debug info keeps nothing alive: -g must not change an estimate. */
         if (!has_side_effect(i) || xe_inst_is_debug_info(m, i))
            continue;
         bool conv = address_dropped(wk, i);
         for (unsigned k = 0; k < xe_nops(i); k++) {
            if (xe_op_kind(i, k) != XE_W_ID)
               continue;
            if (conv && k == 0)
               continue; /* the block access uses lane 0's address, recomputed */
            MARK(xe_op(i, k));
         }
         if (i->result_id)
            MARK(i->result_id);
      }
   }
   while (sp) {
      xe_inst *d = xe_def(m, stack[--sp]);
      if (!d || !d->block || d->block->fn != f)
         continue;
      bool conv = address_dropped(wk, d);
      for (unsigned k = 0; k < xe_nops(d); k++) {
         if (xe_op_kind(d, k) != XE_W_ID || (conv && k == 0))
            continue;
         MARK(xe_op(d, k));
      }
   }
#undef MARK
   free(stack);
   return live;
}

/* f's liveness under wk: the memo's when it has it, else computed (and
 * kept in the memo; without one the caller frees it).  Returned by value:
 * a callee's estimate may grow the memo. */
static struct xe_cost_live live_of(walk *wk, xe_function *f)
{
   bool blocks = igc_blocks(wk->w, wk->ch);
   xe_cost_memo *mo = wk->memo;
   for (unsigned k = 0; mo && k < mo->n; k++)
      if (mo->v[k].f == f && mo->v[k].ch == wk->ch && mo->v[k].igc_blocks == blocks)
         return mo->v[k];
   struct xe_cost_live e = { .f = f, .ch = wk->ch, .igc_blocks = blocks };
   e.live = liveness(wk, f, &e.ids);
   if (mo) {
      if (mo->n == mo->cap) {
         mo->cap = mo->cap ? 2 * mo->cap : 4;
         mo->v = realloc(mo->v, mo->cap * sizeof(*mo->v));
         if (!mo->v)
            xe_out_of_memory();
      }
      mo->v[mo->n++] = e;
   }
   return e;
}

void xe_cost_memo_release(xe_cost_memo *memo)
{
   for (unsigned k = 0; k < memo->n; k++) {
      free(memo->v[k].live);
      xe_idmap_free(&memo->v[k].ids);
   }
   free(memo->v);
   *memo = (xe_cost_memo){ 0 };
}

static double fn_cost(walk *wk, xe_function *f);

static double mem_cost(walk *wk, xe_function *f, xe_inst *i, double freq)
{
   xe_module *m = wk->m;
   const xe_cost_weights *w = wk->w;
   uint32_t ptr = xe_op(i, 0);
   uint32_t sc = storage_of(m, ptr);
   if (sc == SpvStorageClassFunction) {
      uint32_t idx;
      xe_inst *var = root_var(m, ptr, &idx);
      if (!var)
         return 0;
      arr_shape s = shape_of(wk, var);
      /* A narrowed array (what-if) gets one conversion per access, as
       * private-arrays emits. */
      double conv = wk->ch && wk->ch->var == var->result_id && wk->ch->elem_bytes ? w->alu : 0;
      /* After a split, a whole-vector access is one access per part. */
      double n = 1;
      if (s.split) {
         uint32_t vt = i->opcode == SpvOpLoad ? i->type_id
                       : (xe_def(m, xe_op(i, 1)) ? xe_def(m, xe_op(i, 1))->type_id : 0);
         n = components(m, vt);
      }
      if (s.in_memory) {
         wk->c.priv += n * freq;
         return n * (conv + w->send + w->msg_private + w->priv_addr + w->priv_byte * s.elem_bytes);
      }
      if (!idx || static_index(m, idx, 0))
         return n * conv; /* a register */
      double c = n * (conv + w->reg_indirect * s.elem_bytes);
      wk->c.reg_indirect += c * freq;
      return c;
   }
   if (sc == SpvStorageClassInput || sc == SpvStorageClassUniformConstant)
      return w->builtin;
   if (sc == SpvStorageClassWorkgroup) {
      wk->c.slm += freq;
      return w->send + w->msg_slm;
   }
   if (sc == SpvStorageClassCrossWorkgroup || sc == SpvStorageClassGeneric) {
      if (in_block_set(wk->ch, i) && igc_blocks(w, wk->ch) && !lane_varying_yz(m, ptr, 0)) {
         /* Priced as before (the unchanged kernel's estimate counts it
          * scattered; IGC makes it a block message either way) plus lane
          * 0's base, or, merged into the load before it, less IGC's own
          * block message, which the wide read saves. */
         wk->c.scattered += freq;
         if (in_merged_set(wk->ch, i))
            return w->msg_scattered - w->msg_block;
         return w->send + w->msg_scattered + w->lane0_base;
      }
      if (in_block_set(wk->ch, i)) {
         wk->c.block += freq;
         if (lane_varying_yz(m, ptr, 0))
            return w->send + w->msg_block + w->lane0_lane; /* per-lane address kept (liveness) */
         return w->send + w->msg_block + w->lane0_base +
                (index_shared(m, f, wk->ch, i) ? w->lane0_shared : 0);
      }
      wk->c.scattered += freq;
      return w->send + w->msg_scattered + (sc == SpvStorageClassGeneric ? w->generic_check : 0);
   }
   return w->send + w->msg_scattered;
}

static double inst_cost(walk *wk, xe_function *f, xe_inst *i, double freq)
{
   xe_module *m = wk->m;
   const xe_cost_weights *w = wk->w;
   switch (i->opcode) {
   case SpvOpLoad: case SpvOpStore:
      return mem_cost(wk, f, i, freq);
   case SpvOpSubgroupBlockReadINTEL: case SpvOpSubgroupBlockWriteINTEL: {
      uint32_t t = i->opcode == SpvOpSubgroupBlockReadINTEL ? i->type_id
                   : (xe_def(m, xe_op(i, 1)) ? xe_def(m, xe_op(i, 1))->type_id : 0);
      uint64_t bytes = xe_type_size(m, t);
      double msgs = bytes > 16 ? (double)((bytes + 15) / 16) : 1;
      wk->c.block += msgs * freq;
      return msgs * (w->send + w->msg_block);
   }
   case SpvOpFunctionCall: {
      xe_function *callee = xe_function_by_id(m, xe_op(i, 0));
      if (!callee || !callee->first || wk->depth > 8)
         return w->send + w->msg_scattered; /* an import: unknown, one call's worth */
      wk->depth++;
      /* The callee's own counters are frequency-weighted per call; scale them. */
      xe_cost outer = wk->c;
      memset(&wk->c, 0, sizeof(wk->c));
      double c = fn_cost(wk, callee);
      outer.scattered += wk->c.scattered * freq;
      outer.block += wk->c.block * freq;
      outer.priv += wk->c.priv * freq;
      outer.slm += wk->c.slm * freq;
      outer.reg_indirect += wk->c.reg_indirect * freq;
      wk->c = outer;
      wk->depth--;
      return c;
   }
   case SpvOpAtomicIAdd: case SpvOpAtomicISub: case SpvOpAtomicExchange:
   case SpvOpAtomicCompareExchange: case SpvOpAtomicIIncrement: case SpvOpAtomicIDecrement:
   case SpvOpAtomicSMin: case SpvOpAtomicUMin: case SpvOpAtomicSMax: case SpvOpAtomicUMax:
   case SpvOpAtomicAnd: case SpvOpAtomicOr: case SpvOpAtomicXor: case SpvOpAtomicLoad:
   case SpvOpAtomicStore:
      return w->send + w->msg_atomic;
   case SpvOpControlBarrier: case SpvOpMemoryBarrier:
      return w->barrier;
   case SpvOpGroupBroadcast: case SpvOpSubgroupShuffleINTEL: case SpvOpSubgroupShuffleDownINTEL:
   case SpvOpSubgroupShuffleUpINTEL: case SpvOpSubgroupShuffleXorINTEL:
   case SpvOpGroupNonUniformBroadcast: case SpvOpGroupNonUniformBroadcastFirst:
   case SpvOpGroupNonUniformShuffle:
      return w->broadcast;
   case SpvOpGroupAll: case SpvOpGroupAny: case SpvOpGroupIAdd: case SpvOpGroupFAdd:
   case SpvOpGroupUMin: case SpvOpGroupSMin: case SpvOpGroupFMin: case SpvOpGroupUMax:
   case SpvOpGroupSMax: case SpvOpGroupFMax: case SpvOpGroupNonUniformAll:
   case SpvOpGroupNonUniformAny: case SpvOpGroupNonUniformIAdd: case SpvOpGroupNonUniformFAdd:
   case SpvOpGroupNonUniformBallot:
      return w->reduce;
   case SpvOpBranchConditional:
      return w->branch;
   case SpvOpSwitch:
      return w->branch * 2;
   case SpvOpPtrAccessChain: case SpvOpInBoundsPtrAccessChain:
   case SpvOpAccessChain: case SpvOpInBoundsAccessChain: {
      uint32_t sc = storage_of(m, i->result_id);
      if (sc == SpvStorageClassFunction)
         return 0; /* folded into the private access */
      /* base + index * size in 64 bits, per index */
      unsigned nidx = xe_nops(i) - 1;
      return nidx * w->alu64;
   }
   case SpvOpPhi: case SpvOpVariable: case SpvOpBitcast: case SpvOpCopyObject: case SpvOpUndef:
   case SpvOpLine: case SpvOpNoLine: case SpvOpSelectionMerge: case SpvOpLoopMerge: case SpvOpBranch:
   case SpvOpReturn: case SpvOpReturnValue: case SpvOpFunctionEnd: case SpvOpLifetimeStart:
   case SpvOpLifetimeStop: case SpvOpCompositeExtract: case SpvOpConvertPtrToU:
   case SpvOpConvertUToPtr: case SpvOpPtrCastToGeneric: case SpvOpGenericCastToPtr:
   case SpvOpUnreachable: case SpvOpNop:
      return 0;
   case SpvOpUConvert: case SpvOpSConvert: case SpvOpFConvert: case SpvOpConvertFToU:
   case SpvOpConvertFToS: case SpvOpConvertSToF: case SpvOpConvertUToF:
      /* One move with a type change; a narrow-widen pair around an add
       * (private-arrays' narrowing) IGC folds into a narrow add. */
      return w->alu * components(m, i->type_id);
   case SpvOpExtInst:
      return w->math * components(m, i->type_id);
   case SpvOpFDiv: case SpvOpFRem: case SpvOpFMod:
      return w->math * components(m, i->type_id);
   default:
      break;
   }
   if (!i->result_id)
      return w->alu;
   /* An ALU op: by the width and kind of its result. */
   uint32_t st = scalar_type(m, i->type_id);
   xe_inst *t = xe_def(m, st);
   double per = w->alu;
   if (t && t->opcode == SpvOpTypeInt && xe_op(t, 0) == 64)
      per = (i->opcode == SpvOpIMul || i->opcode == SpvOpUDiv || i->opcode == SpvOpSDiv ||
             i->opcode == SpvOpUMod || i->opcode == SpvOpSRem || i->opcode == SpvOpSMod)
               ? w->mul64 : w->alu64;
   else if (t && t->opcode == SpvOpTypeFloat && xe_op(t, 0) == 64)
      per = w->fp64;
   return per * components(m, i->type_id);
}

static double block_freq(xe_module *m, xe_function *f, const xe_loops *ls, uint32_t bi)
{
   double freq = 1;
   uint32_t li = xe_loop_of_block(ls, bi);
   while (li != XE_NONE) {
      uint64_t trips;
      freq *= xe_loop_trip_count(m, f, li, &trips) ? (double)trips : XE_COST_ASSUMED_TRIPS;
      li = ls->loops[li].parent;
   }
   return freq;
}

static double fn_cost_set(walk *wk, xe_function *f, const uint8_t *in_set);

static double fn_cost(walk *wk, xe_function *f)
{
   return fn_cost_set(wk, f, NULL);
}

static double fn_cost_set(walk *wk, xe_function *f, const uint8_t *in_set)
{
   xe_module *m = wk->m;
   if (!f->first)
      return 0;
   const xe_cfg *cfg = xe_function_cfg(f);
   const xe_loops *ls = xe_function_loops(f);
   struct xe_cost_live lv = live_of(wk, f);
   const uint8_t *live = lv.live;
   double total = 0;
   for (uint32_t bi = 0; bi < cfg->n; bi++) {
      if (cfg->rpo_index[bi] == XE_NONE || (in_set && !in_set[bi]))
         continue;
      xe_block *b = cfg->blocks[bi];
      double freq = block_freq(m, f, ls, bi);
      xe_foreach_inst(i, &b->insts) {
         if (i->result_id && !has_side_effect(i) && !live[xe_idmap_find(&lv.ids, i->result_id)])
            continue;
         if (xe_inst_is_debug_info(m, i))
            continue; /* describes the source: no code */
         total += freq * inst_cost(wk, f, i, freq);
      }
   }
   if (!wk->memo) {
      free(lv.live);
      xe_idmap_free(&lv.ids);
   }
   return total;
}

xe_cost xe_cost_function(xe_module *m, xe_function *fn, enum xe_device d,
                         const xe_cost_change *change)
{
   return xe_cost_function_memo(m, fn, d, change, NULL);
}

xe_cost xe_cost_function_memo(xe_module *m, xe_function *fn, enum xe_device d,
                              const xe_cost_change *change, xe_cost_memo *memo)
{
   walk wk = { .m = m, .w = &xe_cost_weight_table[d], .ch = change, .memo = memo };
   /* Per-id tables are sized by the bound, and def-use must be current. */
   double c = fn_cost(&wk, fn);
   wk.c.cycles = c;
   return wk.c;
}

double xe_cost_blocks(xe_module *m, xe_function *f, enum xe_device d,
                      const xe_cost_change *change, const uint8_t *in_set)
{
   return xe_cost_blocks_memo(m, f, d, change, in_set, NULL);
}

double xe_cost_blocks_memo(xe_module *m, xe_function *f, enum xe_device d,
                           const xe_cost_change *change, const uint8_t *in_set,
                           xe_cost_memo *memo)
{
   walk wk = { .m = m, .w = &xe_cost_weight_table[d], .ch = change, .memo = memo };
   return fn_cost_set(&wk, f, in_set);
}

double xe_cost_block_frequency(xe_module *m, xe_function *f, uint32_t bi)
{
   return block_freq(m, f, xe_function_loops(f), bi);
}

bool xe_cost_compare(xe_module *m, xe_function *fn, unsigned devices,
                     const xe_cost_change *change, double before[XE_DEV_COUNT],
                     double after[XE_DEV_COUNT], enum xe_device *worst)
{
   bool ok = true;
   xe_cost_memo memo = { 0 };
   for (int d = 0; d < XE_DEV_COUNT; d++) {
      before[d] = after[d] = 0;
      if (!(devices & (1u << d)))
         continue;
      before[d] = xe_cost_function_memo(m, fn, (enum xe_device)d, NULL, &memo).cycles;
      after[d] = xe_cost_function_memo(m, fn, (enum xe_device)d, change, &memo).cycles;
      /* Not slower: equal counts as not worse (a rewrite the model cannot
       * tell apart still has its other benefits, e.g. register pressure). */
      if (after[d] > before[d] * (1 + XE_COST_TIE) && ok) {
         ok = false;
         if (worst)
            *worst = (enum xe_device)d;
      }
   }
   xe_cost_memo_release(&memo);
   return ok;
}

bool xe_cost_clear_gain(unsigned devices, const double before[XE_DEV_COUNT],
                        const double after[XE_DEV_COUNT], enum xe_device *thin)
{
   for (int d = 0; d < XE_DEV_COUNT; d++) {
      if (!(devices & (1u << d)))
         continue;
      double b = before[d], a = after[d];
      if (fabs(a - b) <= XE_COST_TIE * fabs(b) || a <= b * (1 - XE_COST_MIN_GAIN))
         continue;
      if (thin)
         *thin = (enum xe_device)d;
      return false;
   }
   return true;
}

bool xe_cost_any_clear_gain(unsigned devices, const double before[XE_DEV_COUNT],
                            const double after[XE_DEV_COUNT])
{
   for (int d = 0; d < XE_DEV_COUNT; d++)
      if ((devices & (1u << d)) && after[d] <= before[d] * (1 - XE_COST_MIN_GAIN))
         return true;
   return !devices;
}

bool xe_cost_some_clear_gain(unsigned devices, const double before[XE_DEV_COUNT],
                             const double after[XE_DEV_COUNT])
{
   if (xe_cost_any_clear_gain(devices, before, after))
      return true;
   for (int d = 0; d < XE_DEV_COUNT; d++)
      if ((devices & (1u << d)) && fabs(after[d] - before[d]) > XE_COST_TIE * fabs(before[d]))
         return false;
   return true;
}

void xe_cost_format(char *buf, size_t n, unsigned devices, const double before[XE_DEV_COUNT],
                    const double after[XE_DEV_COUNT])
{
   /* Devices with the same rounded estimates share one entry
    * ("pvc/bmg/lnl/ptl 16 -> 40"): with every device targeted (the
    * default), the provisional weights are often pvc's. */
   size_t at = 0;
   unsigned done = 0;
   buf[0] = 0;
   for (int d = 0; d < XE_DEV_COUNT && at < n; d++) {
      if (!(devices & (1u << d)) || (done & (1u << d)))
         continue;
      char b0[32], a0[32];
      snprintf(b0, sizeof b0, "%.0f", before[d]);
      snprintf(a0, sizeof a0, "%.0f", after[d]);
      int k = snprintf(buf + at, n - at, "%s%s", at ? ", " : "", xe_device_name(d));
      for (int e = d + 1; e < XE_DEV_COUNT && k >= 0 && at + (size_t)k < n; e++) {
         char b1[32], a1[32];
         snprintf(b1, sizeof b1, "%.0f", before[e]);
         snprintf(a1, sizeof a1, "%.0f", after[e]);
         if (!(devices & (1u << e)) || strcmp(b0, b1) || strcmp(a0, a1))
            continue;
         done |= 1u << e;
         int j = snprintf(buf + at + k, n - at - k, "/%s", xe_device_name(e));
         if (j < 0)
            break;
         k += j;
      }
      if (k < 0 || at + (size_t)k >= n)
         break;
      at += (size_t)k;
      k = snprintf(buf + at, n - at, " %s -> %s", b0, a0);
      if (k < 0)
         break;
      at += (size_t)k;
   }
}

double xe_cost_simd_change(enum xe_device d, unsigned from, unsigned to)
{
   double f = 1;
   for (unsigned w = from; from && to && w > to; w /= 2)
      f *= xe_cost_weight_table[d].simd_halving;
   for (unsigned w = to; from && to && w > from; w /= 2)
      f /= xe_cost_weight_table[d].simd_halving;
   return f;
}

double xe_cost_versioned(enum xe_device d, unsigned tested, unsigned shared, unsigned wraps,
                         double fast, double slow)
{
   const xe_cost_weights *w = &xe_cost_weight_table[d];
   return w->version_test + w->version_access * tested + w->version_shared * shared +
          w->version_uaccess * wraps +
          XE_COST_FAST_FRACTION * fast + (1 - XE_COST_FAST_FRACTION) * slow;
}

double xe_cost_versioned_uniform(enum xe_device d, unsigned tested, bool guard, double fast,
                                 double slow)
{
   const xe_cost_weights *w = &xe_cost_weight_table[d];
   return w->version_utest + w->version_uaccess * tested + (guard ? w->version_uguard : 0) +
          XE_COST_FAST_FRACTION * fast + (1 - XE_COST_FAST_FRACTION) * slow;
}
