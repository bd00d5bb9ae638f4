/*
 * Value ranges and block execution bounds (see ranges.h).
 *
 * Ranges are computed on demand by walking definitions with a depth
 * limit, so phis other than recognised induction variables (cycles) get
 * the full range.  Trip counts are found by stepping the induction
 * variable in the loop's integer width, which handles wrap-around and
 * signed compares exactly and gives up past a cap.
 */
#include <spirv/unified1/OpenCL.std.h>

#include "cfg.h"
#include "ranges.h"

#define MAX_DEPTH 24
#define TRIP_CAP (1u << 22)

static uint64_t width_mask(unsigned w)
{
   return w >= 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
}

static xe_range full(xe_module *m, uint32_t type)
{
   unsigned w = xe_type_width(m, type);
   xe_range r = { 0, width_mask(w ? w : 64), false };
   return r;
}

static xe_range known(uint64_t lo, uint64_t hi)
{
   xe_range r = { lo, hi, true };
   return r;
}

static int64_t sext(uint64_t v, unsigned w)
{
   if (w >= 64)
      return (int64_t)v;
   uint64_t sign = UINT64_C(1) << (w - 1);
   return (int64_t)((v ^ sign) - sign);
}

/* A range that also holds as signed: its top bit is clear. */
static bool nonneg(xe_range r, unsigned w)
{
   return r.known && w && r.hi <= width_mask(w) >> 1;
}

static xe_range range_rec(xe_module *m, xe_function *f, uint32_t id, int depth);

static xe_range loop_iv_range(xe_module *m, xe_function *f, xe_inst *phi)
{
   const xe_loops *ls = xe_function_loops(f);
   for (uint32_t li = 0; li < ls->n; li++) {
      const xe_loop *l = &ls->loops[li];
      uint64_t trips, init, step;
      if (l->iv != phi || !xe_loop_trip_count(m, f, li, &trips) || !trips ||
          !xe_const_uint(m, l->iv_init, &init) || !xe_const_uint(m, l->iv_step, &step))
         continue;
      unsigned w = xe_type_width(m, phi->type_id);
      uint64_t mask = width_mask(w);
      /* The phi takes init, init+step, ... (trips values); it is an
       * interval when that sequence does not wrap. */
      if (l->iv_next->opcode == SpvOpISub)
         step = (0 - step) & mask;
      int64_t s = sext(step, w);
      if (s >= 0) {
         uint64_t last = init + (uint64_t)s * (trips - 1);
         if (last <= mask && last >= init)
            return known(init, last);
      } else {
         uint64_t d = (uint64_t)(-s) * (trips - 1);
         if (d <= init)
            return known(init - d, init);
      }
   }
   return full(m, phi->type_id);
}

static xe_range ocl_range(xe_module *m, xe_function *f, xe_inst *i, int depth)
{
   xe_range r = full(m, i->type_id);
   if (xe_op(i, 0) != xe_opencl_std(m, false))
      return r;
   unsigned w = xe_type_width(m, i->type_id);
   uint32_t n = xe_op(i, 1);
   xe_range a = xe_nops(i) > 2 ? range_rec(m, f, xe_op(i, 2), depth) : r;
   xe_range b = xe_nops(i) > 3 ? range_rec(m, f, xe_op(i, 3), depth) : r;
   xe_range c = xe_nops(i) > 4 ? range_rec(m, f, xe_op(i, 4), depth) : r;
   bool s = n == OpenCLstd_SMin || n == OpenCLstd_SMax || n == OpenCLstd_SClamp;
   /* Signed forms agree with unsigned ones when every input is nonneg. */
   if (s && !(nonneg(a, w) && nonneg(b, w) && (n != OpenCLstd_SClamp || nonneg(c, w))))
      return r;
   switch (n) {
   case OpenCLstd_UMin: case OpenCLstd_SMin:
      return known(a.lo < b.lo ? a.lo : b.lo, a.hi < b.hi ? a.hi : b.hi);
   case OpenCLstd_UMax: case OpenCLstd_SMax:
      return known(a.lo > b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi);
   case OpenCLstd_UClamp: case OpenCLstd_SClamp:
      /* clamp(x, lo, hi) = min(max(x, lo), hi); undefined when lo > hi. */
      if (b.hi > c.lo)
         return r;
      {
         uint64_t lo = a.lo > b.lo ? a.lo : b.lo, hi = a.hi > b.hi ? a.hi : b.hi;
         lo = lo < c.lo ? lo : c.lo;
         hi = hi < c.hi ? hi : c.hi;
         return known(lo, hi);
      }
   default:
      return r;
   }
}

static xe_range range_rec(xe_module *m, xe_function *f, uint32_t id, int depth)
{
   xe_inst *i = xe_def(m, id);
   uint64_t v;
   if (!i)
      return known(0, UINT64_MAX);
   if (xe_const_uint(m, id, &v))
      return known(v, v);
   xe_range r = full(m, i->type_id);
   unsigned w = xe_type_width(m, i->type_id);
   if (!w || ++depth > MAX_DEPTH)
      return r;
   switch (i->opcode) {
   case SpvOpBitwiseAnd: {
      xe_range a = range_rec(m, f, xe_op(i, 0), depth);
      xe_range b = range_rec(m, f, xe_op(i, 1), depth);
      if (a.known || b.known)
         return known(0, a.hi < b.hi ? a.hi : b.hi);
      return r;
   }
   case SpvOpUMod: {
      xe_range a = range_rec(m, f, xe_op(i, 0), depth);
      xe_range b = range_rec(m, f, xe_op(i, 1), depth);
      if (b.known && b.hi > 0)
         return known(0, a.hi < b.hi - 1 ? a.hi : b.hi - 1);
      return r;
   }
   case SpvOpShiftRightLogical: {
      xe_range a = range_rec(m, f, xe_op(i, 0), depth);
      xe_range b = range_rec(m, f, xe_op(i, 1), depth);
      if (b.known && b.hi < w)
         return known(a.lo >> b.hi, a.hi >> b.lo);
      return r;
   }
   case SpvOpUDiv: {
      xe_range a = range_rec(m, f, xe_op(i, 0), depth);
      xe_range b = range_rec(m, f, xe_op(i, 1), depth);
      if (b.known && b.lo > 0)
         return known(a.lo / b.hi, a.hi / b.lo);
      return r;
   }
   case SpvOpIAdd: {
      xe_range a = range_rec(m, f, xe_op(i, 0), depth);
      xe_range b = range_rec(m, f, xe_op(i, 1), depth);
      if (a.known && b.known && a.hi <= width_mask(w) - b.hi)
         return known(a.lo + b.lo, a.hi + b.hi);
      return r;
   }
   case SpvOpUConvert: {
      xe_range a = range_rec(m, f, xe_op(i, 0), depth);
      unsigned wa = xe_type_width(m, xe_def(m, xe_op(i, 0)) ? xe_def(m, xe_op(i, 0))->type_id : 0);
      if (a.known && (wa <= w || a.hi <= width_mask(w)))
         return known(a.lo, a.hi);
      return r;
   }
   case SpvOpSConvert: {
      xe_range a = range_rec(m, f, xe_op(i, 0), depth);
      xe_inst *src = xe_def(m, xe_op(i, 0));
      unsigned wa = src ? xe_type_width(m, src->type_id) : 0;
      /* A nonneg source keeps its value whether widened or narrowed. */
      if (nonneg(a, wa) && a.hi <= width_mask(w) >> 1)
         return known(a.lo, a.hi);
      return r;
   }
   case SpvOpSelect: {
      xe_range a = range_rec(m, f, xe_op(i, 1), depth);
      xe_range b = range_rec(m, f, xe_op(i, 2), depth);
      if (a.known && b.known)
         return known(a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi);
      return r;
   }
   case SpvOpExtInst:
      return ocl_range(m, f, i, depth);
   case SpvOpPhi:
      if (i->block && i->block->fn == f)
         return loop_iv_range(m, f, i);
      return r;
   default:
      return r;
   }
}

xe_range xe_range_of(xe_module *m, xe_function *f, uint32_t id)
{
   return range_rec(m, f, id, 0);
}

static bool compare(uint16_t op, uint64_t a, uint64_t b, unsigned w)
{
   int64_t sa = sext(a, w), sb = sext(b, w);
   switch (op) {
   case SpvOpIEqual: return a == b;
   case SpvOpINotEqual: return a != b;
   case SpvOpULessThan: return a < b;
   case SpvOpULessThanEqual: return a <= b;
   case SpvOpUGreaterThan: return a > b;
   case SpvOpUGreaterThanEqual: return a >= b;
   case SpvOpSLessThan: return sa < sb;
   case SpvOpSLessThanEqual: return sa <= sb;
   case SpvOpSGreaterThan: return sa > sb;
   case SpvOpSGreaterThanEqual: return sa >= sb;
   default: return false;
   }
}

static bool trip_count(xe_module *m, xe_function *f, const xe_loop *l, uint64_t *count);

bool xe_loop_trip_count(xe_module *m, xe_function *f, uint32_t li, uint64_t *count)
{
   const xe_loops *ls = xe_function_loops(f);
   if (li >= ls->n)
      return false;
   /* The memo lives in the cached loops (a cache of the function's code,
    * like them), hence the cast. */
   xe_loop *l = (xe_loop *)&ls->loops[li];
   if (!l->trip_memo) {
      uint64_t t = 0;
      l->trip_memo = trip_count(m, f, l, &t) ? 1 : 2;
      l->trips = t;
   }
   if (l->trip_memo == 1)
      *count = l->trips;
   return l->trip_memo == 1;
}

static bool trip_count(xe_module *m, xe_function *f, const xe_loop *l, uint64_t *count)
{
   const xe_cfg *c = xe_function_cfg(f);
   uint64_t init, step, bound;
   if (!l->iv || !l->exit_cmp || !l->exit_branch || !xe_const_uint(m, l->iv_init, &init) ||
       !xe_const_uint(m, l->iv_step, &step))
      return false;
   /* The exit test must run once per iteration: its block dominates the
    * latch, so no iteration can skip it. */
   uint32_t eb = l->exit_branch->block->index;
   if (!xe_dominates(c, eb, l->latches[0]))
      return false;
   xe_inst *cmp = l->exit_cmp;
   int ivside = -1;
   bool uses_next = false;
   for (int k = 0; k < 2; k++) {
      uint32_t o = xe_op(cmp, k);
      if (o == l->iv->result_id || o == l->iv_next->result_id) {
         ivside = k;
         uses_next = o == l->iv_next->result_id;
      }
   }
   if (ivside < 0 || !xe_const_uint(m, xe_op(cmp, 1 - ivside), &bound))
      return false;
   /* The test of iv_next must come after the update in the same block, or
    * in a later block of the iteration (the update dominates it). */
   if (uses_next && !xe_dominates(c, l->iv_next->block->index, eb))
      return false;
   uint32_t tgt = xe_cfg_block_index(c, xe_op(l->exit_branch, 1));
   bool stay_if_true = tgt != XE_NONE && xe_loop_contains(l, tgt);
   unsigned w = xe_type_width(m, l->iv->type_id);
   uint64_t mask = width_mask(w);
   if (l->iv_next->opcode == SpvOpISub)
      step = (0 - step) & mask;
   uint64_t v = init & mask;
   for (uint64_t n = 1; n <= TRIP_CAP; n++) {
      uint64_t t = uses_next ? (v + step) & mask : v;
      bool res = ivside == 0 ? compare(cmp->opcode, t, bound, w) : compare(cmp->opcode, bound, t, w);
      if (res != stay_if_true) {
         *count = n;
         return true;
      }
      v = (v + step) & mask;
   }
   return false;
}

/* Natural loops describe every cycle only when the CFG is reducible:
 * every retreating edge (to an earlier block in reverse postorder) goes to
 * a block that dominates its source. */
static bool reducible(const xe_cfg *c)
{
   for (uint32_t b = 0; b < c->n; b++) {
      if (c->rpo_index[b] == XE_NONE)
         continue;
      for (uint32_t q = c->succ_start[b]; q < c->succ_start[b + 1]; q++) {
         uint32_t t = c->succ[q];
         if (c->rpo_index[t] <= c->rpo_index[b] && !xe_dominates(c, t, b))
            return false;
      }
   }
   return true;
}

bool xe_block_exec_bound(xe_module *m, xe_function *f, uint32_t block, uint64_t *bound)
{
   const xe_loops *ls = xe_function_loops(f);
   if (!reducible(xe_function_cfg(f)))
      return false;
   uint64_t b = 1;
   for (uint32_t li = xe_loop_of_block(ls, block); li != XE_NONE; li = ls->loops[li].parent) {
      uint64_t t;
      if (!xe_loop_trip_count(m, f, li, &t) || (t && b > UINT64_MAX / t))
         return false;
      b *= t;
   }
   *bound = b;
   return true;
}
