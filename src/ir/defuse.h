/*
 * The use lists' and indexes' own structures, private to the files that
 * keep them: uses.c (linking and unlinking, the use lists, the indexes'
 * tables), uses_build.c (the first build), indexes.c (the questions: an
 * id's uses, names, decorations, SpecIds, types and constants by content)
 * and uses_check.c (the check against a fresh walk).
 * Every other file of src/ir/ reaches them through ir_internal.h.
 */
#ifndef XEOPT_IR_DEFUSE_H
#define XEOPT_IR_DEFUSE_H

#include <stdlib.h>
#include <string.h>

#include "ir_internal.h"

#define NO_SLOT UINT32_MAX

typedef struct idinfo {
   xe_use *v;              /* uses of the id */
   uint32_t n, cap;
   xe_inst **meta;         /* OpName/OpMemberName/decorations whose target is the id */
   uint32_t nmeta, capmeta;
   uint32_t ncalls;        /* uses that are the callee of an OpFunctionCall
                            * (xe_use_is_call), so that counting a function's
                            * callers reads no user: at 1,600 kernels each
                            * user is a cache miss, per kernel and per pass */
   uint32_t ndebug;        /* uses by debug-info instructions (xe_inst.debug_info):
                            * in v, for xe_replace_all_uses and the repair of
                            * what a pass deletes, but no uses for xe_uses */
   /* Bit d % 32 is set when an OpDecorate(Id) with decoration d targets the
    * id.  Never cleared (a superset), so asking for a decoration the id
    * does not have reads none of its names and decorations: llvm-spirv
    * names and decorates most results, and each is a cache miss. */
   uint32_t decs;
   bool unsorted;          /* v is not in layout order */
   uint32_t order_epoch;   /* the module's order_epoch when v was last in order */
} idinfo;

typedef struct chunk {
   struct chunk *next;
   size_t n, cap;
   xe_use v[];
} chunk;

struct xe_defuse {
   uint32_t cap;           /* ids covered by ids[] and names[] */
   idinfo *ids;
   /* xe_name's answer per id, remembered (see name_linked): the first
    * OpName, NAME_NONE when there is none, NULL when not known yet.
    * Looking it up reads meta and each of its instructions, a cache miss
    * each at a few thousand kernels, and remarks name values all the
    * time.  An array of its own, so that the per-id table keeps its 48
    * bytes and the pages of ids nobody names are never touched. */
   xe_inst **names;
   /* SpecId values -> number of OpDecorate SpecId carrying them (open
    * addressing; a key stays when its count drops to 0). */
   uint32_t *skey, *scount;
   uint8_t *sused;
   uint32_t scap, sn;
   bool spec_cursor;       /* SpecIds [spec_from, spec_next) are all in use */
   uint32_t spec_from, spec_next;
   /* Types and constants that find-or-create looks up, by content (open
    * addressing, TOMB for deleted). */
   xe_inst **gtab;
   uint32_t gcap, gn;
   /* Every global OpVariable (not Function storage), unordered. */
   xe_inst **gvars;
   uint32_t ngvars, capgvars;
   chunk *arena;           /* copies handed out by xe_uses */
   /* The use arrays and the name/decoration arrays of the first build,
    * carved from one allocation each at their exact sizes (one malloc, not
    * one per id); an array that grows later moves out to its own. */
   xe_use *slab, *slab_end;
   xe_inst **meta_slab, **meta_slab_end;
};

static inline bool in_slab(const struct xe_defuse *d, const xe_use *v)
{
   return v >= d->slab && v < d->slab_end;
}

static inline bool in_meta_slab(const struct xe_defuse *d, xe_inst *const *v)
{
   return v >= d->meta_slab && v < d->meta_slab_end;
}

/* Per-id counts the reader takes as it reads (xe__uses_hint), so that the
 * first build sizes the arrays without a walk of its own. */
struct xe_use_hint {
   uint32_t n;             /* ids covered */
   uint32_t *uses, *meta;
};

#define TOMB ((xe_inst *)1)

static inline void *xrealloc(void *p, size_t n)
{
   p = realloc(p, n ? n : 1);
   if (!p)
      xe_out_of_memory();
   return p;
}

/* names[id] for an id known to have no OpName (uses.c defines it). */
extern xe_inst xe__name_none;
#define NAME_NONE (&xe__name_none)

/* Which instructions the indexes key (besides the use lists). */
static inline bool spec_decoration(const xe_module *m, const xe_inst *i)
{
   return i->opcode == SpvOpDecorate && xe_nops(i) >= 3 && xe_op(i, 1) == SpvDecorationSpecId &&
          i->list == &m->sec[XE_SEC_ANNOTATION];
}

static inline bool global_keyed_op(uint16_t op)
{
   switch (op) {
   case SpvOpTypeVoid: case SpvOpTypeBool: case SpvOpTypeInt: case SpvOpTypeFloat:
   case SpvOpTypeVector: case SpvOpTypeArray: case SpvOpTypePointer:
   case SpvOpConstant: case SpvOpConstantTrue: case SpvOpConstantFalse:
      return true;
   default:
      return false;
   }
}

static inline bool global_keyed(const xe_module *m, const xe_inst *i)
{
   return i->list == &m->sec[XE_SEC_GLOBAL] && global_keyed_op(i->opcode);
}

static inline bool meta_keyed(const xe_module *m, const xe_inst *i)
{
   return (i->list == &m->sec[XE_SEC_DEBUG_NAME] || i->list == &m->sec[XE_SEC_ANNOTATION]) &&
          xe_nops(i) >= 1 && xe_op_kind(i, 0) == XE_W_ID;
}

static inline bool global_variable(const xe_module *m, const xe_inst *i)
{
   return i->opcode == SpvOpVariable && i->list == &m->sec[XE_SEC_GLOBAL] && xe_nops(i) >= 1 &&
          xe_op(i, 0) != SpvStorageClassFunction;
}

/* Is word w of i the callee of an OpFunctionCall (xe_use_is_call)? */
static inline bool callee_word(const xe_inst *i, unsigned w)
{
   return i->opcode == SpvOpFunctionCall && w == i->first_op;
}

/* idinfo.decs's bit for a decoration instruction, 0 for other metadata. */
static inline uint32_t dec_bit(const xe_inst *i)
{
   bool dec = i->opcode == SpvOpDecorate || i->opcode == SpvOpDecorateId ||
              i->opcode == SpvOpDecorateString;
   return dec && xe_nops(i) >= 2 ? 1u << (xe_op(i, 1) & 31) : 0;
}

/* id's entry, growing ids[] and names[] to cover it (uses.c). */
idinfo *xe__defuse_info(struct xe_defuse *d, uint32_t id);
/* The module's use lists and indexes, built on the first call
 * (uses_build.c). */
struct xe_defuse *xe__defuse_built(const xe_module *cm);
/* Calls fn on every instruction of m in layout order (uses_build.c). */
typedef void (*inst_visitor)(xe_module *m, xe_inst *i, void *data);
void xe__visit_all(xe_module *m, inst_visitor fn, void *data);
/* Puts e's uses back in layout order when an edit broke it (uses.c). */
void xe__sort_uses(const xe_module *m, idinfo *e);
/* One more / one fewer OpDecorate SpecId carrying v (uses.c). */
void xe__spec_add(struct xe_defuse *d, uint32_t v);
void xe__spec_del(struct xe_defuse *d, uint32_t v);
/* The count of OpDecorate SpecIds carrying v; add: made (0) when absent,
 * else NULL when absent (uses.c). */
uint32_t *xe__spec_slot(struct xe_defuse *d, uint32_t v, bool add);
/* Enters / removes a global type or constant by content (uses.c). */
void xe__gtab_put(struct xe_defuse *d, xe_inst *i);
void xe__gtab_del(struct xe_defuse *d, xe_inst *i);
/* The hash of a global's content, the key of gtab (uses.c). */
uint32_t xe__content_hash(uint16_t op, uint32_t type_id, unsigned nops, const uint32_t *ops);
/* The first (in layout order) annotation of id with opcode op or op2, at
 * least min_ops operands and, when dec >= 0, decoration dec (indexes.c). */
xe_inst *xe__first_meta(const xe_module *m, uint32_t id, int op, int op2, int dec,
                        unsigned min_ops);

#endif
