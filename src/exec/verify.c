/*
 * --verify: differential execution of the input and the optimized module.
 * Every kernel runs on the same launches in both; every buffer must come
 * back byte for byte equal (the whole allocation, including bytes before
 * an argument's start and padding the input did not write).
 *
 * A random launch is useless when the input itself cannot run on it: real
 * kernels take sizes and strides (`n`, a row length `w`, a leading
 * dimension) that must agree with the NDRange and the buffers, and a
 * launch whose `w` is smaller than the row length or whose buffers are too
 * short tests nothing.  So launches are synthesized, not drawn:
 *
 *  - the shape comes first (plan_shape): per launch slot a deterministic
 *    mix of what a rewrite must survive (partial work-groups, local sizes
 *    that are not a multiple of the sub-group size, 2-D local shapes whose
 *    sub-groups span rows, sub-group sizes 8, 16 and 32, non-zero global
 *    offsets, buffers that start 4 or 8 bytes into their allocation), within
 *    what the module declares (LocalSize, SubgroupSize) and the host
 *    contract of the manifest allows (uniform work-groups, offset and
 *    argument alignment);
 *  - integer scalars are values tied to that shape (the global size of a
 *    dimension, their product, powers of two, small primes, a little less
 *    than the size), the first launch giving every one the row length;
 *  - buffers start at a size derived from the NDRange and grow to what the
 *    input reaches: the input runs first, and an out-of-bounds access of
 *    argument k grows k and runs again;
 *  - images cover the NDRange (global + offset per dimension) and double
 *    when the input goes outside one; their formats and the samplers vary
 *    per slot (plan_images);
 *  - memory the kernel reads pointers and sizes from is laid out by its
 *    declared type (xe_exec_param_memory): a by-value capture (SYCL's
 *    kernel functor members: ranges, ids, indexers) gets shape-tied
 *    scalars like the scalar arguments, and every pointer in it or in an
 *    array of pointers points into a hidden buffer of its own, appended
 *    after the arguments, sized, grown and compared like the others; what
 *    such pointers reach holds no zeros (shapes and strides, which the
 *    kernel divides by), and after a division by zero no integer buffer
 *    does.
 *
 * Each launch slot gets a bounded number of input runs (MAX_ATTEMPTS).
 * Why the input run failed decides the next attempt (retry_for): grow a
 * buffer, pick other scalars, or fall back to a plain shape (a kernel that
 * itself block-reads needs full sub-groups).  A reason to reject an input
 * run that succeeded (a data race, once the interpreter detects them) is
 * one more case there.  The log says per kernel how many launches were
 * verified.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "internal.h"
#include "launch.h"
#include "manifest.h"
#include "pass.h"

#define MAX_ATTEMPTS 16
#define BUFFER_CAP (64ull << 20)     /* bytes per buffer argument */
/* Work-item instructions an input run may take before the kernel counts
 * as heavy: its launches then have one work-group per dimension (plus the
 * partial one), which keeps --verify within seconds. */
#define HEAVY_STEPS 10000000ull

/* What constrains the launches of one kernel. */
typedef struct vkernel {
   const char *name;
   int np;
   enum xe_arg_kind kind[XE_EXEC_MAX_ARGS];
   unsigned elem[XE_EXEC_MAX_ARGS];
   bool isf[XE_EXEC_MAX_ARGS];
   unsigned dims;                    /* dimensions whose ids the kernel reads (1..3) */
   uint32_t local[3];                /* LocalSize of the output (else input), 0 = free */
   unsigned sg;                      /* SubgroupSize, 0 = free */
   bool uniform;                     /* manifest: uniform_work_groups */
   uint64_t offset_multiple[3];      /* manifest: global_offset multiple_of, 0 = any */
   bool aligned[XE_EXEC_MAX_ARGS];   /* manifest: argument_alignment (start 0) */
   int64_t fixed[XE_EXEC_MAX_ARGS];  /* manifest: specialized argument, else INT64_MIN */
   bool padded[XE_EXEC_MAX_ARGS];    /* manifest: padded buffer */
   const xe_mf_kernel *contract;     /* the manifest's entries for it, NULL when none */
   bool heavy;                       /* an input run took more than HEAVY_STEPS */
   /* Elements (local: bytes) per work-item the input reached on an earlier
    * launch, so that later launches start large enough. */
   double per_item[XE_EXEC_MAX_ARGS];
   /* Arguments: the kernel's np, then one hidden buffer per pointer leaf
    * (na in all): what the pointers in by-value captures and pointer
    * arrays point to (mem, hidden: the argument a leaf points into, 0 for
    * a null pointer). */
   int na;
   xe_param_mem mem[XE_EXEC_MAX_ARGS];
   uint8_t hidden[XE_EXEC_MAX_ARGS][XE_PARAM_MAX_LEAVES];
} vkernel;

/* One launch before its arguments are materialized. */
typedef struct vplan {
   unsigned dims;
   uint64_t global[3], local[3], offset[3];
   unsigned sg;
   double sval[XE_EXEC_MAX_ARGS];    /* scalar values */
   uint64_t count[XE_EXEC_MAX_ARGS]; /* buffer elements, local-memory bytes */
   uint64_t start[XE_EXEC_MAX_ARGS]; /* buffer bytes before the kernel's pointer */
   uint64_t range;                   /* random integer data in [0, range) */
   uint64_t seed;                    /* data seed */
   bool nonzero;                     /* integer data without zeros (after a division by zero) */
   double leaf[XE_EXEC_MAX_ARGS][XE_PARAM_MAX_LEAVES];  /* by-value scalars */
   xe_image_desc image[XE_EXEC_MAX_ARGS];  /* image arguments (plan_images) */
   unsigned image_scale[XE_EXEC_MAX_ARGS]; /* extent = (global + offset) * scale */
   uint32_t sampler[XE_EXEC_MAX_ARGS];     /* sampler arguments */
} vplan;

/* ---- the host contract ---- */

/* The host contract of the optimized module (docs/manifest.md), read
 * once per verification with the manifest reader (src/manifest/):
 * manifest.kernels[K] sections that constrain a launch.
 *  - spec_constants: an entry with flag_default true fixes argument
 *    `index` to `value_default`.
 *  - padding, kind "buffer": argument `arg` holds at least `min_elements`
 *    (a formula over arguments and launch sizes) elements, and elements the
 *    excluded work-items write are garbage the host ignores: the argument is
 *    marked padded.
 *  - launch, uniform_work_groups: no partial work-groups.
 *  - alignment, global_offset: the offset of `dimension` is a multiple of
 *    `multiple_of`; argument_alignment: the argument starts aligned.
 * (LocalSize/SubgroupSize requirements are execution modes of the module,
 * which the launches follow.)  Passes that add other sections extend this
 * function. */
static bool verify_launch_from_contract(const xe_mf_kernel *c, vkernel *vk, FILE *log)
{
   if (!c) return true;
   unsigned np = (unsigned)vk->np;
   /* An entry naming an argument the kernel does not have is a manifest
    * for another module (or hand-edited): stop rather than verify
    * against part of it. */
   const char *section = NULL;
   unsigned bad = 0;
   for (unsigned e = 0; e < c->nspec_constants; e++) {
      const xe_mf_spec_constant *s = &c->spec_constants[e];
      if (s->flag_default && s->index < np)
         vk->fixed[s->index] = s->value_default;
      else if (s->flag_default && !section)
         section = "spec_constants", bad = s->index;
   }
   for (unsigned e = 0; e < c->npadding; e++) {
      const xe_mf_padding *p = &c->padding[e];
      if (p->kind == XE_MF_BUFFER && p->arg < np)
         vk->padded[p->arg] = true;
      else if (p->kind == XE_MF_BUFFER && !section)
         section = "padding", bad = p->arg;
   }
   for (unsigned e = 0; e < c->nlaunch; e++)
      vk->uniform |= c->launch[e].kind == XE_MF_UNIFORM_WORK_GROUPS;
   for (unsigned e = 0; e < c->nalignment; e++) {
      const xe_mf_requirement *q = &c->alignment[e];
      if (q->kind == XE_MF_GLOBAL_OFFSET)
         vk->offset_multiple[q->dimension] = q->multiple_of;
      else if (q->kind == XE_MF_ARGUMENT_ALIGNMENT && q->argument < np)
         vk->aligned[q->argument] = true;
      else if (q->kind == XE_MF_ARGUMENT_ALIGNMENT && !section)
         section = "alignment", bad = q->argument;
   }
   if (section)
      fprintf(log, "cannot verify kernel %s against the manifest: its %s section names "
              "argument %u, the kernel has %u parameters\n", vk->name, section, bad, np);
   return !section;
}

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

/* ---- what the kernel reads ---- */

static bool is_id_builtin(int b)
{
   return b == SpvBuiltInGlobalInvocationId || b == SpvBuiltInLocalInvocationId ||
          b == SpvBuiltInWorkgroupId || b == SpvBuiltInGlobalSize ||
          b == SpvBuiltInWorkgroupSize || b == SpvBuiltInNumWorkgroups ||
          b == SpvBuiltInGlobalOffset || b == SpvBuiltInEnqueuedWorkgroupSize;
}

/* How many NDRange dimensions the module's kernels distinguish: the
 * largest component extracted from a load of an id built-in, plus one
 * (3 when a component is chosen dynamically).  A 1-D kernel launched in
 * 2-D only repeats its work-items, so such launches test nothing new. */
static unsigned module_dims(const xe_module *m)
{
   unsigned dims = 1;
   xe_foreach_fn(f, m) xe_foreach_block(b, f) xe_foreach_inst(i, &b->insts) {
      if (i->opcode != SpvOpCompositeExtract && i->opcode != SpvOpVectorExtractDynamic) continue;
      xe_inst *ld = xe_def(m, xe_op(i, 0));
      if (!ld || ld->opcode != SpvOpLoad || !is_id_builtin(xe_builtin_of(m, xe_op(ld, 0)))) continue;
      unsigned d = i->opcode == SpvOpVectorExtractDynamic ? 3 : xe_op(i, 1) + 1;
      if (d > dims) dims = d > 3 ? 3 : d;
   }
   return dims;
}

/* ---- launch synthesis ---- */

static uint64_t pick(uint64_t *seed, uint64_t n) { return n ? xe_rand(seed) % n : 0; }

/* The shape of launch slot `slot`.  Slots 0, 1, 2 are fixed mixes (with
 * the default --verify=3 every feature is exercised once); later slots
 * draw each feature at random.  plain: the fallback after the input failed
 * on a block access (full sub-groups, uniform, aligned, no offset);
 * shrink: free local sizes divided by 2^shrink. */
static void plan_shape(const vkernel *vk, unsigned slot, bool plain, unsigned shrink,
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

/* Image and sampler arguments of launch slot `slot` (after plan_shape):
 * an image is as large as the NDRange reaches, (global + offset) per
 * dimension, times image_scale (doubled when the input reads or writes
 * outside it, as kernels that up-sample do), so that the width and height
 * scalars plan_scalars ties to the global size agree with the images.
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
static void plan_images(const vkernel *vk, unsigned slot, uint64_t *seed, vplan *p)
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

static void plan_scalars(const vkernel *vk, vplan *p, uint64_t *seed, bool natural, bool small)
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
static void plan_buffers(const vkernel *vk, vplan *p)
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

static void materialize(const vkernel *vk, const vplan *p, xe_launch *l)
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

static void free_args(xe_launch *l)
{
   for (unsigned k = 0; k < l->nargs; k++) {
      free(l->args[k].data);
      l->args[k].data = NULL;
   }
}

static void copy_args(xe_launch *dst, const xe_launch *src)
{
   *dst = *src;
   for (unsigned k = 0; k < src->nargs; k++)
      if (src->args[k].data) {
         dst->args[k].data = malloc(src->args[k].size + 1);
         memcpy(dst->args[k].data, src->args[k].data, src->args[k].size);
      }
}

static void print_dims(FILE *log, const char *opt, const uint64_t *v, unsigned dims)
{
   fprintf(log, " %s %llu", opt, (unsigned long long)v[0]);
   for (unsigned d = 1; d < dims; d++) fprintf(log, ",%llu", (unsigned long long)v[d]);
}

/* The launch as `xeopt run` options, to reproduce a finding (arguments
 * from np on are the hidden buffers, "memN"). */
static void print_launch(FILE *log, const xe_launch *l, unsigned np)
{
   unsigned dims = l->dims ? l->dims : 1;
   fputs("  launch:", log);
   print_dims(log, "--global", l->global, dims);
   print_dims(log, "--local", l->local, dims);
   if (l->offset[0] || l->offset[1] || l->offset[2]) print_dims(log, "--offset", l->offset, dims);
   fprintf(log, " --subgroup-size %u", l->subgroup_size);
   for (unsigned k = 0; k < l->nargs; k++) {
      if (l->args[k].kind == XE_ARG_SCALAR)
         fprintf(log, " arg%u=%lld", k, (long long)ld_s(l->args[k].data, (unsigned)l->args[k].size));
      else if (l->args[k].kind == XE_ARG_IMAGE) {
         const xe_image_desc *im = &l->args[k].image;
         fprintf(log, " arg%u=image:%s:%s:%llu", k, xe_image_order_name(im->order),
                 xe_image_type_name(im->type), (unsigned long long)im->width);
         if (im->dims > 1) fprintf(log, "x%llu", (unsigned long long)im->height);
         if (im->dims > 2) fprintf(log, "x%llu", (unsigned long long)im->depth);
      } else if (l->args[k].kind == XE_ARG_SAMPLER) {
         char sb[64];
         fprintf(log, " arg%u=%s", k, xe_sampler_string((uint32_t)ld_u(l->args[k].data, 4), sb, sizeof sb));
      }
      else if (l->args[k].kind == XE_ARG_LOCAL)
         fprintf(log, " arg%u=local[%llu bytes]", k, (unsigned long long)l->args[k].size);
      else if (l->args[k].start)
         fprintf(log, " arg%u=buf[%llu bytes, starting at byte %llu]", k,
                 (unsigned long long)(l->args[k].size - l->args[k].start),
                 (unsigned long long)l->args[k].start);
      else
         fprintf(log, " %s%u=buf[%llu bytes]", k < np ? "arg" : "mem", k < np ? k : k - np,
                 (unsigned long long)l->args[k].size);
   }
   fputc('\n', log);
}

/* What to do after an input run failed (or was rejected). */
enum retry {
   RETRY_HEAVY,       /* too many steps: one work-group per dimension */
   RETRY_SHRINK,      /* past a local array: smaller work-groups */
   RETRY_RESCALE,     /* other scalar values (smaller), smaller data */
   RETRY_PLAIN,       /* full sub-groups, uniform, aligned, no offset */
   RETRY_IMAGE,       /* outside an image argument: larger images */
   RETRY_NEVER,       /* the interpreter's gap: no launch helps */
};

static enum retry retry_for(const vkernel *vk, const xe_launch *l, const char *err)
{
   if (err && strstr(err, "unsupported"))
      return RETRY_NEVER;
   switch (l->fault.kind) {
   case XE_FAULT_BOUNDS:
      if (l->fault.arg < l->nargs && l->args[l->fault.arg].kind == XE_ARG_IMAGE)
         return RETRY_IMAGE;
      /* Not past an argument's end (that a measuring run records): in a
       * local array of the kernel's, below an argument's start, or in
       * private memory. */
      return l->fault.local_memory && l->fault.arg == ~0u && !vk->local[0] ? RETRY_SHRINK
                                                                            : RETRY_RESCALE;
   case XE_FAULT_BLOCK_IO:
      return RETRY_PLAIN;
   case XE_FAULT_STEPS:
      return vk->heavy ? RETRY_RESCALE : RETRY_HEAVY;
   default:
      return RETRY_RESCALE;
   }
}

/* After a measuring run that went past the end of some arguments: sizes
 * them to what the input reached.  false when that needs more than
 * BUFFER_CAP. */
static bool grow_to_reach(vkernel *vk, const xe_launch *l, vplan *p)
{
   uint64_t t = p->global[0] * p->global[1] * p->global[2];
   uint64_t lt = p->local[0] * p->local[1] * p->local[2];
   for (int k = 0; k < vk->na; k++) {
      if (!l->reach[k]) continue;
      unsigned e = vk->kind[k] == XE_ARG_LOCAL ? 1 : vk->elem[k] ? vk->elem[k] : 1;
      uint64_t need = (l->reach[k] - p->start[k] + e - 1) / e;
      /* A little more: what the input read past the old end (zeros in a
       * measuring run) may steer it further. */
      need += need / 8 + 16;
      if (need * e > BUFFER_CAP) return false;
      if (need > p->count[k]) p->count[k] = need;
      double per = (double)need / (double)(vk->kind[k] == XE_ARG_LOCAL ? lt : t);
      if (per > vk->per_item[k]) vk->per_item[k] = per;
   }
   return true;
}

static bool reached_past(const xe_launch *l)
{
   for (unsigned k = 0; k < l->nargs; k++)
      if (l->reach[k]) return true;
   return false;
}

/* Compares the buffers after both ran; returns 1 on a difference. */
static int compare_args(const vkernel *vk, const xe_launch *l, const xe_launch *la,
                        const xe_launch *lb, FILE *log)
{
   for (int k = 0; k < (int)la->nargs && k < vk->na; k++) {
      if (vk->kind[k] != XE_ARG_BUFFER && vk->kind[k] != XE_ARG_IMAGE) continue;
      for (uint64_t i = 0; i < la->args[k].size; i++) {
         if (la->args[k].data[i] == lb->args[k].data[i]) continue;
         /* Padding the host ignores: the input did not write there (the
          * byte kept its initial value), the optimized module may. */
         if (vk->padded[k] && la->args[k].data[i] == l->args[k].data[i]) continue;
         unsigned e = vk->kind[k] == XE_ARG_IMAGE ? xe_image_channel_size(la->args[k].image.type)
                      : vk->elem[k] && vk->elem[k] <= 8 ? vk->elem[k] : 1;
         uint64_t st = la->args[k].start, rel = i - (i >= st ? st : 0);
         uint64_t idx = rel / e, at = st + idx * e;
         if (k >= vk->np)
            fprintf(log, "kernel %s: hidden buffer %d (memory a pointer in an argument points "
                    "to) differs at byte %llu: input 0x%x, optimized 0x%x\n", vk->name, k - vk->np,
                    (unsigned long long)i, la->args[k].data[i], lb->args[k].data[i]);
         else if (i < st)
            fprintf(log, "kernel %s: argument %d differs %llu bytes before its start: "
                    "input 0x%x, optimized 0x%x\n", vk->name, k, (unsigned long long)(st - i),
                    la->args[k].data[i], lb->args[k].data[i]);
         else
            fprintf(log, "kernel %s: argument %d differs at element %llu (byte %llu): "
                    "input 0x%llx, optimized 0x%llx\n", vk->name, k, (unsigned long long)idx,
                    (unsigned long long)rel,
                    (unsigned long long)(at + e <= la->args[k].size ? ld_u(la->args[k].data + at, e) : 0),
                    (unsigned long long)(at + e <= lb->args[k].size ? ld_u(lb->args[k].data + at, e) : 0));
         print_launch(log, l, (unsigned)vk->np);
         return 1;
      }
   }
   return 0;
}

/* Runs the optimized module on l (the input already ran on la, a copy of
 * l) and compares.  Returns 1 on a difference. */
static int run_output(xe_module *b, const vkernel *vk, const xe_launch *l, const xe_launch *la,
                      FILE *log)
{
   xe_launch lb;
   copy_args(&lb, l);
   lb.racecheck = true;
   char *err = NULL;
   int rc = 0;
   if (!xe_exec_run(b, &lb, &err)) {
      fprintf(log, "kernel %s: the optimized module fails where the input runs: %s\n",
              vk->name, err);
      print_launch(log, l, (unsigned)vk->np);
      free(err);
      rc = 1;
   } else if (lb.races) {
      /* The input ran race-free on l (one_launch retries racy launches):
       * a race only the output has is a finding. */
      fprintf(log, "kernel %s: the optimized module races where the input does not: %s\n",
              vk->name, lb.race);
      print_launch(log, l, (unsigned)vk->np);
      rc = 1;
   } else {
      rc = compare_args(vk, l, la, &lb, log);
   }
   free_args(&lb);
   return rc;
}

/* Launch slot `slot`: synthesizes a launch the input runs on (at most
 * MAX_ATTEMPTS input runs), then compares.  Returns 1 on a difference;
 * *valid when the input ran; *unsupported when the interpreter cannot run
 * the kernel at all. */
static int one_launch(xe_module *a, xe_module *b, vkernel *vk, unsigned slot, uint64_t *seed,
                      FILE *log, bool quiet, bool *valid, bool *unsupported)
{
   vplan p;
   bool plain = false, small = false;
   unsigned rescales = 0, shrink = 0;
   char *last = NULL;
   *valid = false;
   memset(&p, 0, sizeof p);
   plan_shape(vk, slot, plain, shrink, seed, &p);
   plan_images(vk, slot, seed, &p);
   plan_scalars(vk, &p, seed, slot == 0, small);
   p.range = 256;
   p.seed = xe_rand(seed);
   plan_buffers(vk, &p);
   for (unsigned attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      xe_launch l, la;
      materialize(vk, &p, &l);
      copy_args(&la, &l);
      /* Every input run measures: one that stays in bounds is the test
       * run, one that goes past an argument's end sizes the next. */
      la.measure = true;
      la.racecheck = true;
      if (!vk->heavy) la.max_steps = HEAVY_STEPS;
      char *err = NULL;
      bool ran = xe_exec_run(a, &la, &err);
      /* A run the input completed but that is no valid test is rejected
       * here with its retry: a data race makes the input's result depend
       * on the order work-items run in, and launches with sizes that agree
       * with the NDRange often do not race. */
      if (ran && !reached_past(&la) && la.races) {
         if (asprintf(&err, "the input races on it: %s", la.race) < 0)
            xe_out_of_memory();
         ran = false;
         la.fault.kind = XE_FAULT_OTHER;
      }
      if (ran && !reached_past(&la)) {
         *valid = true;
         int rc = run_output(b, vk, &l, &la, log);
         free_args(&la);
         free_args(&l);
         free(last);
         return rc;
      }
      if (ran) {
         bool grown = grow_to_reach(vk, &la, &p);
         free_args(&la);
         free_args(&l);
         if (grown) continue;
         free(last);
         if (asprintf(&last, "kernel %s: the buffers it reaches need more than %llu MiB", vk->name,
                      (unsigned long long)(BUFFER_CAP >> 20)) < 0)
            xe_out_of_memory();
         err = strdup(last);
         la.fault.kind = XE_FAULT_OTHER;
      }
      enum retry r = retry_for(vk, &la, err);
      if (err && strstr(err, "division by zero")) p.nonzero = true;
      free_args(&la);
      free_args(&l);
      free(last);
      last = err;
      if (r == RETRY_NEVER) {
         fprintf(log, "warning: kernel %s NOT verified: %s\n", vk->name, err);
         *unsupported = true;
         free(last);
         return 0;
      }
      if (r == RETRY_IMAGE && p.image_scale[la.fault.arg] < 8) {
         p.image_scale[la.fault.arg] *= 2;
      } else if (r == RETRY_SHRINK && shrink < 4) {
         shrink++;
         plan_shape(vk, slot, plain, shrink, seed, &p);
      } else if (r == RETRY_HEAVY) {
         vk->heavy = true;
         plan_shape(vk, slot, plain, shrink, seed, &p);
      } else if (r == RETRY_PLAIN && !plain) {
         plain = true;
         plan_shape(vk, slot, plain, shrink, seed, &p);
      } else {
         /* Other values: first from the shape's candidates, then small
          * ones with small data, then a single work-group. */
         rescales++;
         small = rescales > 2;
         p.range = rescales > 1 ? 16 : 256;
         if (rescales > 4)
            for (int d = 0; d < 3; d++) p.global[d] = p.local[d];
      }
      plan_images(vk, slot, seed, &p);
      plan_scalars(vk, &p, seed, slot == 0 && !rescales, small);
      plan_buffers(vk, &p);
   }
   if (!quiet)
      fprintf(log, "note: kernel %s: launch %u skipped, the input fails on every variant tried: %s\n",
              vk->name, slot + 1, last);
   free(last);
   return 0;
}

/* The user's launches (--verify-launch) of kernel vk.  Returns 1 on a
 * difference, 2 on a malformed launch; counts the launches run. */
static int user_launches(xe_module *a, xe_module *b, vkernel *vk, const cJSON *launches,
                         FILE *log, unsigned *ran)
{
   const cJSON *js;
   unsigned idx = 0;
   cJSON_ArrayForEach(js, launches) {
      idx++;
      const cJSON *kn = cJSON_GetObjectItem(js, "kernel");
      if (!cJSON_IsString(kn) || strcmp(kn->valuestring, vk->name)) continue;
      xe_launch l = {0};
      xe_arg_spec specs[XE_EXEC_MAX_ARGS] = {0};
      unsigned ns = 0;
      char *err = NULL;
      if (!xe_launch_from_json(js, &l, specs, &ns, &err) || ns != (unsigned)vk->np) {
         if (!err && asprintf(&err, "launch of %s gives %u arguments, the kernel takes %d",
                              vk->name, ns, vk->np) < 0)
            xe_out_of_memory();
         fprintf(log, "--verify-launch: launch %u: %s\n", idx, err);
         free(err);
         return 2;
      }
      l.nargs = ns;
      l.max_steps = 0;
      for (unsigned k = 0; k < ns; k++) {
         if (specs[k].kind != vk->kind[k]) {
            fprintf(log, "--verify-launch: launch %u of %s: argument %u is not a %s\n", idx,
                    vk->name, k, vk->kind[k] == XE_ARG_SCALAR ? "scalar" :
                    vk->kind[k] == XE_ARG_LOCAL ? "local-memory size" :
                    vk->kind[k] == XE_ARG_IMAGE ? "image" : vk->kind[k] == XE_ARG_SAMPLER ? "sampler" :
                    "buffer");
            free_args(&l);
            return 2;
         }
         xe_arg_materialize(&specs[k], &l.args[k], 7919 * (uint64_t)idx + k);
      }
      xe_launch la;
      copy_args(&la, &l);
      la.racecheck = true;
      int rc = 0;
      if (!xe_exec_run(a, &la, &err)) {
         fprintf(log, "warning: kernel %s: user launch %u not verified, the input fails on it: %s\n",
                 vk->name, idx, err);
         free(err);
      } else if (la.races) {
         fprintf(log, "warning: kernel %s: user launch %u not verified, the input races on it: %s\n",
                 vk->name, idx, la.race);
      } else {
         (*ran)++;
         rc = run_output(b, vk, &l, &la, log);
      }
      free_args(&la);
      free_args(&l);
      if (rc) return rc;
   }
   return 0;
}

int xe_exec_verify_ex(xe_module *a, xe_module *b, unsigned n, const cJSON *user,
                      const xe_options *o, bool quiet, FILE *log)
{
   char *why = NULL;
   for (int side = 0; side < 2; side++) {
      if (!xe_exec_check_module(side ? b : a, &why)) {
         fprintf(log, "cannot run the %s module, it does not validate: %s\n",
                 side ? "optimized" : "input", why);
         free(why);
         return 2;
      }
   }
   /* The manifest comes from the passes, or from the user (xeopt run
    * --compare --manifest); either way a broken one stops verification
    * rather than letting launches outside the contract fail it. */
   xe_mf contract = {0};
   char mf_err[256];
   if (b->manifest && xe_mf_read(b->manifest, &contract, mf_err, sizeof mf_err) != XE_MF_OK) {
      fprintf(log, "cannot verify against the optimized module's manifest: %s\n", mf_err);
      return 2;
   }
   unsigned nk;
   xe_kernel *ka = xe_kernels_all(a, &nk);
   unsigned dims = module_dims(a);
   int rc = 0;
   for (unsigned k = 0; k < nk && !rc; k++) {
      xe_kernel kb;
      if (!xe_kernel_by_name(b, ka[k].name, &kb)) {
         fprintf(log, "kernel %s is missing from the output\n", ka[k].name);
         rc = 1;
         break;
      }
      vkernel vk = {0};
      vk.name = ka[k].name;
      vk.np = xe_exec_params(a, vk.name, vk.kind, vk.elem, vk.isf, XE_EXEC_MAX_ARGS);
      int npb = xe_exec_params(b, vk.name, NULL, NULL, NULL, 0);
      if (vk.np != npb) {
         fprintf(log, "kernel %s: %d parameters in the input, %d in the output\n",
                 vk.name, vk.np, npb);
         rc = 1;
         break;
      }
      if (vk.np > XE_EXEC_MAX_ARGS) {
         fprintf(log, "warning: kernel %s NOT verified: more than %d parameters\n", vk.name,
                 XE_EXEC_MAX_ARGS);
         continue;
      }
      const uint32_t *ls = kb.local_size[0] ? kb.local_size : ka[k].local_size;
      memcpy(vk.local, ls, sizeof vk.local);
      vk.sg = kb.subgroup_size ? kb.subgroup_size : ka[k].subgroup_size;
      /* What the user promised on the command line holds for the host's
       * launches even where no pass needed it. */
      const xe_kernel_launch_opt *sg = o ? xe_options_subgroup_size(o, vk.name) : NULL;
      if (!vk.sg && sg)
         vk.sg = sg->v[0];
      const xe_kernel_launch_opt *lsz = o ? xe_options_local_size(o, vk.name) : NULL;
      if (!vk.local[0] && lsz && (uint64_t)lsz->v[0] * lsz->v[1] * lsz->v[2] <= 1024)
         memcpy(vk.local, lsz->v, sizeof vk.local);
      vk.dims = dims;
      for (int i = 0; i < vk.np; i++) vk.fixed[i] = INT64_MIN;
      /* A byte buffer the kernel reads as wider scalars (an i8 pointer
       * from LLVM's opaque pointers: clang 21's backend writes hashcat's
       * kernel_param_t * so) gets small values of that width, as the
       * declared struct would: random bytes read as a uint are counts and
       * indices in the hundreds of millions, and no launch is valid. */
      for (int i = 0; i < vk.np; i++) {
         bool f;
         unsigned w = vk.kind[i] == XE_ARG_BUFFER && vk.elem[i] == 1
                         ? xe_exec_param_access_width(a, vk.name, (unsigned)i, &f) : 0;
         if (w > 1 && w <= 8) {
            vk.elem[i] = w;
            vk.isf[i] = f;
         }
      }
      /* Pointers in by-value captures and pointer arrays point into hidden
       * buffers, one per pointer leaf, appended after the arguments. */
      vk.na = vk.np;
      for (int i = 0; i < vk.np; i++) {
         if (vk.kind[i] != XE_ARG_BUFFER) continue;
         xe_exec_param_memory(a, vk.name, (unsigned)i, &vk.mem[i]);
         for (unsigned j = 0; j < vk.mem[i].nleaves && vk.na < XE_EXEC_MAX_ARGS; j++) {
            const xe_param_leaf *lf = &vk.mem[i].leaf[j];
            if (lf->kind != XE_LEAF_PTR) continue;
            vk.hidden[i][j] = (uint8_t)vk.na;
            vk.kind[vk.na] = XE_ARG_BUFFER;
            vk.elem[vk.na] = lf->target_elem;
            vk.isf[vk.na] = lf->target_float;
            vk.na++;
         }
      }
      vk.contract = xe_mf_find(&contract, vk.name);
      if (!verify_launch_from_contract(vk.contract, &vk, log)) {
         rc = 2;
         break;
      }
      unsigned ok = 0, users = 0;
      if (user) {
         rc = user_launches(a, b, &vk, user, log, &users);
         if (rc) break;
      }
      uint64_t seed = 0x5eed + k;
      bool unsup = false;
      for (unsigned t = 0; t < n + n / 2 + 1 && ok < n && !rc && !unsup; t++) {
         bool valid = false;
         rc = one_launch(a, b, &vk, t, &seed, log, quiet, &valid, &unsup);
         ok += valid;
      }
      if (unsup || rc)
         continue;
      if (!ok && !users)
         fprintf(log, "warning: kernel %s NOT verified: no launch was valid for the input\n",
                 vk.name);
      else if (!quiet && users)
         fprintf(log, "note: kernel %s: %u of %u launches verified, and %u user launch%s\n",
                 vk.name, ok, n, users, users == 1 ? "" : "es");
      else if (!quiet)
         fprintf(log, "note: kernel %s: %u of %u launches verified\n", vk.name, ok, n);
   }
   free(ka);
   xe_mf_free(&contract);
   return rc;
}

int xe_exec_verify(xe_module *a, xe_module *b, unsigned n, bool quiet, FILE *log)
{
   return xe_exec_verify_ex(a, b, n, NULL, NULL, quiet, log);
}

/* The driver's entry point (exec.h). */
bool xe_verify_modules(const xe_module *before, const xe_module *after, const xe_options *o,
                       FILE *log, char **report)
{
   int rc = xe_exec_verify_ex((xe_module *)before, (xe_module *)after, (unsigned)o->verify,
                              o->verify_launches, o, false, log);
   if (!rc)
      return true;
   *report = strdup(rc == 2 ? "--verify could not run the modules (see above); no output written"
                            : "--verify: the optimized module computes different results (see "
                              "above); no output written");
   return false;
}
