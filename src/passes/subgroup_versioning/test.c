/*
 * subgroup-versioning: the test at the end of B that selects the fast copy
 * (pass.c's header comment says why it is sound): the general test, where
 * every lane computes the predicate (the guard, and per converted access:
 * the 64-bit address minus lane 0's is lane * element size, lane 0's
 * address aligned) and the sub-group add-reduces it and compares with
 * SubgroupMaxSize, or the uniform one when the declared sizes prove
 * contiguity.  Either sets each candidate's base, the
 * lane-0 address its block access uses in the copy (fast_copy.c).
 */
#include <stdlib.h>

#include "builder.h"
#include "subgroup_versioning.h"

/* The value of id at the end of B (xe_sgv_hoistable(id) must hold). */
static uint32_t hoist(vctx *c, uint32_t id)
{
   if (xe_idtab_get(&c->hmemo, id) == XE_SGV_H_AVAILABLE)
      return id;
   if (xe_idtab_get(&c->emitted, id))
      return xe_idtab_get(&c->emitted, id);
   xe_inst *d = xe_def(c->m, id);
   uint32_t ops[32];
   unsigned n = xe_nops(d);
   if (n > 32)
      xe_out_of_memory();   /* xe_sgv_hoistable() saw it; access chains of 30+ indices are not emitted */
   for (unsigned k = 0; k < n; k++)
      ops[k] = xe_op_kind(d, k) == XE_W_ID ? hoist(c, xe_op(d, k)) : xe_op(d, k);
   uint32_t r = xe_fresh_id(c->m);
   xe_inst *cl = xe_inst_clone(d);
   xe_set_result(cl, r);
   xe_set_ops(cl, ops, n, xe_kinds(d) + d->first_op);
   if (cl->opcode == SpvOpInBoundsPtrAccessChain)
      xe_set_opcode(cl, SpvOpPtrAccessChain);
   xe_list_insert_before(c->m, c->at, cl);
   xe_idtab_set(&c->emitted, id, r);
   return r;
}

/* The Input variable of built-in bi with pointee type ty (the module's, or
 * a new one), in the interface of k's entry points. */
static uint32_t builtin_var(xe_module *m, xe_kernel *k, SpvBuiltIn bi, uint32_t ty)
{
   uint32_t var = 0;
   xe_foreach_inst(i, &m->sec[XE_SEC_GLOBAL]) {
      if (i->opcode == SpvOpVariable && xe_builtin_of(m, i->result_id) == (int)bi) {
         xe_inst *t = xe_def(m, i->type_id);
         if (t && xe_op(t, 1) == ty)
            var = i->result_id;
      }
   }
   if (!var) {
      uint32_t sc = SpvStorageClassInput;
      uint8_t lit = XE_W_LIT;
      var = xe_global_append(m, SpvOpVariable, xe_type_pointer(m, SpvStorageClassInput, ty), 1, &sc,
                             &lit);
      uint32_t b = bi;
      xe_decorate(m, var, SpvDecorationBuiltIn, &b, 1);
   }
   /* Into the interface of every entry point of the kernel's function. */
   xe_foreach_inst(e, &m->sec[XE_SEC_ENTRY_POINT]) {
      if (e->opcode != SpvOpEntryPoint || xe_op(e, 1) != xe_function_id(k->fn))
         continue;
      unsigned n = xe_nops(e);
      bool have = false;
      for (unsigned q = 2; q < n; q++)
         have |= xe_op_kind(e, q) == XE_W_ID && xe_op(e, q) == var;
      if (have)
         continue;
      uint32_t *ops = malloc((n + 1) * sizeof(uint32_t));
      uint8_t *kinds = malloc(n + 1);
      for (unsigned q = 0; q < n; q++) {
         ops[q] = xe_op(e, q);
         kinds[q] = xe_op_kind(e, q);
      }
      ops[n] = var;
      kinds[n] = XE_W_ID;
      xe_set_ops(e, ops, n + 1, kinds);
      free(ops);
      free(kinds);
   }
   return var;
}

typedef struct idx_test {
   uint32_t key;     /* the tested index value (original id) */
   int mode;         /* 0: 64-bit index; 1: sign-, 2: zero-extended from 32 bits */
   uint32_t x0;      /* lane 0's value of key, built at B */
   uint32_t idx0;    /* lane 0's 64-bit index, built at B */
   bool wrapped;     /* uniform_test: its wrap check is built */
} idx_test;

/* A per-lane contiguity test of the general test: lane k's key is lane
 * 0's (x0) plus k. */
typedef struct lane_test {
   uint32_t key;
   uint32_t x0;
   bool wrapped;     /* its own wrap check is built */
} lane_test;

/* What the steps building the general test share. */
typedef struct gtest {
   vctx *c;
   xe_module *m;
   xe_builder b;
   uint32_t u32, u64, bt, scope, zero;
   uint32_t lid, lid64;   /* SubgroupLocalInvocationId, 32 and 64 bits */
   uint32_t maxsz;        /* SubgroupMaxSize */
   uint32_t pred;         /* every lane's predicate, 0 while empty */
   uint32_t upred;        /* the sub-group-uniform part of the test */
   idx_test *it;          /* one index per access at most */
   unsigned nit;
   lane_test *lts;
   unsigned nlt;
} gtest;

/* acc && v, v when acc is empty (0). */
static uint32_t and_into(gtest *g, uint32_t acc, uint32_t v)
{
   return acc ? xe_build2(&g->b, SpvOpLogicalAnd, g->bt, acc, v) : v;
}

static void gt_begin(vctx *c, gtest *g)
{
   xe_module *m = c->m;
   *g = (gtest){ .c = c, .m = m };
   g->b = xe_builder_before(m, c->at);
   g->u32 = xe_type_int(m, 32);
   g->u64 = xe_type_int(m, 64);
   g->bt = xe_type_bool(m);
   xe_add_capability(m, SpvCapabilityInt64);
   xe_add_capability(m, SpvCapabilityGroups);
   g->scope = xe_const_int(m, g->u32, SCOPE_SUBGROUP);
   g->zero = xe_const_int(m, g->u32, 0);
   g->lid = xe_build_load(&g->b, g->u32, builtin_var(m, c->k, SpvBuiltInSubgroupLocalInvocationId, g->u32), 0, 0);
   g->lid64 = xe_build1(&g->b, SpvOpUConvert, g->u64, g->lid);
   /* The guard enters the predicate through OpSelect at the end: IGC 22.43
    * fails without a message on an OpLogicalNot of the guard here. */
   g->maxsz = xe_build_load(&g->b, g->u32, builtin_var(m, c->k, SpvBuiltInSubgroupMaxSize, g->u32), 0, 0);
   g->it = malloc((c->nc ? c->nc : 1) * sizeof(*g->it));
   g->lts = malloc((c->nc ? c->nc : 1) * sizeof(*g->lts));
}

/* The per-lane part for lane key lk of type xt, built once per lane key:
 * lane k's key minus lane 0's is k. */
static lane_test *lane_key_test(gtest *g, uint32_t lk, uint32_t xt, int mode)
{
   lane_test *lt = NULL;
   for (unsigned p = 0; p < g->nlt && !lt; p++)
      lt = g->lts[p].key == lk ? &g->lts[p] : NULL;
   if (lt)
      return lt;
   lt = &g->lts[g->nlt++];
   uint32_t x = hoist(g->c, lk);
   *lt = (lane_test){ .key = lk };
   lt->x0 = xe_build3(&g->b, SpvOpGroupBroadcast, xt, g->scope, x, g->zero);
   uint32_t d = xe_build2(&g->b, SpvOpISub, xt, x, lt->x0);
   uint32_t ok = xe_build2(&g->b, SpvOpIEqual, g->bt, d, mode ? g->lid : g->lid64);
   g->pred = and_into(g, g->pred, ok);
   return lt;
}

/* Lane 0's 64-bit index from its 32-bit key x0 (mode 1: signed, 2:
 * unsigned), with the check that lane 0 + (max - 1) does not pass the
 * wrap point of the extension: x0 <= 2^31 - max (signed) or 2^32 - max.
 * When the program promises that adding the terms does not wrap
 * (xe_sgv_cand.terms_nowrap), lane k's key is lane 0's plus k exactly
 * once its lane key's is: the lane key is checked, once for all the keys
 * built on it (and for itself). */
static uint32_t index_no_wrap(gtest *g, const cand *a, lane_test *lt, uint32_t key, uint32_t lk,
                              int mode, uint32_t x0)
{
   xe_module *m = g->m;
   bool on_lane_key = lk == key || a->terms_nowrap;
   if (!on_lane_key || !lt->wrapped) {
      uint32_t lim = xe_build2(&g->b, SpvOpISub, g->u32,
                               xe_const_int(m, g->u32, mode == 1 ? 0x80000000u : 0), g->maxsz);
      uint32_t nw = xe_build2(&g->b, mode == 1 ? SpvOpSLessThanEqual : SpvOpULessThanEqual, g->bt,
                              on_lane_key ? lt->x0 : x0, lim);
      g->upred = and_into(g, g->upred, nw);
      lt->wrapped |= on_lane_key;
   }
   return xe_build1(&g->b, mode == 1 ? SpvOpSConvert : SpvOpUConvert, g->u64, x0);
}

/* The test of index key (of a's address), built once per key and mode:
 * lane 0's value of it and its 64-bit index. */
static idx_test *index_test(gtest *g, const cand *a, uint32_t key, int mode, uint32_t lk)
{
   for (unsigned p = 0; p < g->nit; p++)
      if (g->it[p].key == key && g->it[p].mode == mode)
         return &g->it[p];
   idx_test *t = &g->it[g->nit++];
   *t = (idx_test){ .key = key, .mode = mode };
   uint32_t xt = xe_def(g->m, key)->type_id;
   /* The per-lane part tests the lane key once for every index that
    * adds uniform terms to it (xe_sgv_cand.lane_key); lane 0's key is
    * then lane 0's lane key plus the terms, a uniform value. */
   lane_test *lt = lane_key_test(g, lk, xt, mode);
   uint32_t x0 = lt->x0;
   for (unsigned u = 0; lk != key && u < a->nuterm; u++)
      x0 = xe_build2(&g->b, a->uneg[u] ? SpvOpISub : SpvOpIAdd, xt, x0, hoist(g->c, a->uterm[u]));
   t->x0 = x0;
   t->idx0 = mode ? index_no_wrap(g, a, lt, key, lk, mode, x0) : x0;
   return t;
}

/* Addresses `base[idx]` with a uniform base: the index is tested once
 * for all the accesses that share it (lane k's index is lane 0's plus k,
 * with no wrap in the type the index is extended from), and the
 * alignment of each base once per sub-group. */
static void test_indexed(gtest *g)
{
   vctx *c = g->c;
   xe_module *m = g->m;
   for (unsigned q = 0; q < c->nc; q++) {
      cand *a = &c->c[q];
      uint32_t base, key, lk;
      int mode;
      if (!xe_sgv_tested_key(c, a, &base, &key, &mode, &lk))
         continue;
      idx_test *t = index_test(g, a, key, mode, lk);
      if (a->loop_key) {
         a->loop_x0 = t->x0;
         continue;
      }
      if (xe_sgv_reuse_base(c, q))
         continue;
      xe_inst *pd = xe_def(m, a->ptr);
      uint32_t pops[2] = { hoist(c, base), t->idx0 };
      a->base = xe_build(&g->b, SpvOpPtrAccessChain, pd->type_id, 2, pops)->result_id;
      uint32_t a0 = xe_build1(&g->b, SpvOpConvertPtrToU, g->u64, a->base);
      uint32_t low = xe_build2(&g->b, SpvOpBitwiseAnd, g->u64, a0, xe_const_int(m, g->u64, a->store ? 15 : 3));
      uint32_t al = xe_build2(&g->b, SpvOpIEqual, g->bt, low, xe_const_int(m, g->u64, 0));
      g->upred = and_into(g, g->upred, al);
   }
}

/* Any other address: compared as 64-bit addresses. */
static void test_addresses(gtest *g)
{
   vctx *c = g->c;
   xe_module *m = g->m;
   xe_builder *b = &g->b;
   for (unsigned q = 0; q < c->nc; q++) {
      cand *a = &c->c[q];
      if (a->loop_key)
         continue;
      if (xe_sgv_reuse_base(c, q))
         continue;
      xe_inst *pd = xe_def(m, a->ptr);
      uint32_t ph = hoist(c, a->ptr);
      uint32_t addr = xe_build1(b, SpvOpConvertPtrToU, g->u64, ph);
      uint32_t addr0 = xe_build3(b, SpvOpGroupBroadcast, g->u64, g->scope, addr, g->zero);
      uint32_t diff = xe_build2(b, SpvOpISub, g->u64, addr, addr0);
      uint32_t want = xe_build2(b, SpvOpIMul, g->u64, g->lid64, xe_const_int(m, g->u64, a->width / 8));
      uint32_t ok = xe_build2(b, SpvOpIEqual, g->bt, diff, want);
      g->pred = and_into(g, g->pred, ok);
      uint32_t low = xe_build2(b, SpvOpBitwiseAnd, g->u64, addr0, xe_const_int(m, g->u64, a->store ? 15 : 3));
      uint32_t al = xe_build2(b, SpvOpIEqual, g->bt, low, xe_const_int(m, g->u64, 0));
      g->upred = and_into(g, g->upred, al);
      a->base = xe_build1(b, SpvOpConvertUToPtr, pd->type_id, addr0);
   }
}

/* The predicate (with the guard) add-reduced over the sub-group and
 * compared with SubgroupMaxSize, and the uniform part. */
static uint32_t gt_reduce(gtest *g, uint32_t cond, bool h_true)
{
   xe_module *m = g->m;
   xe_builder *b = &g->b;
   uint32_t u32 = g->u32, zero = g->zero;
   uint32_t c1 = xe_const_int(m, u32, 1);
   uint32_t one = g->pred ? xe_build3(b, SpvOpSelect, u32, g->pred, c1, zero) : c1;
   if (cond)
      one = h_true ? xe_build3(b, SpvOpSelect, u32, cond, one, zero)
                   : xe_build3(b, SpvOpSelect, u32, cond, zero, one);
   uint32_t rops[3] = { g->scope, SpvGroupOperationReduce, one };
   uint8_t rkinds[3] = { XE_W_ID, XE_W_LIT, XE_W_ID };
   uint32_t count = xe_fresh_id(m);
   xe_build_inst(b, xe_inst_create(SpvOpGroupIAdd, u32, count, rops, 3, rkinds));
   uint32_t fast = xe_build2(b, SpvOpIEqual, g->bt, count, g->maxsz);
   if (g->upred)
      fast = xe_build2(b, SpvOpLogicalAnd, g->bt, fast, g->upred);
   return fast;
}

/* The general test (pass.c's header comment): every lane's predicate
 * (the guard, contiguity of each address, no wrap of its index) reduced
 * with OpGroupIAdd and compared with SubgroupMaxSize, and the uniform
 * alignment of each lane-0 base.  Sets each candidate's base.  Returns the
 * bool that selects the fast copy. */
static uint32_t general_test(vctx *c, uint32_t cond, bool h_true)
{
   gtest g;
   gt_begin(c, &g);
   test_indexed(&g);
   free(g.it);
   free(g.lts);
   test_addresses(&g);
   return gt_reduce(&g, cond, h_true);
}

/* The uniform test, when every candidate is proved contiguous by the lane
 * analysis under the kernel's declared SubgroupSize S and LocalSize L
 * (L.x % S == 0; xe_sgv_uniform_test): in a work-group whose local size x
 * is L.x every sub-group is full and one row's run of S consecutive x ids,
 * so what is left to test is uniform per sub-group:
 *   WorkgroupSize.x == L.x (only the last work-group of a non-uniform
 *     NDRange is narrower; the enqueued size is L, which the kernel
 *     requires, so the constant stands for EnqueuedWorkgroupSize.x),
 *   && each lane-0 base 4-byte (reads) or 16-byte (writes) aligned (a
 *     32-bit AND of the low bits),
 *   && OpGroupAll(guard) when there is a guard.
 * No 64-bit per-lane difference, no reduction without a guard.  B is
 * sub-group uniform, so every lane of the sub-group is active here and the
 * broadcasts from lane 0 are defined.  Sets each candidate's base. */
static uint32_t uniform_test(vctx *c, uint32_t cond, bool h_true)
{
   xe_module *m = c->m;
   xe_builder b = xe_builder_before(m, c->at);
   uint32_t u32 = xe_type_int(m, 32), u64 = xe_type_int(m, 64), bt = xe_type_bool(m);
   xe_add_capability(m, SpvCapabilityInt64);
   xe_add_capability(m, SpvCapabilityGroups);
   uint32_t scope = xe_const_int(m, u32, SCOPE_SUBGROUP), zero = xe_const_int(m, u32, 0);
   uint32_t v3 = xe_type_vector(m, u64, 3);
   uint32_t wsz = xe_build_load(&b, v3, builtin_var(m, c->k, SpvBuiltInWorkgroupSize, v3), 0, 0);
   uint8_t ekinds[2] = { XE_W_ID, XE_W_LIT };
   uint32_t eops[2] = { wsz, 0 };
   uint32_t wx = xe_fresh_id(m);
   xe_build_inst(&b, xe_inst_create(SpvOpCompositeExtract, u64, wx, eops, 2, ekinds));
   uint32_t fast = xe_build2(&b, SpvOpIEqual, bt, wx, xe_const_int(m, u64, c->k->local_size[0]));
   /* Lane 0's value of each tested index, once per index (key; mode and
    * idx0 unused here). */
   idx_test *it = malloc((c->nc ? c->nc : 1) * sizeof(*it));
   unsigned nit = 0;
   for (unsigned q = 0; q < c->nc; q++) {
      cand *a = &c->c[q];
      if (xe_sgv_reuse_base(c, q))
         continue;
      xe_inst *pd = xe_def(m, a->ptr);
      uint32_t base, key, addr0;
      int mode;
      if (xe_sgv_index_form(c, a, &base, &key, &mode)) {
         /* base[ext(broadcast(key))]: lane 0's own address computation,
          * on a uniform value (IGC computes it with scalar instructions). */
         idx_test *t = NULL;
         for (unsigned p = 0; p < nit && !t; p++)
            t = it[p].key == key ? &it[p] : NULL;
         if (!t) {
            t = &it[nit++];
            *t = (idx_test){ .key = key };
            t->x0 = xe_build3(&b, SpvOpGroupBroadcast, xe_def(m, key)->type_id, scope, hoist(c, key), zero);
         }
         uint32_t x0 = t->x0;
         if (a->wrap_mode && !t->wrapped) {
            t->wrapped = true;
            /* Lanes x0 .. x0 + S - 1 stay on one side of the extension's
             * wrap point: x0 <= 2^31 - S (signed) or 2^32 - S. */
            uint32_t lim = xe_const_int(m, u32, (a->wrap_mode == 1 ? 0x80000000u : 0) - c->k->subgroup_size);
            uint32_t nw = xe_build2(&b, a->wrap_mode == 1 ? SpvOpSLessThanEqual : SpvOpULessThanEqual, bt, x0, lim);
            fast = xe_build2(&b, SpvOpLogicalAnd, bt, fast, nw);
         }
         uint32_t idx0 = mode ? xe_build1(&b, mode == 1 ? SpvOpSConvert : SpvOpUConvert, u64, x0) : x0;
         uint32_t pops[2] = { hoist(c, base), idx0 };
         a->base = xe_build(&b, SpvOpPtrAccessChain, pd->type_id, 2, pops)->result_id;
         if (xe_sgv_align_known(a))
            continue;
         addr0 = xe_build1(&b, SpvOpConvertPtrToU, u64, a->base);
      } else {
         uint32_t addr = xe_build1(&b, SpvOpConvertPtrToU, u64, hoist(c, a->ptr));
         addr0 = xe_build3(&b, SpvOpGroupBroadcast, u64, scope, addr, zero);
         a->base = xe_build1(&b, SpvOpConvertUToPtr, pd->type_id, addr0);
      }
      if (xe_sgv_align_known(a))
         continue;
      uint32_t lo = xe_build1(&b, SpvOpUConvert, u32, addr0);
      uint32_t low = xe_build2(&b, SpvOpBitwiseAnd, u32, lo, xe_const_int(m, u32, a->store ? 15 : 3));
      uint32_t al = xe_build2(&b, SpvOpIEqual, bt, low, zero);
      fast = xe_build2(&b, SpvOpLogicalAnd, bt, fast, al);
   }
   free(it);
   if (cond) {
      /* H on the false side: no lane's cond holds.  Not through an
       * OpLogicalNot of the guard (general_test says why). */
      uint32_t all;
      if (h_true) {
         all = xe_build2(&b, SpvOpGroupAll, bt, scope, cond);
      } else {
         uint32_t any = xe_build2(&b, SpvOpGroupAny, bt, scope, cond);
         all = xe_build2(&b, SpvOpLogicalEqual, bt, any, xe_const_bool(m, false));
      }
      fast = xe_build2(&b, SpvOpLogicalAnd, bt, fast, all);
   }
   return fast;
}

uint32_t sgv_build_test(vctx *c, uint32_t cond, bool h_true)
{
   return xe_sgv_uniform_test(c) ? uniform_test(c, cond, h_true) : general_test(c, cond, h_true);
}
