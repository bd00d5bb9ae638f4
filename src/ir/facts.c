/*
 * Questions passes ask about a module: capabilities, kernels and their
 * execution modes, constants and types.  Look-ups by id (a kernel's
 * execution modes, its callers) go through the use lists (indexes.c), which
 * also answer names, decorations and SpecIds; only the small module-level
 * sections (capabilities, extensions, imports, entry points) are scanned.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "ir_internal.h"

/* ---- opcode names (table generated from the grammar) ---- */

extern const struct { uint16_t op; const char *name; } xe_opnames[];
extern const size_t xe_opnames_count;

const char *xe_opcode_name(uint16_t op)
{
   for (size_t k = 0; k < xe_opnames_count; k++) {
      if (xe_opnames[k].op == op)
         return xe_opnames[k].name;
   }
   static _Thread_local char buf[16];
   snprintf(buf, sizeof(buf), "Op%u", op);
   return buf;
}

/* ---- capabilities and extensions ---- */

bool xe_has_capability(const xe_module *m, SpvCapability cap)
{
   xe_foreach_inst(i, &m->sec[XE_SEC_CAPABILITY]) {
      if (xe_op(i, 0) == (uint32_t)cap)
         return true;
   }
   return false;
}

bool xe_require_version(xe_module *m, uint32_t version)
{
   if (m->version >= version)
      return true;
   if (version > XE_MAX_RAISED_VERSION)
      return false;
   m->version = version;
   return true;
}

/* The SPIR-V version that introduced a capability or execution mode xeopt
 * may add (the grammar's "version" field); 1.0 for the others. */
static uint32_t capability_version(SpvCapability cap)
{
   switch (cap) {
   case SpvCapabilitySubgroupDispatch:
   case SpvCapabilityNamedBarrier:
   case SpvCapabilityPipeStorage:
      return 0x00010100;
   case SpvCapabilityGroupNonUniform:
   case SpvCapabilityGroupNonUniformVote:
   case SpvCapabilityGroupNonUniformArithmetic:
   case SpvCapabilityGroupNonUniformBallot:
   case SpvCapabilityGroupNonUniformShuffle:
   case SpvCapabilityGroupNonUniformShuffleRelative:
   case SpvCapabilityGroupNonUniformClustered:
   case SpvCapabilityGroupNonUniformQuad:
      return 0x00010300;
   default:
      return 0x00010000;
   }
}

static uint32_t mode_version(SpvExecutionMode mode)
{
   switch (mode) {
   case SpvExecutionModeSubgroupSize:
   case SpvExecutionModeSubgroupsPerWorkgroup:
   case SpvExecutionModeFinalizer:
   case SpvExecutionModeInitializer:
      return 0x00010100;
   case SpvExecutionModeLocalSizeId:
   case SpvExecutionModeLocalSizeHintId:
   case SpvExecutionModeSubgroupsPerWorkgroupId:
      return 0x00010200;
   default:
      return 0x00010000;
   }
}

void xe_add_capability(xe_module *m, SpvCapability cap)
{
   xe_require_version(m, capability_version(cap));
   if (xe_has_capability(m, cap))
      return;
   uint8_t k = XE_W_LIT;
   uint32_t c = cap;
   xe_list_append(m, &m->sec[XE_SEC_CAPABILITY], xe_inst_create(SpvOpCapability, 0, 0, &c, 1, &k));
}

/* ---- kernels ---- */

/* The OpExecutionMode instructions of function fn_id, in layout order:
 * they are uses of fn_id (operand 0), so no walk of the section. */
static const xe_use *mode_uses(const xe_module *m, uint32_t fn_id, uint32_t *n)
{
   /* The use lists are a cache: asking does not change the module. */
   return xe__uses_peek((xe_module *)m, fn_id, n, true);
}

static bool is_mode_of(const xe_use *u)
{
   return u->inst->opcode == SpvOpExecutionMode && u->word == u->inst->first_op &&
          u->inst->list == &u->inst->list->m->sec[XE_SEC_EXECUTION_MODE];
}

static void kernel_modes(const xe_module *m, xe_kernel *k)
{
   uint32_t fn = xe_op(k->entry, 1), n;
   const xe_use *u = mode_uses(m, fn, &n);
   for (uint32_t j = 0; j < n; j++) {
      xe_inst *i = u[j].inst;
      if (!is_mode_of(&u[j]))
         continue;
      if (xe_op(i, 1) == SpvExecutionModeLocalSize && xe_nops(i) >= 5) {
         for (int d = 0; d < 3; d++)
            k->local_size[d] = xe_op(i, 2 + d);
      } else if (xe_op(i, 1) == SpvExecutionModeSubgroupSize && xe_nops(i) >= 3) {
         k->subgroup_size = xe_op(i, 2);
      }
   }
}

unsigned xe_function_callers(const xe_module *m, const xe_function *f)
{
   /* Def-use is a cache: computing it does not change the module. */
   return xe__call_count((xe_module *)m, xe_function_id(f));
}

/* The callee when fn is "OpFunctionCall body(params in order); OpReturn". */
static xe_function *wrapped_body(const xe_module *m, xe_function *fn)
{
   if (!fn || !fn->first || fn->first != fn->last)
      return NULL;
   xe_inst *call = NULL;
   unsigned nparams = 0;
   xe_foreach_inst(p, &fn->params) {
      if (p->opcode == SpvOpFunctionParameter)
         nparams++;
   }
   xe_foreach_inst(i, &fn->first->insts) {
      if (xe_inst_is_source_info(m, i))
         continue;
      if (i->opcode == SpvOpFunctionCall && !call)
         call = i;
      else if (i->opcode != SpvOpReturn || !call)
         return NULL;
   }
   if (!call || xe_nops(call) != 1 + nparams)
      return NULL;
   unsigned k = 0;
   xe_foreach_inst(p, &fn->params) {
      if (p->opcode == SpvOpFunctionParameter && xe_op(call, 1 + k++) != p->result_id)
         return NULL;
   }
   return xe_function_by_id(m, xe_op(call, 0));
}

static void kernel_fill(const xe_module *m, xe_inst *ep, xe_kernel *k)
{
   memset(k, 0, sizeof(*k));
   k->entry = ep;
   k->fn = xe_function_by_id(m, xe_op(ep, 1));
   k->name = xe_op_string(ep, 2);
   k->body = wrapped_body(m, k->fn);
   if (!k->body)
      k->body = k->fn;
   k->body_callers = k->body ? xe_function_callers(m, k->body) : 0;
   k->fn_callers = k->body == k->fn ? k->body_callers : k->fn ? xe_function_callers(m, k->fn) : 0;
   kernel_modes(m, k);
}

/*
 * The kernel list, remembered.  Every pass lists the kernels, and at a few
 * thousand kernels filling one entry costs about eight cache misses (the
 * entry function, its wrapper call, the body, their use lists and the
 * execution modes): listing them again in every pass was a large part of
 * the passes that do little else.  The list depends on the entry points
 * and execution modes (entry_gen), on the callers of each body (calls_gen),
 * on the code of each entry function (its code_gen: the wrapper test) and
 * on nothing else, so it is kept while those counters stand; functions are
 * never freed before the module, so the pointers stay good.  Checking the
 * memo reads only the entry functions' structures.  When only the code of
 * some entry functions changed (a pass rewrote kernels that are their own
 * body), only their entries are filled again.  Like the use lists, the
 * memo outlives xe_module_invalidate: the edit functions keep its counters.
 */
struct xe_kernel_memo {
   uint32_t entry_gen, calls_gen;
   unsigned n;
   xe_kernel *v;
   uint32_t *fn_gen;         /* v[k].fn->code_gen when filled */
};

/* Is the memo current?  Refills, in place, the entries of entry functions
 * whose code changed when nothing else did. */
static bool memo_valid(const xe_module *m, struct xe_kernel_memo *km)
{
   if (!km || km->entry_gen != m->entry_gen || km->calls_gen != m->calls_gen)
      return false;
   for (unsigned k = 0; k < km->n; k++) {
      xe_function *f = km->v[k].fn;
      if (f && f->code_gen != km->fn_gen[k]) {
         kernel_fill(m, km->v[k].entry, &km->v[k]);
         km->fn_gen[k] = f->code_gen;
      }
   }
   return true;
}

static unsigned kernels_fresh(const xe_module *m, xe_kernel *out, unsigned max)
{
   unsigned n = 0;
   xe_foreach_inst(i, &m->sec[XE_SEC_ENTRY_POINT]) {
      if (xe_op(i, 0) != SpvExecutionModelKernel)
         continue;
      if (n < max)
         kernel_fill(m, i, &out[n]);
      n++;
   }
   return n;
}

/* A fresh list of every kernel, malloc'd; *n gets the count. */
static xe_kernel *kernels_fresh_all(const xe_module *m, unsigned *n)
{
   *n = kernels_fresh(m, NULL, 0);
   xe_kernel *v = calloc(*n ? *n : 1, sizeof(xe_kernel));
   if (!v)
      xe_out_of_memory();
   kernels_fresh(m, v, *n);
   return v;
}

void xe__kernel_memo_free(xe_module *m)
{
   struct xe_kernel_memo *km = m->kernels_memo;
   if (km) {
      free(km->v);
      free(km->fn_gen);
      free(km);
   }
   m->kernels_memo = NULL;
}

/* The memo, refreshed when stale. */
static const struct xe_kernel_memo *memo(const xe_module *cm)
{
   xe_module *m = (xe_module *)cm;   /* a cache: asking changes no IR */
   if (memo_valid(m, m->kernels_memo))
      return m->kernels_memo;
   xe__kernel_memo_free(m);
   struct xe_kernel_memo *km = calloc(1, sizeof(*km));
   if (!km)
      xe_out_of_memory();
   km->v = kernels_fresh_all(m, &km->n);
   km->fn_gen = calloc(km->n ? km->n : 1, sizeof(uint32_t));
   if (!km->fn_gen)
      xe_out_of_memory();
   for (unsigned k = 0; k < km->n; k++)
      km->fn_gen[k] = km->v[k].fn ? km->v[k].fn->code_gen : 0;
   /* Read after the fill: its first call builds the use lists. */
   km->entry_gen = m->entry_gen;
   km->calls_gen = m->calls_gen;
   m->kernels_memo = km;
   return km;
}

xe_kernel *xe_kernels_all(const xe_module *m, unsigned *n)
{
   const struct xe_kernel_memo *km = memo(m);
   *n = km->n;
   xe_kernel *ks = malloc((km->n ? km->n : 1) * sizeof(xe_kernel));
   if (!ks)
      xe_out_of_memory();
   memcpy(ks, km->v, km->n * sizeof(xe_kernel));
   return ks;
}

unsigned xe_kernels(const xe_module *m, xe_kernel *out, unsigned max)
{
   const struct xe_kernel_memo *km = memo(m);
   if (out && max)
      memcpy(out, km->v, (max < km->n ? max : km->n) * sizeof(xe_kernel));
   return km->n;
}

const char *xe_check_kernels(xe_module *m)
{
   struct xe_kernel_memo *km = m->kernels_memo;
   if (!memo_valid(m, km))
      return NULL;
   unsigned n;
   xe_kernel *f = kernels_fresh_all(m, &n);
   const char *why = n != km->n ? "the number of kernels differs" : NULL;
   for (unsigned k = 0; k < n && !why; k++) {
      const xe_kernel *a = &km->v[k], *b = &f[k];
      if (a->entry != b->entry || a->fn != b->fn || a->body != b->body ||
          a->body_callers != b->body_callers || a->fn_callers != b->fn_callers ||
          strcmp(a->name, b->name) ||
          memcmp(a->local_size, b->local_size, sizeof(a->local_size)) ||
          a->subgroup_size != b->subgroup_size)
         why = "a kernel's entry differs";
   }
   free(f);
   return why;
}

bool xe_kernel_by_name(const xe_module *m, const char *name, xe_kernel *out)
{
   xe_foreach_inst(i, &m->sec[XE_SEC_ENTRY_POINT]) {
      if (xe_op(i, 0) == SpvExecutionModelKernel && !strcmp(xe_op_string(i, 2), name)) {
         kernel_fill(m, i, out);
         return true;
      }
   }
   return false;
}

void xe_set_execution_mode(xe_module *m, uint32_t fn_id, SpvExecutionMode mode,
                           const uint32_t *lits, unsigned n)
{
   uint32_t ops[8] = { fn_id, mode };
   uint8_t kinds[8] = { XE_W_ID, XE_W_LIT, XE_W_LIT, XE_W_LIT, XE_W_LIT, XE_W_LIT };
   xe_require_version(m, mode_version(mode));
   for (unsigned k = 0; k < n && k < 6; k++)
      ops[2 + k] = lits[k];
   uint32_t nu;
   const xe_use *u = mode_uses(m, fn_id, &nu);
   for (uint32_t j = 0; j < nu; j++) {
      xe_inst *i = u[j].inst;
      if (is_mode_of(&u[j]) && xe_op(i, 1) == (uint32_t)mode) {
         xe_set_ops(i, ops, 2 + n, kinds);
         return;
      }
   }
   xe_list_append(m, &m->sec[XE_SEC_EXECUTION_MODE],
                  xe_inst_create(SpvOpExecutionMode, 0, 0, ops, 2 + n, kinds));
}

/* ---- constants and types ---- */

uint32_t xe_variable_array(const xe_module *m, const xe_inst *var, uint64_t *len, uint32_t *elem)
{
   if (!var || var->opcode != SpvOpVariable)
      return 0;
   /* Only a pointer type is valid here, but the validator may not have run. */
   xe_inst *pt = xe_def(m, var->type_id);
   xe_inst *at = pt && pt->opcode == SpvOpTypePointer ? xe_def(m, xe_op(pt, 1)) : NULL;
   uint64_t n;
   if (!at || at->opcode != SpvOpTypeArray || !xe_const_uint(m, xe_op(at, 1), &n))
      return 0;
   *len = n;
   *elem = xe_op(at, 0);
   return at->result_id;
}

bool xe_const_uint(const xe_module *m, uint32_t id, uint64_t *value)
{
   xe_inst *d = xe_def(m, id);
   if (!d || d->opcode != SpvOpConstant)
      return false;
   xe_inst *t = xe_def(m, d->type_id);
   if (!t || t->opcode != SpvOpTypeInt)
      return false;
   uint64_t v = xe_op(d, 0);
   if (xe_nops(d) > 1)
      v |= (uint64_t)xe_op(d, 1) << 32;
   *value = v;
   return true;
}
