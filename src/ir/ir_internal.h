/*
 * Hooks between the IR's list and edit functions (module.c, words.c,
 * lists.c, function.c) and its indexes (uses.c and its neighbours).
 * Private to src/ir/.
 */
#ifndef XEOPT_IR_INTERNAL_H
#define XEOPT_IR_INTERNAL_H

#include "ir.h"

/* The module an attached instruction belongs to, NULL when detached. */
static inline xe_module *xe__module_of(const xe_inst *i)
{
   if (i->list)
      return i->list->m;
   if (xe_inst_function(i))
      return xe_inst_function(i)->module;
   if (i->block && i->block->fn)
      return i->block->fn->module;
   return NULL;
}

/* Are i's words still the ones allocated with it (xe_inst_alloc), not a
 * buffer of their own (xe_set_ops)? */
static inline bool xe__words_inline(const xe_inst *i)
{
   return i->words == (const uint32_t *)(i + 1);
}
/* i's use-list slots: for each word, its place in that id's use list
 * (UINT32_MAX for words not tracked); current while i->tracked. */
static inline uint32_t *xe__uslot(const xe_inst *i)
{
   return i->words + i->nwords;
}
/* Bytes of the words, use-list slots and kinds of nwords words. */
static inline size_t xe__words_bytes(unsigned nwords)
{
   return (size_t)nwords * 9;
}

/* The module's instruction pool (pool.c).  xe__pool_alloc returns n
 * zeroed bytes, 8-aligned, that live until xe__pool_free (the module's
 * end); xe__pool_size(n) is what one such allocation takes from the pool,
 * so that xe__pool_reserve(m, sum of sizes) makes the next allocations
 * come from one chunk.  xe__pool_release marks n bytes at p dead (for
 * AddressSanitizer; the memory is not reused). */
size_t xe__pool_size(size_t n);
void xe__pool_reserve(xe_module *m, size_t n);
void *xe__pool_alloc(xe_module *m, size_t n);
void xe__pool_release(void *p, size_t n);
/* Frees the kernel list's memo (facts.c). */
void xe__kernel_memo_free(xe_module *m);
/* Frees every pool. */
void xe__pool_free(xe_module *m);
/* Moves from's pools, whole, to to as spare chunks that to's reservations
 * and allocations take before mapping new ones (their bytes are cleared as
 * they are carved); from keeps none. */
void xe__pool_hand_on(xe_module *to, xe_module *from);
/* Frees old (NULL: nothing) but for its pools, which go to to
 * (xe__pool_hand_on). */
void xe__module_recycle(xe_module *old, xe_module *to);
/* The same for the block structures (m->struct_pool) and, in a pool of
 * their own, the function structures (m->fn_pool): every xe_block and
 * xe_function lives there until the module's end. */
void xe__struct_reserve(xe_module *m, size_t n);
void *xe__struct_alloc(xe_module *m, size_t n);
void xe__fn_struct_reserve(xe_module *m, size_t n);
void *xe__fn_struct_alloc(xe_module *m, size_t n);
/* A zeroed instruction of nwords words carved from m's pool, laid out as
 * xe_inst_alloc's. */
xe_inst *xe__inst_alloc_pooled(xe_module *m, unsigned nwords);
/* Bytes of one instruction of nwords words with its inline words, use-list
 * slots and kinds. */
static inline size_t xe__inst_bytes(unsigned nwords)
{
   return sizeof(xe_inst) + xe__words_bytes(nwords);
}

/* Is l one of m's section lists? */
static inline bool xe__is_section(const xe_module *m, const xe_list *l)
{
   return m && l >= &m->sec[0] && l < &m->sec[XE_SEC_COUNT];
}

/* An analysis replaced while a pass may still point into it. */
struct xe_stale {
   struct xe_stale *next;
   void *data;
   void (*free)(void *data);
};
void xe__stale_free(xe_module *m);

/* The function an attached instruction is in, NULL for sections. */
xe_function *xe__function_of(const xe_inst *i);
/* Records that i's function changed (its CFG too when cfg is set), or
 * that an entry point or execution mode did (module.c). */
void xe__touch(const xe_inst *i, bool cfg);
/* Drops defs[i's result] when it is i (module.c). */
void xe__forget_def(xe_module *m, xe_inst *i);
/* Copies src's words, kinds and header into i, an instruction of
 * src->nwords words (inst.c); returns i. */
xe_inst *xe__inst_copy(xe_inst *i, const xe_inst *src);

/* Enters i's uses, name, decorations, SpecId and type/constant key into
 * the indexes when they exist (i must be in the module). */
void xe__uses_link(xe_module *m, xe_inst *i);
/* Removes them again (no-op when i was never entered). */
void xe__uses_unlink(xe_module *m, xe_inst *i);
/* The same for one id word of an entered instruction (operand edits). */
void xe__uses_link_word(xe_module *m, xe_inst *i, unsigned w);
void xe__uses_unlink_word(xe_module *m, xe_inst *i, unsigned w);
/* Whether an edit of a literal word of i must re-enter i (annotations and
 * global types/constants are indexed by their literals too). */
bool xe__uses_keyed(const xe_module *m, const xe_inst *i);
void xe__defuse_free(struct xe_defuse *d);
/* Hands the module per-id counts of uses and of names/decorations (n ids,
 * malloc'd arrays the module takes over) for the first build of the use
 * lists; the reader takes them as it reads.  They only size arrays: a
 * count an edit made stale costs a reallocation, not a wrong list. */
void xe__uses_hint(xe_module *m, uint32_t n, uint32_t *uses, uint32_t *meta);
void xe__uses_hint_free(xe_module *m);
/* id's live use list, in layout order when ordered is set: for scans in the
 * IR that edit nothing while they read it (xe_uses hands passes a copy,
 * which per kernel and per pass at 1,600 kernels was a module's worth of
 * copying each time the kernels were listed). */
const xe_use *xe__uses_peek(xe_module *m, uint32_t id, uint32_t *count, bool ordered);
/* Number of OpFunctionCall instructions whose callee is id, O(1). */
uint32_t xe__call_count(xe_module *m, uint32_t id);
/* Keeps that count when i's opcode changed from old_opcode (xe_set_opcode). */
void xe__uses_opcode_changed(xe_module *m, xe_inst *i, uint16_t old_opcode);
/* Writes word w of an instruction through the indexes (type_id follows a
 * result-type word). */
void xe__set_word(xe_inst *i, unsigned w, uint32_t value);
/* SpecId set (spec_ids.c) and type/constant look-up (builder.c). */
bool xe__spec_id_used(const xe_module *m, uint32_t v);
uint32_t xe__spec_id_fresh(const xe_module *m, uint32_t from);
/* The first type or constant in the global section with exactly this
 * opcode, type and operands, 0 if none (only the opcodes find-or-create
 * asks for are indexed). */
uint32_t xe__find_global(xe_module *m, uint16_t op, uint32_t type_id, unsigned nops,
                         const uint32_t *ops);

/* Renumbers the ids of a module (host-order words, header included) in
 * place when its largest id is far above what its size can define, keeping
 * their order (dense_ids.c); leaves every other module as it is.  False
 * when out of memory. */
bool xe__dense_ids(uint32_t *words, size_t nwords);

#endif
