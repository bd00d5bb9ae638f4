/*
 * interface-vars: list every global variable an entry point uses in its
 * OpEntryPoint interface.
 *
 * From SPIR-V 1.4 the interface of an entry point must name every global
 * OpVariable that the entry point's static call tree references (2.16.1 of
 * the spec; spirv-val checks it).  llvm-spirv-15 omits the UniformConstant
 * arrays it makes for constant initializers (a private array's initial
 * values, copied with OpCopyMemorySized), so such modules do not validate,
 * though IGC takes them.  Adding the missing ids changes nothing else.
 *
 * IGC 22.43 (the ocloc and Level Zero compiler Debian 12 ships) fails on an
 * OpEntryPoint whose interface names an id above 65536 ("IGC SPIRV Consumer
 * does not support the following opcode: N", or a crash; found on the
 * hashcat kernels Intel's front end compiles, whose constant tables get ids
 * above 100,000: the same module with the variable renamed to 65536
 * compiles, to 65537 does not).  Ids are only names, so a variable the pass
 * adds with such an id trades it for a lower one (rename_low).
 *
 * Host contract: none.  Before 1.4 only Input and Output variables belong
 * in the interface, and the pass does nothing for them (llvm-spirv lists
 * its built-ins).
 */
#include <stdlib.h>
#include <string.h>

#include "passes.h"

static bool is_global_var(const xe_module *m, uint32_t id)
{
   xe_inst *d = xe_def(m, id);
   return d && d->opcode == SpvOpVariable && !d->block && xe_op(d, 0) != SpvStorageClassFunction;
}

/* The largest id IGC 22.43 accepts in an entry-point interface. */
#define IGC_MAX_INTERFACE_ID 65536u

/* Renames every occurrence of id from (definition and uses) to to. */
static void rename_id(xe_module *m, uint32_t from, uint32_t to)
{
   xe_inst *d = xe_def(m, from);
   xe_replace_all_uses(m, from, to);
   xe_set_result(d, to);
}

/* Gives global variable id an id of at most IGC_MAX_INTERFACE_ID: a free
 * one when there is one, else it swaps ids with the result of an
 * instruction inside a function (never an interface variable).  Returns the
 * new id, or id when neither exists. */
static uint32_t rename_low(xe_module *m, uint32_t id)
{
   uint32_t top = m->bound - 1 < IGC_MAX_INTERFACE_ID ? m->bound - 1 : IGC_MAX_INTERFACE_ID;
   for (uint32_t k = 1; k <= top; k++) {
      if (!xe_def(m, k) && !xe_use_count(m, k)) {
         rename_id(m, id, k);
         return k;
      }
   }
   for (uint32_t k = top; k >= 1; k--) {
      xe_inst *d = xe_def(m, k);
      if (!d || !d->block)
         continue;
      uint32_t tmp = xe_fresh_id(m);
      rename_id(m, id, tmp);
      rename_id(m, k, id);
      rename_id(m, tmp, k);
      return k;
   }
   return id;
}

/* Collects the functions reachable from f, marking them with stamp. */
static void reach(xe_module *m, xe_function *f, uint32_t stamp, xe_function ***seen, unsigned *n)
{
   xe_function **stack = NULL;
   unsigned sp = 0;
   f->mark = stamp;
   stack = realloc(stack, sizeof(*stack));
   stack[sp++] = f;
   while (sp) {
      xe_function *g = stack[--sp];
      *seen = realloc(*seen, (*n + 1) * sizeof(**seen));
      (*seen)[(*n)++] = g;
      xe_foreach_block(b, g) {
         xe_foreach_inst(i, &b->insts) {
            if (i->opcode != SpvOpFunctionCall)
               continue;
            xe_function *callee = xe_function_by_id(m, xe_op(i, 0));
            if (callee && callee->mark != stamp) {
               callee->mark = stamp;
               stack = realloc(stack, (sp + 1) * sizeof(*stack));
               stack[sp++] = callee;
            }
         }
      }
   }
   free(stack);
}

static bool listed(const xe_inst *ep, unsigned first, uint32_t id)
{
   for (unsigned k = first; k < xe_nops(ep); k++) {
      if (xe_op(ep, k) == id)
         return true;
   }
   return false;
}

/* Index of the first interface operand: after the name's words. */
static unsigned interface_start(const xe_inst *ep)
{
   unsigned k = 2;
   while (k < xe_nops(ep) && xe_op_kind(ep, k) == XE_W_LIT)
      k++;
   return k;
}

static bool fix_entry(xe_module *m, xe_inst *ep, uint32_t stamp, xe_remarks *r)
{
   xe_function *fn = xe_function_by_id(m, xe_op(ep, 1));
   if (!fn)
      return false;
   unsigned nfn = 0;
   xe_function **seen = NULL;
   reach(m, fn, stamp, &seen, &nfn);
   unsigned first = interface_start(ep);
   uint32_t *add = NULL;
   unsigned nadd = 0;
   for (unsigned f = 0; f < nfn; f++) {
      xe_foreach_block(b, seen[f]) {
         xe_foreach_inst(i, &b->insts) {
            for (unsigned w = i->first_op; w < i->nwords; w++) {
               uint32_t id = i->words[w];
               if (i->kinds[w] != XE_W_ID || !is_global_var(m, id) || listed(ep, first, id))
                  continue;
               bool dup = false;
               for (unsigned k = 0; k < nadd; k++)
                  dup |= add[k] == id;
               if (dup)
                  continue;
               add = realloc(add, (nadd + 1) * sizeof(*add));
               add[nadd++] = id;
            }
         }
      }
   }
   free(seen);
   if (!nadd)
      return false;
   unsigned renamed = 0;
   for (unsigned k = 0; k < nadd; k++) {
      if (add[k] > IGC_MAX_INTERFACE_ID) {
         uint32_t low = rename_low(m, add[k]);
         renamed += low != add[k];
         add[k] = low;
      }
   }
   unsigned n = xe_nops(ep);
   uint32_t *ops = malloc((n + nadd) * sizeof(uint32_t));
   uint8_t *kinds = malloc(n + nadd);
   for (unsigned k = 0; k < n; k++) {
      ops[k] = xe_op(ep, k);
      kinds[k] = xe_op_kind(ep, k);
   }
   for (unsigned k = 0; k < nadd; k++) {
      ops[n + k] = add[k];
      kinds[n + k] = XE_W_ID;
   }
   bool ok = xe_set_ops(ep, ops, n + nadd, kinds);
   if (ok)
      xe_remark(r, xe_op_string(ep, 2), XE_REMARK_APPLIED,
                "added %u global variable%s the kernel uses to its entry-point interface "
                "(required from SPIR-V 1.4)", nadd, nadd == 1 ? "" : "s");
   if (ok && renamed)
      xe_remark(r, xe_op_string(ep, 2), XE_REMARK_NOTE,
                "renumbered %u of them to ids of at most %u: IGC 22.43 fails on larger ids in "
                "an entry-point interface", renamed, IGC_MAX_INTERFACE_ID);
   free(ops);
   free(kinds);
   free(add);
   return ok;
}

bool xeopt_pass_interface_vars(xe_ctx *ctx)
{
   xe_module *m = ctx->module;
   xe_remarks *r = ctx->remarks;
   if (m->version < 0x10400)
      return false;
   bool progress = false;
   uint32_t stamp = 0;
   xe_foreach_fn(f, m)
      f->mark = 0;
   xe_foreach_inst(ep, &m->sec[XE_SEC_ENTRY_POINT])
      progress |= fix_entry(m, ep, ++stamp, r);
   xe_foreach_fn(f, m)
      f->mark = 0;
   return progress;
}
