/*
 * Pre-decoding: every function of the module becomes a flat array of
 * dinst with operands resolved to value-slot offsets, so that the run loop
 * never walks instruction lists or looks ids up.  Constants (including
 * specialization constants with their overrides) are evaluated once into a
 * template value area that every work-item starts from.
 */
#include <stdio.h>
#include <stdlib.h>
#include "internal.h"

void xe_exec_tinfo(const xe_module *m, uint32_t type, uint8_t *kind, uint8_t *width,
                   uint16_t *ncomp)
{
   xe_inst *t = xe_def(m, type);
   *kind = K_AGG; *width = 0; *ncomp = 1;
   if (!t) return;
   if (t->opcode == SpvOpTypeVector) {
      *ncomp = (uint16_t)xe_op(t, 1);
      t = xe_def(m, xe_op(t, 0));
   }
   switch (t->opcode) {
   case SpvOpTypeBool: *kind = K_BOOL; *width = 1; break;
   case SpvOpTypeInt: *kind = K_INT; *width = (uint8_t)(xe_op(t, 0) / 8); break;
   case SpvOpTypeFloat: *kind = K_FLOAT; *width = (uint8_t)(xe_op(t, 0) / 8); break;
   case SpvOpTypePointer: *kind = K_PTR; *width = 8; break;
   default: break;
   }
}

/* The interpreter addresses its areas (values, private, local and program
 * memory) with 32-bit offsets; an area that would pass 1 GiB is refused
 * instead of wrapping.  Places s bytes at alignment a at the end of *size;
 * false when that does not fit. */
#define AREA_LIMIT (1ull << 30)
static bool area_add(uint32_t *size, uint64_t a, uint64_t s, uint32_t *at)
{
   uint64_t start = a > 1 ? (*size + a - 1) / a * a : *size;
   if (s > AREA_LIMIT || start + s > AREA_LIMIT)
      return false;
   if (at) *at = (uint32_t)start;
   *size = (uint32_t)(start + s);
   return true;
}

static bool is_const_op(uint16_t op)
{
   switch (op) {
   case SpvOpConstant: case SpvOpConstantTrue: case SpvOpConstantFalse:
   case SpvOpConstantNull: case SpvOpConstantComposite: case SpvOpUndef:
   case SpvOpSpecConstant: case SpvOpSpecConstantTrue: case SpvOpSpecConstantFalse:
   case SpvOpSpecConstantComposite: case SpvOpSpecConstantOp: case SpvOpConstantSampler:
      return true;
   default: return false;
   }
}

static uint64_t pointee_size(const xe_module *m, uint32_t ptr_type)
{
   xe_inst *t = xe_def(m, ptr_type);
   return t && t->opcode == SpvOpTypePointer ? xe_type_layout(m, xe_op(t, 1), NULL) : 0;
}

static uint32_t type_of(const xe_module *m, uint32_t id)
{
   xe_inst *d = xe_def(m, id);
   return d ? d->type_id : 0;
}

/* Generic operand resolution; specific opcodes reinterpret below. */
static void decode_generic(xe_prog *p, const xe_inst *i, dinst *d)
{
   xe_module *m = p->m;
   d->op = i->opcode;
   d->src = i;
   d->res = i->result_id && i->type_id ? p->slot[i->result_id] : NOSLOT;
   if (i->type_id) {
      d->size = (uint32_t)xe_type_layout(m, i->type_id, NULL);
      xe_exec_tinfo(m, i->type_id, &d->kind, &d->width, &d->ncomp);
   }
   d->nops = (uint16_t)xe_nops(i);
   d->ops = calloc(d->nops + 1, sizeof(uint32_t));
   bool first = true;
   for (unsigned k = 0; k < d->nops; k++) {
      uint32_t w = xe_op(i, k);
      if (xe_op_kind(i, k) == XE_W_ID && w < m->bound && p->slot[w] != NOSLOT) {
         d->ops[k] = p->slot[w];
         if (first) {
            xe_exec_tinfo(m, type_of(m, w), &d->skind, &d->swidth, &d->sncomp);
            first = false;
         }
      } else {
         d->ops[k] = w;
      }
   }
}

/* Byte offset of a composite element path (literal indices from k on). */
static uint64_t path_offset(const xe_module *m, uint32_t type, const xe_inst *i, unsigned k,
                            uint32_t *elem_type)
{
   uint64_t off = 0;
   for (; k < xe_nops(i); k++) {
      xe_inst *t = xe_def(m, type);
      uint32_t idx = xe_op(i, k);
      if (t->opcode == SpvOpTypeStruct) {
         off += xe_type_member_offset(m, type, idx);
         type = xe_op(t, idx);
      } else {
         type = xe_op(t, 0);
         off += xe_type_layout(m, type, NULL) * idx;
      }
   }
   if (elem_type) *elem_type = type;
   return off;
}

static const char *decode_special(xe_prog *p, const xe_inst *i, dinst *d)
{
   xe_module *m = p->m;
   switch (i->opcode) {
   case SpvOpLoad:
      d->aux = d->size;
      break;
   case SpvOpStore:
      d->aux = (uint32_t)xe_type_layout(m, type_of(m, xe_op(i, 1)), NULL);
      break;
   case SpvOpCopyMemory:
      d->aux = (uint32_t)pointee_size(m, type_of(m, xe_op(i, 0)));
      break;
   case SpvOpCompositeExtract:
      d->aux = (uint32_t)path_offset(m, type_of(m, xe_op(i, 0)), i, 1, NULL);
      break;
   case SpvOpCompositeInsert:
      d->aux = (uint32_t)path_offset(m, i->type_id, i, 2, NULL);
      d->aux2 = (uint32_t)xe_type_layout(m, type_of(m, xe_op(i, 0)), NULL);
      break;
   case SpvOpCompositeConstruct: {
      uint32_t *o = calloc(2 * d->nops + 1, 4);
      for (unsigned k = 0; k < d->nops; k++) {
         o[2 * k] = d->ops[k];
         o[2 * k + 1] = (uint32_t)xe_type_layout(m, type_of(m, xe_op(i, k)), NULL);
      }
      free(d->ops);
      d->ops = o;
      break;
   }
   case SpvOpVectorShuffle: {
      uint8_t k; uint8_t w; uint16_t n;
      xe_exec_tinfo(m, type_of(m, xe_op(i, 0)), &k, &w, &n);
      d->aux = n;
      break;
   }
   case SpvOpAccessChain: case SpvOpInBoundsAccessChain:
   case SpvOpPtrAccessChain: case SpvOpInBoundsPtrAccessChain: {
      bool ptr = i->opcode == SpvOpPtrAccessChain || i->opcode == SpvOpInBoundsPtrAccessChain;
      xe_inst *pt = xe_def(m, type_of(m, xe_op(i, 0)));
      uint32_t type = xe_op(pt, 1);
      unsigned n = d->nops - 1;
      uint32_t *o = calloc(3 * n + 1, 4);
      o[0] = d->ops[0];
      for (unsigned k = 0; k < n; k++) {
         uint32_t id = xe_op(i, k + 1);
         uint64_t cv = 0;
         bool isc = xe_const_uint(m, id, &cv);
         uint64_t stride;
         if (ptr && k == 0) {
            stride = xe_type_layout(m, type, NULL);
         } else {
            xe_inst *t = xe_def(m, type);
            if (t->opcode == SpvOpTypeStruct) {
               if (!isc) return "non-constant struct index";
               o[1 + 3 * k] = NOSLOT;
               o[2 + 3 * k] = (uint32_t)xe_type_member_offset(m, type, (unsigned)cv);
               type = xe_op(t, (unsigned)cv);
               continue;
            }
            type = xe_op(t, 0);
            stride = xe_type_layout(m, type, NULL);
         }
         if (!stride) return "access chain over a type of unknown size";
         o[1 + 3 * k] = d->ops[k + 1];
         o[2 + 3 * k] = (uint32_t)stride;
         o[3 + 3 * k] = xe_type_width(m, type_of(m, id)) / 8;
      }
      free(d->ops);
      d->ops = o;
      d->aux = n;
      break;
   }
   case SpvOpVariable: {
      uint64_t a, s = pointee_size(m, i->type_id);
      xe_type_layout(m, xe_op(xe_def(m, i->type_id), 1), &a);
      if (!s) return "variable of unknown size";
      if (!area_add(&p->psize, a, s, &d->aux))
         return "private variables past the interpreter's 1 GiB";
      d->aux2 = (uint32_t)s;
      /* ops[2]: the variable's number (xe_prog.var_off). */
      uint32_t *o = calloc(3, sizeof(uint32_t));
      o[0] = d->ops[0];
      o[1] = d->nops < 2 ? NOSLOT : d->ops[1];
      free(d->ops);
      d->ops = o;
      if (p->nvars == p->capvars) {
         p->capvars = p->capvars ? 2 * p->capvars : 64;
         p->var_off = realloc(p->var_off, p->capvars * sizeof(uint32_t));
         p->var_size = realloc(p->var_size, p->capvars * sizeof(uint32_t));
      }
      if (p->nvars >= 0xffffe) return "more private variables than the interpreter numbers";
      p->var_off[p->nvars] = d->aux;
      p->var_size[p->nvars] = (uint32_t)s;
      o[2] = p->nvars++;
      break;
   }
   case SpvOpFunctionCall: {
      xe_function *f = xe_function_by_id(m, xe_op(i, 0));
      if (!f) return "call of an unknown function";
      if (!f->first) {
         /* An import: only OpenCL C's to_global() and friends have a
          * meaning here (the cast they are); any other has no code to run
          * (its fn_pc would be the next function's). */
         uint32_t sc = xe_import_generic_cast(m, xe_op(i, 0));
         if (sc == SpvStorageClassMax || d->nops != 2) {
            d->aux = NO_BODY;   /* run.c fails the work-item that calls it */
            break;
         }
         d->op = SpvOpGenericCastToPtrExplicit;
         d->ops[0] = d->ops[1];
         d->ops[1] = sc;
         break;
      }
      unsigned n = d->nops - 1, k = 0;
      uint32_t *o = calloc(3 * n + 1, 4);
      for (xe_inst *pi = f->params.first; pi; pi = pi->next) {
         if (pi->opcode != SpvOpFunctionParameter) continue;
         if (k >= n) return "call with too few arguments";
         o[3 * k] = d->ops[k + 1];
         o[3 * k + 1] = p->slot[pi->result_id];
         uint64_t sz = xe_type_layout(m, pi->type_id, NULL);
         o[3 * k + 2] = (uint32_t)(sz ? sz : 8);
         k++;
      }
      free(d->ops);
      d->ops = o;
      d->nops = (uint16_t)(3 * k);
      d->aux = xe_op(i, 0); /* resolved to a pc after all functions */
      break;
   }
   case SpvOpReturnValue:
      d->aux = (uint32_t)xe_type_layout(m, type_of(m, xe_op(i, 0)), NULL);
      break;
   case SpvOpSwitch: {
      unsigned w = xe_type_width(m, type_of(m, xe_op(i, 0)));
      d->aux = w > 32 ? 2 : 1;
      d->swidth = (uint8_t)(w / 8);
      break;
   }
   case SpvOpSubgroupBlockReadINTEL: case SpvOpSubgroupBlockWriteINTEL:
      break;
   case SpvOpImageSampleExplicitLod: case SpvOpImageRead: case SpvOpImageWrite: {
      /* aux: the coordinate's kind | width << 8 | components << 16 (the
       * XE_OT packing); aux2: the same for a written texel. */
      uint8_t kd = K_AGG, w = 0; uint16_t n = 1;
      xe_exec_tinfo(m, type_of(m, xe_op(i, 1)), &kd, &w, &n);
      d->aux = kd | (uint32_t)w << 8 | (uint32_t)n << 16;
      if (i->opcode == SpvOpImageWrite) {
         xe_exec_tinfo(m, type_of(m, xe_op(i, 2)), &kd, &w, &n);
         d->aux2 = kd | (uint32_t)w << 8 | (uint32_t)n << 16;
      }
      xe_inst *it = xe_def(m, type_of(m, xe_op(i, 0)));
      if (it && it->opcode == SpvOpTypeSampledImage) it = xe_def(m, xe_op(it, 0));
      if (!it || it->opcode != SpvOpTypeImage) return "image operand of an unknown type";
      if (xe_op(it, 3)) return "unsupported image array";
      if (xe_op(it, 1) != SpvDim1D && xe_op(it, 1) != SpvDim2D && xe_op(it, 1) != SpvDim3D)
         return "unsupported image dimensionality";
      break;
   }
   case SpvOpExtInst: {
      /* OpenCL.std operands differ in type from the result (ldexp's int
       * exponent, length's vector, upsample's halves): ops[nops + k] holds
       * operand k's kind | width << 8 | components << 16 (XE_OT_*). */
      uint32_t *o = calloc(2 * (size_t)d->nops + 1, 4);
      memcpy(o, d->ops, d->nops * sizeof(uint32_t));
      for (unsigned k = 2; k < d->nops; k++) {
         uint8_t kd = K_AGG, w = 0; uint16_t n = 1;
         uint32_t t = type_of(m, xe_op(i, k));
         if (t) xe_exec_tinfo(m, t, &kd, &w, &n);
         o[d->nops + k] = kd | (uint32_t)w << 8 | (uint32_t)n << 16;
      }
      free(d->ops);
      d->ops = o;
      break;
   }
   default:
      break;
   }
   return NULL;
}

/* Facts every decoded instruction needs, also for OpSpecConstantOp. */
static void decode_common(xe_prog *p, const xe_inst *i, dinst *d)
{
   if (i->opcode == SpvOpShiftLeftLogical || i->opcode == SpvOpShiftRightLogical ||
       i->opcode == SpvOpShiftRightArithmetic)
   {
      uint8_t kind, width;
      uint16_t ncomp;
      xe_exec_tinfo(p->m, type_of(p->m, xe_op(i, 1)), &kind, &width, &ncomp);
      d->aux2 = width;   /* a vector's component width */
   }
   uint32_t dummy;
   if ((i->opcode == SpvOpUConvert || i->opcode == SpvOpSConvert) && i->result_id &&
       xe_decoration(p->m, i->result_id, SpvDecorationSaturatedConversion, &dummy, 0))
      d->aux = 1;
}

static uint32_t add_code(xe_prog *p)
{
   if (p->ncode == p->capcode) {
      p->capcode = p->capcode ? 2 * p->capcode : 256;
      p->code = realloc(p->code, p->capcode * sizeof(dinst));
   }
   memset(&p->code[p->ncode], 0, sizeof(dinst));
   return p->ncode++;
}

static bool spec_override(const xe_launch *l, const xe_module *m, uint32_t id, uint64_t *v)
{
   uint32_t sid;
   if (!l || !xe_decoration(m, id, SpvDecorationSpecId, &sid, 1)) return false;
   for (unsigned k = 0; k < l->nspec; k++)
      if (l->spec_id[k] == sid) {
         *v = l->spec_value[k];
         xe_inst *d = xe_def(m, id);
         xe_inst *t = d ? xe_def(m, d->type_id) : NULL;
         bool is_float_type = t && t->opcode == SpvOpTypeFloat;
         double f;
         memcpy(&f, v, 8);
         if (l->spec_float[k] && !is_float_type) *v = (uint64_t)(int64_t)f;
         else if (is_float_type) {
            if (!l->spec_float[k]) f = (double)(int64_t)*v;
            uint8_t tmp[8] = {0};
            st_f(tmp, xe_op(t, 0) / 8, f);
            memcpy(v, tmp, 8);
         }
         return true;
      }
   return false;
}

/* Evaluates a global constant into the template. */
static const char *eval_const(xe_prog *p, const xe_inst *i, const xe_launch *l)
{
   xe_module *m = p->m;
   uint8_t *dst = p->tmpl + p->slot[i->result_id];
   uint32_t size = (uint32_t)xe_type_layout(m, i->type_id, NULL);
   uint64_t v;
   switch (i->opcode) {
   case SpvOpConstant: case SpvOpSpecConstant:
      memcpy(dst, &i->words[i->first_op], size < 8 ? size : 8);
      if (i->opcode == SpvOpSpecConstant && spec_override(l, m, i->result_id, &v))
         memcpy(dst, &v, size < 8 ? size : 8);
      break;
   case SpvOpConstantTrue: case SpvOpConstantFalse:
   case SpvOpSpecConstantTrue: case SpvOpSpecConstantFalse:
      *dst = i->opcode == SpvOpConstantTrue || i->opcode == SpvOpSpecConstantTrue;
      if (i->opcode >= SpvOpSpecConstantTrue && spec_override(l, m, i->result_id, &v))
         *dst = v != 0;
      break;
   case SpvOpConstantNull: case SpvOpUndef:
      memset(dst, 0, size);
      break;
   case SpvOpConstantSampler: {
      /* OpenCL's sampler_t initializers (image.c reads XE_SAMPLER). */
      uint64_t s = XE_SAMPLER(xe_op(i, 0), xe_op(i, 1), xe_op(i, 2));
      memcpy(dst, &s, 8);
      break;
   }
   case SpvOpConstantComposite: case SpvOpSpecConstantComposite: {
      xe_inst *t = xe_def(m, i->type_id);
      uint64_t off = 0;
      for (unsigned k = 0; k < xe_nops(i); k++) {
         uint32_t c = xe_op(i, k);
         uint64_t cs = xe_type_layout(m, type_of(m, c), NULL);
         if (t->opcode == SpvOpTypeStruct) off = xe_type_member_offset(m, i->type_id, k);
         memcpy(dst + off, p->tmpl + p->slot[c], cs);
         off += cs;
      }
      break;
   }
   case SpvOpSpecConstantOp: {
      /* The embedded opcode runs through the ALU on the template. */
      xe_inst *tmp = xe_inst_create((uint16_t)xe_op(i, 0), i->type_id, i->result_id,
                                    &i->words[i->first_op + 1], xe_nops(i) - 1,
                                    &xe_kinds(i)[i->first_op + 1]);
      dinst d = {0};
      decode_generic(p, tmp, &d);
      decode_common(p, tmp, &d);
      const char *e = NULL;
      if (d.op == SpvOpCompositeExtract) {
         d.aux = (uint32_t)path_offset(m, type_of(m, xe_op(tmp, 0)), tmp, 1, NULL);
         memcpy(dst, p->tmpl + d.ops[0] + d.aux, d.size);
      } else if (d.op == SpvOpBitcast &&
                 xe_type_layout(m, type_of(m, xe_op(tmp, 0)), NULL) == size) {
         /* Same size, same bytes (clang's SPIR-V backend writes INFINITY
          * and NAN as a bitcast of their uint pattern). */
         memcpy(dst, p->tmpl + p->slot[xe_op(tmp, 0)], size);
      } else if (xe_exec_alu_supported(d.op)) {
         e = xe_exec_alu(&d, p->tmpl);
      } else {
         e = "unsupported OpSpecConstantOp";
      }
      free(d.ops);
      xe_inst_free(tmp);
      return e;
   }
   default: break;
   }
   return NULL;
}

static const char *global_var(xe_prog *p, const xe_inst *i)
{
   xe_module *m = p->m;
   uint32_t sc = xe_op(i, 0);
   uint64_t a, s = pointee_size(m, i->type_id), ptr;
   xe_type_layout(m, xe_op(xe_def(m, i->type_id), 1), &a);
   int bi = xe_builtin_of(m, i->result_id);
   if (sc == SpvStorageClassInput && bi >= 0 && bi < 4096) {
      unsigned slot = bi < 64 ? bi : 0;
      if (bi >= 64) {
         /* Built-in enumerants past 63: map the sub-group ones. */
         switch (bi) {
         case SpvBuiltInSubgroupLocalInvocationId: slot = 60; break;
         case SpvBuiltInSubgroupSize: slot = 61; break;
         default: return "unsupported built-in";
         }
      }
      p->psize = (p->psize + 7) & ~7u;
      p->builtin_off[slot] = p->psize + 1;
      uint8_t k, w; uint16_t n;
      xe_exec_tinfo(m, xe_op(xe_def(m, i->type_id), 1), &k, &w, &n);
      p->builtin_w[slot] = w;
      ptr = PTR(SP_PRIVATE, 0, p->psize);
      p->psize += 32;
   } else if (sc == SpvStorageClassWorkgroup) {
      uint32_t at;
      if (!area_add(&p->lsize, a, s, &at))
         return "Workgroup variables past the interpreter's 1 GiB";
      ptr = PTR(SP_LOCAL, 0, at);
   } else if (sc == SpvStorageClassUniformConstant || sc == SpvStorageClassCrossWorkgroup) {
      uint32_t at;
      if (!area_add(&p->prog_size, 16, s, &at))
         return "program-scope variables past the interpreter's 1 GiB";
      ptr = PTR(SP_PROGRAM, 0, at);
      p->program = realloc(p->program, (size_t)p->prog_size + 16);
      if (!p->program) xe_out_of_memory();
      memset(p->program + at, 0, s);
      if (xe_nops(i) > 1)
         memcpy(p->program + at, p->tmpl + p->slot[xe_op(i, 1)], s);
   } else {
      return "unsupported global variable storage class";
   }
   memcpy(p->tmpl + p->slot[i->result_id], &ptr, 8);
   return NULL;
}

xe_prog *xe_prog_build(xe_module *m, const char *kernel, const xe_launch *l, char **err)
{
   xe_kernel k;
   if (!xe_kernel_by_name(m, kernel, &k)) {
      *err = strdup("no such kernel");
      return NULL;
   }
   xe_prog *p = calloc(1, sizeof *p);
   p->m = m;
   p->slot = malloc(m->bound * sizeof(uint32_t));
   p->label_pc = calloc(m->bound, sizeof(uint32_t));
   p->fn_pc = calloc(m->bound, sizeof(uint32_t));
   p->psize = 0;
   for (uint32_t id = 0; id < m->bound; id++) {
      p->slot[id] = NOSLOT;
      xe_inst *d = xe_def(m, id);
      if (!d || !d->type_id || d->opcode == SpvOpFunction) continue;
      uint64_t s = xe_type_layout(m, d->type_id, NULL);
      if (!s) s = 8;
      if (!area_add(&p->vsize, 8, (s + 7) & ~7ull, &p->slot[id])) {
         snprintf(p->err, sizeof p->err, "the values up to %%%u pass the interpreter's 1 GiB", id);
         *err = strdup(p->err);
         xe_prog_free(p);
         return NULL;
      }
   }
   p->tmpl = calloc(p->vsize + 8, 1);
   const char *e = NULL;
   for (xe_inst *i = m->sec[XE_SEC_GLOBAL].first; i && !e; i = i->next) {
      if (is_const_op(i->opcode)) e = eval_const(p, i, l);
      else if (i->opcode == SpvOpVariable) e = global_var(p, i);
      if (e) snprintf(p->err, sizeof p->err, "%s (%%%u)", e, i->result_id);
   }
   for (xe_function *f = m->first_fn; f && !e; f = f->next) {
      p->fn_pc[xe_function_id(f)] = p->ncode;
      for (xe_block *b = f->first; b && !e; b = b->next) {
         p->label_pc[xe_block_id(b)] = p->ncode;
         for (xe_inst *i = b->insts.first; i; i = i->next) {
            if (i->opcode == SpvOpLine || i->opcode == SpvOpNoLine) continue;
            uint32_t at = add_code(p);
            dinst *d = &p->code[at];
            decode_generic(p, i, d);
            decode_common(p, i, d);
            e = decode_special(p, i, d);
            if (e) {
               snprintf(p->err, sizeof p->err, "%s at %s %%%u", e, xe_opcode_name(i->opcode),
                        i->result_id);
               break;
            }
         }
      }
   }
   if (e) {
      *err = strdup(p->err);
      xe_prog_free(p);
      return NULL;
   }
   for (uint32_t pc = 0; pc < p->ncode; pc++)
      if (p->code[pc].op == SpvOpFunctionCall && p->code[pc].aux != NO_BODY)
         p->code[pc].aux = p->fn_pc[p->code[pc].aux];
   p->entry_pc = p->fn_pc[xe_function_id(k.fn)];
   p->param_slot = calloc(64, sizeof(uint32_t));
   for (xe_inst *pi = k.fn->params.first; pi; pi = pi->next)
      if (pi->opcode == SpvOpFunctionParameter && p->nparams < 64)
         p->param_slot[p->nparams++] = p->slot[pi->result_id];
   p->psize = (p->psize + 15) & ~15u;
   return p;
}

void xe_prog_free(xe_prog *p)
{
   if (!p) return;
   for (uint32_t i = 0; i < p->ncode; i++) free(p->code[i].ops);
   free(p->code);
   free(p->slot);
   free(p->label_pc);
   free(p->fn_pc);
   free(p->tmpl);
   free(p->program);
   free(p->param_slot);
   free(p->var_off);
   free(p->var_size);
   free(p);
}
