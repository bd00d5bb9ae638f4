/*
 * --verify's launch synthesis (verify.c says how launches are chosen):
 * the shape of a launch slot, its images and samplers, the scalars tied to
 * the shape, the buffer sizes (with the contract's padding), and the
 * launch they make.
 */
#include <stdlib.h>
#include <string.h>
#include "verify.h"

/* The largest min_elements of argument k in the padding section, or 0. */
static uint64_t padded_min_elements(const vkernel *vk, unsigned k, const xe_mf_launch *l,
                                    const double *sval)
{
   if (!vk->contract) return 0;
   int64_t args[XE_EXEC_MAX_ARGS], best = 0;
   for (int a = 0; a < vk->np; a++) args[a] = (int64_t)sval[a];
   for (unsigned e = 0; e < vk->contract->npadding; e++) {
      const xe_mf_padding *p = &vk->contract->padding[e];
      int64_t v;
      if (p->kind == XE_MF_BUFFER && p->arg == k &&
          xe_mf_formula_eval(&p->min_elements, l, args, (unsigned)vk->np, &v) && v > best)
         best = v;
   }
   return (uint64_t)best;
}

/* ---- launch synthesis ---- */

static uint64_t pick(uint64_t *seed, uint64_t n) { return n ? xe_rand(seed) % n : 0; }

/* The shape of launch slot `slot`.  Slots 0, 1, 2 are fixed mixes (with
 * the default --verify=3 every feature is exercised once); later slots
 * draw each feature at random.  plain: the fallback after the input failed
 * on a block access (full sub-groups, uniform, aligned, no offset);
 * shrink: free local sizes divided by 2^shrink. */
void xe_verify_plan_shape(const vkernel *vk, unsigned slot, bool plain, unsigned shrink,
                          uint64_t *seed, vplan *p)
{
   static const unsigned sgs[3] = {16, 32, 8};
   unsigned v = slot < 3 ? slot : 3;
   memset(p->global, 0, sizeof p->global);
   p->dims = vk->dims;
   p->sg = vk->sg ? vk->sg : v < 3 ? sgs[v] : sgs[pick(seed, 3)];
   /* Free local sizes: 1-D x of 32 / 24 / 20 (with sub-groups of 16 / 32 /
    * 8: full, one partial, two full and a partial); 2-D (8,2) with a
    * sub-group of 16 spanning two rows, (4,4) in a sub-group of 32 (one
    * partial sub-group over four rows), (16,2) with sub-groups of 8.
    * Work-groups per dimension: (3), (2,8), (4,3), (2,4). */
   static const uint64_t l1[3] = {32, 24, 20}, l2[3][2] = {{8, 2}, {4, 4}, {16, 2}};
   static const uint64_t g2[3][2] = {{2, 8}, {4, 3}, {2, 4}};
   uint64_t groups[3] = {1, 1, 1};
   for (int d = 0; d < 3; d++) {
      if (vk->local[0]) {
         p->local[d] = vk->local[d] ? vk->local[d] : 1;
         groups[d] = d >= (int)p->dims ? 1 : p->dims == 1 ? 3 : 2;
      } else if (d >= (int)p->dims || d == 2) {
         p->local[d] = 1;
         groups[d] = d < (int)p->dims ? 2 : 1;
      } else if (p->dims == 1) {
         p->local[d] = v < 3 ? l1[v] : 8 + 4 * pick(seed, 14);
         groups[d] = 3;
      } else {
         static const uint64_t rx[3] = {4, 8, 16}, ry[3] = {1, 2, 4};
         p->local[d] = v < 3 ? l2[v][d] : d ? ry[pick(seed, 3)] : rx[pick(seed, 3)];
         groups[d] = v < 3 ? g2[v][d] : 2 + pick(seed, 3);
      }
   }
   if (plain && !vk->local[0]) {
      /* Full sub-groups: a local x that is a multiple of the sub-group. */
      p->local[0] = p->sg;
      p->local[1] = p->local[2] = 1;
   }
   /* Smaller work-groups after the input ran past a local array sized
    * for its own work-group size (`local int l[16]`). */
   for (int d = 0; d < 3 && !vk->local[0]; d++)
      if (shrink) p->local[d] = p->local[d] >> shrink ? p->local[d] >> shrink : 1;
   /* At most about 4096 work-items in all (the interpreter's time). */
   if (vk->heavy) groups[0] = groups[1] = groups[2] = 1;
   for (int d = 2; d >= 0; d--)
      if (p->local[0] * p->local[1] * p->local[2] * groups[0] * groups[1] * groups[2] > 4096)
         groups[d] = 1;
   for (int d = 0; d < 3; d++) {
      p->global[d] = p->local[d] * groups[d];
      /* Partial work-groups: slot 1, and at random after slot 2. */
      bool partial = !plain && !vk->uniform && d < (int)p->dims &&
                     (v == 1 || (v == 3 && pick(seed, 2)));
      if (partial && p->local[d] > 1) p->global[d] += 1 + pick(seed, p->local[d] - 1);
   }
   for (int d = 0; d < 3; d++) {
      p->offset[d] = 0;
      if (plain || d >= (int)p->dims || v == 0 || (v == 3 && !pick(seed, 2))) continue;
      uint64_t m = vk->offset_multiple[d];
      p->offset[d] = m ? m * (1 + pick(seed, 2)) : d == 0 ? (v == 2 ? 32 : 5 + pick(seed, 11)) : 1 + pick(seed, 3);
   }
   for (int k = 0; k < vk->np; k++) {
      /* Buffers 4 or 8 bytes into a 16-byte-aligned allocation: slot 1 all
       * at 4, then at random, at 8 in slot 2 and alternating after it;
       * never where the contract promises alignment.  A base 8 bytes off
       * passes an 8-byte test but not a 16-byte one, so a run-time
       * alignment test too weak for a block write fails in execution. */
      bool un = !plain && vk->kind[k] == XE_ARG_BUFFER && !vk->aligned[k] &&
                (v == 1 || (v >= 2 && pick(seed, 2)));
      p->start[k] = !un ? 0 : v == 1 ? 4 : v == 2 || (slot + (unsigned)k) % 2 ? 8 : 4;
   }
}

/* Image and sampler arguments of launch slot `slot` (after xe_verify_plan_shape):
 * an image is as large as the NDRange reaches, (global + offset) per
 * dimension, times image_scale (doubled when the input reads or writes
 * outside it, as kernels that up-sample do), so that the width and height
 * scalars xe_verify_plan_scalars ties to the global size agree with the images.
 * Formats: images the kernel reads or writes with float texels are RGBA
 * float in slot 0, RGBA half in slot 1, R float in slot 2 (channels the
 * kernel writes but the image lacks are dropped), then drawn from those and
 * RGBA unorm8 and RG float; integer-texel images RGBA uint32, RGBA int16,
 * R uint8, then drawn.  Samplers: clamp-to-edge/nearest/unnormalized in
 * slot 0 (darktable's usual one), clamp/linear/unnormalized in slot 1,
 * repeat/nearest/normalized in slot 2, then drawn (repeat and mirrored
 * repeat always normalized, as OpenCL requires; linear filtering only for
 * float-texel images is the kernel's business: an integer read with a
 * linear sampler fails and the launch is retried). */
void xe_verify_plan_images(const vkernel *vk, unsigned slot, uint64_t *seed, vplan *p)
{
   static const uint32_t forders[5] = {SpvImageChannelOrderRGBA, SpvImageChannelOrderRGBA,
                                       SpvImageChannelOrderR, SpvImageChannelOrderRGBA,
                                       SpvImageChannelOrderRG};
   static const uint32_t ftypes[5] = {SpvImageChannelDataTypeFloat, SpvImageChannelDataTypeHalfFloat,
                                      SpvImageChannelDataTypeFloat, SpvImageChannelDataTypeUnormInt8,
                                      SpvImageChannelDataTypeFloat};
   static const uint32_t itypes[4] = {SpvImageChannelDataTypeUnsignedInt32,
                                      SpvImageChannelDataTypeSignedInt16,
                                      SpvImageChannelDataTypeUnsignedInt8,
                                      SpvImageChannelDataTypeSignedInt32};
   unsigned v = slot < 3 ? slot : 3;
   for (int k = 0; k < vk->np; k++) {
      if (vk->kind[k] == XE_ARG_SAMPLER) {
         static const uint32_t fixed[3] = {XE_SAMPLER(SpvSamplerAddressingModeClampToEdge, 0, 0),
                                           XE_SAMPLER(SpvSamplerAddressingModeClamp, 0, 1),
                                           XE_SAMPLER(SpvSamplerAddressingModeRepeat, 1, 0)};
         if (v < 3) { p->sampler[k] = fixed[v]; continue; }
         uint32_t ad = (uint32_t)pick(seed, 5);
         p->sampler[k] = XE_SAMPLER(ad, ad >= SpvSamplerAddressingModeRepeat || pick(seed, 2),
                                    pick(seed, 2));
         continue;
      }
      if (vk->kind[k] != XE_ARG_IMAGE) continue;
      xe_image_desc *im = &p->image[k];
      unsigned f = v < 3 ? v : (unsigned)pick(seed, 5);
      if (vk->isf[k]) {
         im->order = forders[f];
         im->type = ftypes[f];
      } else {
         im->order = f == 2 ? SpvImageChannelOrderR : SpvImageChannelOrderRGBA;
         im->type = itypes[f < 3 ? f : pick(seed, 4)];
      }
      im->dims = vk->elem[k] >= 1 && vk->elem[k] <= 3 ? vk->elem[k] : 2;
      if (!p->image_scale[k]) p->image_scale[k] = 1;
      uint64_t *ext[3] = {&im->width, &im->height, &im->depth};
      for (unsigned d = 0; d < 3; d++)
         *ext[d] = d < im->dims ? (p->global[d] + p->offset[d]) * p->image_scale[k] : 1;
   }
}

/* An integer size/stride argument tied to the shape.  natural: every
 * scalar is the row length (slot 0's first attempt); small: after the
 * input failed with larger values. */
static int64_t scalar_value(const vplan *p, uint64_t *seed, bool natural, bool small)
{
   uint64_t g0 = p->global[0], g1 = p->dims > 1 ? p->global[1] : g0;
   uint64_t t = p->global[0] * p->global[1] * p->global[2];
   if (natural) return (int64_t)g0;
   if (small) return (int64_t)(1 + pick(seed, 8));
   uint64_t p2 = 1;
   while (p2 * 2 <= g0) p2 *= 2;
   static const uint64_t primes[] = {3, 5, 7, 13, 31};
   uint64_t c[] = {g0, g0, g1, g1, t, p2, p2 * 2, primes[pick(seed, 5)], g0 > 1 ? g0 - 1 : 1,
                   g0 > 3 ? g0 - 3 : 1, p->local[0], g0 + 5};
   return (int64_t)c[pick(seed, sizeof c / sizeof c[0])];
}

void xe_verify_plan_scalars(const vkernel *vk, vplan *p, uint64_t *seed, bool natural, bool small)
{
   for (int k = 0; k < vk->np; k++) {
      if (vk->mem[k].by_value) {
         /* A by-value capture's scalars are sizes, offsets and counts
          * like the scalar arguments (a sycl::range, an indexer's
          * dimension count and start offsets). */
         for (unsigned j = 0; j < vk->mem[k].nleaves; j++) {
            const xe_param_leaf *lf = &vk->mem[k].leaf[j];
            if (lf->kind == XE_LEAF_FLOAT) p->leaf[k][j] = (double)(xe_rand(seed) % 17) / 4.0;
            else if (lf->kind == XE_LEAF_INT) p->leaf[k][j] = (double)scalar_value(p, seed, natural, small);
         }
      }
      if (vk->kind[k] != XE_ARG_SCALAR) continue;
      if (vk->fixed[k] != INT64_MIN) p->sval[k] = (double)vk->fixed[k];
      else if (vk->isf[k]) p->sval[k] = (double)(xe_rand(seed) % 17) / 4.0;
      else p->sval[k] = (double)scalar_value(p, seed, natural, small);
   }
}

/* Buffers start at twice what an index linear in the ids and the largest
 * scalar reaches; they grow when the input runs past them. */
void xe_verify_plan_buffers(const vkernel *vk, vplan *p)
{
   uint64_t t = p->global[0] * p->global[1] * p->global[2];
   uint64_t reach = p->offset[0] + p->offset[1] * p->global[0] +
                    p->offset[2] * p->global[0] * p->global[1];
   double smax = 0;
   for (int k = 0; k < vk->np; k++)
      if (vk->kind[k] == XE_ARG_SCALAR && !vk->isf[k] && p->sval[k] > smax) smax = p->sval[k];
   uint64_t lt = p->local[0] * p->local[1] * p->local[2];
   xe_mf_launch l;
   memcpy(l.global_size, p->global, sizeof l.global_size);
   memcpy(l.local_size, p->local, sizeof l.local_size);
   memcpy(l.global_offset, p->offset, sizeof l.global_offset);
   for (int k = 0; k < vk->na; k++) {
      unsigned e = vk->elem[k] ? vk->elem[k] : 1;
      if (k < vk->np && vk->mem[k].by_value) {
         p->count[k] = 1;
      } else if (vk->kind[k] == XE_ARG_BUFFER) {
         uint64_t c = 2 * (t + reach + (uint64_t)smax) + 256;
         uint64_t learned = (uint64_t)(vk->per_item[k] * (double)(t + reach) * 1.25);
         if (learned > c) c = learned;
         if (c * e > BUFFER_CAP) c = BUFFER_CAP / e;
         uint64_t need = k < vk->np ? padded_min_elements(vk, (unsigned)k, &l, p->sval) : 0;
         p->count[k] = need > c ? need : c;
      } else if (vk->kind[k] == XE_ARG_LOCAL) {
         uint64_t learned = (uint64_t)(vk->per_item[k] * (double)lt * 1.25);
         p->count[k] = lt * 64 * e > learned ? lt * 64 * e : learned;
      }
   }
}

void xe_verify_materialize(const vkernel *vk, const vplan *p, xe_launch *l)
{
   memset(l, 0, sizeof *l);
   l->kernel = vk->name;
   l->nargs = (unsigned)vk->na;
   l->dims = p->dims;
   l->max_steps = 400000000;
   l->subgroup_size = p->sg;
   memcpy(l->global, p->global, sizeof l->global);
   memcpy(l->local, p->local, sizeof l->local);
   memcpy(l->offset, p->offset, sizeof l->offset);
   for (int k = 0; k < vk->na; k++) {
      xe_arg_spec s = {0};
      s.kind = vk->kind[k];
      s.elem = vk->elem[k] ? vk->elem[k] : 1;
      s.is_float = vk->isf[k];
      s.is_signed = true;
      s.fill = FILL_RANDOM;
      s.range = p->range;
      if (s.kind == XE_ARG_SCALAR) { s.count = 1; s.value = p->sval[k]; }
      else if (s.kind == XE_ARG_LOCAL) { s.count = p->count[k]; s.elem = 1; }
      else if (s.kind == XE_ARG_IMAGE) {
         xe_image_spec(&s, &p->image[k], FILL_RANDOM);
         s.range = p->range;
      } else if (s.kind == XE_ARG_SAMPLER) {
         s.count = 1;
         s.sampler = p->sampler[k];
      }
      else {
         /* The start bytes are part of the allocation: the elements that
          * cover them are added. */
         s.count = p->count[k] + (p->start[k] ? (p->start[k] + s.elem - 1) / s.elem : 0);
      }
      xe_arg_materialize(&s, &l->args[k], p->seed + (uint64_t)k * 7919);
      l->args[k].start = s.kind == XE_ARG_BUFFER ? p->start[k] : 0;
      /* What a kernel reaches through a pointer in its arguments' memory
       * is mostly shapes and strides, which it divides by; and after a
       * division by zero, no integer data is zero. */
      if (s.kind == XE_ARG_BUFFER && !s.is_float && (k >= vk->np || p->nonzero))
         for (uint64_t i = 0; i + s.elem <= l->args[k].size && s.elem <= 8; i += s.elem)
            if (!ld_u(l->args[k].data + i, s.elem)) st_u(l->args[k].data + i, s.elem, 1);
   }
   for (int k = 0; k < vk->np; k++) {
      const xe_param_mem *mem = &vk->mem[k];
      if (!mem->nleaves) continue;
      uint8_t *base = l->args[k].data + l->args[k].start;
      uint64_t size = l->args[k].size - l->args[k].start, es = vk->elem[k] ? vk->elem[k] : 1;
      uint64_t n = mem->by_value ? 1 : size / es;
      for (uint64_t e = 0; e < n; e++)
         for (unsigned j = 0; j < mem->nleaves; j++) {
            const xe_param_leaf *lf = &mem->leaf[j];
            uint64_t at = e * es + lf->offset;
            if (at + lf->width > size) continue;
            unsigned h = vk->hidden[k][j];
            /* Element e of an array of pointers points e elements into
             * its hidden buffer: distinct pointers, distinct data. */
            if (lf->kind == XE_LEAF_PTR)
               st_u(base + at, 8, h ? PTR(SP_GLOBAL, h, l->args[h].start + e * lf->target_elem) : 0);
            else if (lf->kind == XE_LEAF_FLOAT)
               st_f(base + at, lf->width, p->leaf[k][j]);
            else
               st_u(base + at, lf->width, (uint64_t)(int64_t)p->leaf[k][j]);
         }
   }
}
