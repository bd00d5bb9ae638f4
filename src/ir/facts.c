/*
 * Questions passes ask about a module: def-use, names, decorations,
 * capabilities, kernels and their execution modes, constants and types.
 * Look-ups scan the small module-level sections; def-use is computed once
 * and cached until the module changes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builder.h"
#include "ir.h"

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

/* ---- def-use ---- */

struct xe_defuse {
   uint32_t bound;
   uint32_t *start;    /* uses of id at use[start[id] .. start[id+1]) */
   xe_use *use;
};

void xe_defuse_free(struct xe_defuse *d)
{
   if (!d)
      return;
   free(d->start);
   free(d->use);
   free(d);
}

typedef void (*inst_visitor)(xe_inst *i, void *data);

static void visit_list(xe_list *l, inst_visitor fn, void *data)
{
   xe_foreach_inst(i, l)
      fn(i, data);
}

/* Visits every instruction of the module in layout order. */
static void visit_all(xe_module *m, inst_visitor fn, void *data)
{
   for (int s = 0; s < XE_SEC_COUNT; s++)
      visit_list(&m->sec[s], fn, data);
   xe_foreach_fn(f, m) {
      fn(f->def, data);
      visit_list(&f->params, fn, data);
      xe_foreach_block(b, f) {
         fn(b->label, data);
         visit_list(&b->insts, fn, data);
      }
      fn(f->end, data);
   }
}

static void count_uses(xe_inst *i, void *data)
{
   struct xe_defuse *d = data;
   for (unsigned w = 1; w < i->nwords; w++) {
      if ((i->kinds[w] == XE_W_ID || i->kinds[w] == XE_W_TYPE) && i->words[w] < d->bound)
         d->start[i->words[w] + 1]++;
   }
}

static void fill_uses(xe_inst *i, void *data)
{
   struct xe_defuse *d = data;
   for (unsigned w = 1; w < i->nwords; w++) {
      if ((i->kinds[w] == XE_W_ID || i->kinds[w] == XE_W_TYPE) && i->words[w] < d->bound) {
         /* start[id] is used as the fill cursor, then shifted back. */
         xe_use *u = &d->use[d->start[i->words[w]]++];
         u->inst = i;
         u->word = w;
      }
   }
}

static struct xe_defuse *defuse_build(xe_module *m)
{
   struct xe_defuse *d = calloc(1, sizeof(*d));
   d->bound = m->bound;
   d->start = calloc(m->bound + 2, sizeof(uint32_t));
   visit_all(m, count_uses, d);
   for (uint32_t id = 0; id <= m->bound; id++)
      d->start[id + 1] += d->start[id];
   d->use = malloc((d->start[m->bound] + 1) * sizeof(xe_use));
   visit_all(m, fill_uses, d);
   /* After filling, start[id] points at the end of id's range. */
   memmove(d->start + 1, d->start, m->bound * sizeof(uint32_t));
   d->start[0] = 0;
   return d;
}

const xe_use *xe_uses(xe_module *m, uint32_t id, uint32_t *count)
{
   if (!m->defuse || m->defuse->bound != m->bound) {
      xe_defuse_free(m->defuse);
      m->defuse = defuse_build(m);
   }
   struct xe_defuse *d = m->defuse;
   if (id >= d->bound) {
      *count = 0;
      return NULL;
   }
   *count = d->start[id + 1] - d->start[id];
   return d->use + d->start[id];
}

struct replace {
   uint32_t from, to;
};

static void replace_in(xe_inst *i, void *data)
{
   struct replace *r = data;
   for (unsigned w = 1; w < i->nwords; w++) {
      if ((i->kinds[w] == XE_W_ID || i->kinds[w] == XE_W_TYPE) && i->words[w] == r->from) {
         i->words[w] = r->to;
         if (i->kinds[w] == XE_W_TYPE)
            i->type_id = r->to;
      }
   }
}

void xe_replace_all_uses(xe_module *m, uint32_t from, uint32_t to)
{
   struct replace r = { from, to };
   visit_all(m, replace_in, &r);
   xe_defuse_free(m->defuse);
   m->defuse = NULL;
}

/* ---- names and decorations ---- */

const char *xe_name(const xe_module *m, uint32_t id)
{
   xe_foreach_inst(i, &m->sec[XE_SEC_DEBUG_NAME]) {
      if (i->opcode == SpvOpName && xe_op(i, 0) == id)
         return xe_op_string(i, 1);
   }
   return NULL;
}

bool xe_decoration(const xe_module *m, uint32_t id, SpvDecoration dec, uint32_t *vals,
                   unsigned nvals)
{
   xe_foreach_inst(i, &m->sec[XE_SEC_ANNOTATION]) {
      if ((i->opcode == SpvOpDecorate || i->opcode == SpvOpDecorateId) && xe_nops(i) >= 2 &&
          xe_op(i, 0) == id && xe_op(i, 1) == (uint32_t)dec) {
         for (unsigned k = 0; k < nvals && 2 + k < xe_nops(i); k++)
            vals[k] = xe_op(i, 2 + k);
         return true;
      }
   }
   return false;
}

bool xe_is_exported(const xe_module *m, uint32_t id)
{
   xe_foreach_inst(i, &m->sec[XE_SEC_ANNOTATION]) {
      /* LinkageAttributes: target, decoration, name (string), linkage type. */
      if (i->opcode == SpvOpDecorate && xe_nops(i) >= 4 && xe_op(i, 0) == id &&
          xe_op(i, 1) == SpvDecorationLinkageAttributes)
         return xe_op(i, xe_nops(i) - 1) != SpvLinkageTypeImport;
   }
   return false;
}

int xe_builtin_of(const xe_module *m, uint32_t var_id)
{
   uint32_t b;
   return xe_decoration(m, var_id, SpvDecorationBuiltIn, &b, 1) ? (int)b : -1;
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

bool xe_has_extension(const xe_module *m, const char *name)
{
   xe_foreach_inst(i, &m->sec[XE_SEC_EXTENSION]) {
      if (!strcmp(xe_op_string(i, 0), name))
         return true;
   }
   return false;
}

static xe_inst *string_inst(SpvOp op, uint32_t result, const char *s)
{
   uint32_t w[64];
   uint8_t k[64];
   unsigned n = xe_pack_string(s, w, 64);
   memset(k, XE_W_LIT, sizeof(k));
   return xe_inst_create(op, 0, result, w, n, k);
}

void xe_add_extension(xe_module *m, const char *name)
{
   if (!xe_has_extension(m, name))
      xe_list_append(m, &m->sec[XE_SEC_EXTENSION], string_inst(SpvOpExtension, 0, name));
}

uint32_t xe_opencl_std(xe_module *m, bool add)
{
   xe_foreach_inst(i, &m->sec[XE_SEC_EXT_INST_IMPORT]) {
      if (!strcmp(xe_op_string(i, 0), "OpenCL.std"))
         return i->result_id;
   }
   if (!add)
      return 0;
   uint32_t id = xe_fresh_id(m);
   xe_list_append(m, &m->sec[XE_SEC_EXT_INST_IMPORT], string_inst(SpvOpExtInstImport, id, "OpenCL.std"));
   return id;
}

/* ---- kernels ---- */

static void kernel_modes(const xe_module *m, xe_kernel *k)
{
   uint32_t fn = xe_op(k->entry, 1);
   xe_foreach_inst(i, &m->sec[XE_SEC_EXECUTION_MODE]) {
      if (i->opcode != SpvOpExecutionMode || xe_op(i, 0) != fn)
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
   uint32_t n, calls = 0;
   const xe_use *u = xe_uses((xe_module *)m, xe_function_id(f), &n);
   for (uint32_t k = 0; k < n; k++)
      calls += u[k].inst->opcode == SpvOpFunctionCall && u[k].word == u[k].inst->first_op;
   return calls;
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
      if (i->opcode == SpvOpLine || i->opcode == SpvOpNoLine)
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
   kernel_modes(m, k);
}

xe_kernel *xe_kernels_all(const xe_module *m, unsigned *n)
{
   *n = xe_kernels(m, NULL, 0);
   xe_kernel *ks = calloc(*n ? *n : 1, sizeof(xe_kernel));
   if (!ks)
      abort();
   xe_kernels(m, ks, *n);
   return ks;
}

unsigned xe_kernels(const xe_module *m, xe_kernel *out, unsigned max)
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
   xe_foreach_inst(i, &m->sec[XE_SEC_EXECUTION_MODE]) {
      if (i->opcode == SpvOpExecutionMode && xe_op(i, 0) == fn_id && xe_op(i, 1) == (uint32_t)mode) {
         xe_set_ops(i, ops, 2 + n, kinds);
         return;
      }
   }
   xe_list_append(m, &m->sec[XE_SEC_EXECUTION_MODE],
                  xe_inst_create(SpvOpExecutionMode, 0, 0, ops, 2 + n, kinds));
}

/* ---- constants and types ---- */

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

unsigned xe_type_width(const xe_module *m, uint32_t type_id)
{
   xe_inst *t = xe_def(m, type_id);
   if (t && (t->opcode == SpvOpTypeInt || t->opcode == SpvOpTypeFloat))
      return xe_op(t, 0);
   return 0;
}

uint64_t xe_type_size(const xe_module *m, uint32_t type_id)
{
   xe_inst *t = xe_def(m, type_id);
   if (!t)
      return 0;
   switch (t->opcode) {
   case SpvOpTypeBool:
      return 1;
   case SpvOpTypeInt:
   case SpvOpTypeFloat:
      return xe_op(t, 0) / 8;
   case SpvOpTypePointer:
      return 8; /* Physical64 */
   case SpvOpTypeVector: {
      /* OpenCL: 3-component vectors take the room of 4. */
      uint32_t n = xe_op(t, 1);
      return xe_type_size(m, xe_op(t, 0)) * (n == 3 ? 4 : n);
   }
   case SpvOpTypeArray: {
      uint64_t len;
      if (!xe_const_uint(m, xe_op(t, 1), &len))
         return 0;
      return xe_type_size(m, xe_op(t, 0)) * len;
   }
   case SpvOpTypeStruct: {
      /* Natural alignment unless the struct is packed. */
      uint32_t dummy;
      bool packed = xe_decoration(m, type_id, SpvDecorationCPacked, &dummy, 0);
      uint64_t size = 0, align = 1;
      for (unsigned k = 0; k < xe_nops(t); k++) {
         uint64_t s = xe_type_size(m, xe_op(t, k));
         if (!s)
            return 0;
         uint64_t a = packed ? 1 : s;
         xe_inst *mt = xe_def(m, xe_op(t, k));
         if (!packed && mt && (mt->opcode == SpvOpTypeArray || mt->opcode == SpvOpTypeStruct))
            return 0; /* member alignment of aggregates is not modelled */
         if (a > 16)
            a = 16;
         if (a & (a - 1))
            a = 1;
         size = (size + a - 1) / a * a + s;
         if (a > align)
            align = a;
      }
      return (size + align - 1) / align * align;
   }
   default:
      return 0;
   }
}
