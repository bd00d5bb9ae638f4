/*
 * xeopt's in-memory SPIR-V module.
 *
 * The module keeps every instruction as its exact words (so that a read
 * followed by a write is byte-identical), grouped by the logical layout
 * sections of the SPIR-V specification, section 2.4.  Functions hold basic
 * blocks; blocks hold their instructions from the one after OpLabel through
 * the terminator (and any OpLine/OpNoLine that follows it).
 *
 * Next to each word the instruction keeps what kind of word it is (literal,
 * id reference, result type, result id), taken from SPIRV-Tools' parser or
 * given by the builder, so def-use and id rewriting never need the grammar.
 *
 * Ownership: a module owns its functions, blocks and instructions; removing
 * an instruction from a list does not free it (xe_inst_free does).
 */
#ifndef XEOPT_IR_H
#define XEOPT_IR_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <spirv/unified1/spirv.h>

struct cJSON;

/* Kind of each word of an instruction. */
enum xe_word_kind {
   XE_W_LIT = 0,     /* opcode word, literal, string or enumerant */
   XE_W_ID = 1,      /* reference to an id (including type, scope and semantics ids) */
   XE_W_TYPE = 2,    /* the result type id */
   XE_W_RESULT = 3,  /* the result id */
};

/* Logical layout sections (SPIR-V 1.6 spec, section 2.4), in order. */
enum xe_section {
   XE_SEC_CAPABILITY,
   XE_SEC_EXTENSION,
   XE_SEC_EXT_INST_IMPORT,
   XE_SEC_MEMORY_MODEL,
   XE_SEC_ENTRY_POINT,
   XE_SEC_EXECUTION_MODE,
   XE_SEC_DEBUG_SOURCE,     /* OpString, OpSource*, OpSourceExtension */
   XE_SEC_DEBUG_NAME,       /* OpName, OpMemberName */
   XE_SEC_DEBUG_PROCESSED,  /* OpModuleProcessed */
   /* SPV_INTEL_memory_access_aliasing's OpAlias*DeclINTEL: global
    * declarations DPC++ writes after the names and before the decorations
    * (OpDecorateId ... AliasScopeINTEL names them), kept there. */
   XE_SEC_ALIAS_DECL,
   XE_SEC_ANNOTATION,       /* decorations */
   XE_SEC_GLOBAL,           /* types, constants, global OpVariable, OpUndef, OpLine */
   XE_SEC_COUNT
};

typedef struct xe_inst xe_inst;
typedef struct xe_block xe_block;
typedef struct xe_function xe_function;
typedef struct xe_module xe_module;

typedef struct xe_list {
   xe_inst *first, *last;
   xe_module *m;         /* the module the list belongs to, set by the list functions */
} xe_list;

struct xe_inst {
   xe_inst *prev, *next;
   xe_list *list;        /* the list holding it, NULL when detached */
   xe_block *block;      /* NULL outside blocks */
   uint16_t opcode;
   uint16_t nwords;      /* total, word 0 included */
   uint8_t first_op;     /* index of the first word after type and result */
   bool pooled : 1;      /* carved from its module's pool (pool.c): freed with the
                          * module, not by xe_inst_free */
   bool debug_info : 1;  /* linked as a debug-info instruction: its id words are
                          * not uses for xe_uses and xe_use_count (uses.c) */
   bool tracked : 1;     /* in the module's use lists: the use-list slots after
                          * the words (uses.c) are current */
   uint32_t aux;         /* scratch for the pass that runs; 0 otherwise */
   uint32_t type_id;     /* 0 if none */
   uint32_t result_id;   /* 0 if none */
   /* nwords words (words[0] = nwords << 16 | opcode), then room for as
    * many use-list slots (uses.c), then nwords enum xe_word_kind
    * (xe_kinds): one allocation, after the struct or (once an operand
    * change needs more room) apart.  Owned by the IR. */
   uint32_t *words;
   /* Position in its list, increasing along the list (gaps left for
    * inserts); with the block's and function's order it gives the layout
    * order of any two instructions in O(1) (xe_layout_before).  An
    * OpFunction is in no list: it keeps the function it starts instead
    * (xe_inst_function). */
   union {
      uint64_t order;
      xe_function *function_;
   };
};

struct xe_block {
   xe_inst *label;
   xe_list insts;
   xe_block *prev, *next;
   xe_function *fn;
   uint32_t index;        /* position in the function, set by the CFG */
   uint64_t order;        /* increasing along the function's blocks, see xe_inst.order */
};

/* An analysis cached on a function by the analysis layer (src/analysis/).
 * The IR drops it (xe_function_invalidate) without knowing what it is.
 *
 * Validity is O(1): the edit functions bump the function's generation
 * counters (cfg_gen when blocks or terminators change, code_gen on any
 * change of its code), and xe_module_invalidate bumps the module's epoch.
 * An entry is valid while its stamp equals the counters it depends on
 * (xe_fn_cache_valid); nothing walks the functions to drop analyses. */
enum xe_fn_analysis { XE_FN_CFG, XE_FN_LOOPS, XE_FN_ANALYSIS_COUNT };
typedef struct xe_fn_cache {
   void *data;              /* NULL when not computed */
   void (*free)(void *data);
   uint32_t epoch, gen;     /* the module epoch and generation it was computed at */
} xe_fn_cache;

/* What the layout order of a function's blocks says about its CFG
 * (branches.c): both are sufficient tests, false says nothing.
 * acyclic: every branch goes to a later block, so there is no loop.
 * forward_reachable: each block's dominators precede it. */
typedef struct xe_layout_facts {
   bool acyclic;
   bool forward_reachable;
} xe_layout_facts;

struct xe_function {
   /* The fields a walk over every function reads first share one cache
    * line: at a few thousand kernels the small passes are bound by the
    * misses of that walk, not by their work. */
   xe_function *next;
   xe_block *first, *last;
   uint32_t cfg_gen;      /* bumped when blocks or terminators change */
   uint32_t code_gen;     /* bumped on any change of the function's code */
   /* xe_layout_facts remembered, valid while facts_gen equals cfg_gen
    * (they depend on blocks and terminators only); bit 0 valid, bit 1
    * acyclic, bit 2 forward_reachable.  Kept by branches.c, also filled
    * by the CFG build.  Like the use lists, and unlike the analyses, they
    * outlive xe_module_invalidate: the edit functions keep them. */
   uint32_t facts_gen;
   uint8_t facts;
   uint32_t mark;         /* scratch for the pass that runs; 0 otherwise */
   xe_inst *def;          /* OpFunction */
   xe_list params;        /* OpFunctionParameter (and OpLine before the first block) */
   xe_inst *end;          /* OpFunctionEnd */
   xe_function *prev;
   xe_module *module;
   xe_fn_cache cache[XE_FN_ANALYSIS_COUNT];   /* on demand, see cfg.h */
   uint64_t order;        /* increasing along the module's functions */
};

struct xe_module {
   uint32_t version;      /* header word 1; raised only by xe_require_version */
   uint32_t generator;
   uint32_t bound;        /* every id in use is < bound: one past the largest defined id
                           * after reading, raised by xe_fresh_id; analyses size per-id
                           * tables by it */
   uint32_t header_bound; /* the input header's bound; the writer writes the larger */
   uint32_t schema;
   bool big_endian;       /* byte order of the input; the writer keeps it */
   bool reordered;        /* the input broke the section order; written in order */
   xe_list sec[XE_SEC_COUNT];
   xe_function *first_fn, *last_fn;
   xe_inst **defs;        /* defs[id]: the defining instruction, bound entries */
   uint32_t defs_cap;
   struct xe_defuse *defuse;   /* use lists, names, decorations, SpecIds: built on
                                * first use, then kept up to date by the edit
                                * functions (uses.c) */
   struct xe_use_hint *use_hint;   /* the reader's per-id counts, until the build
                                    * of defuse takes them (uses_build.c) */
   uint32_t order_epoch;       /* bumped when a block or function with instructions
                                * moves: use lists are re-sorted on demand */
   uint32_t epoch;             /* bumped by xe_module_invalidate: every cached
                                * function analysis is stale afterwards */
   uint32_t entry_gen;         /* bumped on any change in the entry-point and
                                * execution-mode sections */
   uint32_t calls_gen;         /* bumped when an OpFunctionCall's callee is linked
                                * or unlinked (a function's caller count changes) */
   struct xe_kernel_memo *kernels_memo;   /* xe_kernels' last answer (facts.c) */
   struct xe_pool *pool;       /* memory the reader's and clones' instructions are
                                * carved from (pool.c), NULL before the first */
   struct xe_pool *struct_pool;   /* memory of every xe_block (pool.c) */
   struct xe_pool *fn_pool;       /* memory of every xe_function (pool.c) */
   struct xe_stale *stale;     /* replaced analyses, freed between passes (a
                                * pass may still hold pointers into them) */
   struct cJSON *manifest;     /* host contract entries, NULL when none */
   struct xe_mf_index *manifest_index;   /* kernel name -> its object in manifest
                                          * (src/manifest/manifest.h), built on first
                                          * use by the pass-facing writer; NULL before */
};

/* ---- module ---- */

xe_module *xe_module_create(void);
void xe_module_free(xe_module *m);

/* A fresh id; raises the header bound. */
uint32_t xe_fresh_id(xe_module *m);

/* The instruction that defines id, or NULL. */
static inline xe_inst *xe_def(const xe_module *m, uint32_t id)
{
   return id < m->defs_cap ? m->defs[id] : NULL;
}

/* Marks every function's cached analyses (CFG, dominators, loops) stale,
 * in O(1) (the module epoch), and releases the copies xe_uses returned.
 * The use lists stay: the edit functions keep them current.  Needed only
 * after changes made without the edit functions. */
void xe_module_invalidate(xe_module *m);
/* Frees f's cached analyses now. */
void xe_function_invalidate(xe_function *f);
/* Is f's cached analysis k still valid?  CFG entries depend on cfg_gen,
 * the others on code_gen (a loop records instructions, not only blocks). */
static inline bool xe_fn_cache_valid(const xe_function *f, enum xe_fn_analysis k)
{
   const xe_fn_cache *c = &f->cache[k];
   return c->data && c->epoch == f->module->epoch &&
          c->gen == (k == XE_FN_CFG ? f->cfg_gen : f->code_gen);
}
/* Stores data as f's analysis k, stamped valid now.  A stale one it
 * replaces is freed by xe_uses_release (between passes), not at once. */
void xe_fn_cache_set(xe_function *f, enum xe_fn_analysis k, void *data, void (*free_fn)(void *));

/* ---- instructions ---- */

/* A detached instruction.  ops are the words after the result id; kinds
 * gives one enum xe_word_kind per op, or NULL for "all ids".  Returns NULL
 * only when the instruction would exceed 65535 words. */
xe_inst *xe_inst_create(uint16_t opcode, uint32_t type_id, uint32_t result_id,
                        const uint32_t *ops, unsigned nops, const uint8_t *kinds);
/* A zeroed detached instruction of nwords words, for readers that fill
 * words, kinds and the header fields themselves. */
xe_inst *xe_inst_alloc(unsigned nwords);
/* Records i as the definition of its result id (lists do this on insert). */
void xe_note_def(xe_module *m, xe_inst *i);
/* Copy of an instruction, detached, with the same result id. */
xe_inst *xe_inst_clone(const xe_inst *i);
void xe_inst_free(xe_inst *i);

static inline unsigned xe_nops(const xe_inst *i) { return i->nwords - i->first_op; }
static inline uint32_t xe_op(const xe_inst *i, unsigned k) { return i->words[i->first_op + k]; }
/* The kind (enum xe_word_kind) of each of i's nwords words. */
static inline uint8_t *xe_kinds(const xe_inst *i)
{
   return (uint8_t *)(i->words + 2 * (size_t)i->nwords);
}
static inline uint8_t xe_op_kind(const xe_inst *i, unsigned k) { return xe_kinds(i)[i->first_op + k]; }
/* For an OpFunction made by xe_function_create: the function it starts;
 * NULL for any other instruction. */
static inline xe_function *xe_inst_function(const xe_inst *i)
{
   return i->opcode == SpvOpFunction && !i->list ? i->function_ : NULL;
}
/* The edit functions below keep the module's use lists, name, decoration
 * and SpecId indexes, defs[] and the function's analysis generations
 * current; passes change instructions only through them. */
/* Replaces operand k (a word after the result id). */
void xe_set_op(xe_inst *i, unsigned k, uint32_t value);
/* Replaces all operands; returns false if too long. */
bool xe_set_ops(xe_inst *i, const uint32_t *ops, unsigned nops, const uint8_t *kinds);
/* Changes the opcode, keeping the words. */
void xe_set_opcode(xe_inst *i, uint16_t opcode);
/* Replaces word w (an index into words[], as xe_use.word; not the result
 * id: xe_set_result). */
void xe_set_word(xe_inst *i, unsigned w, uint32_t value);
/* Changes the result type of an instruction that has one. */
void xe_set_type(xe_inst *i, uint32_t type_id);
/* Changes the result id of an instruction that has one (defs[] follows). */
void xe_set_result(xe_inst *i, uint32_t result_id);
/* Is a before b in the module's layout (sections, then functions)?  O(1). */
bool xe_layout_before(const xe_inst *a, const xe_inst *b);
/* The literal string starting at operand k (SPIR-V 2.2.1 literal string). */
const char *xe_op_string(const xe_inst *i, unsigned k);

/* ---- lists ---- */

void xe_list_append(xe_module *m, xe_list *l, xe_inst *i);
/* Appends to a block (after its terminator if it has one: callers insert
 * before the terminator with xe_list_insert_before instead). */
void xe_block_append(xe_module *m, xe_block *b, xe_inst *i);
void xe_list_insert_before(xe_module *m, xe_inst *pos, xe_inst *i);
void xe_list_insert_after(xe_module *m, xe_inst *pos, xe_inst *i);
/* Detaches i from its list and forgets its definition. */
void xe_inst_remove(xe_module *m, xe_inst *i);
/* Detaches and frees. */
void xe_inst_delete(xe_module *m, xe_inst *i);
/* Deletes i and every OpName, OpMemberName and decoration whose target is
 * its result id. */
void xe_inst_kill(xe_module *m, xe_inst *i);
/* Replaces the terminator term of its block by OpBranch target (the
 * branch is folded; phis of the old successors are the caller's).  An
 * OpSelectionMerge before term is deleted with it. */
void xe_terminator_to_branch(xe_module *m, xe_inst *term, uint32_t target);

#define xe_foreach_inst(i, l) for (xe_inst *i = (l)->first; i; i = i->next)
#define xe_foreach_inst_safe(i, n, l) \
   for (xe_inst *i = (l)->first, *n = i ? i->next : NULL; i; i = n, n = i ? i->next : NULL)
#define xe_foreach_fn(f, m) for (xe_function *f = (m)->first_fn; f; f = f->next)
#define xe_foreach_block(b, f) for (xe_block *b = (f)->first; b; b = b->next)

/* ---- functions and blocks ---- */

xe_function *xe_function_create(xe_module *m, xe_inst *def, xe_inst *end);
void xe_function_append(xe_module *m, xe_function *f);
xe_block *xe_block_create(xe_module *m, xe_function *f, uint32_t label_id);
/* Links b at the end of f (after == NULL) or after another block. */
void xe_block_insert(xe_function *f, xe_block *after, xe_block *b);
void xe_block_unlink(xe_function *f, xe_block *b);
/* Kills b's instructions and label (their names and decorations with them,
 * as xe_inst_kill) and unlinks b from f; b is gone afterwards. */
void xe_block_delete(xe_module *m, xe_function *f, xe_block *b);
/* The operands of terminator t (NULL: none) that name successor blocks: *n
 * operands from operand *first, every *step-th; only the id-kind ones among
 * them are labels (OpSwitch interleaves literals).  The one definition of
 * an edge, for the CFG and the layout facts alike (SPIR-V 3.32.17). */
void xe_terminator_successors(const xe_inst *t, unsigned *first, unsigned *step, unsigned *n);
/* f's layout facts (above): remembered on f while its blocks and
 * terminators stand (cfg_gen), else from one walk of its terminators
 * (branches.c), which uses the labels' aux as scratch and clears it.  A
 * function without blocks gets both true. */
xe_layout_facts xe_function_layout_facts(xe_module *m, xe_function *f);
/* Remembers facts as f's layout facts now, for an analysis that learned
 * them on the way (the CFG build): they must be what
 * xe_function_layout_facts would compute. */
void xe_function_remember_layout_facts(xe_function *f, xe_layout_facts facts);
/* For the checks between passes: NULL when every function's remembered
 * layout facts equal a fresh computation, else what differs (a static
 * string). */
const char *xe_check_layout_facts(xe_module *m);
/* The terminator (skipping trailing OpLine/OpNoLine), or NULL. */
xe_inst *xe_block_terminator(const xe_block *b);
/* The first instruction of b that is neither an OpPhi nor source info
 * (xe_inst_is_source_info), or NULL: where code goes after b's phis. */
xe_inst *xe_block_first_non_phi(const xe_module *m, const xe_block *b);
/* Does i only describe the source: OpLine, OpNoLine or debug info
 * (xe_inst_is_debug_info)?  Walks that look for code (a block's phis, the
 * first instruction after them or after the entry's variables, whether a
 * block holds only a branch, how many instructions a region has) skip
 * such instructions, so that `-g` changes nothing they find: llvm-spirv
 * puts DebugScope and DebugValue between a block's phis. */
bool xe_inst_is_source_info(const xe_module *m, const xe_inst *i);
/* i, or the first instruction after it that is not source info; NULL at
 * the end of i's list. */
xe_inst *xe_skip_source_info(const xe_module *m, xe_inst *i);
/* The first OpPhi at or after i with only source info before it, or NULL
 * when the first code from i on is no OpPhi.  xe_foreach_phi walks the
 * phis of block b; xe_foreach_phi_safe takes nx, the instruction after i,
 * before the body runs, so that the body may delete i. */
xe_inst *xe_phi_at(const xe_module *m, xe_inst *i);
#define xe_foreach_phi(m, i, b) \
   for (xe_inst *i = xe_phi_at((m), (b)->insts.first); i; i = xe_phi_at((m), i->next))
#define xe_foreach_phi_safe(m, i, nx, b)                                          \
   for (xe_inst *i = xe_phi_at((m), (b)->insts.first), *nx = i ? i->next : NULL; i; \
        i = xe_phi_at((m), nx), nx = i ? i->next : NULL)
xe_function *xe_function_by_id(const xe_module *m, uint32_t id);
/* A copy of f with fresh ids for the function, its parameters, labels and
 * results (taken in layout order), appended to the module; references to
 * ids defined outside f are kept.  Names and decorations are not copied. */
xe_function *xe_function_clone(xe_module *m, xe_function *f);
/* Position of OpFunctionParameter id among f's parameters, -1 if none. */
int xe_param_index(const xe_function *f, uint32_t id);
static inline uint32_t xe_block_id(const xe_block *b) { return b->label->result_id; }
static inline uint32_t xe_function_id(const xe_function *f) { return f->def->result_id; }

/* ---- opcode facts ---- */

bool xe_opcode_is_terminator(uint16_t op);
bool xe_opcode_is_branch(uint16_t op);
const char *xe_opcode_name(uint16_t op);   /* "OpIAdd"; "Op<n>" when unknown */
enum xe_section xe_opcode_section(uint16_t op);
/* The operand index (as xe_op counts) of the Memory Operands mask of an
 * OpLoad (1) or OpStore (2); 0 for any other opcode.  The mask itself is
 * optional: present only when xe_nops(i) is larger. */
unsigned xe_memory_operands_index(const xe_inst *i);
/* Whether i is an OpLoad or OpStore whose Memory Operands include Volatile. */
bool xe_access_is_volatile(const xe_inst *i);

/* ---- def-use (on demand) ---- */

typedef struct xe_use {
   xe_inst *inst;
   uint16_t word;     /* index into inst->words */
} xe_use;

/* Is use u the callee operand of an OpFunctionCall (a call of the id whose
 * use it is), not an argument? */
static inline bool xe_use_is_call(const xe_use *u)
{
   return u->inst->opcode == SpvOpFunctionCall && u->word == u->inst->first_op;
}

/* Is i an OpExtInst of a debug-info instruction set (OpenCL.DebugInfo.100,
 * NonSemantic.Shader.DebugInfo.100/.200, the older DebugInfo and
 * SPIRV.debug)?  Such instructions describe the source and have no effect:
 * `-g` must not change what is optimized, so they are no uses for any
 * analysis (below), and what a pass deletes they may no longer name
 * (xe_debug_info_repair, src/passes/passes.h, fixes them after each pass). */
bool xe_inst_is_debug_info(const xe_module *m, const xe_inst *i);

/* Every use of id in layout order, as a pointer to *count entries owned by
 * the module: a copy of id's use list taken now, so the caller may edit the
 * users while walking it.  Debug-info instructions (xe_inst_is_debug_info)
 * are not uses, here nor in xe_uses_unordered and xe_use_count;
 * xe_replace_all_uses rewrites them with the rest.  The copy lives until xe_module_invalidate or
 * xe_uses_release.  The use lists are built on the first call (one walk of
 * the module) and kept current by the edit functions afterwards. */
const xe_use *xe_uses(xe_module *m, uint32_t id, uint32_t *count);
/* The same uses in no particular order, for callers that order (or group)
 * them themselves: it skips the sort xe_uses may need after edits, which
 * for an id used in every kernel (a built-in variable, a common type) is
 * O(n log n) each time the layout changed. */
const xe_use *xe_uses_unordered(xe_module *m, uint32_t id, uint32_t *count);
/* Every global OpVariable (storage class other than Function), in no
 * particular order: *count entries owned by the module, valid until the
 * next edit.  O(1) once the use lists exist (they keep it). */
xe_inst *const *xe_global_variables(xe_module *m, uint32_t *count);
/* Number of uses of id, O(1) once the use lists exist. */
uint32_t xe_use_count(xe_module *m, uint32_t id);
/* Frees the copies xe_uses returned (the pipeline does it between passes). */
void xe_uses_release(xe_module *m);
/* Rewrites every reference to from into to (not the definition), in time
 * proportional to from's uses; debug info follows the value.  Nothing is
 * deleted: xe_delete_if_dead (below) then removes from's definition. */
void xe_replace_all_uses(xe_module *m, uint32_t from, uint32_t to);
/* ---- clean-up after a rewrite (cleanup.c) ---- */

/* Is id's value used by nothing but names and decorations: every use of it
 * is the target of an instruction in the debug-name or annotation section
 * (OpName, OpDecorate, ...)?  Debug info does not count (as in xe_uses).
 * True for an id with no uses at all.  O(uses of id). */
bool xe_result_unused(xe_module *m, uint32_t id);
/* Deletes i (as xe_inst_kill: with its names and decorations) when it is
 * in a function's block, has no effect but its result (xe_inst_info is
 * PURE or ADDRESS only, or a Function OpVariable; no loads, labels or
 * debug info) and xe_result_unused; then, the same way, each definition
 * among its id operands that this left unused, recursively, first operand
 * first.  i may be NULL.  Returns whether i was deleted; i and every
 * deleted operand definition are freed. */
bool xe_delete_if_dead(xe_module *m, xe_inst *i);
/* Drops from each OpPhi of b the entries (value, parent) whose parent is
 * the label pred, e.g. after pred's branch to b was removed.  Phis that
 * have no such entry are left as they are. */
void xe_phi_remove_pred(xe_module *m, xe_block *b, uint32_t pred);

/* Compares the use lists and indexes with a fresh walk of the module;
 * false with a malloc'd *err naming the first difference.  True when the
 * lists were never built. */
bool xe_check_uses(xe_module *m, char **err);

/* ---- module facts ---- */

/* The newest version xeopt writes when it raises one: ocloc 22.43 (IGC)
 * rejects SPIR-V 1.5 and 1.6 modules without a message. */
#define XE_MAX_RAISED_VERSION 0x00010400u
/* Makes the module declare at least SPIR-V version (0x00010100 = 1.1) for an
 * instruction, capability or mode a pass emits.  A newer version only adds
 * to what 1.0 allows for Kernel modules up to 1.3 (1.4 adds the
 * interface-list rule, which the interface-vars pass repairs).  Returns
 * false, changing nothing, when version is above XE_MAX_RAISED_VERSION
 * and the module is older: the caller must not emit what needed it. */
bool xe_require_version(xe_module *m, uint32_t version);

/* The OpName of id, or NULL. */
const char *xe_name(const xe_module *m, uint32_t id);
/* How remarks name an id: "%name" from its OpName, else "%<id>" (the
 * disassembler's spelling); written to buf (n bytes), which is returned. */
const char *xe_id_text(const xe_module *m, uint32_t id, char *buf, size_t n);
/* Finds decoration dec on id; copies up to nvals literal words after it. */
bool xe_decoration(const xe_module *m, uint32_t id, SpvDecoration dec, uint32_t *vals,
                   unsigned nvals);
/* Whether id (a function or variable) carries LinkageAttributes other than
 * Import: another module linked with this one (zeModuleDynamicLink) may
 * use it, so its signature and behaviour for any argument must stay. */
bool xe_is_exported(const xe_module *m, uint32_t id);
/* OpenCL C's to_global(), to_local() and to_private() (OpenCL C 3.0,
 * "Address Space Qualifier Functions") as clang's SPIR-V backend
 * writes them: fn_id is a function without a body, LinkageAttributes
 * Import named __to_global, __to_local or __to_private, taking one Generic
 * pointer and returning a pointer to the same type in CrossWorkgroup,
 * Workgroup or Function.  Such a call means OpGenericCastToPtrExplicit to
 * that class (null when the pointer is in another), which this returns;
 * SpvStorageClassMax for any other function. */
uint32_t xe_import_generic_cast(const xe_module *m, uint32_t fn_id);
bool xe_has_capability(const xe_module *m, SpvCapability cap);
/* Adds the capability, raising the module version when the capability
 * needs a newer one (SubgroupDispatch: 1.1; see xe_require_version). */
void xe_add_capability(xe_module *m, SpvCapability cap);
bool xe_has_extension(const xe_module *m, const char *name);
void xe_add_extension(xe_module *m, const char *name);
/* The id of the OpenCL.std import, adding it when add is set; 0 if none. */
uint32_t xe_opencl_std(xe_module *m, bool add);

/* Entry points of the Kernel execution model. */
typedef struct xe_kernel {
   xe_inst *entry;        /* OpEntryPoint */
   xe_function *fn;       /* the entry-point function */
   /* Where the work happens.  llvm-spirv-15 emits each kernel as a wrapper
    * entry function whose one instruction is an OpFunctionCall of the body
    * with the wrapper's parameters in order; then body is that callee and
    * its parameter k is kernel argument k.  Otherwise body == fn. */
   xe_function *body;
   unsigned body_callers;    /* OpFunctionCall sites of body in the module */
   unsigned fn_callers;      /* OpFunctionCall sites of fn (a kernel may call
                              * another's entry function) */
   const char *name;
   uint32_t local_size[3];   /* 0 when no LocalSize execution mode */
   uint32_t subgroup_size;   /* 0 when no SubgroupSize execution mode */
} xe_kernel;
/* Fills up to max kernels; returns the number of Kernel entry points. */
unsigned xe_kernels(const xe_module *m, xe_kernel *out, unsigned max);
/* Every kernel, in a malloc'd array the caller frees; *n gets the count. */
xe_kernel *xe_kernels_all(const xe_module *m, unsigned *n);
/* The kernel list is remembered while nothing it depends on changes (see
 * facts.c).  When the memo is current, compares it with a fresh list: NULL
 * when equal, else what differs (a static string), for the checks between
 * passes. */
const char *xe_check_kernels(xe_module *m);
bool xe_kernel_by_name(const xe_module *m, const char *name, xe_kernel *out);
/* Number of OpFunctionCall instructions calling f. */
unsigned xe_function_callers(const xe_module *m, const xe_function *f);
/* Sets or adds an execution mode with literal operands, raising the module
 * version when the mode needs a newer one (SubgroupSize: 1.1). */
void xe_set_execution_mode(xe_module *m, uint32_t fn_id, SpvExecutionMode mode,
                           const uint32_t *lits, unsigned n);

/* The built-in that a global OpVariable is decorated with, or -1. */
int xe_builtin_of(const xe_module *m, uint32_t var_id);

/* Integer value of an OpConstant of integer type (zero-extended); false
 * when id is not such a constant. */
bool xe_const_uint(const xe_module *m, uint32_t id, uint64_t *value);
/* When var is an OpVariable whose pointee is an OpTypeArray with an
 * integer OpConstant length (SPIR-V 3.32.6; a specialization-constant
 * length does not count): the array type's id, with *len its length in
 * elements and *elem its element type id.  Otherwise 0, and *len and *elem
 * are not written. */
uint32_t xe_variable_array(const xe_module *m, const xe_inst *var, uint64_t *len, uint32_t *elem);
/* Bit width of an integer or float type id, 0 otherwise. */
unsigned xe_type_width(const xe_module *m, uint32_t type_id);
/* Size in bytes of a type for Physical64 addressing as OpenCL C lays it
 * out (src/ir/layout.c), 0 if unknown (runtime arrays, opaque types); with
 * align non-NULL, *align gets its alignment in bytes. */
uint64_t xe_type_layout(const xe_module *m, uint32_t type_id, uint64_t *align);
uint64_t xe_type_size(const xe_module *m, uint32_t type_id);
/* Byte offset of member k of struct type struct_id. */
uint64_t xe_type_member_offset(const xe_module *m, uint32_t struct_id, unsigned k);

/* Out of memory (oom.c).  Every allocation failure in the library calls
 * xe_out_of_memory, which longjmps to the target armed on this thread by
 * xe_oom_arm (the driver's xe_optimize_ex; it returns the previous target,
 * to re-arm when done), or prints a message and exits with 2 when none is.  The
 * jump leaves what the failed call had allocated to the frame that armed
 * it (see driver.c). */
jmp_buf *xe_oom_arm(jmp_buf *target);
_Noreturn void xe_out_of_memory(void);
/* calloc(n, size), n of 0 counted as 1 so that the result is never NULL;
 * xe_out_of_memory when it fails.  Free with free(). */
void *xe_calloc(size_t n, size_t size);

#endif
