/* Argument strings, their materialization, and kernel parameter facts. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "launch.h"

static const struct { const char *name; unsigned size; bool f, s; } types[] = {
   {"char", 1, false, true}, {"uchar", 1, false, false}, {"short", 2, false, true},
   {"ushort", 2, false, false}, {"int", 4, false, true}, {"uint", 4, false, false},
   {"long", 8, false, true}, {"ulong", 8, false, false}, {"half", 2, true, true},
   {"float", 4, true, true}, {"double", 8, true, true},
};

static bool set_type(xe_arg_spec *a, const char *t, size_t n)
{
   for (unsigned k = 0; k < sizeof types / sizeof types[0]; k++)
      if (strlen(types[k].name) == n && !strncmp(t, types[k].name, n)) {
         a->type_name = types[k].name;
         a->elem = types[k].size;
         a->is_float = types[k].f;
         a->is_signed = types[k].s;
         return true;
      }
   return false;
}

/* ---- images and samplers ---- */

static const char *order_names[] = {
   [SpvImageChannelOrderR] = "r", [SpvImageChannelOrderA] = "a", [SpvImageChannelOrderRG] = "rg",
   [SpvImageChannelOrderRA] = "ra", [SpvImageChannelOrderRGBA] = "rgba",
   [SpvImageChannelOrderBGRA] = "bgra", [SpvImageChannelOrderARGB] = "argb",
   [SpvImageChannelOrderIntensity] = "intensity", [SpvImageChannelOrderLuminance] = "luminance",
};
static const char *type_names[] = {
   [SpvImageChannelDataTypeSnormInt8] = "snorm8", [SpvImageChannelDataTypeSnormInt16] = "snorm16",
   [SpvImageChannelDataTypeUnormInt8] = "unorm8", [SpvImageChannelDataTypeUnormInt16] = "unorm16",
   [SpvImageChannelDataTypeSignedInt8] = "int8", [SpvImageChannelDataTypeSignedInt16] = "int16",
   [SpvImageChannelDataTypeSignedInt32] = "int32", [SpvImageChannelDataTypeUnsignedInt8] = "uint8",
   [SpvImageChannelDataTypeUnsignedInt16] = "uint16",
   [SpvImageChannelDataTypeUnsignedInt32] = "uint32",
   [SpvImageChannelDataTypeHalfFloat] = "half", [SpvImageChannelDataTypeFloat] = "float",
};
static const char *addressing_names[] = {"none", "clamp_to_edge", "clamp", "repeat",
                                         "mirrored_repeat"};

static int name_index(const char *const *names, unsigned count, const char *s, size_t n)
{
   for (unsigned k = 0; k < count; k++)
      if (names[k] && strlen(names[k]) == n && !strncmp(s, names[k], n)) return (int)k;
   return -1;
}
#define COUNT(a) (sizeof a / sizeof a[0])

int xe_image_order_parse(const char *s, size_t n) { return name_index(order_names, COUNT(order_names), s, n); }
int xe_image_type_parse(const char *s, size_t n) { return name_index(type_names, COUNT(type_names), s, n); }
const char *xe_image_order_name(uint32_t o) { return o < COUNT(order_names) ? order_names[o] : NULL; }
const char *xe_image_type_name(uint32_t t) { return t < COUNT(type_names) ? type_names[t] : NULL; }

void xe_image_spec(xe_arg_spec *a, const xe_image_desc *im, enum xe_fill fill)
{
   memset(a, 0, sizeof *a);
   a->kind = XE_ARG_IMAGE;
   a->image = *im;
   a->type_name = xe_image_type_name(im->type);
   a->elem = xe_image_channel_size(im->type);
   a->is_float = im->type == SpvImageChannelDataTypeFloat || im->type == SpvImageChannelDataTypeHalfFloat;
   a->is_signed = im->type == SpvImageChannelDataTypeSnormInt8 || im->type == SpvImageChannelDataTypeSnormInt16 ||
                  (im->type >= SpvImageChannelDataTypeSignedInt8 && im->type <= SpvImageChannelDataTypeSignedInt32);
   a->count = im->width * im->height * im->depth * xe_image_channels(im->order);
   a->fill = fill;
}

const char *xe_sampler_string(uint32_t s, char *buf, size_t n)
{
   unsigned ad = XE_SAMPLER_ADDRESSING(s);
   snprintf(buf, n, "sampler:%s:%s:%s", ad < 5 ? addressing_names[ad] : "?",
            XE_SAMPLER_NORMALIZED(s) ? "normalized" : "unnormalized",
            XE_SAMPLER_FILTER(s) ? "linear" : "nearest");
   return buf;
}

static bool parse_fill(const char *f, xe_arg_spec *a)
{
   char *end;
   if (!strcmp(f, "zero")) a->fill = FILL_ZERO;
   else if (!strcmp(f, "random")) a->fill = FILL_RANDOM;
   else if (!strcmp(f, "iota")) a->fill = FILL_IOTA;
   else if (!strncmp(f, "const=", 6)) {
      a->fill = FILL_CONST;
      a->value = strtod(f + 6, &end);
      return *end == 0 && end != f + 6;
   } else return false;
   return true;
}

/* "image:ORDER:TYPE:W[xH[xD]][:FILL]" (s after "image:"). */
static bool parse_image(const char *s, xe_arg_spec *a)
{
   const char *c1 = strchr(s, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
   if (!c2) return false;
   int order = xe_image_order_parse(s, (size_t)(c1 - s));
   int type = xe_image_type_parse(c1 + 1, (size_t)(c2 - c1 - 1));
   if (order < 0 || type < 0) return false;
   xe_image_desc im = {(uint32_t)order, (uint32_t)type, 0, 1, 1, 1};
   uint64_t *ext[3] = {&im.width, &im.height, &im.depth};
   const char *q = c2 + 1;
   char *end;
   for (;;) {
      if (im.dims == 3 || *q < '0' || *q > '9') return false;
      *ext[im.dims++] = strtoull(q, &end, 10);
      if (!*ext[im.dims - 1] || *ext[im.dims - 1] > (1u << 16)) return false;
      if (*end != 'x') break;
      q = end + 1;
   }
   if (*end && *end != ':') return false;
   xe_image_spec(a, &im, FILL_ZERO);
   return !*end || parse_fill(end + 1, a);
}

/* "sampler:ADDRESSING:normalized|unnormalized:nearest|linear". */
static bool parse_sampler(const char *s, xe_arg_spec *a)
{
   const char *c1 = strchr(s, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
   if (!c2) return false;
   int ad = name_index(addressing_names, COUNT(addressing_names), s, (size_t)(c1 - s));
   bool norm = !strncmp(c1 + 1, "normalized:", 11);
   if (ad < 0 || (!norm && strncmp(c1 + 1, "unnormalized:", 13))) return false;
   bool linear = !strcmp(c2 + 1, "linear");
   if (!linear && strcmp(c2 + 1, "nearest")) return false;
   a->kind = XE_ARG_SAMPLER;
   a->type_name = "sampler";
   a->elem = 4;
   a->count = 1;
   a->sampler = XE_SAMPLER(ad, norm, linear);
   return true;
}

bool xe_arg_spec_parse(const char *s, xe_arg_spec *a)
{
   memset(a, 0, sizeof *a);
   char *end;
   if (!strncmp(s, "image:", 6)) return parse_image(s + 6, a);
   if (!strncmp(s, "sampler:", 8)) return parse_sampler(s + 8, a);
   if (!strncmp(s, "local:", 6)) {
      a->kind = XE_ARG_LOCAL;
      a->type_name = "local";
      a->elem = 1;
      a->count = strtoull(s + 6, &end, 0);
      return *end == 0 && a->count > 0;
   }
   if (!strncmp(s, "buf:", 4)) {
      const char *t = s + 4, *c = strchr(t, ':');
      if (!c || !set_type(a, t, (size_t)(c - t))) return false;
      a->kind = XE_ARG_BUFFER;
      a->count = strtoull(c + 1, &end, 0);
      if (end == c + 1) return false;
      if (!*end) return true;
      if (*end != ':') return false;
      return parse_fill(end + 1, a);
   }
   const char *c = strchr(s, ':');
   if (!c || !set_type(a, s, (size_t)(c - s))) return false;
   a->kind = XE_ARG_SCALAR;
   a->count = 1;
   a->value = strtod(c + 1, &end);
   return *end == 0 && end != c + 1;
}

uint64_t xe_rand(uint64_t *state)
{
   uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
   z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
   z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
   return z ^ (z >> 31);
}

static void put(const xe_arg_spec *a, uint8_t *p, double x, uint64_t bits, bool use_bits)
{
   if (a->is_float) st_f(p, a->elem, x);
   else if (use_bits) st_u(p, a->elem, bits);
   else if (a->is_signed) st_u(p, a->elem, (uint64_t)(int64_t)x);
   else st_u(p, a->elem, (uint64_t)x);
}

void xe_arg_materialize(const xe_arg_spec *a, xe_exec_arg *out, uint64_t seed)
{
   out->kind = a->kind;
   out->start = 0;
   memset(&out->image, 0, sizeof out->image);
   if (a->kind == XE_ARG_LOCAL) { out->size = a->count; out->data = NULL; return; }
   out->size = a->kind == XE_ARG_SAMPLER ? 4 : a->count * a->elem;
   out->data = calloc(out->size + 1, 1);
   if (a->kind == XE_ARG_SAMPLER) { st_u(out->data, 4, a->sampler); return; }
   if (a->kind == XE_ARG_IMAGE) out->image = a->image;
   if (a->kind == XE_ARG_SCALAR) { put(a, out->data, a->value, 0, false); return; }
   uint64_t st = seed;
   for (uint64_t e = 0; e < a->count; e++) {
      uint8_t *p = out->data + e * a->elem;
      switch (a->fill) {
      case FILL_ZERO: break;
      case FILL_IOTA: put(a, p, (double)e, e, true); break;
      case FILL_CONST: put(a, p, a->value, 0, false); break;
      case FILL_RANDOM: {
         uint64_t r = xe_rand(&st);
         /* Floats: small exactly representable values, so that sums do
          * not depend much on order; integers: small values too, so that
          * values used as indices or trip counts stay sensible. */
         if (a->is_float) put(a, p, (double)((int64_t)(r % 2001) - 1000) / 64.0, 0, false);
         else put(a, p, 0, r % (a->range ? a->range : 256), true);
         break;
      }
      }
   }
}

/* Whether the module reads or writes the image `param` (a parameter id;
 * also as the parameter of the functions it is passed to: llvm-spirv's
 * entry point calls the kernel's body), or when that finds nothing any
 * image of type `type`, with float texels (read_imagef, write_imagef,
 * ...): the first such access decides; none: true. */
static bool image_texels_float(const xe_module *m, uint32_t param, uint32_t type)
{
   uint32_t ids[16] = {param};
   unsigned nids = 1;
   for (int round = 0; round < 3; round++)
      xe_foreach_fn(f, m) xe_foreach_block(b, f) xe_foreach_inst(i, &b->insts) {
         if (i->opcode != SpvOpFunctionCall) continue;
         for (unsigned k = 1; k < xe_nops(i); k++)
            for (unsigned j = 0; j < nids; j++) {
               if (xe_op(i, k) != ids[j]) continue;
               xe_function *callee = xe_function_by_id(m, xe_op(i, 0));
               unsigned pk = 0;
               for (xe_inst *pi = callee ? callee->params.first : NULL; pi; pi = pi->next) {
                  if (pi->opcode != SpvOpFunctionParameter) continue;
                  bool known = false;
                  for (unsigned q = 0; q < nids; q++) known |= ids[q] == pi->result_id;
                  if (++pk == k && !known && nids < 16) ids[nids++] = pi->result_id;
               }
               break;
            }
      }
   for (int pass = 0; pass < 2; pass++)
   xe_foreach_fn(f, m) xe_foreach_block(b, f) xe_foreach_inst(i, &b->insts) {
      if (i->opcode != SpvOpImageSampleExplicitLod && i->opcode != SpvOpImageRead &&
          i->opcode != SpvOpImageWrite)
         continue;
      xe_inst *o = xe_def(m, xe_op(i, 0));
      uint32_t t = o ? o->type_id : 0, img = xe_op(i, 0);
      xe_inst *ti = xe_def(m, t);
      if (ti && ti->opcode == SpvOpTypeSampledImage) {
         t = xe_op(ti, 0);
         img = o && o->opcode == SpvOpSampledImage ? xe_op(o, 0) : 0;
      }
      bool named = false;
      for (unsigned q = 0; q < nids; q++) named |= img == ids[q];
      if (pass == 0 ? !named : t != type) continue;
      uint32_t vt = i->opcode == SpvOpImageWrite ? (xe_def(m, xe_op(i, 2)) ? xe_def(m, xe_op(i, 2))->type_id : 0)
                                                 : i->type_id;
      uint8_t kd = K_AGG, w; uint16_t nc;
      if (vt) xe_exec_tinfo(m, vt, &kd, &w, &nc);
      return kd == K_FLOAT;
   }
   return true;
}

int xe_exec_params(xe_module *m, const char *kernel, enum xe_arg_kind *kind,
                   unsigned *elem, bool *is_float, unsigned max)
{
   xe_kernel k;
   if (!xe_kernel_by_name(m, kernel, &k)) return -1;
   int n = 0;
   for (xe_inst *p = k.fn->params.first; p; p = p->next) {
      if (p->opcode != SpvOpFunctionParameter) continue;
      if ((unsigned)n < max) {
         xe_inst *t = xe_def(m, p->type_id);
         enum xe_arg_kind kd = XE_ARG_SCALAR;
         uint32_t et = p->type_id;
         if (t->opcode == SpvOpTypeImage || t->opcode == SpvOpTypeSampler) {
            bool img = t->opcode == SpvOpTypeImage;
            unsigned dim = img ? xe_op(t, 1) : 0;
            if (kind) kind[n] = img ? XE_ARG_IMAGE : XE_ARG_SAMPLER;
            if (elem) elem[n] = !img ? 4 : dim == SpvDim1D || dim == SpvDimBuffer ? 1 : dim == SpvDim3D ? 3 : 2;
            if (is_float) is_float[n] = img && image_texels_float(m, p->result_id, p->type_id);
            n++;
            continue;
         }
         if (t->opcode == SpvOpTypePointer) {
            kd = xe_op(t, 0) == SpvStorageClassWorkgroup ? XE_ARG_LOCAL : XE_ARG_BUFFER;
            et = xe_op(t, 1);
         }
         uint8_t kk, w; uint16_t nc;
         xe_exec_tinfo(m, et, &kk, &w, &nc);
         if (kind) kind[n] = kd;
         if (elem) elem[n] = (unsigned)xe_type_layout(m, et, NULL);
         if (is_float) is_float[n] = kk == K_FLOAT;
      }
      n++;
   }
   return n;
}

/* The `xeopt run --launch` JSON object (docs/exec.md). */
bool xe_launch_from_json(const cJSON *js, xe_launch *l, xe_arg_spec *specs, unsigned *nspecs,
                         char **err)
{
   const cJSON *it;
   const char *dn[3] = {"global", "local", "offset"};
   uint64_t *dv[3] = {l->global, l->local, l->offset};
   *nspecs = 0;
   if (!cJSON_IsObject(js)) return (*err = strdup("a launch is not a JSON object")), false;
   it = cJSON_GetObjectItem(js, "kernel");
   if (!cJSON_IsString(it)) return (*err = strdup("a launch has no \"kernel\" string")), false;
   l->kernel = it->valuestring;
   for (int d = 0; d < 3; d++) {
      unsigned k = 0;
      cJSON_ArrayForEach(it, cJSON_GetObjectItem(js, dn[d])) {
         if (k == 3 || !cJSON_IsNumber(it) || it->valuedouble < (d == 2 ? 0 : 1)) {
            if (asprintf(err, "launch of %s: bad \"%s\"", l->kernel, dn[d]) < 0) xe_out_of_memory();
            return false;
         }
         dv[d][k++] = (uint64_t)it->valuedouble;
      }
      if (d == 0 && !k) {
         if (asprintf(err, "launch of %s: no \"global\" size", l->kernel) < 0) xe_out_of_memory();
         return false;
      }
      if (d == 0) l->dims = k;
   }
   it = cJSON_GetObjectItem(js, "subgroup_size");
   if (it) l->subgroup_size = cJSON_IsNumber(it) ? (unsigned)it->valuedouble : 0;
   unsigned k = 0;
   cJSON_ArrayForEach(it, cJSON_GetObjectItem(js, "args")) {
      if (k >= XE_EXEC_MAX_ARGS || !cJSON_IsString(it) || !xe_arg_spec_parse(it->valuestring, &specs[k])) {
         if (asprintf(err, "launch of %s: bad argument %u", l->kernel, k) < 0) xe_out_of_memory();
         return false;
      }
      k++;
   }
   *nspecs = k;
   cJSON_ArrayForEach(it, cJSON_GetObjectItem(js, "spec")) {
      if (l->nspec == XE_EXEC_MAX_SPEC || !cJSON_IsNumber(it)) continue;
      l->spec_id[l->nspec] = (uint32_t)atoi(it->string);
      memcpy(&l->spec_value[l->nspec], &it->valuedouble, 8);
      l->spec_float[l->nspec++] = true;
   }
   return true;
}

/* ---- the memory of pointer arguments ---- */

/* The first scalar of type (descending into vectors, arrays and structs):
 * its width in bytes (pointers 8), or 0 when there is none. */
static unsigned first_scalar(const xe_module *m, uint32_t type, bool *is_float)
{
   for (int depth = 0; depth < 16; depth++) {
      xe_inst *t = xe_def(m, type);
      if (!t) return 0;
      switch (t->opcode) {
      case SpvOpTypeInt: case SpvOpTypeFloat:
         *is_float = t->opcode == SpvOpTypeFloat;
         return xe_op(t, 0) / 8;
      case SpvOpTypePointer:
         *is_float = false;
         return 8;
      case SpvOpTypeVector: case SpvOpTypeArray: case SpvOpTypeStruct:
         if (!xe_nops(t)) return 0;
         type = xe_op(t, 0);
         break;
      default:
         return 0;
      }
   }
   return 0;
}

/* The leaves of `type` at byte `base`: every scalar (when scalars) and
 * pointer, in layout order, while there is room. */
static void add_leaves(const xe_module *m, uint32_t type, uint64_t base, bool scalars,
                       xe_param_mem *out)
{
   xe_inst *t = xe_def(m, type);
   if (!t || out->nleaves == XE_PARAM_MAX_LEAVES || base > UINT32_MAX) return;
   switch (t->opcode) {
   case SpvOpTypeInt: case SpvOpTypeFloat:
      if (scalars)
         out->leaf[out->nleaves++] = (xe_param_leaf){(uint32_t)base,
            t->opcode == SpvOpTypeInt ? XE_LEAF_INT : XE_LEAF_FLOAT, (uint8_t)(xe_op(t, 0) / 8), 0, false};
      break;
   case SpvOpTypePointer: {
      xe_param_leaf *l = &out->leaf[out->nleaves++];
      *l = (xe_param_leaf){(uint32_t)base, XE_LEAF_PTR, 8, 0, false};
      /* An i8 pointee says nothing (LLVM's opaque pointers are written
       * as i8*): the target's width is traced later. */
      if (xe_type_width(m, xe_op(t, 1)) != 8)
         l->target_elem = (uint8_t)first_scalar(m, xe_op(t, 1), &l->target_float);
      break;
   }
   case SpvOpTypeVector: case SpvOpTypeArray: {
      uint64_t n;
      if (t->opcode == SpvOpTypeVector) n = xe_op(t, 1);
      else if (!xe_const_uint(m, xe_op(t, 1), &n)) return;
      uint64_t es = xe_type_layout(m, xe_op(t, 0), NULL);
      for (uint64_t i = 0; i < n && es && out->nleaves < XE_PARAM_MAX_LEAVES; i++)
         add_leaves(m, xe_op(t, 0), base + i * es, scalars, out);
      break;
   }
   case SpvOpTypeStruct:
      for (unsigned k = 0; k < xe_nops(t); k++)
         add_leaves(m, xe_op(t, k), base + xe_type_member_offset(m, type, k), scalars, out);
      break;
   default:
      break;
   }
}

/* The byte offset an access chain adds to its base, which points `off`
 * bytes into the argument; UINT64_MAX when an index is not a constant. */
static uint64_t chain_offset(const xe_module *m, const xe_inst *i, uint64_t off)
{
   xe_inst *pt = xe_def(m, xe_def(m, xe_op(i, 0)) ? xe_def(m, xe_op(i, 0))->type_id : 0);
   if (off == UINT64_MAX || !pt || pt->opcode != SpvOpTypePointer) return UINT64_MAX;
   uint32_t type = xe_op(pt, 1);
   bool ptr_chain = i->opcode == SpvOpPtrAccessChain || i->opcode == SpvOpInBoundsPtrAccessChain;
   for (unsigned k = 1; k < xe_nops(i); k++) {
      uint64_t idx;
      if (!xe_const_uint(m, xe_op(i, k), &idx)) return UINT64_MAX;
      if (k == 1 && ptr_chain) {
         off += idx * xe_type_layout(m, type, NULL);
         continue;
      }
      xe_inst *t = xe_def(m, type);
      if (!t) return UINT64_MAX;
      if (t->opcode == SpvOpTypeStruct) {
         if (idx >= xe_nops(t)) return UINT64_MAX;
         off += xe_type_member_offset(m, type, (unsigned)idx);
         type = xe_op(t, (unsigned)idx);
      } else if (t->opcode == SpvOpTypeArray || t->opcode == SpvOpTypeVector ||
                 t->opcode == SpvOpTypeRuntimeArray) {
         type = xe_op(t, 0);
         off += idx * xe_type_layout(m, type, NULL);
      } else {
         return UINT64_MAX;
      }
   }
   return off;
}

/* The OpVariable a pointer is a cast of, or the pointer itself. */
static uint32_t pointer_root(const xe_module *m, uint32_t id)
{
   for (int depth = 0; depth < 8; depth++) {
      xe_inst *d = xe_def(m, id);
      if (!d || (d->opcode != SpvOpBitcast && d->opcode != SpvOpPtrCastToGeneric &&
                 d->opcode != SpvOpCopyObject))
         break;
      id = xe_op(d, 0);
   }
   return id;
}

/* The variable (or parameter) a pointer points into, through casts and
 * constant access chains, and the byte offset; UINT64_MAX when an index is
 * not a constant. */
static uint64_t locate(const xe_module *m, uint32_t id, uint32_t *root)
{
   uint64_t off = 0;
   for (int depth = 0; depth < 16; depth++) {
      xe_inst *d = xe_def(m, id);
      if (d && (d->opcode == SpvOpBitcast || d->opcode == SpvOpPtrCastToGeneric ||
                d->opcode == SpvOpCopyObject)) {
         id = xe_op(d, 0);
      } else if (d && (d->opcode == SpvOpAccessChain || d->opcode == SpvOpInBoundsAccessChain ||
                       d->opcode == SpvOpPtrAccessChain || d->opcode == SpvOpInBoundsPtrAccessChain)) {
         uint64_t delta = chain_offset(m, d, 0);
         if (delta == UINT64_MAX) return UINT64_MAX;
         off += delta;
         id = xe_op(d, 0);
      } else {
         break;
      }
   }
   *root = id;
   return off;
}

/* The first width the kernel loads or stores through the pointer that
 * parameter `param`'s memory holds at byte `at` (any byte when any_at: an
 * array of pointers).  It follows where that memory is read: casts,
 * constant access chains, calls, copies (OpCopyMemory*, and a load of the
 * pointer stored elsewhere: DPC++ copies its by-value captures member by
 * member into the kernel functor); then the pointer, loaded as a pointer
 * or as a 64-bit integer converted by OpConvertUToPtr (how DPC++ reads a
 * pointer member it declared as i8*), through casts and access chains to
 * its first load or store.  direct: the width of the first access through
 * the parameter itself instead (at0 and any_at unused).  0 when no access
 * is found. */
static unsigned traced_width(xe_module *m, uint32_t param, uint64_t at0, bool any_at, bool direct,
                             bool *is_float)
{
   /* Items: id points `off` bytes into a memory that holds the pointer at
    * byte `at`; or, derived, id is (derived from) that pointer. */
   struct { uint32_t id; uint64_t off, at; bool derived, any; } w[256];
   unsigned n = 0;
   bool any = any_at;    /* the item's memory holds pointers at every byte */
#define PUSH(i_, o_, a_, d_) do { if (n < 256) { w[n].id = (i_); w[n].off = (o_); w[n].at = (a_); \
                                                 w[n].derived = (d_); w[n].any = any; n++; } } while (0)
   PUSH(param, 0, at0, direct);
   for (unsigned h = 0; h < n; h++) {
      uint32_t cnt;
      const xe_use *u = xe_uses_unordered(m, w[h].id, &cnt);
      uint64_t off = w[h].off, at = w[h].at;
      bool derived = w[h].derived;
      for (uint32_t j = 0; j < cnt; j++) {
         any = w[h].any;
         xe_inst *i = u[j].inst;
         unsigned opk = u[j].word - i->first_op;
         switch (i->opcode) {
         case SpvOpBitcast: case SpvOpPtrCastToGeneric: case SpvOpGenericCastToPtr:
         case SpvOpGenericCastToPtrExplicit: case SpvOpCopyObject:
            PUSH(i->result_id, off, at, derived);
            break;
         case SpvOpAccessChain: case SpvOpInBoundsAccessChain:
         case SpvOpPtrAccessChain: case SpvOpInBoundsPtrAccessChain:
            if (opk == 0) PUSH(i->result_id, derived ? 0 : chain_offset(m, i, off), at, derived);
            break;
         case SpvOpFunctionCall: {
            xe_function *callee = opk ? xe_function_by_id(m, xe_op(i, 0)) : NULL;
            unsigned pk = 0;
            for (xe_inst *p = callee ? callee->params.first : NULL; p; p = p->next)
               if (p->opcode == SpvOpFunctionParameter && ++pk == opk) {
                  PUSH(p->result_id, off, at, derived);
                  break;
               }
            break;
         }
         case SpvOpCopyMemory: case SpvOpCopyMemorySized:
            if (opk == 1 && !derived) PUSH(pointer_root(m, xe_op(i, 0)), off, at, false);
            break;
         case SpvOpLoad: case SpvOpStore: {
            if (opk != 0) break;
            uint32_t vt = i->opcode == SpvOpLoad ? i->type_id
                          : xe_def(m, xe_op(i, 1)) ? xe_def(m, xe_op(i, 1))->type_id : 0;
            if (derived) {
               unsigned wd = first_scalar(m, vt, is_float);
               if (wd) return wd;
               break;
            }
            if (i->opcode != SpvOpLoad || (!any && off != at)) break;
            xe_inst *t = xe_def(m, vt);
            if (t && t->opcode == SpvOpTypePointer)
               PUSH(i->result_id, 0, 0, true);
            if ((t && t->opcode == SpvOpTypePointer) || xe_type_width(m, vt) == 64) {
               uint32_t c2;
               const xe_use *u2 = xe_uses_unordered(m, i->result_id, &c2);
               any = false;
               for (uint32_t q = 0; q < c2; q++) {
                  xe_inst *v = u2[q].inst;
                  uint32_t root;
                  uint64_t o2;
                  if (v->opcode == SpvOpConvertUToPtr)
                     PUSH(v->result_id, 0, 0, true);
                  else if (v->opcode == SpvOpStore && u2[q].word == v->first_op + 1 &&
                           (o2 = locate(m, xe_op(v, 0), &root)) != UINT64_MAX)
                     PUSH(root, 0, o2, false);
               }
            }
            break;
         }
         default:
            break;
         }
      }
   }
#undef PUSH
   return 0;
}

/* Parameter k of the named kernel's entry function, or NULL. */
static xe_inst *kernel_param(xe_module *m, const char *kernel, unsigned k)
{
   xe_kernel kn;
   if (!xe_kernel_by_name(m, kernel, &kn)) return NULL;
   unsigned pk = 0;
   for (xe_inst *p = kn.fn->params.first; p; p = p->next)
      if (p->opcode == SpvOpFunctionParameter && pk++ == k) return p;
   return NULL;
}

bool xe_exec_param_memory(xe_module *m, const char *kernel, unsigned k, xe_param_mem *out)
{
   memset(out, 0, sizeof *out);
   xe_inst *p = kernel_param(m, kernel, k);
   if (!p) return false;
   xe_inst *t = xe_def(m, p->type_id);
   if (!t || t->opcode != SpvOpTypePointer) return true;
   out->by_value = xe_op(t, 0) == SpvStorageClassFunction;
   add_leaves(m, xe_op(t, 1), 0, out->by_value, out);
   for (unsigned j = 0; j < out->nleaves; j++) {
      xe_param_leaf *l = &out->leaf[j];
      if (l->kind != XE_LEAF_PTR || l->target_elem) continue;
      bool f = false;
      unsigned wd = traced_width(m, p->result_id, l->offset, !out->by_value, false, &f);
      /* Not found: 8 bytes, a size_t.  Small 8-byte values read at a
       * narrower width are still small values (or zeros); small bytes
       * read as a 64-bit value are not small. */
      l->target_elem = (uint8_t)(wd ? wd : 8);
      l->target_float = wd && f;
   }
   return true;
}

unsigned xe_exec_param_access_width(xe_module *m, const char *kernel, unsigned k, bool *is_float)
{
   *is_float = false;
   xe_inst *p = kernel_param(m, kernel, k);
   return p ? traced_width(m, p->result_id, 0, false, true, is_float) : 0;
}
