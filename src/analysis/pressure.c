/*
 * Register pressure (pressure.h): SSA liveness over the CFG, then one
 * backward walk per block that sums the bytes of the live values.
 */
#include "pressure.h"

#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "idmap.h"
#include "ranges.h"

/* estimateLoopCount's LIKELY_SMALL (IGC Simd32Profitability.cpp): a
 * constant count under this keeps SIMD32 on dg2. */
#define XE_SMALL_LOOP 100

/* Does a load of the built-in variable b (an xe_builtin_of) give every
 * lane its own value?  The x, y and z work-item ids do; sizes, group ids
 * and other built-ins are the same in a sub-group. */
static bool varying_builtin(int b)
{
   switch (b) {
   case SpvBuiltInGlobalInvocationId:
   case SpvBuiltInLocalInvocationId:
   case SpvBuiltInLocalInvocationIndex:
   case SpvBuiltInGlobalLinearId:
   case SpvBuiltInSubgroupLocalInvocationId:
      return true;
   default:
      return false;
   }
}

/* The pressure of each callee already walked, by function and call depth
 * (the depth limit cuts a deep chain at the same place every time): a
 * helper called from many places is walked once. */
typedef struct callees {
   const xe_function **fn;
   unsigned *depth;
   xe_pressure *p;
   unsigned n, cap;
} callees;

typedef struct walk {
   xe_module *m;
   xe_function *f;
   callees *memo;
   xe_idmap ids;        /* f's parameters and results -> dense index */
   uint32_t n;
   uint16_t *bytes;     /* by index: bytes of the value */
   bool *varying;       /* by index: one copy per lane */
   uint32_t words;      /* 64-bit words of one live set */
   uint64_t *live_in, *live_out;   /* by CFG block index */
   uint64_t *scratch;   /* one live set, for the block walks; in live_in's
                         * allocation, as is live_out */
} walk;

static unsigned value_bytes(const xe_module *m, const xe_inst *i)
{
   if (!i->type_id || i->opcode == SpvOpVariable || i->opcode == SpvOpLabel)
      return 0;
   const xe_inst *t = xe_def(m, i->type_id);
   if (!t || t->opcode == SpvOpTypeBool || t->opcode == SpvOpTypeVoid)
      return 0;
   if (t->opcode == SpvOpTypeVector) {
      const xe_inst *c = xe_def(m, xe_op(t, 0));
      if (c && c->opcode == SpvOpTypeBool)
         return 0;
   }
   uint64_t b = t->opcode == SpvOpTypePointer ? 8 : xe_type_size(m, i->type_id);
   return b > 0xffff ? 0xffff : (unsigned)b;
}

/* Which values are per lane: the sources (a load other than of a uniform
 * built-in, an atomic, a call's result), and whatever one reaches through
 * its operands; to a fixpoint, so a loop's phi of uniform values stays
 * uniform.  Control dependence is ignored: a value computed under a
 * divergent branch from uniform operands is one value per thread too. */
static void classify(walk *w)
{
   xe_module *m = w->m;
   for (bool moved = true; moved;) {
      moved = false;
      xe_foreach_block(b, w->f) {
         xe_foreach_inst(i, &b->insts) {
            uint32_t k = xe_idmap_find(&w->ids, i->result_id);
            if (k == XE_IDMAP_NONE || w->varying[k])
               continue;
            bool v = false;
            if (i->opcode == SpvOpLoad) {
               const xe_inst *p = xe_def(m, xe_op(i, 0));
               int b = p && p->opcode == SpvOpVariable && !p->block
                          ? xe_builtin_of(m, p->result_id)
                          : -1;
               v = b < 0 || varying_builtin(b);
            } else if (i->opcode == SpvOpFunctionCall || (i->opcode >= SpvOpAtomicLoad &&
                                                          i->opcode <= SpvOpAtomicXor)) {
               v = true;
            } else {
               for (unsigned o = 0; o < xe_nops(i) && !v; o++) {
                  if (xe_op_kind(i, o) != XE_W_ID)
                     continue;
                  uint32_t q = xe_idmap_find(&w->ids, xe_op(i, o));
                  v = q != XE_IDMAP_NONE && w->varying[q];
               }
            }
            if (v) {
               w->varying[k] = true;
               moved = true;
            }
         }
      }
   }
}

static inline void set_bit(uint64_t *s, uint32_t k) { s[k >> 6] |= 1ull << (k & 63); }
static inline void clear_bit(uint64_t *s, uint32_t k) { s[k >> 6] &= ~(1ull << (k & 63)); }
static inline bool has_bit(const uint64_t *s, uint32_t k) { return s[k >> 6] >> (k & 63) & 1; }

/* Adds to set the values of f that i uses (a phi's: none, they are live
 * out of the predecessors). */
static void add_uses(walk *w, const xe_inst *i, uint64_t *set)
{
   if (i->debug_info || i->opcode == SpvOpPhi)
      return;
   for (unsigned o = 0; o < xe_nops(i); o++) {
      if (xe_op_kind(i, o) != XE_W_ID)
         continue;
      uint32_t k = xe_idmap_find(&w->ids, xe_op(i, o));
      if (k != XE_IDMAP_NONE)
         set_bit(set, k);
   }
}

/* live_out(b) = the union of the successors' live-in and the phi operands
 * they take from b; live_in(b) = its uses and live_out minus its defs. */
static void liveness(walk *w, const xe_cfg *c)
{
   uint64_t *tmp = w->scratch;
   for (bool moved = true; moved;) {
      moved = false;
      for (uint32_t r = c->nrpo; r-- > 0;) {
         uint32_t bi = c->rpo[r];
         uint64_t *out = w->live_out + (size_t)bi * w->words;
         for (uint32_t s = c->succ_start[bi]; s < c->succ_start[bi + 1]; s++) {
            uint32_t si = c->succ[s];
            const uint64_t *in = w->live_in + (size_t)si * w->words;
            for (uint32_t k = 0; k < w->words; k++)
               out[k] |= in[k];
            xe_foreach_phi(w->m, p, c->blocks[si]) {
               for (unsigned o = 0; o + 1 < xe_nops(p); o += 2) {
                  if (xe_op(p, o + 1) != xe_block_id(c->blocks[bi]))
                     continue;
                  uint32_t k = xe_idmap_find(&w->ids, xe_op(p, o));
                  if (k != XE_IDMAP_NONE)
                     set_bit(out, k);
               }
            }
         }
         memcpy(tmp, out, w->words * sizeof(*tmp));
         xe_block *b = c->blocks[bi];
         for (xe_inst *i = b->insts.last; i; i = i->prev) {
            uint32_t k = xe_idmap_find(&w->ids, i->result_id);
            if (k != XE_IDMAP_NONE)
               clear_bit(tmp, k);
            add_uses(w, i, tmp);
         }
         uint64_t *in = w->live_in + (size_t)bi * w->words;
         for (uint32_t k = 0; k < w->words; k++) {
            if (in[k] != tmp[k]) {
               in[k] |= tmp[k];
               moved = true;
            }
         }
      }
   }
}

static void add_set(const walk *w, const uint64_t *set, xe_pressure *p)
{
   for (uint32_t k = 0; k < w->n; k++) {
      if (has_bit(set, k))
         *(w->varying[k] ? &p->varying : &p->uniform) += w->bytes[k];
   }
}

static xe_pressure pressure_of(xe_module *m, xe_function *f, callees *memo, unsigned depth);

static xe_pressure callee_pressure(walk *w, xe_function *f, unsigned depth)
{
   callees *c = w->memo;
   for (unsigned k = 0; k < c->n; k++) {
      if (c->fn[k] == f && c->depth[k] == depth)
         return c->p[k];
   }
   xe_pressure p = pressure_of(w->m, f, c, depth);
   if (c->n == c->cap) {
      c->cap = c->cap ? 2 * c->cap : 8;
      c->fn = realloc(c->fn, c->cap * sizeof(*c->fn));
      c->depth = realloc(c->depth, c->cap * sizeof(*c->depth));
      c->p = realloc(c->p, c->cap * sizeof(*c->p));
      if (!c->fn || !c->depth || !c->p)
         xe_out_of_memory();
   }
   c->fn[c->n] = f;
   c->depth[c->n] = depth;
   c->p[c->n++] = p;
   return p;
}

/* The worst point of block bi, walked backward from its live-out set. */
static void block_peak(walk *w, uint32_t bi, const xe_cfg *c, unsigned depth, xe_pressure *peak)
{
   uint64_t *live = w->scratch;
   memcpy(live, w->live_out + (size_t)bi * w->words, w->words * sizeof(*live));
   xe_pressure cur = { 0, 0 };
   add_set(w, live, &cur);
   for (xe_inst *i = c->blocks[bi]->insts.last; i; i = i->prev) {
      uint32_t k = xe_idmap_find(&w->ids, i->result_id);
      if (k != XE_IDMAP_NONE && has_bit(live, k)) {
         clear_bit(live, k);
         *(w->varying[k] ? &cur.varying : &cur.uniform) -= w->bytes[k];
      }
      if (i->debug_info || i->opcode == SpvOpPhi)
         continue;
      for (unsigned o = 0; o < xe_nops(i); o++) {
         uint32_t q = xe_op_kind(i, o) == XE_W_ID ? xe_idmap_find(&w->ids, xe_op(i, o)) : XE_IDMAP_NONE;
         if (q == XE_IDMAP_NONE || has_bit(live, q))
            continue;
         set_bit(live, q);
         *(w->varying[q] ? &cur.varying : &cur.uniform) += w->bytes[q];
      }
      xe_pressure here = cur;
      if (i->opcode == SpvOpFunctionCall && depth < 8) {
         const xe_inst *callee = xe_def(w->m, xe_op(i, 0));
         if (callee && xe_inst_function(callee) && xe_inst_function(callee)->first) {
            xe_pressure in = callee_pressure(w, xe_inst_function(callee), depth + 1);
            here.varying += in.varying;
            here.uniform += in.uniform;
         }
      }
      if (here.varying > peak->varying ||
          (here.varying == peak->varying && here.uniform > peak->uniform))
         *peak = here;
   }
}

/* Indexes f's values, their sizes and which are per lane. */
static void walk_init(walk *w, xe_module *m, xe_function *f)
{
   *w = (walk){ .m = m, .f = f };
   xe_idmap_init(&w->ids, 64);
   xe_idmap_add_function(&w->ids, f);
   w->n = w->ids.n;
   w->words = (w->n + 63) / 64 + 1;
   /* bytes, then varying: one allocation. */
   w->bytes = calloc(w->n + 1, sizeof(*w->bytes) + sizeof(*w->varying));
   if (!w->bytes)
      xe_out_of_memory();
   w->varying = (bool *)(w->bytes + w->n + 1);
   /* Parameters are uniform (classify never marks them). */
   xe_foreach_inst(p, &f->params) {
      uint32_t k = xe_idmap_find(&w->ids, p->result_id);
      if (k != XE_IDMAP_NONE)
         w->bytes[k] = (uint16_t)value_bytes(m, p);
   }
   xe_foreach_block(b, f) {
      xe_foreach_inst(i, &b->insts) {
         uint32_t k = xe_idmap_find(&w->ids, i->result_id);
         if (k != XE_IDMAP_NONE)
            w->bytes[k] = (uint16_t)value_bytes(m, i);
      }
   }
   classify(w);
}

static void walk_free(walk *w)
{
   free(w->bytes);
   free(w->live_in);
   xe_idmap_free(&w->ids);
}

static xe_pressure pressure_of(xe_module *m, xe_function *f, callees *memo, unsigned depth)
{
   xe_pressure peak = { 0, 0 };
   const xe_cfg *c = xe_function_cfg(f);
   if (!c || !c->n)
      return peak;
   walk w;
   walk_init(&w, m, f);
   w.memo = memo;
   size_t set = (size_t)c->n * w.words;
   w.live_in = calloc(2 * set + w.words, sizeof(*w.live_in));
   if (!w.live_in)
      xe_out_of_memory();
   w.live_out = w.live_in + set;
   w.scratch = w.live_out + set;
   liveness(&w, c);
   for (uint32_t r = 0; r < c->nrpo; r++)
      block_peak(&w, c->rpo[r], c, depth, &peak);
   walk_free(&w);
   return peak;
}

xe_pressure xe_function_pressure(xe_module *m, xe_function *f)
{
   callees memo = { 0 };
   xe_pressure p = pressure_of(m, f, &memo, 0);
   free(memo.fn);
   free(memo.depth);
   free(memo.p);
   return p;
}

/* The induction variable of a loop headed by block h: a phi of h whose
 * value from inside the loop adds a uniform step to it.  Returns the
 * phi's initial value's id through init, 0 when id is no such variable or
 * its increment. */
static bool induction(const walk *w, const xe_loop *l, const xe_cfg *c, uint32_t id, uint32_t *init)
{
   const xe_inst *d = xe_def(w->m, id);
   const xe_inst *phi = d;
   if (d && (d->opcode == SpvOpIAdd || d->opcode == SpvOpISub)) {
      const xe_inst *a = xe_def(w->m, xe_op(d, 0));
      phi = a && a->opcode == SpvOpPhi ? a : xe_def(w->m, xe_op(d, 1));
   }
   if (!phi || phi->opcode != SpvOpPhi || phi->block != c->blocks[l->header])
      return false;
   bool stepped = false;
   *init = 0;
   for (unsigned o = 0; o + 1 < xe_nops(phi); o += 2) {
      uint32_t from = xe_cfg_block_index(c, xe_op(phi, o + 1));
      const xe_inst *v = xe_def(w->m, xe_op(phi, o));
      if (from == XE_NONE || !xe_loop_contains(l, from)) {
         *init = xe_op(phi, o);
         continue;
      }
      if (!v || (v->opcode != SpvOpIAdd && v->opcode != SpvOpISub))
         return false;
      uint32_t step = xe_op(v, 0) == phi->result_id ? xe_op(v, 1) : xe_op(v, 0);
      uint32_t k = xe_idmap_find(&w->ids, step);
      stepped = k == XE_IDMAP_NONE || !w->varying[k];
   }
   return stepped;
}

static bool uniform_id(const walk *w, uint32_t id)
{
   uint32_t k = xe_idmap_find(&w->ids, id);
   return k == XE_IDMAP_NONE || !w->varying[k];
}

/* Is the exit condition cond one IGC counts (getLoopCount): an induction
 * variable against a uniform value, or against its start plus a uniform
 * distance? */
static bool counted_exit(const walk *w, const xe_loop *l, const xe_cfg *c, uint32_t cond)
{
   const xe_inst *cmp = xe_def(w->m, cond);
   if (!cmp || xe_nops(cmp) != 2)
      return false;
   for (int s = 0; s < 2; s++) {
      uint32_t init, other = xe_op(cmp, 1 - s);
      if (!induction(w, l, c, xe_op(cmp, s), &init))
         continue;
      if (uniform_id(w, other))
         return true;
      const xe_inst *o = xe_def(w->m, other);
      if (o && o->opcode == SpvOpIAdd &&
          ((xe_op(o, 0) == init && uniform_id(w, xe_op(o, 1))) ||
           (xe_op(o, 1) == init && uniform_id(w, xe_op(o, 0)))))
         return true;
   }
   return false;
}

bool xe_function_divergent_loop(xe_module *m, xe_function *f)
{
   const xe_loops *ls = xe_function_loops(f);
   const xe_cfg *c = xe_function_cfg(f);
   if (!ls || !ls->n || !c)
      return false;
   walk w;
   walk_init(&w, m, f);
   bool found = false;
   for (uint32_t li = 0; li < ls->n && !found; li++) {
      const xe_loop *l = &ls->loops[li];
      if (l->depth != 1)
         continue;
      bool divergent = false;
      for (uint32_t q = 0; q < l->nblocks && !divergent; q++) {
         const xe_inst *t = c->blocks[l->blocks[q]]->insts.last;
         if (!t || t->opcode != SpvOpBranchConditional)
            continue;
         uint32_t a = xe_cfg_block_index(c, xe_op(t, 1)), b = xe_cfg_block_index(c, xe_op(t, 2));
         bool exits = (a != XE_NONE && !xe_loop_contains(l, a)) || (b != XE_NONE && !xe_loop_contains(l, b));
         divergent = exits && !uniform_id(&w, xe_op(t, 0)) && !counted_exit(&w, l, c, xe_op(t, 0));
      }
      uint64_t trips;
      found = divergent && !(xe_loop_trip_count(m, f, li, &trips) && trips < XE_SMALL_LOOP);
   }
   walk_free(&w);
   return found;
}
