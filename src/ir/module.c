/*
 * Module, function, block and instruction bookkeeping.  The module keeps
 * defs[] (id -> defining instruction) up to date on every insert and
 * remove, so passes can always look a definition up; uses are an
 * on-demand analysis (defuse.c).
 */
#include <stdlib.h>
#include <string.h>

#include "ir.h"

static void *xcalloc(size_t n, size_t s)
{
   void *p = calloc(n ? n : 1, s);
   if (!p)
      abort();
   return p;
}

xe_module *xe_module_create(void)
{
   xe_module *m = xcalloc(1, sizeof(*m));
   m->version = 0x10000;
   m->bound = 1;
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

void xe_defuse_free(struct xe_defuse *d);
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
      free(b);
   }
   xe_inst_free(f->end);
   free(f);
}

void xe_module_free(xe_module *m)
{
   if (!m)
      return;
   for (int s = 0; s < XE_SEC_COUNT; s++)
      free_list(&m->sec[s]);
   for (xe_function *f = m->first_fn, *n; f; f = n) {
      n = f->next;
      function_free(f);
   }
   xe_defuse_free(m->defuse);
   if (m->manifest)
      cJSON_Delete(m->manifest);
   free(m->defs);
   free(m);
}

static void defs_reserve(xe_module *m, uint32_t id)
{
   if (id < m->defs_cap)
      return;
   /* Doubling, but never past the bound while id is below it: a hostile
    * bound must not make a small module allocate a huge table. */
   uint64_t cap = m->defs_cap ? m->defs_cap : 64;
   while (cap <= id)
      cap *= 2;
   if (id < m->bound && cap > (uint64_t)m->bound + 1024)
      cap = (uint64_t)m->bound + 1024;
   m->defs = realloc(m->defs, cap * sizeof(*m->defs));
   if (!m->defs)
      abort();
   memset(m->defs + m->defs_cap, 0, (cap - m->defs_cap) * sizeof(*m->defs));
   m->defs_cap = (uint32_t)cap;
}

uint32_t xe_fresh_id(xe_module *m)
{
   uint32_t id = m->bound++;
   defs_reserve(m, id);
   return id;
}

void xe_note_def(xe_module *m, xe_inst *i)
{
   if (!i->result_id)
      return;
   defs_reserve(m, i->result_id);
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

void xe_module_invalidate(xe_module *m)
{
   xe_defuse_free(m->defuse);
   m->defuse = NULL;
   xe_foreach_fn(f, m)
      xe_function_invalidate(f);
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
xe_inst *xe_inst_alloc(unsigned nwords)
{
   xe_inst *i = xcalloc(1, sizeof(*i) + nwords * 5);
   i->words = (uint32_t *)(i + 1);
   i->kinds = (uint8_t *)(i->words + nwords);
   i->nwords = nwords;
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

xe_inst *xe_inst_clone(const xe_inst *src)
{
   xe_inst *i = xe_inst_alloc(src->nwords);
   memcpy(i->words, src->words, src->nwords * 4);
   memcpy(i->kinds, src->kinds, src->nwords);
   i->opcode = src->opcode;
   i->type_id = src->type_id;
   i->result_id = src->result_id;
   i->first_op = src->first_op;
   return i;
}

static bool inst_inline(const xe_inst *i)
{
   return i->words == (const uint32_t *)(i + 1);
}

void xe_inst_free(xe_inst *i)
{
   if (!i)
      return;
   if (!inst_inline(i)) {
      free(i->words);
      free(i->kinds);
   }
   free(i);
}

void xe_set_op(xe_inst *i, unsigned k, uint32_t value)
{
   i->words[i->first_op + k] = value;
}

bool xe_set_ops(xe_inst *i, const uint32_t *ops, unsigned nops, const uint8_t *kinds)
{
   unsigned n = i->first_op + nops;
   if (n > 0xffff)
      return false;
   uint32_t *w = malloc(n * 4);
   uint8_t *kd = malloc(n);
   if (!w || !kd)
      abort();
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
   return true;
}

void xe_set_opcode(xe_inst *i, uint16_t opcode)
{
   i->opcode = opcode;
   i->words[0] = (uint32_t)i->nwords << 16 | opcode;
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

void xe_list_append(xe_module *m, xe_list *l, xe_inst *i)
{
   i->list = l;
   i->prev = l->last;
   i->next = NULL;
   if (l->last)
      l->last->next = i;
   else
      l->first = i;
   l->last = i;
   xe_note_def(m, i);
}

void xe_block_append(xe_module *m, xe_block *b, xe_inst *i)
{
   xe_list_append(m, &b->insts, i);
   i->block = b;
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
   xe_note_def(m, i);
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
   xe_note_def(m, i);
}

void xe_inst_remove(xe_module *m, xe_inst *i)
{
   xe_list *l = i->list;
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

/* ---- functions and blocks ---- */

xe_function *xe_function_create(xe_module *m, xe_inst *def, xe_inst *end)
{
   xe_function *f = xcalloc(1, sizeof(*f));
   f->def = def;
   f->end = end;
   f->module = m;
   if (def)
      def->function = f;
   if (def)
      xe_note_def(m, def);
   return f;
}

void xe_function_append(xe_module *m, xe_function *f)
{
   f->prev = m->last_fn;
   if (m->last_fn)
      m->last_fn->next = f;
   else
      m->first_fn = f;
   m->last_fn = f;
}

xe_block *xe_block_create(xe_module *m, xe_function *f, uint32_t label_id)
{
   xe_block *b = xcalloc(1, sizeof(*b));
   b->fn = f;
   b->label = xe_inst_create(SpvOpLabel, 0, label_id, NULL, 0, NULL);
   b->label->block = b;
   xe_note_def(m, b->label);
   return b;
}

void xe_block_insert(xe_function *f, xe_block *after, xe_block *b)
{
   b->fn = f;
   if (!after) {
      b->prev = f->last;
      b->next = NULL;
      if (f->last)
         f->last->next = b;
      else
         f->first = b;
      f->last = b;
      return;
   }
   b->prev = after;
   b->next = after->next;
   if (after->next)
      after->next->prev = b;
   else
      f->last = b;
   after->next = b;
}

void xe_block_unlink(xe_function *f, xe_block *b)
{
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

xe_inst *xe_block_terminator(const xe_block *b)
{
   for (xe_inst *i = b->insts.last; i; i = i->prev) {
      if (i->opcode == SpvOpLine || i->opcode == SpvOpNoLine)
         continue;
      return xe_opcode_is_terminator(i->opcode) ? i : NULL;
   }
   return NULL;
}

xe_inst *xe_block_first_non_phi(const xe_block *b)
{
   xe_foreach_inst(i, &b->insts) {
      if (i->opcode != SpvOpPhi && i->opcode != SpvOpLine && i->opcode != SpvOpNoLine)
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
