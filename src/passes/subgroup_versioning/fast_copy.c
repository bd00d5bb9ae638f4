/*
 * subgroup-versioning: the rewrite.  At the end of B every lane computes
 * the predicate (the guard, and per converted access: the 64-bit address
 * minus lane 0's is lane * element size, lane 0's address aligned), the
 * sub-group add-reduces it and compares with SubgroupMaxSize; R is cloned
 * into the fast copy R' where the tested accesses become
 * OpSubgroupBlockReadINTEL / WriteINTEL at the broadcast base, and the
 * copies join at R's exits.  pass.c's header comment says why this is
 * sound.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builder.h"
#include "cfg.h"
#include "lanes.h"
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
   xe_set_ops(cl, ops, n, d->kinds + d->first_op);
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

/* Rewrites labels in the phis of block s: from -> to. */
static void phi_relabel(xe_block *s, uint32_t from, uint32_t to)
{
   xe_foreach_inst(i, &s->insts) {
      if (i->opcode != SpvOpPhi)
         continue;
      for (unsigned k = 1; k < xe_nops(i); k += 2) {
         if (xe_op(i, k) == from)
            xe_set_op(i, k, to);
      }
   }
}

static void successors_relabel(xe_module *m, xe_inst *term, uint32_t from, uint32_t to)
{
   for (unsigned k = 0; k < xe_nops(term); k++) {
      xe_inst *d = xe_op_kind(term, k) == XE_W_ID ? xe_def(m, xe_op(term, k)) : NULL;
      if (d && d->opcode == SpvOpLabel && d->block)
         phi_relabel(d->block, from, to);
   }
}

static uint32_t mapped(const uint32_t *map, uint32_t bound, uint32_t id)
{
   return id < bound && map[id] ? map[id] : id;
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

/* The general test (pass.c's header comment): every lane's predicate
 * (the guard, contiguity of each address, no wrap of its index) reduced
 * with OpGroupIAdd and compared with SubgroupMaxSize, and the uniform
 * alignment of each lane-0 base.  Sets each candidate's base.  Returns the
 * bool that selects the fast copy. */
static uint32_t general_test(vctx *c, uint32_t cond, bool h_true)
{
   xe_module *m = c->m;
   xe_builder b = xe_builder_before(m, c->at);
   uint32_t u32 = xe_type_int(m, 32), u64 = xe_type_int(m, 64), bt = xe_type_bool(m);
   xe_add_capability(m, SpvCapabilityInt64);
   xe_add_capability(m, SpvCapabilityGroups);
   uint32_t scope = xe_const_int(m, u32, SCOPE_SUBGROUP), zero = xe_const_int(m, u32, 0);
   uint32_t lid = xe_build_load(&b, u32, builtin_var(m, c->k, SpvBuiltInSubgroupLocalInvocationId, u32), 0, 0);
   uint32_t lid64 = xe_build1(&b, SpvOpUConvert, u64, lid);
   /* The guard enters the predicate through OpSelect at the end: IGC 22.43
    * fails without a message on an OpLogicalNot of the guard here. */
   uint32_t pred = 0;
   uint32_t maxsz = xe_build_load(&b, u32, builtin_var(m, c->k, SpvBuiltInSubgroupMaxSize, u32), 0, 0);
   uint32_t upred = 0;   /* the sub-group-uniform part of the test */
   /* Addresses `base[idx]` with a uniform base: the index is tested once
    * for all the accesses that share it (lane k's index is lane 0's plus k,
    * with no wrap in the type the index is extended from), and the
    * alignment of each base once per sub-group. */
   idx_test *it = malloc((c->nc ? c->nc : 1) * sizeof(*it));   /* one index per access at most */
   lane_test *lts = malloc((c->nc ? c->nc : 1) * sizeof(*lts));
   unsigned nit = 0, nlt = 0;
   for (unsigned q = 0; q < c->nc; q++) {
      cand *a = &c->c[q];
      uint32_t base, key, lk;
      int mode;
      if (!xe_sgv_tested_key(c, a, &base, &key, &mode, &lk))
         continue;
      idx_test *t = NULL;
      for (unsigned p = 0; p < nit && !t; p++)
         t = it[p].key == key && it[p].mode == mode ? &it[p] : NULL;
      if (!t) {
         t = &it[nit++];
         *t = (idx_test){ .key = key, .mode = mode };
         uint32_t xt = xe_def(m, key)->type_id;
         /* The per-lane part tests the lane key once for every index that
          * adds uniform terms to it (xe_sgv_cand.lane_key); lane 0's key is
          * then lane 0's lane key plus the terms, a uniform value. */
         lane_test *lt = NULL;
         for (unsigned p = 0; p < nlt && !lt; p++)
            lt = lts[p].key == lk ? &lts[p] : NULL;
         if (!lt) {
            lt = &lts[nlt++];
            uint32_t x = hoist(c, lk);
            *lt = (lane_test){ .key = lk };
            lt->x0 = xe_build3(&b, SpvOpGroupBroadcast, xt, scope, x, zero);
            uint32_t d = xe_build2(&b, SpvOpISub, xt, x, lt->x0);
            uint32_t ok = xe_build2(&b, SpvOpIEqual, bt, d, mode ? lid : lid64);
            pred = pred ? xe_build2(&b, SpvOpLogicalAnd, bt, pred, ok) : ok;
         }
         uint32_t x0 = lt->x0;
         for (unsigned u = 0; lk != key && u < a->nuterm; u++)
            x0 = xe_build2(&b, a->uneg[u] ? SpvOpISub : SpvOpIAdd, xt, x0, hoist(c, a->uterm[u]));
         t->x0 = x0;
         if (mode) {
            /* lane 0 + (max - 1) must not pass the wrap point of the
             * extension: x0 <= 2^31 - max (signed) or 2^32 - max.  When
             * the program promises that adding the terms does not wrap
             * (xe_sgv_cand.terms_nowrap), lane k's key is lane 0's plus k
             * exactly once its lane key's is: the lane key is checked,
             * once for all the keys built on it (and for itself). */
            bool on_lane_key = lk == key || a->terms_nowrap;
            if (!on_lane_key || !lt->wrapped) {
               uint32_t lim = xe_build2(&b, SpvOpISub, u32,
                                        xe_const_int(m, u32, mode == 1 ? 0x80000000u : 0), maxsz);
               uint32_t nw = xe_build2(&b, mode == 1 ? SpvOpSLessThanEqual : SpvOpULessThanEqual, bt,
                                       on_lane_key ? lt->x0 : x0, lim);
               upred = upred ? xe_build2(&b, SpvOpLogicalAnd, bt, upred, nw) : nw;
               lt->wrapped |= on_lane_key;
            }
            t->idx0 = xe_build1(&b, mode == 1 ? SpvOpSConvert : SpvOpUConvert, u64, x0);
         } else {
            t->idx0 = x0;
         }
      }
      if (a->loop_key) {
         a->loop_x0 = t->x0;
         continue;
      }
      if (xe_sgv_reuse_base(c, q))
         continue;
      xe_inst *pd = xe_def(m, a->ptr);
      uint32_t pops[2] = { hoist(c, base), t->idx0 };
      a->base = xe_build(&b, SpvOpPtrAccessChain, pd->type_id, 2, pops)->result_id;
      uint32_t a0 = xe_build1(&b, SpvOpConvertPtrToU, u64, a->base);
      uint32_t low = xe_build2(&b, SpvOpBitwiseAnd, u64, a0, xe_const_int(m, u64, a->store ? 15 : 3));
      uint32_t al = xe_build2(&b, SpvOpIEqual, bt, low, xe_const_int(m, u64, 0));
      upred = upred ? xe_build2(&b, SpvOpLogicalAnd, bt, upred, al) : al;
   }
   free(it);
   free(lts);
   /* Any other address: compared as 64-bit addresses. */
   for (unsigned q = 0; q < c->nc; q++) {
      cand *a = &c->c[q];
      if (a->loop_key)
         continue;
      if (xe_sgv_reuse_base(c, q))
         continue;
      xe_inst *pd = xe_def(m, a->ptr);
      uint32_t ph = hoist(c, a->ptr);
      uint32_t addr = xe_build1(&b, SpvOpConvertPtrToU, u64, ph);
      uint32_t addr0 = xe_build3(&b, SpvOpGroupBroadcast, u64, scope, addr, zero);
      uint32_t diff = xe_build2(&b, SpvOpISub, u64, addr, addr0);
      uint32_t want = xe_build2(&b, SpvOpIMul, u64, lid64, xe_const_int(m, u64, a->width / 8));
      uint32_t ok = xe_build2(&b, SpvOpIEqual, bt, diff, want);
      pred = pred ? xe_build2(&b, SpvOpLogicalAnd, bt, pred, ok) : ok;
      uint32_t low = xe_build2(&b, SpvOpBitwiseAnd, u64, addr0, xe_const_int(m, u64, a->store ? 15 : 3));
      uint32_t al = xe_build2(&b, SpvOpIEqual, bt, low, xe_const_int(m, u64, 0));
      upred = upred ? xe_build2(&b, SpvOpLogicalAnd, bt, upred, al) : al;
      a->base = xe_build1(&b, SpvOpConvertUToPtr, pd->type_id, addr0);
   }
   uint32_t c1 = xe_const_int(m, u32, 1);
   uint32_t one = pred ? xe_build3(&b, SpvOpSelect, u32, pred, c1, zero) : c1;
   if (cond)
      one = h_true ? xe_build3(&b, SpvOpSelect, u32, cond, one, zero)
                   : xe_build3(&b, SpvOpSelect, u32, cond, zero, one);
   uint32_t rops[3] = { scope, SpvGroupOperationReduce, one };
   uint8_t rkinds[3] = { XE_W_ID, XE_W_LIT, XE_W_ID };
   uint32_t count = xe_fresh_id(m);
   xe_build_inst(&b, xe_inst_create(SpvOpGroupIAdd, u32, count, rops, 3, rkinds));
   uint32_t fast = xe_build2(&b, SpvOpIEqual, bt, count, maxsz);
   if (upred)
      fast = xe_build2(&b, SpvOpLogicalAnd, bt, fast, upred);
   return fast;
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

/* Builds the test, the copy and the block accesses.  cond: the guard's
 * condition (0 without a guard), h_true: H is its true target. */
void sgv_apply(vctx *c, xe_block **rb, unsigned nrb, uint32_t cond, bool h_true, int measure)
{
   xe_module *m = c->m;
   xe_block *bb = c->cfg->blocks[c->b];
   xe_block *head = rb[0];
   if (c->no_guard) {
      /* Split the entry after its variables: B keeps them and the test,
       * the new head H the rest. */
      xe_inst *first = bb->insts.first;
      while (first && (first->opcode == SpvOpVariable || xe_inst_is_source_info(m, first)))
         first = first->next;
      head = xe_block_create(m, c->f, xe_fresh_id(m));
      xe_block_insert(c->f, bb, head);
      successors_relabel(m, xe_block_terminator(bb), xe_block_id(bb), xe_block_id(head));
      for (xe_inst *i = first, *n; i; i = n) {
         n = i->next;
         xe_inst_remove(m, i);
         xe_block_append(m, head, i);
      }
      uint32_t hid = xe_block_id(head);
      xe_block_append(m, bb, xe_inst_create(SpvOpBranch, 0, 0, &hid, 1, NULL));
      rb[0] = head;   /* B is rb[0] before the split */
   }
   xe_inst *term = xe_block_terminator(bb);
   c->at = term;
   uint32_t fast = xe_sgv_uniform_test(c) ? uniform_test(c, cond, h_true)
                                          : general_test(c, cond, h_true);

   /* The copy R': fresh ids for labels and results. */
   uint32_t bound0 = m->bound;
   uint32_t *map = calloc(bound0, sizeof(uint32_t));
   for (unsigned q = 0; q < nrb; q++) {
      map[xe_block_id(rb[q])] = xe_fresh_id(m);
      xe_foreach_inst(i, &rb[q]->insts) {
         if (i->result_id)
            map[i->result_id] = xe_fresh_id(m);
      }
   }
   for (unsigned q = 0; q < c->nc; q++)
      c->c[q].inst->aux = q + 1;
   xe_block *after = c->f->last;
   for (unsigned q = 0; q < nrb; q++) {
      xe_block *nb = xe_block_create(m, c->f, map[xe_block_id(rb[q])]);
      xe_block_insert(c->f, after, nb);
      after = nb;
      xe_foreach_inst(i, &rb[q]->insts) {
         xe_inst *cl = xe_inst_clone(i);
         cl->aux = 0;
         if (cl->result_id)
            xe_set_result(cl, map[i->result_id]);
         for (unsigned k = 0; k < xe_nops(cl); k++) {
            if (xe_op_kind(cl, k) == XE_W_ID)
               xe_set_op(cl, k, mapped(map, bound0, xe_op(cl, k)));
         }
         xe_block_append(m, nb, cl);
         if (i->aux)
            c->c[i->aux - 1].clone = cl;
      }
   }
   for (unsigned q = 0; q < c->nc; q++)
      c->c[q].inst->aux = 0;
   /* Decorations of the copied results (NoSignedWrap, FPFastMathMode...). */
   xe_foreach_inst_safe(i, n, &m->sec[XE_SEC_ANNOTATION]) {
      if (i->opcode == SpvOpDecorate && xe_op(i, 0) < bound0 && map[xe_op(i, 0)] &&
          xe_def(m, xe_op(i, 0)) && xe_def(m, xe_op(i, 0))->opcode != SpvOpLabel) {
         xe_inst *cl = xe_inst_clone(i);
         xe_set_op(cl, 0, map[xe_op(i, 0)]);
         xe_list_insert_after(m, i, cl);
      }
   }
   /* Phis outside R that R's blocks reach get the same values from R'. */
   uint8_t *is_r = calloc(bound0, 1);
   for (unsigned q = 0; q < nrb; q++)
      is_r[xe_block_id(rb[q])] = 1;
   xe_foreach_block(blk, c->f) {
      if (xe_block_id(blk) >= bound0 || is_r[xe_block_id(blk)])
         continue;   /* a copy, or in R */
      xe_foreach_inst(i, &blk->insts) {
         if (i->opcode != SpvOpPhi)
            continue;
         unsigned n = xe_nops(i), add = 0;
         for (unsigned k = 1; k < n; k += 2)
            add += xe_op(i, k) < bound0 && is_r[xe_op(i, k)];
         if (!add)
            continue;
         uint32_t *ops = malloc((n + 2 * add) * sizeof(uint32_t));
         uint8_t *kinds = malloc(n + 2 * add);
         unsigned o = 0;
         for (unsigned k = 0; k + 1 < n; k += 2) {
            ops[o] = xe_op(i, k), ops[o + 1] = xe_op(i, k + 1);
            kinds[o] = kinds[o + 1] = XE_W_ID;
            o += 2;
            if (xe_op(i, k + 1) < bound0 && is_r[xe_op(i, k + 1)]) {
               ops[o] = mapped(map, bound0, xe_op(i, k));
               ops[o + 1] = map[xe_op(i, k + 1)];
               kinds[o] = kinds[o + 1] = XE_W_ID;
               o += 2;
            }
         }
         xe_set_ops(i, ops, o, kinds);
         free(ops);
         free(kinds);
      }
   }
   free(is_r);

   /* B -> H' when fast, else the original branch (from a new block when
    * there is a guard). */
   uint32_t hcopy = map[xe_block_id(head)];
   uint32_t slow;
   if (c->no_guard) {
      slow = xe_block_id(head);
   } else {
      xe_block *bs = xe_block_create(m, c->f, xe_fresh_id(m));
      xe_block_insert(c->f, bb, bs);
      slow = xe_block_id(bs);
      successors_relabel(m, term, xe_block_id(bb), slow);
      xe_inst_remove(m, term);
      xe_block_append(m, bs, term);
   }
   if (c->no_guard)
      xe_inst_delete(m, term);
   if (measure != XE_MEASURE_NONE) {
      /* --measure-path (pass.h): the test stays, the sub-groups that would
       * take the other copy return, so IGC's code for one path can be
       * counted.  The other copy is left unreachable. */
      xe_block *ret = xe_block_create(m, c->f, xe_fresh_id(m));
      xe_block_insert(c->f, bb, ret);
      uint32_t rt = c->f->def->type_id;
      if (rt == xe_type_void(m)) {
         xe_block_append(m, ret, xe_inst_create(SpvOpReturn, 0, 0, NULL, 0, NULL));
      } else {
         uint32_t u = xe_global_append(m, SpvOpUndef, rt, 0, NULL, NULL);
         xe_block_append(m, ret, xe_inst_create(SpvOpReturnValue, 0, 0, &u, 1, NULL));
      }
      if (measure == XE_MEASURE_FAST)
         slow = xe_block_id(ret);
      else
         hcopy = xe_block_id(ret);
   }
   uint32_t bops[3] = { fast, hcopy, slow };
   xe_block_append(m, bb, xe_inst_create(SpvOpBranchConditional, 0, 0, bops, 3, NULL));

   /* The block accesses of R'. */
   xe_add_capability(m, SpvCapabilitySubgroupBufferBlockIOINTEL);
   if (!xe_has_extension(m, "SPV_INTEL_subgroups"))
      xe_add_extension(m, "SPV_INTEL_subgroups");
   for (unsigned q = 0; q < c->nc; q++) {
      cand *a = &c->c[q];
      xe_inst *ci = a->clone;
      xe_inst *et = xe_def(m, a->elem_type);
      static const SpvCapability int_cap[] = { [8] = SpvCapabilityInt8, [16] = SpvCapabilityInt16,
                                               [64] = SpvCapabilityInt64 };
      if (a->width != 32)
         xe_add_capability(m, int_cap[a->width]);
      uint32_t it = xe_type_int(m, a->width);
      bool is_float = et->opcode == SpvOpTypeFloat;
      xe_builder cb = xe_builder_before(m, ci);
      uint32_t base = a->base;
      if (a->loop_key) {
         /* Lane 0's address from uniform values only: base[ext(u + i0)]
          * (IGC computes it with scalar instructions). */
         uint32_t u64 = xe_type_int(m, 64);
         uint32_t ut = mapped(map, bound0, a->loop_u);
         uint32_t s0 = xe_build2(&cb, SpvOpIAdd, xe_def(m, a->loop_key)->type_id, ut, a->loop_x0);
         if (a->loop_mode)
            s0 = xe_build1(&cb, a->loop_mode == 1 ? SpvOpSConvert : SpvOpUConvert, u64, s0);
         uint32_t pops[2] = { a->loop_base, s0 };
         base = xe_build(&cb, SpvOpPtrAccessChain, xe_def(m, xe_op(ci, 0))->type_id, 2, pops)->result_id;
      }
      if (is_float)
         base = xe_build1(&cb, SpvOpBitcast, xe_type_pointer(m, SpvStorageClassCrossWorkgroup, it), base);
      if (a->store) {
         uint32_t v = xe_op(ci, 1);
         if (is_float)
            v = xe_build1(&cb, SpvOpBitcast, it, v);
         uint32_t ops[2] = { base, v };
         xe_build(&cb, SpvOpSubgroupBlockWriteINTEL, 0, 2, ops);
      } else if (is_float) {
         uint32_t v = xe_build1(&cb, SpvOpSubgroupBlockReadINTEL, it, base);
         xe_build_inst(&cb, xe_inst_create(SpvOpBitcast, a->elem_type, ci->result_id, &v, 1, NULL));
      } else {
         xe_build_inst(&cb, xe_inst_create(SpvOpSubgroupBlockReadINTEL, a->elem_type, ci->result_id,
                                           &base, 1, NULL));
      }
      /* The new definition is in place: removing the copy forgets only
       * its own instruction. */
      xe_inst_delete(m, ci);
   }
   free(map);
}
