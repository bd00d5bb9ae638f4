/*
 * Lane analysis (see lanes.h for the lattice, the sources and the wrap
 * rules).  One optimistic fixpoint over the function in reverse postorder:
 * values start at TOP and blocks start uniform; every step takes the meet
 * with the previous fact, so facts only lose precision and the iteration
 * ends.  The result is a post-fixpoint, hence sound.
 */
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "lanes.h"
#include "opinfo.h"

typedef struct ctx {
   xe_module *m;
   xe_lanes *l;
   uint32_t sg, ls[3];
   unsigned flags;
   int16_t *bvec;   /* by id: the built-in a vector OpLoad read, -1 otherwise */
   bool changed;
} ctx;

static const xe_lane_fact F_UNKNOWN = { XE_LANE_UNKNOWN, 0, false, false, 0, 0 };

static xe_lane_fact uniform(unsigned tz)
{
   xe_lane_fact f = { XE_LANE_UNIFORM, (uint8_t)tz, true, true, 0, 0 };
   return f;
}

static unsigned ctz64(uint64_t v) { return v ? (unsigned)__builtin_ctzll(v) : 64; }
static unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
static bool pow2(uint64_t v) { return v && !(v & (v - 1)); }

/* Bit width of a value's type: integers their width, pointers 64, else 0. */
static unsigned value_width(const xe_module *m, uint32_t type_id)
{
   xe_inst *t = xe_def(m, type_id);
   if (!t)
      return 0;
   if (t->opcode == SpvOpTypeInt)
      return xe_op(t, 0);
   if (t->opcode == SpvOpTypePointer)
      return 64;
   return 0;
}

/* Proves the no-wrap bits of an affine fact of width w by the window rule
 * (lanes.h).  64-bit values are never widened, so their bits do not
 * matter and are set. */
static void window(const ctx *c, xe_lane_fact *f, unsigned w)
{
   if (f->kind != XE_LANE_AFFINE)
      return;
   if (w >= 64) {
      f->nowrap_s = f->nowrap_u = true;
      return;
   }
   bool ok_s = false, ok_u = false;
   if (f->stride > 0 && c->sg) {
      unsigned __int128 span = (unsigned __int128)f->stride * (c->sg - 1);
      ok_s = span < ((unsigned __int128)1 << umin(f->tz, w - 1));
      ok_u = span < ((unsigned __int128)1 << umin(f->tz, w));
   }
   f->nowrap_s |= ok_s;
   f->nowrap_u |= ok_u;
}

static xe_lane_fact meet(xe_lane_fact a, xe_lane_fact b)
{
   if (a.kind == XE_LANE_TOP)
      return b;
   if (b.kind == XE_LANE_TOP)
      return a;
   if (a.kind == XE_LANE_UNKNOWN || b.kind == XE_LANE_UNKNOWN || a.kind != b.kind ||
       a.stride != b.stride)
      return F_UNKNOWN;
   xe_lane_fact r = a;
   r.tz = (uint8_t)umin(a.tz, b.tz);
   r.nowrap_s = a.nowrap_s && b.nowrap_s;
   r.nowrap_u = a.nowrap_u && b.nowrap_u;
   r.root = a.root == b.root ? a.root : 0;
   return r;
}

static xe_lane_fact global_fact(const xe_module *m, uint32_t id);

/* Every id the code refers to is in the map (analyze_edge puts it there);
 * any other id below the bound is asked of the module. */
static xe_lane_fact get(const ctx *c, uint32_t id)
{
   uint32_t k = xe_idmap_find(&c->l->ids, id);
   if (k != XE_IDMAP_NONE)
      return c->l->fact[k];
   if (id >= c->l->bound)
      return F_UNKNOWN;
   return global_fact(c->m, id);
}

static bool is_uniform(xe_lane_fact f) { return f.kind == XE_LANE_UNIFORM || f.kind == XE_LANE_TOP; }

/* Component comp of a built-in (vector components; scalars use comp 0). */
static xe_lane_fact builtin_fact(const ctx *c, int b, unsigned comp)
{
   bool rows = c->sg && c->ls[0] && c->ls[0] % c->sg == 0 && pow2(c->sg);
   unsigned sgtz = c->sg ? ctz64(c->sg) : 0;
   xe_lane_fact f = F_UNKNOWN;
   switch (b) {
   case SpvBuiltInSubgroupLocalInvocationId:
      if (!c->sg)
         return F_UNKNOWN;
      f = (xe_lane_fact){ XE_LANE_AFFINE, 64, true, true, 1, 0 };
      return f;
   case SpvBuiltInLocalInvocationId:
   case SpvBuiltInGlobalInvocationId:
      if (!rows)
         return F_UNKNOWN;
      if (comp != 0)
         return uniform(0);
      /* Lane 0's local x is (SubgroupId * SG) mod LocalSize.x: a multiple
       * of SG.  Its global x adds group * LocalSize.x (a multiple of SG)
       * and the global work offset (anything, unless assumed). */
      f = (xe_lane_fact){ XE_LANE_AFFINE, (uint8_t)sgtz, true, true, 1, 0 };
      if (b == SpvBuiltInLocalInvocationId && c->ls[0] == c->sg)
         f.tz = 64;   /* one sub-group per row: lane 0 is at x = 0 */
      if (b == SpvBuiltInGlobalInvocationId && !(c->flags & XE_LANES_ASSUME_OFFSET))
         f.tz = 0;
      return f;
   case SpvBuiltInLocalInvocationIndex:
      if (!rows)
         return F_UNKNOWN;
      return (xe_lane_fact){ XE_LANE_AFFINE, (uint8_t)sgtz, true, true, 1, 0 };
   case SpvBuiltInSubgroupSize:
   case SpvBuiltInSubgroupMaxSize:
      /* With LocalSize.x a multiple of SG every sub-group is full (the
       * launch these facts describe: whole work-groups of LocalSize), so
       * both are SG.  Its alignment is what lets k * get_sub_group_size()
       * + lane keep the window rule where the front end's reassociation
       * dropped NoSignedWrap (clang's base + lane + k * SG). */
      return uniform(rows ? sgtz : 0);
   case SpvBuiltInWorkgroupId:
   case SpvBuiltInNumWorkgroups:
   case SpvBuiltInWorkgroupSize:
   case SpvBuiltInEnqueuedWorkgroupSize:
   case SpvBuiltInGlobalSize:
   case SpvBuiltInGlobalOffset:
   case SpvBuiltInWorkDim:
   case SpvBuiltInNumSubgroups:
   case SpvBuiltInNumEnqueuedSubgroups:
   case SpvBuiltInSubgroupId:
      return uniform(0);
   default:
      return F_UNKNOWN;
   }
}

/* Instructions whose result is uniform when every operand is: those the
 * opcode table (src/ir/opinfo.h) calls pure.  OpUndef is pure but each of
 * its uses may see another value, so it is not uniform; an OpExtInst that
 * reads memory (vloadn) is no more uniform than an OpLoad. */
static bool pure_op(const xe_module *m, const xe_inst *i)
{
   return i->opcode != SpvOpUndef && (xe_inst_info(m, i) & XE_OPI_PURE);
}

static bool has_dec(const xe_module *m, uint32_t id, SpvDecoration d)
{
   uint32_t v;
   return xe_decoration(m, id, d, &v, 0);
}

/* a + sign * b for two non-TOP facts of width w. */
static xe_lane_fact add(const ctx *c, xe_lane_fact a, xe_lane_fact b, int sign, unsigned w,
                        bool nsw, bool nuw)
{
   if (a.kind == XE_LANE_UNKNOWN || b.kind == XE_LANE_UNKNOWN)
      return F_UNKNOWN;
   xe_lane_fact r = { XE_LANE_UNIFORM, (uint8_t)umin(a.tz, b.tz), false, false, 0, 0 };
   __int128 s = (__int128)a.stride + sign * (__int128)b.stride;
   if (s > INT32_MAX || s < INT32_MIN)
      return F_UNKNOWN;
   r.stride = (int64_t)s;
   r.kind = r.stride ? XE_LANE_AFFINE : XE_LANE_UNIFORM;
   if (r.kind == XE_LANE_UNIFORM) {
      if (a.kind != XE_LANE_UNIFORM) /* strides cancelled: lane-varying wraps may differ */
         return w >= 64 ? uniform(r.tz) : F_UNKNOWN;
      return uniform(r.tz);
   }
   /* The program promises no lane overflows: the exact sums are affine. */
   r.nowrap_s = nsw && a.nowrap_s && b.nowrap_s;
   r.nowrap_u = nuw && a.nowrap_u && b.nowrap_u && sign > 0;
   window(c, &r, w);
   return r;
}

static xe_lane_fact scale(const ctx *c, xe_lane_fact a, uint64_t k, unsigned w, bool nsw, bool nuw)
{
   if (a.kind == XE_LANE_UNKNOWN)
      return F_UNKNOWN;
   __int128 s = (__int128)a.stride * (__int128)k;
   if (k > INT32_MAX || s > INT32_MAX || s < INT32_MIN)
      return F_UNKNOWN;
   unsigned tz = umin(w, a.tz + ctz64(k));
   if (a.kind == XE_LANE_UNIFORM || k == 0)
      return uniform(k == 0 ? w : tz);
   xe_lane_fact r = { XE_LANE_AFFINE, (uint8_t)tz, nsw && a.nowrap_s, nuw && a.nowrap_u, (int64_t)s, 0 };
   window(c, &r, w);
   return r;
}

/* Value of a width-w constant, true if id is one. */
static bool const_val(const ctx *c, uint32_t id, uint64_t *v)
{
   return xe_const_uint(c->m, id, v);
}

static xe_lane_fact convert(const ctx *c, xe_lane_fact a, unsigned from, unsigned to, bool sext)
{
   if (a.kind == XE_LANE_UNKNOWN || !from || !to)
      return F_UNKNOWN;
   if (to <= from) {
      /* Truncation is exact modulo 2^to. */
      xe_lane_fact r = a;
      r.tz = (uint8_t)umin(a.tz, to);
      if (a.kind == XE_LANE_UNIFORM)
         return uniform(r.tz);
      if (to < 64 && (r.stride >= ((int64_t)1 << (to - 1)) || r.stride < -((int64_t)1 << (to - 1))))
         return F_UNKNOWN;
      r.nowrap_s = r.nowrap_u = false;
      r.root = 0;
      window(c, &r, to);
      return r;
   }
   unsigned tz = a.tz >= from ? to : a.tz;   /* u == 0 stays 0 */
   if (a.kind == XE_LANE_UNIFORM)
      return uniform(tz);
   if (!(sext ? a.nowrap_s : a.nowrap_u))
      return F_UNKNOWN;
   xe_lane_fact r = { XE_LANE_AFFINE, (uint8_t)tz, false, false, a.stride, 0 };
   window(c, &r, to);
   return r;
}

/* OpPtrAccessChain / OpInBoundsPtrAccessChain with only the Element
 * index, or with further indices that are uniform (their offset's
 * alignment is then not known). */
static xe_lane_fact access_chain(const ctx *c, const xe_inst *i)
{
   xe_lane_fact base = get(c, xe_op(i, 0)), idx = get(c, xe_op(i, 1));
   xe_inst *bt = xe_def(c->m, xe_def(c->m, xe_op(i, 0)) ? xe_def(c->m, xe_op(i, 0))->type_id : 0);
   if (!bt || bt->opcode != SpvOpTypePointer || base.kind == XE_LANE_UNKNOWN)
      return F_UNKNOWN;
   uint64_t esize = xe_type_size(c->m, xe_op(bt, 1));
   unsigned iw = value_width(c->m, xe_def(c->m, xe_op(i, 1)) ? xe_def(c->m, xe_op(i, 1))->type_id : 0);
   if (!esize || !iw)
      return F_UNKNOWN;
   /* A narrower index is sign-extended to the address width. */
   if (iw < 64)
      idx = convert(c, idx, iw, 64, true);
   xe_lane_fact off = scale(c, idx, esize, 64, true, true);
   bool extra = xe_nops(i) > 2;
   for (unsigned k = 2; k < xe_nops(i); k++) {
      if (!is_uniform(get(c, xe_op(i, k))))
         return F_UNKNOWN;
   }
   xe_lane_fact r = add(c, base, off, 1, 64, true, true);
   if (r.kind == XE_LANE_UNKNOWN)
      return r;
   r.root = base.root;
   if (extra)
      r.tz = 0;
   return r;
}

static xe_lane_fact eval(ctx *c, const xe_inst *i, bool block_uniform)
{
   xe_module *m = c->m;
   unsigned w = value_width(m, i->type_id);
   uint64_t k;
   switch (i->opcode) {
   case SpvOpLoad: {
      xe_inst *var = xe_def(m, xe_op(i, 0));
      int b = var && var->opcode == SpvOpVariable && !var->block ? xe_builtin_of(m, var->result_id) : -1;
      if (b < 0)
         return F_UNKNOWN;
      xe_inst *t = xe_def(m, i->type_id);
      if (t && t->opcode == SpvOpTypeVector) {
         c->bvec[xe_idmap_find(&c->l->ids, i->result_id)] = (int16_t)b;
         return F_UNKNOWN;
      }
      return builtin_fact(c, b, 0);
   }
   case SpvOpCompositeExtract: {
      uint32_t v = xe_idmap_find(&c->l->ids, xe_op(i, 0));
      if (xe_nops(i) == 2 && v != XE_IDMAP_NONE && c->bvec[v] >= 0)
         return builtin_fact(c, c->bvec[v], xe_op(i, 1));
      break;
   }
   case SpvOpIAdd:
   case SpvOpISub: {
      xe_lane_fact a = get(c, xe_op(i, 0)), b = get(c, xe_op(i, 1));
      if (a.kind == XE_LANE_TOP || b.kind == XE_LANE_TOP)
         return (xe_lane_fact){ XE_LANE_TOP, 0, false, false, 0, 0 };
      return add(c, a, b, i->opcode == SpvOpIAdd ? 1 : -1, w, has_dec(m, i->result_id, SpvDecorationNoSignedWrap),
                 has_dec(m, i->result_id, SpvDecorationNoUnsignedWrap));
   }
   case SpvOpIMul:
   case SpvOpShiftLeftLogical: {
      uint32_t a = xe_op(i, 0), b = xe_op(i, 1);
      if (i->opcode == SpvOpIMul && const_val(c, a, &k) && !xe_const_uint(m, b, &(uint64_t){ 0 })) {
         uint32_t t = a;
         a = b;
         b = t;
      }
      xe_lane_fact fa = get(c, a), fb = get(c, b);
      if (fa.kind == XE_LANE_TOP || fb.kind == XE_LANE_TOP)
         return (xe_lane_fact){ XE_LANE_TOP, 0, false, false, 0, 0 };
      bool nsw = has_dec(m, i->result_id, SpvDecorationNoSignedWrap);
      bool nuw = has_dec(m, i->result_id, SpvDecorationNoUnsignedWrap);
      if (const_val(c, b, &k)) {
         if (i->opcode == SpvOpShiftLeftLogical) {
            if (k >= w)
               return F_UNKNOWN;
            k = 1ull << k;
         }
         return scale(c, fa, k, w, nsw, nuw);
      }
      if (fa.kind == XE_LANE_UNIFORM && fb.kind == XE_LANE_UNIFORM)
         return uniform(i->opcode == SpvOpIMul ? umin(w, fa.tz + fb.tz) : 0);
      return F_UNKNOWN;
   }
   case SpvOpShiftRightArithmetic: {
      /* (x << c) >>s d with d <= c < w: the low w - c bits of x,
       * sign-extended, times 2^(c - d) (modulo 2^w).  clang's SPIR-V
       * backend writes sext32(i) * sizeof T so, as LLVM's sext_inreg
       * folded into the scaling (canonicalize rewrites it only where it
       * is a byte chain's whole offset; a loop strength-reduced pointer
       * adds it to other terms first). */
      xe_inst *shl = xe_def(m, xe_op(i, 0));
      uint64_t c1, d;
      if (!shl || shl->opcode != SpvOpShiftLeftLogical || shl->type_id != i->type_id || !w ||
          !const_val(c, xe_op(i, 1), &d) || !const_val(c, xe_op(shl, 1), &c1) || d > c1 ||
          c1 >= w)
         break;
      xe_lane_fact x = get(c, xe_op(shl, 0));
      if (x.kind == XE_LANE_TOP)
         return x;
      unsigned inner = w - (unsigned)c1;
      xe_lane_fact r = convert(c, convert(c, x, w, inner, false), inner, w, true);
      return scale(c, r, 1ull << (c1 - d), w, false, false);
   }
   case SpvOpSConvert:
   case SpvOpUConvert: {
      xe_inst *src = xe_def(m, xe_op(i, 0));
      xe_lane_fact a = get(c, xe_op(i, 0));
      if (a.kind == XE_LANE_TOP)
         return a;
      return convert(c, a, src ? value_width(m, src->type_id) : 0, w, i->opcode == SpvOpSConvert);
   }
   case SpvOpBitcast:
   case SpvOpConvertPtrToU:
   case SpvOpConvertUToPtr:
   case SpvOpCopyObject: {
      xe_inst *src = xe_def(m, xe_op(i, 0));
      if (!src || value_width(m, src->type_id) != w || !w)
         break;
      xe_lane_fact a = get(c, xe_op(i, 0));
      if (i->opcode == SpvOpConvertUToPtr)
         a.root = 0;
      return a;
   }
   case SpvOpPtrAccessChain:
   case SpvOpInBoundsPtrAccessChain:
      return access_chain(c, i);
   case SpvOpPhi: {
      if (!block_uniform)
         return F_UNKNOWN;
      xe_lane_fact r = { XE_LANE_TOP, 0, false, false, 0, 0 };
      for (unsigned n = 0; n + 1 < xe_nops(i); n += 2)
         r = meet(r, get(c, xe_op(i, n)));
      return r;
   }
   case SpvOpSLessThan: case SpvOpULessThan:
   case SpvOpSGreaterThanEqual: case SpvOpUGreaterThanEqual:
   case SpvOpSGreaterThan: case SpvOpUGreaterThan:
   case SpvOpSLessThanEqual: case SpvOpULessThanEqual: {
      /* x < c (or c > x, x >= c, c <= x) with x affine: the lanes' values
       * lie in one aligned window [x0, x0 + 2^t) that holds no wrap point
       * (window rule); when c is a multiple of 2^t the window is entirely
       * below or entirely at/above c, so every lane gets the same answer. */
      xe_lane_fact a = get(c, xe_op(i, 0)), b = get(c, xe_op(i, 1));
      if (a.kind == XE_LANE_TOP || b.kind == XE_LANE_TOP)
         return (xe_lane_fact){ XE_LANE_TOP, 0, false, false, 0, 0 };
      if (a.kind == XE_LANE_UNIFORM && b.kind == XE_LANE_UNIFORM)
         return uniform(0);
      bool x_left = i->opcode == SpvOpSLessThan || i->opcode == SpvOpULessThan ||
                    i->opcode == SpvOpSGreaterThanEqual || i->opcode == SpvOpUGreaterThanEqual;
      bool x_right = i->opcode == SpvOpSGreaterThan || i->opcode == SpvOpUGreaterThan ||
                     i->opcode == SpvOpSLessThanEqual || i->opcode == SpvOpULessThanEqual;
      xe_lane_fact x = x_left ? a : b, k = x_left ? b : a;
      xe_inst *xd = xe_def(m, xe_op(i, x_left ? 0 : 1));
      unsigned xw = xd ? value_width(m, xd->type_id) : 0;
      bool sgn = i->opcode == SpvOpSLessThan || i->opcode == SpvOpSGreaterThanEqual ||
                 i->opcode == SpvOpSGreaterThan || i->opcode == SpvOpSLessThanEqual;
      if ((!x_left && !x_right) || x.kind != XE_LANE_AFFINE || k.kind != XE_LANE_UNIFORM || !xw ||
          x.stride <= 0 || !c->sg)
         return F_UNKNOWN;
      unsigned t = umin(x.tz, sgn ? xw - 1 : xw);
      unsigned __int128 span = (unsigned __int128)x.stride * (c->sg - 1);
      if (t >= 64 || span >= ((unsigned __int128)1 << t) || k.tz < t)
         return F_UNKNOWN;
      return uniform(0);
   }
   case SpvOpSelect: {
      xe_lane_fact cond = get(c, xe_op(i, 0));
      if (!is_uniform(cond))
         return xe_op(i, 1) == xe_op(i, 2) ? get(c, xe_op(i, 1)) : F_UNKNOWN;
      return meet(get(c, xe_op(i, 1)), get(c, xe_op(i, 2)));
   }
   default:
      break;
   }
   if (!i->result_id || !pure_op(m, i))
      return F_UNKNOWN;
   for (unsigned n = 0; n < xe_nops(i); n++) {
      if (xe_op_kind(i, n) == XE_W_ID && !is_uniform(get(c, xe_op(i, n))))
         return F_UNKNOWN;
   }
   return uniform(0);
}

static void set(ctx *c, uint32_t id, xe_lane_fact f)
{
   xe_lane_fact *old = &c->l->fact[xe_idmap_find(&c->l->ids, id)];
   xe_lane_fact n = old->kind == XE_LANE_TOP ? f : meet(*old, f);
   /* Field by field: struct padding is not initialised. */
   if (old->kind != n.kind || old->tz != n.tz || old->nowrap_s != n.nowrap_s ||
       old->nowrap_u != n.nowrap_u || old->stride != n.stride || old->root != n.root) {
      *old = n;
      c->changed = true;
   }
}

/* The fact of a module-level id: constants and global variables are
 * uniform, OpUndef and types unknown, anything outside the global section
 * TOP (not a value this analysis gives a fact: labels, functions, imports). */
static xe_lane_fact global_fact(const xe_module *m, uint32_t id)
{
   xe_inst *i = xe_def(m, id);
   if (!i || i->list != &m->sec[XE_SEC_GLOBAL])
      return (xe_lane_fact){ XE_LANE_TOP, 0, false, false, 0, 0 };
   uint64_t v;
   switch (i->opcode) {
   case SpvOpConstant:
      return uniform(xe_const_uint(m, i->result_id, &v) ? umin(ctz64(v), value_width(m, i->type_id)) : 0);
   case SpvOpConstantNull:
      return uniform(value_width(m, i->type_id));
   case SpvOpConstantTrue: case SpvOpConstantFalse: case SpvOpConstantComposite:
   case SpvOpSpecConstant: case SpvOpSpecConstantTrue: case SpvOpSpecConstantFalse:
   case SpvOpSpecConstantComposite: case SpvOpSpecConstantOp: case SpvOpVariable:
      return uniform(0);
   default:   /* OpUndef and anything unexpected */
      return F_UNKNOWN;
   }
}

/* Maps f's own ids (results start TOP) and the global ids its code refers
 * to (their facts, fixed), and gives f's parameters their facts. */
static void init_ids(ctx *c)
{
   xe_module *m = c->m;
   xe_lanes *l = c->l;
   xe_function *f = l->fn;
   uint32_t n = 0;
   xe_foreach_block(b, f)
      xe_foreach_inst(i, &b->insts)
         n += 1 + xe_nops(i);
   xe_idmap_init(&l->ids, n);
   xe_idmap_add_function(&l->ids, f);
   uint32_t nlocal = l->ids.n;
   xe_foreach_block(b, f)
      xe_foreach_inst(i, &b->insts)
         for (unsigned k = 0; k < xe_nops(i); k++) {
            uint32_t id = xe_op(i, k);
            xe_inst *d;
            if (xe_op_kind(i, k) == XE_W_ID && id < l->bound && (d = xe_def(m, id)) &&
                d->list == &m->sec[XE_SEC_GLOBAL])
               xe_idmap_add(&l->ids, id);
         }
   l->nfact = l->ids.n;
   /* The facts and bvec are one block (bvec behind, freed with the facts):
    * one allocation fewer per analysis, of which there are several per
    * kernel. */
   size_t nf = l->nfact ? l->nfact : 1;
   l->fact = calloc(1, nf * sizeof(*l->fact) + nf * sizeof(int16_t));
   if (!l->fact)
      xe_out_of_memory();
   c->bvec = (int16_t *)(l->fact + nf);
   memset(c->bvec, 0xff, l->nfact * sizeof(int16_t));
   for (uint32_t k = 0; k <= l->ids.mask; k++) {
      uint32_t id = l->ids.keys[k];
      if (id && l->ids.vals[k] >= nlocal)
         l->fact[l->ids.vals[k]] = global_fact(m, id);
   }
   xe_foreach_inst(p, &f->params) {
      if (p->opcode != SpvOpFunctionParameter)
         continue;
      xe_lane_fact pf = uniform(0);
      if (value_width(m, p->type_id) == 64 && xe_def(m, p->type_id)->opcode == SpvOpTypePointer) {
         pf.tz = 64;   /* offset 0 from itself */
         pf.root = p->result_id;
      }
      l->fact[xe_idmap_find(&l->ids, p->result_id)] = pf;
   }
}

static bool branch_uniform(const ctx *c, const xe_block *b, uint32_t *cond)
{
   xe_inst *t = xe_block_terminator(b);
   *cond = 0;
   if (!t)
      return false;
   if (t->opcode == SpvOpBranchConditional || t->opcode == SpvOpSwitch) {
      *cond = xe_op(t, 0);
      return is_uniform(get(c, *cond));
   }
   return true;
}

xe_lanes *xe_lanes_analyze(xe_module *m, xe_function *f, uint32_t sg, const uint32_t local_size[3],
                           unsigned flags)
{
   return xe_lanes_analyze_edge(m, f, sg, local_size, flags, 0, 0);
}

xe_lanes *xe_lanes_analyze_edge(xe_module *m, xe_function *f, uint32_t sg,
                                const uint32_t local_size[3], unsigned flags,
                                uint32_t edge_from, uint32_t edge_to)
{
   const xe_cfg *cfg = xe_function_cfg(f);
   /* The analysis and its per-block arrays are one block. */
   xe_lanes *l = calloc(1, sizeof(*l) + cfg->n * (sizeof(uint32_t) + sizeof(bool)));
   if (!l)
      xe_out_of_memory();
   l->bound = m->bound;
   l->m = m;
   l->fn = f;
   l->nblocks = cfg->n;
   l->divergent_cause = (uint32_t *)(l + 1);
   l->uniform_block = (bool *)(l->divergent_cause + cfg->n);
   l->sg = sg;
   ctx c = { m, l, sg, { 0, 0, 0 }, flags, NULL, false };
   if (local_size)
      memcpy(c.ls, local_size, sizeof(c.ls));
   for (uint32_t b = 0; b < cfg->n; b++)
      l->uniform_block[b] = cfg->rpo_index[b] != XE_NONE;
   init_ids(&c);

   unsigned rounds = 0;
   do {
      c.changed = false;
      for (uint32_t r = 0; r < cfg->nrpo; r++) {
         uint32_t b = cfg->rpo[r];
         if (r > 0 && l->uniform_block[b]) {
            for (uint32_t e = cfg->pred_start[b]; e < cfg->pred_start[b + 1]; e++) {
               uint32_t p = cfg->pred[e], cond;
               if (cfg->rpo_index[p] == XE_NONE)
                  continue;
               bool bu = branch_uniform(&c, cfg->blocks[p], &cond);
               if (edge_from && xe_block_id(cfg->blocks[p]) == edge_from &&
                   xe_block_id(cfg->blocks[b]) == edge_to)
                  bu = true;   /* the caller makes this edge sub-group uniform */
               if (!l->uniform_block[p] || !bu) {
                  l->uniform_block[b] = false;
                  l->divergent_cause[b] = !l->uniform_block[p] ? l->divergent_cause[p] : cond;
                  c.changed = true;
                  break;
               }
            }
         }
         xe_foreach_inst(i, &cfg->blocks[b]->insts) {
            if (i->result_id && i->result_id < l->bound)
               set(&c, i->result_id, eval(&c, i, l->uniform_block[b]));
         }
      }
   } while (c.changed && ++rounds < 64);
   if (c.changed) {   /* no fixpoint: give up on everything */
      l->failed = true;
      for (uint32_t k = 0; k < l->nfact; k++)
         l->fact[k] = F_UNKNOWN;
      memset(l->uniform_block, 0, cfg->n * sizeof(bool));
   }
   return l;
}

void xe_lanes_free(xe_lanes *l)
{
   if (!l)
      return;
   free(l->fact);
   for (uint32_t k = 0; k < l->nextra; k++)
      free(l->extra[k]);
   free(l->extra);
   xe_idmap_free(&l->ids);
   free(l);
}

bool xe_lanes_block_uniform(const xe_lanes *l, uint32_t label_id)
{
   const xe_cfg *cfg = xe_function_cfg(l->fn);
   uint32_t b = xe_cfg_block_index(cfg, label_id);
   return b != XE_NONE && l->uniform_block[b];
}

uint32_t xe_lanes_divergent_cause(const xe_lanes *l, uint32_t label_id)
{
   const xe_cfg *cfg = xe_function_cfg(l->fn);
   uint32_t b = xe_cfg_block_index(cfg, label_id);
   return b != XE_NONE ? l->divergent_cause[b] : 0;
}

const xe_lane_fact *xe_lanes_fact(const xe_lanes *cl, uint32_t id)
{
   static const xe_lane_fact unknown = { XE_LANE_UNKNOWN, 0, false, false, 0, 0 };
   if (cl->failed || id >= cl->bound)
      return &unknown;
   uint32_t k = xe_idmap_find(&cl->ids, id);
   const xe_lane_fact *f;
   if (k != XE_IDMAP_NONE) {
      f = k < cl->nfact ? &cl->fact[k] : cl->extra[k - cl->nfact];
   } else {
      /* A global id f does not use: the analysis is a cache of facts, so
       * adding one changes nothing the caller sees. */
      xe_lanes *l = (xe_lanes *)cl;
      xe_lane_fact g = global_fact(l->m, id);
      if (g.kind == XE_LANE_TOP)
         return &unknown;
      if (l->nextra == l->capextra) {
         l->capextra = l->capextra ? 2 * l->capextra : 8;
         l->extra = realloc(l->extra, l->capextra * sizeof(*l->extra));
      }
      xe_lane_fact *e = malloc(sizeof(*e));
      if (!l->extra || !e)
         xe_out_of_memory();
      *e = g;
      l->extra[l->nextra] = e;
      xe_idmap_add(&l->ids, id);   /* index nfact + nextra */
      l->nextra++;
      f = e;
   }
   return f->kind != XE_LANE_TOP ? f : &unknown;
}
