/*
 * Images and samplers: OpSampledImage, OpImageSampleExplicitLod
 * (read_image{f,i,ui,h} with a sampler), OpImageRead (without one),
 * OpImageWrite and the size, format and order queries, for 1-D, 2-D and
 * 3-D images of the channel orders and data types xe_image_desc names.
 *
 * Values: an image is the 64-bit pointer PTR(SP_GLOBAL, argument, 0), so
 * that texel accesses go through xe_run_mem_ex like buffer accesses and
 * race detection sees them (a write of texel (x,y) by one work-item and a
 * read of it by another without a barrier is a race); a sampler is an
 * XE_SAMPLER value; a sampled image is the image's pointer with the
 * sampler in its (otherwise zero) low offset bits.
 *
 * Sampling follows the OpenCL 2.0 C specification, section 8 ("Image
 * addressing and filtering"): the addressing modes map a coordinate to a
 * texel index per dimension, the nearest filter picks one texel, the linear
 * filter weights 2, 4 or 8 with the fractions of u - 0.5, computed in
 * float.  Where the specification leaves the result undefined (a
 * coordinate outside the image with CLK_ADDRESS_NONE, a sampler-less read
 * or a write outside the image), the run fails with an out-of-bounds fault
 * instead of inventing a value: --verify then does not use that launch,
 * because the input's result there means nothing.
 *
 * Conversions (section 8.3): unorm/snorm channels read as c / (2^n - 1)
 * (snorm clamped at -1.0), written as convert_{u,}char/short_sat_rte(f *
 * scale); half channels round to nearest even; integer channels written by
 * write_image{i,ui} saturate to the channel's range.  Channels the order
 * does not have read as 0, alpha as 1; the border color of
 * CLK_ADDRESS_CLAMP is (0,0,0,0), or (0,0,0,1) for orders without alpha.
 */
#include <math.h>
#include <stdio.h>
#include "image.h"
#include "memory.h"

unsigned xe_image_channels(uint32_t order)
{
   switch (order) {
   case SpvImageChannelOrderR: case SpvImageChannelOrderA:
   case SpvImageChannelOrderIntensity: case SpvImageChannelOrderLuminance:
      return 1;
   case SpvImageChannelOrderRG: case SpvImageChannelOrderRA:
      return 2;
   case SpvImageChannelOrderRGBA: case SpvImageChannelOrderBGRA: case SpvImageChannelOrderARGB:
      return 4;
   default:
      return 0;
   }
}

unsigned xe_image_channel_size(uint32_t type)
{
   switch (type) {
   case SpvImageChannelDataTypeSnormInt8: case SpvImageChannelDataTypeUnormInt8:
   case SpvImageChannelDataTypeSignedInt8: case SpvImageChannelDataTypeUnsignedInt8:
      return 1;
   case SpvImageChannelDataTypeSnormInt16: case SpvImageChannelDataTypeUnormInt16:
   case SpvImageChannelDataTypeSignedInt16: case SpvImageChannelDataTypeUnsignedInt16:
   case SpvImageChannelDataTypeHalfFloat:
      return 2;
   case SpvImageChannelDataTypeSignedInt32: case SpvImageChannelDataTypeUnsignedInt32:
   case SpvImageChannelDataTypeFloat:
      return 4;
   default:
      return 0;
   }
}

static bool has_alpha(uint32_t order)
{
   return order == SpvImageChannelOrderA || order == SpvImageChannelOrderRA ||
          order == SpvImageChannelOrderRGBA || order == SpvImageChannelOrderBGRA ||
          order == SpvImageChannelOrderARGB || order == SpvImageChannelOrderIntensity;
}

/* Which of r, g, b, a (0..3) memory component k of a texel holds. */
static unsigned channel_of(uint32_t order, unsigned k)
{
   static const unsigned bgra[4] = {2, 1, 0, 3}, argb[4] = {3, 0, 1, 2};
   switch (order) {
   case SpvImageChannelOrderA: return 3;
   case SpvImageChannelOrderRA: return k ? 3 : 0;
   case SpvImageChannelOrderBGRA: return bgra[k];
   case SpvImageChannelOrderARGB: return argb[k];
   default: return k;
   }
}

static bool is_int_type(uint32_t t)
{
   return t >= SpvImageChannelDataTypeSignedInt8 && t <= SpvImageChannelDataTypeUnsignedInt32;
}
static bool is_signed_int_type(uint32_t t)
{
   return t >= SpvImageChannelDataTypeSignedInt8 && t <= SpvImageChannelDataTypeSignedInt32;
}

/* One component as a float (read_imagef/h); integer channel types give
 * their integer value (undefined in OpenCL, deterministic here). */
static float comp_to_float(uint32_t type, const uint8_t *p)
{
   switch (type) {
   case SpvImageChannelDataTypeUnormInt8: return (float)*p / 255.0f;
   case SpvImageChannelDataTypeUnormInt16: return (float)ld_u(p, 2) / 65535.0f;
   case SpvImageChannelDataTypeSnormInt8: return fmaxf(-1.0f, (float)(int8_t)*p / 127.0f);
   case SpvImageChannelDataTypeSnormInt16: return fmaxf(-1.0f, (float)ld_s(p, 2) / 32767.0f);
   case SpvImageChannelDataTypeHalfFloat: return (float)ld_f(p, 2);
   case SpvImageChannelDataTypeFloat: return (float)ld_f(p, 4);
   default: {
      unsigned s = xe_image_channel_size(type);
      return is_signed_int_type(type) ? (float)ld_s(p, s) : (float)ld_u(p, s);
   }
   }
}

/* One component as an integer (read_imagei/ui): the channel's value, the
 * raw bits for the other types (undefined in OpenCL). */
static int64_t comp_to_int(uint32_t type, const uint8_t *p)
{
   unsigned s = xe_image_channel_size(type);
   return is_signed_int_type(type) ? ld_s(p, s) : (int64_t)ld_u(p, s);
}

static int64_t sat_rte(float f, int64_t lo, int64_t hi)
{
   if (isnan(f)) return 0;
   float r = rintf(f);   /* the default rounding mode: to nearest even */
   return r < (float)lo ? lo : r > (float)hi ? hi : (int64_t)r;
}

static void float_to_comp(uint32_t type, uint8_t *p, float f)
{
   switch (type) {
   case SpvImageChannelDataTypeUnormInt8: *p = (uint8_t)sat_rte(f * 255.0f, 0, 255); break;
   case SpvImageChannelDataTypeUnormInt16: st_u(p, 2, (uint64_t)sat_rte(f * 65535.0f, 0, 65535)); break;
   case SpvImageChannelDataTypeSnormInt8: *p = (uint8_t)sat_rte(f * 127.0f, -128, 127); break;
   case SpvImageChannelDataTypeSnormInt16:
      st_u(p, 2, (uint64_t)sat_rte(f * 32767.0f, -32768, 32767));
      break;
   case SpvImageChannelDataTypeHalfFloat: st_f(p, 2, f); break;
   case SpvImageChannelDataTypeFloat: st_f(p, 4, f); break;
   default: {
      unsigned s = xe_image_channel_size(type);
      st_u(p, s, (uint64_t)(int64_t)f);
      break;
   }
   }
}

static void int_to_comp(uint32_t type, uint8_t *p, int64_t v, bool is_signed_src)
{
   unsigned s = xe_image_channel_size(type);
   int64_t lo, hi;
   switch (type) {
   case SpvImageChannelDataTypeSignedInt8: lo = -128; hi = 127; break;
   case SpvImageChannelDataTypeSignedInt16: lo = -32768; hi = 32767; break;
   case SpvImageChannelDataTypeSignedInt32: lo = INT32_MIN; hi = INT32_MAX; break;
   case SpvImageChannelDataTypeUnsignedInt8: lo = 0; hi = 255; break;
   case SpvImageChannelDataTypeUnsignedInt16: lo = 0; hi = 65535; break;
   case SpvImageChannelDataTypeUnsignedInt32: lo = 0; hi = UINT32_MAX; break;
   default:
      /* write_imagei to a float image: undefined; the value converted. */
      float_to_comp(type, p, (float)v);
      return;
   }
   /* write_imageui takes uint: a "negative" 32-bit value is large. */
   if (!is_signed_src) v = (int64_t)(uint32_t)v;
   st_u(p, s, (uint64_t)(v < lo ? lo : v > hi ? hi : v));
}

/* ---- operands ---- */

static inline uint64_t V64(const uint8_t *v, uint32_t s) { uint64_t x; memcpy(&x, v + s, 8); return x; }

/* The image argument a value names, or NULL (run failed). */
static const xe_exec_arg *image_arg(xe_run *r, const dinst *d, uint64_t handle)
{
   unsigned k = PTR_BUF(handle);
   if (PTR_SP(handle) != SP_GLOBAL || k >= r->l->nargs || r->l->args[k].kind != XE_ARG_IMAGE) {
      xe_run_fail(r, d, "image operand is not an image argument");
      return NULL;
   }
   const xe_exec_arg *a = &r->l->args[k];
   if (!xe_image_channels(a->image.order) || !xe_image_channel_size(a->image.type)) {
      xe_run_fail(r, d, "unsupported image channel order or data type");
      return NULL;
   }
   return a;
}

/* Coordinate component k (packed operand info XE_OT-style in ot). */
static double coord(const uint8_t *v, uint32_t slot, uint32_t ot, unsigned k, bool *is_float)
{
   unsigned w = XE_OT_WIDTH(ot), n = XE_OT_N(ot);
   if (k >= n) return 0;
   *is_float = XE_OT_KIND(ot) == K_FLOAT;
   if (*is_float) return ld_f(v + slot + k * w, w);
   return (double)ld_s(v + slot + k * w, w);
}

static uint64_t extent(const xe_image_desc *im, unsigned k)
{
   return k == 0 ? im->width : k == 1 ? im->height : im->depth;
}

/* Reads texel (x, y, z), in range, as four floats or four integers in
 * r, g, b, a order. */
static bool texel_read(xe_run *r, xe_wi *w, const dinst *d, uint64_t handle, const xe_exec_arg *a,
                       const int64_t *ix, float *f, int64_t *iv)
{
   const xe_image_desc *im = &a->image;
   unsigned nc = xe_image_channels(im->order), cs = xe_image_channel_size(im->type);
   uint64_t idx = ((uint64_t)ix[2] * im->height + (uint64_t)ix[1]) * im->width + (uint64_t)ix[0];
   uint8_t *p = xe_run_mem_ex(r, w, d, handle + idx * nc * cs, (uint64_t)nc * cs, 0,
                              NULL);
   if (!p) return false;
   for (unsigned c = 0; c < 3; c++) { f[c] = 0; iv[c] = 0; }
   f[3] = 1;
   iv[3] = 1;
   for (unsigned k = 0; k < nc; k++) {
      unsigned ch = channel_of(im->order, k);
      f[ch] = comp_to_float(im->type, p + k * cs);
      iv[ch] = comp_to_int(im->type, p + k * cs);
   }
   if (im->order == SpvImageChannelOrderIntensity)
      for (unsigned c = 1; c < 4; c++) { f[c] = f[0]; iv[c] = iv[0]; }
   if (im->order == SpvImageChannelOrderLuminance)
      for (unsigned c = 1; c < 3; c++) { f[c] = f[0]; iv[c] = iv[0]; }
   return true;
}

static bool undefined_coord(xe_run *r, const dinst *d, unsigned arg, const char *what)
{
   if (!r->failed) {
      r->fault.kind = XE_FAULT_BOUNDS;
      r->fault.arg = arg;
      r->fault.end = 0;
      r->fault.local_memory = false;
   }
   return xe_run_fail(r, d, what);
}

static void store_result(const dinst *d, uint8_t *v, const float *f, const int64_t *iv)
{
   for (unsigned c = 0; c < d->ncomp && c < 4; c++) {
      if (d->kind == K_FLOAT) st_f(v + d->res + c * d->width, d->width, f[c]);
      else st_u(v + d->res + c * d->width, d->width, (uint64_t)iv[c]);
   }
}

/* Texel index per dimension for the nearest filter (section 8.2), or -1
 * past the low edge / size past the high edge under CLK_ADDRESS_CLAMP. */
static int64_t nearest_index(uint32_t s, double c, uint64_t size)
{
   double n = (double)size;
   int64_t i, sz = (int64_t)size;
   switch (XE_SAMPLER_ADDRESSING(s)) {
   case SpvSamplerAddressingModeRepeat: {
      float u = (float)((c - floor(c)) * n);
      i = (int64_t)floorf(u);
      if (i > sz - 1) i -= sz;
      return i;
   }
   case SpvSamplerAddressingModeRepeatMirrored: {
      float sp = 2.0f * rintf(0.5f * (float)c);
      float u = fabsf((float)c - sp) * (float)n;
      i = (int64_t)floorf(u);
      return i < sz - 1 ? i : sz - 1;
   }
   default: {
      float u = XE_SAMPLER_NORMALIZED(s) ? (float)c * (float)n : (float)c;
      double fl = floor((double)u);
      if (fl < -1) fl = -1;
      if (fl > n) fl = n;
      i = (int64_t)fl;
      if (XE_SAMPLER_ADDRESSING(s) == SpvSamplerAddressingModeClampToEdge)
         i = i < 0 ? 0 : i > sz - 1 ? sz - 1 : i;
      return i;
   }
   }
}

/* The two texel indices and the weight of the second for the linear
 * filter (section 8.2). */
static void linear_index(uint32_t s, double c, uint64_t size, int64_t *i0, int64_t *i1, float *a)
{
   int64_t sz = (int64_t)size;
   float u;
   switch (XE_SAMPLER_ADDRESSING(s)) {
   case SpvSamplerAddressingModeRepeat:
      u = (float)((c - floor(c)) * (double)size);
      *i0 = (int64_t)floorf(u - 0.5f);
      *i1 = *i0 + 1;
      if (*i0 < 0) *i0 += sz;
      if (*i1 > sz - 1) *i1 -= sz;
      break;
   case SpvSamplerAddressingModeRepeatMirrored: {
      float sp = 2.0f * rintf(0.5f * (float)c);
      u = fabsf((float)c - sp) * (float)size;
      *i0 = (int64_t)floorf(u - 0.5f);
      *i1 = *i0 + 1;
      if (*i0 < 0) *i0 = 0;
      if (*i1 > sz - 1) *i1 = sz - 1;
      break;
   }
   default: {
      u = XE_SAMPLER_NORMALIZED(s) ? (float)c * (float)size : (float)c;
      double fl = floor((double)u - 0.5);
      if (fl < -2) fl = -2;
      if (fl > (double)size) fl = (double)size;
      *i0 = (int64_t)fl;
      *i1 = *i0 + 1;
      if (XE_SAMPLER_ADDRESSING(s) == SpvSamplerAddressingModeClampToEdge) {
         *i0 = *i0 < 0 ? 0 : *i0 > sz - 1 ? sz - 1 : *i0;
         *i1 = *i1 < 0 ? 0 : *i1 > sz - 1 ? sz - 1 : *i1;
      }
      break;
   }
   }
   float t = u - 0.5f;
   *a = t - floorf(t);
}

/* Reads texel ix with the sampler's out-of-range rule: border color
 * (CLK_ADDRESS_CLAMP) or an undefined-result fault (CLK_ADDRESS_NONE). */
static bool sampled_texel(xe_run *r, xe_wi *w, const dinst *d, uint64_t handle, const xe_exec_arg *a,
                          uint32_t s, const int64_t *ix, float *f, int64_t *iv)
{
   for (unsigned k = 0; k < 3; k++) {
      if (ix[k] >= 0 && (uint64_t)ix[k] < extent(&a->image, k)) continue;
      if (XE_SAMPLER_ADDRESSING(s) == SpvSamplerAddressingModeNone)
         return undefined_coord(r, d, PTR_BUF(handle),
                                "image read outside the image with CLK_ADDRESS_NONE (undefined)");
      float alpha = has_alpha(a->image.order) ? 0 : 1;
      f[0] = f[1] = f[2] = 0; f[3] = alpha;
      iv[0] = iv[1] = iv[2] = 0; iv[3] = (int64_t)alpha;
      return true;
   }
   return texel_read(r, w, d, handle, a, ix, f, iv);
}

static bool sample(xe_run *r, xe_wi *w, const dinst *d)
{
   uint8_t *v = w->v;
   uint64_t si = V64(v, d->ops[0]);
   uint32_t s = (uint32_t)(si & 0xfffff);
   uint64_t handle = si & ~0xfffffull;
   const xe_exec_arg *a = image_arg(r, d, handle);
   if (!a) return false;
   unsigned dims = a->image.dims;
   double c[3];
   bool isf = false;
   for (unsigned k = 0; k < 3; k++) c[k] = k < dims ? coord(v, d->ops[1], d->aux, k, &isf) : 0;
   float f[4];
   int64_t iv[4];
   if (XE_SAMPLER_FILTER(s) == SpvSamplerFilterModeNearest || d->kind != K_FLOAT) {
      if (XE_SAMPLER_FILTER(s) != SpvSamplerFilterModeNearest)
         return xe_run_fail(r, d, "read_imagei/ui with a linear-filter sampler (undefined)");
      int64_t ix[3] = {0, 0, 0};
      for (unsigned k = 0; k < dims; k++) ix[k] = nearest_index(s, c[k], extent(&a->image, k));
      if (!sampled_texel(r, w, d, handle, a, s, ix, f, iv)) return false;
      store_result(d, v, f, iv);
      return true;
   }
   int64_t i0[3] = {0, 0, 0}, i1[3] = {0, 0, 0};
   float wt[3] = {0, 0, 0}, acc[4] = {0, 0, 0, 0};
   for (unsigned k = 0; k < dims; k++) linear_index(s, c[k], extent(&a->image, k), &i0[k], &i1[k], &wt[k]);
   /* Corners in the specification's order: x fastest. */
   for (unsigned corner = 0; corner < (1u << dims); corner++) {
      int64_t ix[3] = {0, 0, 0};
      float weight = 1;
      for (unsigned k = 0; k < dims; k++) {
         bool hi = (corner >> k) & 1;
         ix[k] = hi ? i1[k] : i0[k];
         weight *= hi ? wt[k] : 1 - wt[k];
      }
      if (!sampled_texel(r, w, d, handle, a, s, ix, f, iv)) return false;
      for (unsigned ch = 0; ch < 4; ch++) acc[ch] += weight * f[ch];
   }
   store_result(d, v, acc, iv);
   return true;
}

/* Integer coordinates of a sampler-less read or a write; false (faulted)
 * when outside the image. */
static bool exact_coords(xe_run *r, const dinst *d, const uint8_t *v, uint64_t handle,
                         const xe_exec_arg *a, int64_t *ix, bool write)
{
   bool isf = false;
   for (unsigned k = 0; k < 3; k++)
      ix[k] = k < a->image.dims ? (int64_t)coord(v, d->ops[1], d->aux, k, &isf) : 0;
   for (unsigned k = 0; k < 3; k++) {
      if (ix[k] < 0 || (uint64_t)ix[k] >= extent(&a->image, k)) {
         char msg[160];
         snprintf(msg, sizeof msg, "image %s at (%lld,%lld,%lld) outside the %llux%llux%llu image "
                  "(undefined)", write ? "write" : "read", (long long)ix[0], (long long)ix[1],
                  (long long)ix[2], (unsigned long long)a->image.width,
                  (unsigned long long)a->image.height, (unsigned long long)a->image.depth);
         return undefined_coord(r, d, PTR_BUF(handle), msg);
      }
   }
   return true;
}

static bool write_texel(xe_run *r, xe_wi *w, const dinst *d)
{
   uint8_t *v = w->v;
   uint64_t handle = V64(v, d->ops[0]);
   const xe_exec_arg *a = image_arg(r, d, handle);
   if (!a) return false;
   int64_t ix[3];
   if (!exact_coords(r, d, v, handle, a, ix, true)) return false;
   const xe_image_desc *im = &a->image;
   unsigned nc = xe_image_channels(im->order), cs = xe_image_channel_size(im->type);
   uint32_t tt = d->aux2;
   unsigned tw = XE_OT_WIDTH(tt), tn = XE_OT_N(tt);
   uint8_t bytes[16];
   for (unsigned k = 0; k < nc; k++) {
      unsigned ch = channel_of(im->order, k);
      const uint8_t *src = v + d->ops[2] + (ch < tn ? ch : 0) * tw;
      if (XE_OT_KIND(tt) == K_FLOAT) float_to_comp(im->type, bytes + k * cs, (float)ld_f(src, tw));
      else if (is_int_type(im->type))
         /* write_imagei vs write_imageui: SignExtend (0x1000) or
          * ZeroExtend (0x2000) image operand, else by the channel type. */
         int_to_comp(im->type, bytes + k * cs, ld_s(src, tw),
                     d->nops > 3 ? !(d->ops[3] & 0x2000) && ((d->ops[3] & 0x1000) || is_signed_int_type(im->type))
                                 : is_signed_int_type(im->type));
      else int_to_comp(im->type, bytes + k * cs, ld_s(src, tw), true);
   }
   uint64_t idx = ((uint64_t)ix[2] * im->height + (uint64_t)ix[1]) * im->width + (uint64_t)ix[0];
   uint8_t *p = xe_run_mem_ex(r, w, d, handle + idx * nc * cs, (uint64_t)nc * cs, XE_MEM_WRITE, bytes);
   if (!p) return false;
   memcpy(p, bytes, (size_t)nc * cs);
   return true;
}

static bool read_texel(xe_run *r, xe_wi *w, const dinst *d)
{
   uint8_t *v = w->v;
   uint64_t handle = V64(v, d->ops[0]);
   const xe_exec_arg *a = image_arg(r, d, handle);
   if (!a) return false;
   int64_t ix[3];
   if (!exact_coords(r, d, v, handle, a, ix, false)) return false;
   float f[4];
   int64_t iv[4];
   if (!texel_read(r, w, d, handle, a, ix, f, iv)) return false;
   store_result(d, v, f, iv);
   return true;
}

static bool query(xe_run *r, xe_wi *w, const dinst *d)
{
   uint8_t *v = w->v;
   const xe_exec_arg *a = image_arg(r, d, V64(v, d->ops[0]));
   if (!a) return false;
   if (d->op == SpvOpImageQueryFormat || d->op == SpvOpImageQueryOrder) {
      st_u(v + d->res, d->width, d->op == SpvOpImageQueryFormat ? a->image.type : a->image.order);
      return true;
   }
   for (unsigned k = 0; k < d->ncomp; k++)
      st_u(v + d->res + k * d->width, d->width, k < 3 ? extent(&a->image, k) : 0);
   return true;
}

bool xe_run_image(xe_run *r, xe_wi *w, const dinst *d)
{
   uint8_t *v = w->v;
   switch (d->op) {
   case SpvOpSampledImage: {
      uint64_t q = V64(v, d->ops[0]) | (uint64_t)(ld_u(v + d->ops[1], 4) & 0xfffff);
      memcpy(v + d->res, &q, 8);
      return true;
   }
   case SpvOpImageSampleExplicitLod:
      return sample(r, w, d);
   case SpvOpImageRead:
      return read_texel(r, w, d);
   case SpvOpImageWrite:
      return write_texel(r, w, d);
   case SpvOpImageQuerySize: case SpvOpImageQuerySizeLod:
   case SpvOpImageQueryFormat: case SpvOpImageQueryOrder:
      return query(r, w, d);
   default:
      return xe_run_fail(r, d, "unsupported image instruction");
   }
}
