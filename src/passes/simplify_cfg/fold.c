/*
 * simplify-cfg, rewrites "fold" and "unreachable blocks".
 *
 * Fold: an OpSwitch whose selector can take only known values (below) that
 * all select one target, and an OpBranchConditional on a constant or with
 * both targets equal, become OpBranch; the successors left lose their
 * OpPhi entries for the block.  The selector's phis, when nothing else
 * uses them, are deleted.
 * Known values: an integer constant (OpConstantNull is 0; OpUndef may be
 * any value, so it constrains nothing); an OpPhi, the union of its
 * incoming values' sets (phi cycles add nothing); an OpSelect, the union
 * of its two operands' sets; an OpLoad of a Function-storage OpVariable
 * used only by non-volatile loads and stores (the cleanup slot before
 * mem2reg): the values stored and the initializer.  A load before any
 * store reads an undefined value, so any target is right for it.
 * Anything else is unknown, and the switch stays (remark).
 *
 * Unreachable blocks (no path from the entry) are deleted, with their
 * entries in the phis of reachable blocks, when no reachable instruction
 * other than such a phi entry uses what they define.
 *
 * Both are made in every function the pass enters (pass.c: they never made
 * a kernel longer on their own).  Only the values a selector can hold at
 * run time decide a fold.
 */
#include <stdlib.h>

#include "cfg.h"
#include "simplify_cfg.h"

/* A switch that can take more values than this is left alone. */
#define MAX_VALUES 16

/* The values a selector can hold, and the phis and variables followed. */
typedef struct valset {
   unsigned n;
   uint64_t v[MAX_VALUES];
   unsigned nseen;
   uint32_t seen[MAX_SEEN];   /* phis and variables already followed */
} valset;

static bool add_value(valset *s, uint64_t v)
{
   for (unsigned k = 0; k < s->n; k++) {
      if (s->v[k] == v)
         return true;
   }
   if (s->n == MAX_VALUES)
      return false;
   s->v[s->n++] = v;
   return true;
}

/* Marks id as followed; false when it was already (or the table is full:
 * then *full is set). */
static bool first_visit(valset *s, uint32_t id, bool *full)
{
   for (unsigned k = 0; k < s->nseen; k++) {
      if (s->seen[k] == id)
         return false;
   }
   if (s->nseen == MAX_SEEN) {
      *full = true;
      return false;
   }
   s->seen[s->nseen++] = id;
   return true;
}

static bool values_of(xe_module *m, uint32_t id, valset *s);

/* The values a load of a private slot variable can return. */
static bool slot_values(xe_module *m, const xe_inst *load, valset *s)
{
   if (scfg_volatile_access(load, 1))
      return false;
   uint32_t var = xe_op(load, 0);
   const xe_inst *v = xe_def(m, var);
   if (!v || v->opcode != SpvOpVariable || !v->block || xe_op(v, 0) != SpvStorageClassFunction)
      return false;
   bool full = false;
   if (!first_visit(s, var, &full))
      return !full;
   if (xe_nops(v) > 1 && !values_of(m, xe_op(v, 1), s))
      return false;
   uint32_t n = 0;
   const xe_use *u = xe_uses(m, var, &n);
   for (uint32_t k = 0; k < n; k++) {
      const xe_inst *i = u[k].inst;
      if (!i->block)
         continue; /* OpName, decorations */
      bool ptr = u[k].word == i->first_op;
      if (i->opcode == SpvOpLoad && ptr && !scfg_volatile_access(i, 1))
         continue;
      if (i->opcode == SpvOpLifetimeStart || i->opcode == SpvOpLifetimeStop)
         continue;
      if (i->opcode == SpvOpStore && ptr && !scfg_volatile_access(i, 2)) {
         if (!values_of(m, xe_op(i, 1), s))
            return false;
         continue;
      }
      return false; /* the address escapes, or something else writes it */
   }
   return true;
}

/* Adds every value id can hold at run time to s; false when unknown. */
static bool values_of(xe_module *m, uint32_t id, valset *s)
{
   uint64_t v;
   if (xe_const_uint(m, id, &v))
      return add_value(s, v);
   const xe_inst *d = xe_def(m, id);
   if (!d)
      return false;
   if (d->opcode == SpvOpConstantNull)
      return add_value(s, 0);
   if (d->opcode == SpvOpUndef)
      return true;
   if (d->opcode == SpvOpPhi) {
      bool full = false;
      if (!first_visit(s, id, &full))
         return !full;
      for (unsigned k = 0; k + 1 < xe_nops(d); k += 2) {
         if (!values_of(m, xe_op(d, k), s))
            return false;
      }
      return true;
   }
   if (d->opcode == SpvOpSelect)
      return values_of(m, xe_op(d, 1), s) && values_of(m, xe_op(d, 2), s);
   if (d->opcode == SpvOpLoad)
      return slot_values(m, d, s);
   return false;
}

/* The label an OpSwitch selects for selector value v. */
static uint32_t switch_target(xe_module *m, const xe_inst *t, uint64_t v)
{
   const xe_inst *sel = xe_def(m, xe_op(t, 0));
   unsigned w = sel ? xe_type_width(m, sel->type_id) : 32;
   unsigned lw = w > 32 ? 2 : 1;
   uint64_t mask = w >= 64 || w == 0 ? ~0ull : (1ull << w) - 1;
   for (unsigned k = 2; k + lw < xe_nops(t); k += lw + 1) {
      uint64_t lit = xe_op(t, k);
      if (lw == 2)
         lit |= (uint64_t)xe_op(t, k + 1) << 32;
      if ((lit & mask) == (v & mask))
         return xe_op(t, k + lw);
   }
   return xe_op(t, 1);
}

/* Replaces b's terminator t by OpBranch target. */
static void fold_to(simplify *c, xe_block *b, xe_inst *t, uint32_t target)
{
   uint32_t labels[64], nl = 0;
   for (unsigned k = 0; k < xe_nops(t) && nl < 64; k++) {
      uint32_t v = xe_op(t, k);
      if (xe_op_kind(t, k) != XE_W_ID || v == target || !scfg_block_of_label(c->m, v))
         continue;
      bool have = false;
      for (unsigned q = 0; q < nl; q++)
         have |= labels[q] == v;
      if (!have)
         labels[nl++] = v;
   }
   uint32_t sel = xe_op(t, 0);
   xe_terminator_to_branch(c->m, t, target);
   for (unsigned q = 0; q < nl; q++)
      xe_phi_remove_pred(c->m, scfg_block_of_label(c->m, labels[q]), xe_block_id(b));
   scfg_delete_dead_selector(c->m, sel);
   c->folded++;
}

static const char *label_text(xe_module *m, uint32_t id, char *buf, size_t n)
{
   return xe_id_text(m, id, buf, n);
}

static bool fold_block(simplify *c, xe_block *b)
{
   xe_inst *t = xe_block_terminator(b);
   if (!t || scfg_has_merge(t))
      return false;
   if (t->opcode == SpvOpBranchConditional) {
      const xe_inst *cd = xe_def(c->m, xe_op(t, 0));
      if (xe_op(t, 1) == xe_op(t, 2)) {
         fold_to(c, b, t, xe_op(t, 1));
         return true;
      }
      if (cd && (cd->opcode == SpvOpConstantTrue || cd->opcode == SpvOpConstantFalse)) {
         fold_to(c, b, t, xe_op(t, cd->opcode == SpvOpConstantTrue ? 1 : 2));
         return true;
      }
      return false;
   }
   if (t->opcode != SpvOpSwitch)
      return false;
   valset s;
   s.n = s.nseen = 0;
   char bb[64], sb[64];
   uint32_t target = 0;
   if (values_of(c->m, xe_op(t, 0), &s)) {
      for (unsigned k = 0; k < s.n && target != UINT32_MAX; k++) {
         uint32_t tk = switch_target(c->m, t, s.v[k]);
         target = target == 0 || target == tk ? tk : UINT32_MAX;
      }
      if (target == 0)
         target = xe_op(t, 1); /* only undefined values: any target is right */
      if (target != UINT32_MAX) {
         fold_to(c, b, t, target);
         return true;
      }
      xe_remark(c->r, scfg_fname_of(c), XE_REMARK_MISSED,
                "switch on %s in block %s stays: its %u possible values select different blocks",
                xe_id_text(c->m, xe_op(t, 0), sb, sizeof sb),
                label_text(c->m, xe_block_id(b), bb, sizeof bb), s.n);
      return false;
   }
   xe_remark(c->r, scfg_fname_of(c), XE_REMARK_MISSED,
             "switch on %s in block %s stays: the selector is not a known constant",
             xe_id_text(c->m, xe_op(t, 0), sb, sizeof sb),
             label_text(c->m, xe_block_id(b), bb, sizeof bb));
   return false;
}

/* Pass over every block once; a switch that stays says so only the first
 * time (quiet afterwards). */
bool scfg_fold_all(simplify *c, bool quiet)
{
   xe_remarks *r = c->r;
   if (quiet)
      c->r = NULL;
   bool changed = false;
   xe_foreach_block(b, c->f)
      changed |= fold_block(c, b);
   c->r = r;
   return changed;
}

/* ---- unreachable blocks ---- */

bool scfg_delete_unreachable(simplify *c)
{
   const xe_cfg *cfg = xe_function_cfg(c->f);
   if (cfg->nrpo == cfg->n)
      return false;
   xe_module *m = c->m;
   uint8_t *dead = calloc(cfg->n, 1);
   for (uint32_t b = 0; b < cfg->n; b++)
      dead[b] = cfg->rpo_index[b] == XE_NONE;
   /* Anything a dead block defines may be used only by dead blocks, names
    * and decorations, or as a phi entry whose parent is dead. */
   bool ok = true;
   for (uint32_t b = 0; b < cfg->n && ok; b++) {
      if (!dead[b])
         continue;
      xe_block *blk = cfg->blocks[b];
      for (xe_inst *i = blk->label; i && ok; i = i == blk->label ? blk->insts.first : i->next) {
         if (!i->result_id)
            continue;
         uint32_t n = 0;
         const xe_use *u = xe_uses(m, i->result_id, &n);
         for (uint32_t k = 0; k < n && ok; k++) {
            const xe_inst *ui = u[k].inst;
            if (scfg_is_meta(ui))
               continue;
            if (!ui->block || ui->block->fn != c->f) {
               ok = false;
               break;
            }
            uint32_t ub = xe_cfg_block_index(cfg, xe_block_id(ui->block));
            if (ub != XE_NONE && dead[ub])
               continue;
            if (ui->opcode == SpvOpPhi) {
               unsigned op = u[k].word - ui->first_op;
               uint32_t parent = xe_op(ui, op % 2 ? op : op + 1);
               uint32_t pb = xe_cfg_block_index(cfg, parent);
               if (pb != XE_NONE && dead[pb])
                  continue;
            }
            ok = false;
         }
      }
   }
   if (!ok) {
      free(dead);
      return false;
   }
   /* Phi entries from dead blocks in live successors. */
   for (uint32_t b = 0; b < cfg->n; b++) {
      if (!dead[b])
         continue;
      for (uint32_t e = cfg->succ_start[b]; e < cfg->succ_start[b + 1]; e++) {
         uint32_t s = cfg->succ[e];
         if (!dead[s])
            xe_phi_remove_pred(m, cfg->blocks[s], xe_block_id(cfg->blocks[b]));
      }
   }
   for (uint32_t b = 0; b < cfg->n; b++) {
      if (!dead[b])
         continue;
      xe_block_delete(m, c->f, cfg->blocks[b]);
      c->deleted++;
   }
   free(dead);
   return true;
}

