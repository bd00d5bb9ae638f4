/*
 * Module, function, block and instruction bookkeeping.  The module keeps
 * defs[] (id -> defining instruction) up to date on every insert and
 * remove, so passes can always look a definition up.  Every list insert
 * and remove and every edit function also
 *  - gives the instruction an order key (increasing along its list, with
 *    gaps for later inserts), so layout order is an O(1) comparison;
 *  - enters or removes the instruction in the use lists and indexes
 *    (uses.c) once those exist;
 *  - bumps the generation counters of the function it changes (code_gen,
 *    and cfg_gen for blocks and terminators), which is what makes cached
 *    analyses stale: no walk over the module invalidates anything.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ir_internal.h"
#include "manifest.h"

static void *xcalloc(size_t n, size_t s)
{
   void *p = calloc(n ? n : 1, s);
   if (!p)
      xe_out_of_memory();
   return p;
}

xe_module *xe_module_create(void)
{
   xe_module *m = xcalloc(1, sizeof(*m));
   m->version = 0x10000;
   m->bound = 1;
   for (int s = 0; s < XE_SEC_COUNT; s++)
      m->sec[s].m = m;
   return m;
}

static void free_list(xe_list *l)
{
   for (xe_inst *i = l->first, *n; i; i = n) {
      n = i->next;
      xe_inst_free(i);
   }
   l->first = l->last = NULL;
}

extern void cJSON_Delete(struct cJSON *item);

static void function_free(xe_function *f)
{
   xe_function_invalidate(f);
   xe_inst_free(f->def);
   free_list(&f->params);
   for (xe_block *b = f->first, *n; b; b = n) {
      n = b->next;
      xe_inst_free(b->label);
      free_list(&b->insts);
      xe__pool_release(b, sizeof(*b));
   }
   xe_inst_free(f->end);
   xe__pool_release(f, sizeof(*f));
}

/* Frees everything m holds but its pools and m itself. */
static void module_release(xe_module *m)
{
   for (int s = 0; s < XE_SEC_COUNT; s++)
      free_list(&m->sec[s]);
   for (xe_function *f = m->first_fn, *n; f; f = n) {
      n = f->next;
      function_free(f);
   }
   xe__kernel_memo_free(m);
   xe__defuse_free(m->defuse);
   xe__uses_hint_free(m);
   xe__stale_free(m);
   if (m->manifest)
      cJSON_Delete(m->manifest);
   xe_mf_index_free(m->manifest_index);
   free(m->defs);
}

void xe_module_free(xe_module *m)
{
   if (!m)
      return;
   module_release(m);
   xe__pool_free(m);   /* last: the instructions released were carved from it */
   free(m);
}

void xe__module_recycle(xe_module *old, xe_module *to)
{
   if (!old)
      return;
   module_release(old);
   xe__pool_hand_on(to, old);
   free(old);
}

/* Makes defs[id] exist.  clamp: id is one the module defines (the reader's,
 * below the header's bound), so doubling stops at the bound: a hostile
 * bound must not make a small module allocate a huge table.  Fresh ids
 * (xe_fresh_id) grow the table by doubling only: clamped to the bound they
 * raise, the table grew by 1,024 entries at a time, copying all of it each
 * time (quadratic: 5 % of the run at 1,600 kernels). */
static void defs_reserve(xe_module *m, uint32_t id, bool clamp)
{
   if (id < m->defs_cap)
      return;
   uint64_t cap = m->defs_cap ? m->defs_cap : 64;
   while (cap <= id)
      cap *= 2;
   if (clamp && id < m->bound && cap > (uint64_t)m->bound + 1024)
      cap = (uint64_t)m->bound + 1024;
   m->defs = realloc(m->defs, cap * sizeof(*m->defs));
   if (!m->defs)
      xe_out_of_memory();
   memset(m->defs + m->defs_cap, 0, (cap - m->defs_cap) * sizeof(*m->defs));
   m->defs_cap = (uint32_t)cap;
}

uint32_t xe_fresh_id(xe_module *m)
{
   uint32_t id = m->bound++;
   defs_reserve(m, id, false);
   return id;
}

void xe_note_def(xe_module *m, xe_inst *i)
{
   if (!i->result_id)
      return;
   defs_reserve(m, i->result_id, true);
   m->defs[i->result_id] = i;
   if (i->result_id >= m->bound)
      m->bound = i->result_id + 1;
}

static void forget_def(xe_module *m, xe_inst *i)
{
   if (i->result_id && i->result_id < m->defs_cap && m->defs[i->result_id] == i)
      m->defs[i->result_id] = NULL;
}

void xe_function_invalidate(xe_function *f)
{
   for (int k = 0; k < XE_FN_ANALYSIS_COUNT; k++) {
      if (f->cache[k].data)
         f->cache[k].free(f->cache[k].data);
      f->cache[k].data = NULL;
   }
}

void xe__stale_free(xe_module *m)
{
   for (struct xe_stale *st = m->stale, *n; st; st = n) {
      n = st->next;
      st->free(st->data);
      free(st);
   }
   m->stale = NULL;
}

void xe_fn_cache_set(xe_function *f, enum xe_fn_analysis k, void *data, void (*free_fn)(void *))
{
   xe_fn_cache *c = &f->cache[k];
   if (c->data) {
      struct xe_stale *st = xcalloc(1, sizeof(*st));
      st->data = c->data;
      st->free = c->free;
      st->next = f->module->stale;
      f->module->stale = st;
   }
   c->data = data;
   c->free = free_fn;
   c->epoch = f->module->epoch;
   c->gen = k == XE_FN_CFG ? f->cfg_gen : f->code_gen;
}

void xe_module_invalidate(xe_module *m)
{
   m->epoch++;
   xe_uses_release(m);
}

xe_function *xe__function_of(const xe_inst *i)
{
   if (i->block)
      return i->block->fn;
   if (i->function)
      return i->function;
   if (i->list && i->list->m && !xe__is_section(i->list->m, i->list))
      return (xe_function *)((char *)i->list - offsetof(xe_function, params));
   return NULL;
}

/* Records that i's function changed (its CFG too when cfg is set), or
 * that an entry point or execution mode did (the kernel list's memo). */
static void touch(const xe_inst *i, bool cfg)
{
   xe_function *f = xe__function_of(i);
   if (!f) {
      xe_module *m = i->list ? i->list->m : NULL;
      if (m && (i->list == &m->sec[XE_SEC_ENTRY_POINT] ||
                i->list == &m->sec[XE_SEC_EXECUTION_MODE]))
         m->entry_gen++;
      return;
   }
   f->code_gen++;
   if (cfg)
      f->cfg_gen++;
}

/* ---- instructions ---- */

static void set_header(xe_inst *i, SpvOp op, uint32_t type_id, uint32_t result_id)
{
   i->opcode = op;
   i->type_id = type_id;
   i->result_id = result_id;
   unsigned w = 1;
   if (type_id) {
      i->words[w] = type_id;
      i->kinds[w++] = XE_W_TYPE;
   }
   if (result_id) {
      i->words[w] = result_id;
      i->kinds[w++] = XE_W_RESULT;
   }
   i->first_op = w;
   i->words[0] = (uint32_t)i->nwords << 16 | op;
   i->kinds[0] = XE_W_LIT;
}

/* Words and kinds live in one allocation after the struct until an
 * operand change needs more room; then they move to their own buffer. */
/* Lays out a zeroed block of xe__inst_bytes(nwords): the instruction, its
 * words, room for its use-list slots (xe__inline_uslot) and its word kinds. */
static xe_inst *inst_init(void *mem, unsigned nwords)
{
   xe_inst *i = mem;
   i->words = (uint32_t *)(i + 1);
   i->kinds = (uint8_t *)(i->words + 2 * (size_t)nwords);
   i->nwords = nwords;
   return i;
}

xe_inst *xe_inst_alloc(unsigned nwords)
{
   return inst_init(xcalloc(1, xe__inst_bytes(nwords)), nwords);
}

xe_inst *xe__inst_alloc_pooled(xe_module *m, unsigned nwords)
{
   xe_inst *i = inst_init(xe__pool_alloc(m, xe__inst_bytes(nwords)), nwords);
   i->pooled = true;
   return i;
}

xe_inst *xe_inst_create(uint16_t opcode, uint32_t type_id, uint32_t result_id,
                        const uint32_t *ops, unsigned nops, const uint8_t *kinds)
{
   unsigned n = 1 + (type_id != 0) + (result_id != 0) + nops;
   if (n > 0xffff)
      return NULL;
   xe_inst *i = xe_inst_alloc(n);
   set_header(i, opcode, type_id, result_id);
   for (unsigned k = 0; k < nops; k++) {
      i->words[i->first_op + k] = ops[k];
      i->kinds[i->first_op + k] = kinds ? kinds[k] : XE_W_ID;
   }
   return i;
}

/* Copies src into i, an instruction of src->nwords words. */
static xe_inst *copy_inst(xe_inst *i, const xe_inst *src)
{
   memcpy(i->words, src->words, src->nwords * 4);
   memcpy(i->kinds, src->kinds, src->nwords);
   i->opcode = src->opcode;
   i->type_id = src->type_id;
   i->result_id = src->result_id;
   i->first_op = src->first_op;
   return i;
}

xe_inst *xe_inst_clone(const xe_inst *src)
{
   return copy_inst(xe_inst_alloc(src->nwords), src);
}

static bool inst_inline(const xe_inst *i)
{
   return xe__words_inline(i);
}

void xe_inst_free(xe_inst *i)
{
   if (!i)
      return;
   if (!inst_inline(i)) {
      free(i->words);
      free(i->kinds);
   }
   if (i->uslot != xe__inline_uslot(i))
      free(i->uslot);
   if (i->pooled)
      xe__pool_release(i, sizeof(*i));   /* its bytes go with the module's pool */
   else
      free(i);
}

/* Writes word w of i, keeping the indexes current. */
void xe__set_word(xe_inst *i, unsigned w, uint32_t value)
{
   if (i->kinds[w] == XE_W_TYPE)
      i->type_id = value;
   if (i->words[w] == value)
      return;
   xe_module *m = i->uslot ? xe__module_of(i) : NULL;
   bool all = m && xe__uses_keyed(m, i);
   bool tracked = i->uslot && (i->kinds[w] == XE_W_ID || i->kinds[w] == XE_W_TYPE);
   if (all)
      xe__uses_unlink(m, i);
   else if (tracked)
      xe__uses_unlink_word(m, i, w);
   i->words[w] = value;
   if (all)
      xe__uses_link(m, i);
   else if (tracked)
      xe__uses_link_word(m, i, w);
   touch(i, xe_opcode_is_terminator(i->opcode));
}

void xe_set_word(xe_inst *i, unsigned w, uint32_t value)
{
   xe__set_word(i, w, value);
}

void xe_set_op(xe_inst *i, unsigned k, uint32_t value)
{
   xe__set_word(i, i->first_op + k, value);
}

void xe_set_type(xe_inst *i, uint32_t type_id)
{
   for (unsigned w = 1; w < i->first_op; w++) {
      if (i->kinds[w] == XE_W_TYPE) {
         xe__set_word(i, w, type_id);
         return;
      }
   }
}

void xe_set_result(xe_inst *i, uint32_t result_id)
{
   for (unsigned w = 1; w < i->first_op; w++) {
      if (i->kinds[w] != XE_W_RESULT || i->words[w] == result_id)
         continue;
      xe_module *m = xe__module_of(i);
      if (m)
         forget_def(m, i);
      i->words[w] = result_id;
      i->result_id = result_id;
      if (m)
         xe_note_def(m, i);
      touch(i, i->opcode == SpvOpLabel);
      return;
   }
}

bool xe_set_ops(xe_inst *i, const uint32_t *ops, unsigned nops, const uint8_t *kinds)
{
   unsigned n = i->first_op + nops;
   if (n > 0xffff)
      return false;
   xe_module *m = i->uslot ? xe__module_of(i) : NULL;
   if (m)
      xe__uses_unlink(m, i);
   uint32_t *w = malloc(n * 4);
   uint8_t *kd = malloc(n);
   if (!w || !kd)
      xe_out_of_memory();
   memcpy(w, i->words, i->first_op * 4);
   memcpy(kd, i->kinds, i->first_op);
   for (unsigned k = 0; k < nops; k++) {
      w[i->first_op + k] = ops[k];
      kd[i->first_op + k] = kinds ? kinds[k] : XE_W_ID;
   }
   if (!inst_inline(i)) {
      free(i->words);
      free(i->kinds);
   }
   i->words = w;
   i->kinds = kd;
   i->nwords = n;
   i->words[0] = (uint32_t)n << 16 | i->opcode;
   if (m)
      xe__uses_link(m, i);
   touch(i, xe_opcode_is_terminator(i->opcode));
   return true;
}

void xe_set_opcode(xe_inst *i, uint16_t opcode)
{
   xe_module *m = i->uslot ? xe__module_of(i) : NULL;
   bool keyed = m && (xe__uses_keyed(m, i) || opcode == SpvOpDecorate || opcode == SpvOpName ||
                      opcode == SpvOpVariable || opcode == SpvOpExtInst);
   if (keyed)
      xe__uses_unlink(m, i);
   bool cfg = xe_opcode_is_terminator(i->opcode) || xe_opcode_is_terminator(opcode);
   uint16_t old = i->opcode;
   i->opcode = opcode;
   i->words[0] = (uint32_t)i->nwords << 16 | opcode;
   if (keyed)
      xe__uses_link(m, i);
   else if (m)
      xe__uses_opcode_changed(m, i, old);
   touch(i, cfg);
}

const char *xe_op_string(const xe_inst *i, unsigned k)
{
   unsigned w = i->first_op + k;
   if (w >= i->nwords)
      return "";
   /* The reader checked that literal strings are nul-terminated. */
   return (const char *)&i->words[w];
}

/* ---- lists ---- */

/* Order keys: GAP apart when a list is numbered, midpoints for inserts;
 * a list is renumbered when two neighbours leave no room (rare: 2^20 gap
 * allows twenty inserts at one spot first). */
#define ORDER_GAP ((uint64_t)1 << 20)

static void renumber(xe_list *l)
{
   uint64_t k = 0;
   xe_foreach_inst(i, l)
      i->order = k += ORDER_GAP;
}

/* Gives i, already linked into l, an order key between its neighbours. */
static void set_order(xe_list *l, xe_inst *i)
{
   uint64_t lo = i->prev ? i->prev->order : 0;
   if (!i->next) {
      i->order = lo + ORDER_GAP;
      return;
   }
   uint64_t hi = i->next->order;
   if (hi > lo + 1)
      i->order = lo + (hi - lo) / 2;
   else
      renumber(l);
}

/* Common tail of every insert: i is linked into l. */
static void linked(xe_module *m, xe_list *l, xe_inst *i)
{
   l->m = m;
   set_order(l, i);
   xe_note_def(m, i);
   xe__uses_link(m, i);
   touch(i, xe_opcode_is_terminator(i->opcode));
}

static void list_append(xe_module *m, xe_list *l, xe_inst *i)
{
   i->list = l;
   i->prev = l->last;
   i->next = NULL;
   if (l->last)
      l->last->next = i;
   else
      l->first = i;
   l->last = i;
   linked(m, l, i);
}

void xe_list_append(xe_module *m, xe_list *l, xe_inst *i)
{
   list_append(m, l, i);
}

void xe_block_append(xe_module *m, xe_block *b, xe_inst *i)
{
   i->block = b;
   list_append(m, &b->insts, i);
}

void xe_list_insert_before(xe_module *m, xe_inst *pos, xe_inst *i)
{
   xe_list *l = pos->list;
   i->list = l;
   i->block = pos->block;
   i->next = pos;
   i->prev = pos->prev;
   if (pos->prev)
      pos->prev->next = i;
   else
      l->first = i;
   pos->prev = i;
   linked(m, l, i);
}

void xe_list_insert_after(xe_module *m, xe_inst *pos, xe_inst *i)
{
   xe_list *l = pos->list;
   i->list = l;
   i->block = pos->block;
   i->prev = pos;
   i->next = pos->next;
   if (pos->next)
      pos->next->prev = i;
   else
      l->last = i;
   pos->next = i;
   linked(m, l, i);
}

void xe_inst_remove(xe_module *m, xe_inst *i)
{
   xe_list *l = i->list;
   touch(i, xe_opcode_is_terminator(i->opcode));
   xe__uses_unlink(m, i);
   if (l) {
      if (i->prev)
         i->prev->next = i->next;
      else
         l->first = i->next;
      if (i->next)
         i->next->prev = i->prev;
      else
         l->last = i->prev;
   }
   i->prev = i->next = NULL;
   i->list = NULL;
   i->block = NULL;
   forget_def(m, i);
}

void xe_inst_delete(xe_module *m, xe_inst *i)
{
   xe_inst_remove(m, i);
   xe_inst_free(i);
}

void xe_terminator_to_branch(xe_module *m, xe_inst *term, uint32_t target)
{
   /* OpSelectionMerge must immediately precede an OpBranchConditional or
    * OpSwitch (SPIR-V 2.16.2), so it goes with the branch it declared; an
    * OpLoopMerge may precede an OpBranch and stays. */
   if (term->prev && term->prev->opcode == SpvOpSelectionMerge)
      xe_inst_delete(m, term->prev);
   xe_list_insert_before(m, term, xe_inst_create(SpvOpBranch, 0, 0, &target, 1, NULL));
   xe_inst_delete(m, term);
}

/* Layout position as a tuple: sections first (by section), then functions
 * (by function order: OpFunction, parameters, blocks by order with the
 * label first, OpFunctionEnd). */
static void layout_key(const xe_inst *i, uint64_t k[5])
{
   memset(k, 0, 5 * sizeof(uint64_t));
   xe_module *m = xe__module_of(i);
   if (i->list && xe__is_section(m, i->list)) {
      k[0] = (uint64_t)(i->list - m->sec);
      k[4] = i->order;
      return;
   }
   xe_function *f = xe__function_of(i);
   k[0] = XE_SEC_COUNT;
   k[1] = f ? f->order : 0;
   if (i->function) {
      k[2] = 0;
   } else if (i->block) {
      k[2] = 2;
      k[3] = i->block->order;
      k[4] = i == i->block->label ? 0 : i->order;
   } else if (f && i == f->end) {
      k[2] = 3;
   } else {
      k[2] = 1;
      k[4] = i->order;
   }
}

bool xe_layout_before(const xe_inst *a, const xe_inst *b)
{
   /* Both in blocks of functions, the common case (sorting uses): the same
    * comparison as the keys below make, from the block and function alone,
    * without finding the module and the section first. */
   const xe_block *ba = a->block, *bb = b->block;
   if (ba && bb && ba->fn && bb->fn) {
      if (ba->fn->order != bb->fn->order)
         return ba->fn->order < bb->fn->order;
      if (ba->order != bb->order)
         return ba->order < bb->order;
      uint64_t oa = a == ba->label ? 0 : a->order, ob = b == bb->label ? 0 : b->order;
      return oa < ob;
   }
   uint64_t ka[5], kb[5];
   layout_key(a, ka);
   layout_key(b, kb);
   for (int j = 0; j < 5; j++) {
      if (ka[j] != kb[j])
         return ka[j] < kb[j];
   }
   return false;
}

/* ---- functions and blocks ---- */

xe_function *xe_function_create(xe_module *m, xe_inst *def, xe_inst *end)
{
   xe_function *f = xe__fn_struct_alloc(m, sizeof(*f));
   f->def = def;
   f->end = end;
   f->module = m;
   f->params.m = m;
   if (def)
      def->function = f;
   if (def)
      xe_note_def(m, def);
   return f;
}

void xe_function_append(xe_module *m, xe_function *f)
{
   f->prev = m->last_fn;
   f->order = m->last_fn ? m->last_fn->order + 1 : 1;
   if (m->last_fn)
      m->last_fn->next = f;
   else
      m->first_fn = f;
   m->last_fn = f;
   /* Its instructions may be in the use lists already, with order 0. */
   m->order_epoch++;
   /* OpFunction uses its return and function types. */
   if (f->def)
      xe__uses_link(m, f->def);
}

xe_block *xe_block_create(xe_module *m, xe_function *f, uint32_t label_id)
{
   xe_block *b = xe__struct_alloc(m, sizeof(*b));
   b->fn = f;
   b->insts.m = m;
   b->label = xe_inst_create(SpvOpLabel, 0, label_id, NULL, 0, NULL);
   b->label->block = b;
   xe_note_def(m, b->label);
   return b;
}

/* Block order keys, as instruction order keys (set_order). */
static void block_order(xe_function *f, xe_block *b)
{
   uint64_t lo = b->prev ? b->prev->order : 0;
   if (!b->next) {
      b->order = lo + ORDER_GAP;
      return;
   }
   uint64_t hi = b->next->order;
   if (hi > lo + 1) {
      b->order = lo + (hi - lo) / 2;
      return;
   }
   uint64_t k = 0;
   xe_foreach_block(x, f)
      x->order = k += ORDER_GAP;
}

void xe_block_insert(xe_function *f, xe_block *after, xe_block *b)
{
   b->fn = f;
   f->cfg_gen++;
   f->code_gen++;
   if (!after) {
      b->prev = f->last;
      b->next = NULL;
      if (f->last)
         f->last->next = b;
      else
         f->first = b;
      f->last = b;
   } else {
      b->prev = after;
      b->next = after->next;
      if (after->next)
         after->next->prev = b;
      else
         f->last = b;
      after->next = b;
   }
   block_order(f, b);
   /* Its instructions change place in the layout: use lists holding them
    * may be out of order now. */
   if (b->insts.first && f->module)
      f->module->order_epoch++;
}

void xe_block_unlink(xe_function *f, xe_block *b)
{
   f->cfg_gen++;
   f->code_gen++;
   if (b->prev)
      b->prev->next = b->next;
   else
      f->first = b->next;
   if (b->next)
      b->next->prev = b->prev;
   else
      f->last = b->prev;
   b->prev = b->next = NULL;
}

void xe_block_delete(xe_module *m, xe_function *f, xe_block *b)
{
   xe_foreach_inst_safe(i, nx, &b->insts)
      xe_inst_kill(m, i);
   xe_block_unlink(f, b);
   xe_inst_kill(m, b->label);
   xe__pool_release(b, sizeof(*b));
}

xe_inst *xe_block_terminator(const xe_block *b)
{
   for (xe_inst *i = b->insts.last; i; i = i->prev) {
      if (i->opcode == SpvOpLine || i->opcode == SpvOpNoLine)
         continue;
      return xe_opcode_is_terminator(i->opcode) ? i : NULL;
   }
   return NULL;
}

bool xe_inst_is_source_info(const xe_module *m, const xe_inst *i)
{
   return i->opcode == SpvOpLine || i->opcode == SpvOpNoLine || xe_inst_is_debug_info(m, i);
}

xe_inst *xe_skip_source_info(const xe_module *m, xe_inst *i)
{
   while (i && xe_inst_is_source_info(m, i))
      i = i->next;
   return i;
}

xe_inst *xe_phi_at(const xe_module *m, xe_inst *i)
{
   i = xe_skip_source_info(m, i);
   return i && i->opcode == SpvOpPhi ? i : NULL;
}

xe_inst *xe_block_first_non_phi(const xe_module *m, const xe_block *b)
{
   xe_foreach_inst(i, &b->insts) {
      if (i->opcode != SpvOpPhi && !xe_inst_is_source_info(m, i))
         return i;
   }
   return NULL;
}

xe_function *xe_function_by_id(const xe_module *m, uint32_t id)
{
   xe_inst *d = xe_def(m, id);
   return d && d->opcode == SpvOpFunction ? d->function : NULL;
}

int xe_param_index(const xe_function *f, uint32_t id)
{
   int k = 0;
   xe_foreach_inst(p, &f->params) {
      if (p->opcode != SpvOpFunctionParameter)
         continue;
      if (p->result_id == id)
         return k;
      k++;
   }
   return -1;
}

/* ---- opcode facts ---- */

unsigned xe_memory_operands_index(const xe_inst *i)
{
   return i->opcode == SpvOpLoad ? 1 : i->opcode == SpvOpStore ? 2 : 0;
}

bool xe_access_is_volatile(const xe_inst *i)
{
   unsigned k = xe_memory_operands_index(i);
   return k && xe_nops(i) > k && (xe_op(i, k) & SpvMemoryAccessVolatileMask);
}

bool xe_opcode_is_branch(uint16_t op)
{
   return op == SpvOpBranch || op == SpvOpBranchConditional || op == SpvOpSwitch;
}

bool xe_opcode_is_terminator(uint16_t op)
{
   switch (op) {
   case SpvOpBranch:
   case SpvOpBranchConditional:
   case SpvOpSwitch:
   case SpvOpReturn:
   case SpvOpReturnValue:
   case SpvOpKill:
   case SpvOpUnreachable:
   case SpvOpTerminateInvocation:
   case SpvOpIgnoreIntersectionKHR:
   case SpvOpTerminateRayKHR:
      return true;
   default:
      return false;
   }
}

enum xe_section xe_opcode_section(uint16_t op)
{
   switch (op) {
   case SpvOpCapability: return XE_SEC_CAPABILITY;
   case SpvOpExtension: return XE_SEC_EXTENSION;
   case SpvOpExtInstImport: return XE_SEC_EXT_INST_IMPORT;
   case SpvOpMemoryModel: return XE_SEC_MEMORY_MODEL;
   case SpvOpEntryPoint: return XE_SEC_ENTRY_POINT;
   case SpvOpExecutionMode:
   case SpvOpExecutionModeId: return XE_SEC_EXECUTION_MODE;
   case SpvOpString:
   case SpvOpSourceExtension:
   case SpvOpSource:
   case SpvOpSourceContinued: return XE_SEC_DEBUG_SOURCE;
   case SpvOpName:
   case SpvOpMemberName: return XE_SEC_DEBUG_NAME;
   case SpvOpModuleProcessed: return XE_SEC_DEBUG_PROCESSED;
   case SpvOpAliasDomainDeclINTEL:
   case SpvOpAliasScopeDeclINTEL:
   case SpvOpAliasScopeListDeclINTEL: return XE_SEC_ALIAS_DECL;
   case SpvOpDecorate:
   case SpvOpMemberDecorate:
   case SpvOpDecorationGroup:
   case SpvOpGroupDecorate:
   case SpvOpGroupMemberDecorate:
   case SpvOpDecorateId:
   case SpvOpDecorateString:
   case SpvOpMemberDecorateString: return XE_SEC_ANNOTATION;
   default: return XE_SEC_GLOBAL;
   }
}

/* ---- cloning ---- */

/* Old id -> new id for the results of one function: open addressing,
 * sized by the function, not by the module's bound (cloning one function
 * of a large module must not cost the module's size). */
typedef struct idmap {
   uint32_t *key, *val, cap;
} idmap;

static uint32_t *idmap_slot(idmap *mp, uint32_t id)
{
   uint32_t h = id * 0x9e3779b1u;
   for (h &= mp->cap - 1; mp->key[h] && mp->key[h] != id; h = (h + 1) & (mp->cap - 1))
      ;
   mp->key[h] = id;
   return &mp->val[h];
}

static uint32_t idmap_get(idmap *mp, uint32_t id)
{
   uint32_t h = id * 0x9e3779b1u;
   for (h &= mp->cap - 1; mp->key[h]; h = (h + 1) & (mp->cap - 1)) {
      if (mp->key[h] == id)
         return mp->val[h];
   }
   return id;
}

/* A copy of i in m's pool (the clone joins m) with ids renamed by mp. */
static xe_inst *clone_remapped(xe_module *m, const xe_inst *i, idmap *mp)
{
   xe_inst *c = copy_inst(xe__inst_alloc_pooled(m, i->nwords), i);
   for (unsigned w = 1; w < c->nwords; w++)
      if (c->kinds[w] == XE_W_ID)
         c->words[w] = idmap_get(mp, c->words[w]);
   if (c->result_id)
      xe_set_result(c, idmap_get(mp, c->result_id));
   return c;
}

xe_function *xe_function_clone(xe_module *m, xe_function *f)
{
   uint32_t n = 2;
   xe_foreach_inst(p, &f->params)
      n++;
   xe_foreach_block(b, f) {
      n++;
      xe_foreach_inst(i, &b->insts)
         n++;
   }
   idmap mp = { NULL, NULL, 16 };
   while (mp.cap < 2 * n)
      mp.cap *= 2;
   mp.key = xcalloc(mp.cap, sizeof(uint32_t));
   mp.val = xcalloc(mp.cap, sizeof(uint32_t));
   /* Fresh ids in layout order: the function, parameters, then each
    * block's label and results. */
   *idmap_slot(&mp, xe_function_id(f)) = xe_fresh_id(m);
   xe_foreach_inst(p, &f->params)
      if (p->result_id)
         *idmap_slot(&mp, p->result_id) = xe_fresh_id(m);
   xe_foreach_block(b, f) {
      *idmap_slot(&mp, xe_block_id(b)) = xe_fresh_id(m);
      xe_foreach_inst(i, &b->insts)
         if (i->result_id)
            *idmap_slot(&mp, i->result_id) = xe_fresh_id(m);
   }
   xe_function *nf = xe_function_create(m, clone_remapped(m, f->def, &mp),
                                          clone_remapped(m, f->end, &mp));
   xe_foreach_inst(p, &f->params)
      xe_list_append(m, &nf->params, clone_remapped(m, p, &mp));
   xe_foreach_block(b, f) {
      xe_block *nb = xe_block_create(m, nf, idmap_get(&mp, xe_block_id(b)));
      xe_block_insert(nf, NULL, nb);
      xe_foreach_inst(i, &b->insts)
         xe_block_append(m, nb, clone_remapped(m, i, &mp));
   }
   xe_function_append(m, nf);
   free(mp.key);
   free(mp.val);
   return nf;
}
