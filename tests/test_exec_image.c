/*
 * Images in the reference interpreter: the kernels of
 * testdata/kernels/exec_image.cl and exec_image_sampler.cl run on small
 * images with known texels, and every output texel is checked against the
 * value worked out here from the OpenCL C specification, section 8 (the
 * addressing and filter rules, the channel conversions).  Expected values
 * are written out, or computed with the specification's formulas on
 * integer-valued data where they are exact.  Then the race and
 * out-of-bounds checks on image writes, the `xeopt run` argument strings,
 * and --verify on the image kernels (which must verify launches, and must
 * see a changed sampler).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <spirv/unified1/spirv.h>
#include "testutil.h"
#include "io.h"
#include "exec.h"
#include "launch.h"

static xe_module *load(const char *name)
{
   char rel[128];
   snprintf(rel, sizeof rel, "testdata/spv/%s.spv", name);
   return tu_load_src(rel);
}

static void image(xe_launch *l, unsigned k, void *data, size_t size, uint32_t order, uint32_t type,
                  unsigned dims, uint64_t w, uint64_t h, uint64_t d)
{
   l->args[k].kind = XE_ARG_IMAGE;
   l->args[k].data = data;
   l->args[k].size = size;
   l->args[k].image = (xe_image_desc){order, type, dims, w, h, d};
   ck_assert_uint_eq(size, w * h * d * xe_image_channels(order) * xe_image_channel_size(type));
   if (l->nargs <= k) l->nargs = k + 1;
}

static void run(xe_module *m, xe_launch *l)
{
   char *err = NULL;
   bool ok = xe_exec_run(m, l, &err);
   ck_assert_msg(ok, "%s", err ? err : "?");
}

static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

/* Nearest sampling with CLK_ADDRESS_CLAMP_TO_EDGE and CLK_ADDRESS_CLAMP
 * (border (0,0,0,1) for an R image, so 0 in the red channel). */
START_TEST(shift_nearest)
{
   xe_module *m = load("exec_image");
   enum { W = 5, H = 3 };
   float in[W * H], out[W * H];
   for (int i = 0; i < W * H; i++) { in[i] = (float)(i * 3 % 7) - 2.5f; out[i] = -99; }
   xe_launch l = { .kernel = "img_shift", .global = {W, H}, .local = {W, 1}, .dims = 2 };
   image(&l, 0, in, sizeof in, SpvImageChannelOrderR, SpvImageChannelDataTypeFloat, 2, W, H, 1);
   image(&l, 1, out, sizeof out, SpvImageChannelOrderR, SpvImageChannelDataTypeFloat, 2, W, H, 1);
   run(m, &l);
   for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) {
         float a = in[clampi(x - 1, 0, W - 1) + W * clampi(y + 1, 0, H - 1)];
         float b = x + 2 < W ? in[x + 2 + W * y] : 0.0f;
         ck_assert_float_eq(out[x + W * y], a + b);
      }
   xe_module_free(m);
}
END_TEST

/* Bilinear filtering with clamp-to-edge at (x + 0.25, y + 0.75): u - 0.5
 * = x - 0.25, so i0 = x - 1 with weight 0.25 and i1 = x with weight 0.75;
 * v - 0.5 = y + 0.25, j0 = y with weight 0.75 and j1 = y + 1 with 0.25.
 * On integer data and quarter weights every value is exact. */
START_TEST(linear)
{
   xe_module *m = load("exec_image");
   enum { W = 4, H = 3 };
   float in[W * H * 4], out[W * H * 4];
   for (int i = 0; i < W * H * 4; i++) { in[i] = (float)(i * 5 % 11); out[i] = -99; }
   xe_launch l = { .kernel = "img_linear", .global = {W, H}, .local = {2, 3}, .dims = 2 };
   image(&l, 0, in, sizeof in, SpvImageChannelOrderRGBA, SpvImageChannelDataTypeFloat, 2, W, H, 1);
   image(&l, 1, out, sizeof out, SpvImageChannelOrderRGBA, SpvImageChannelDataTypeFloat, 2, W, H, 1);
   run(m, &l);
#define T(x, y, c) in[4 * (clampi(x, 0, W - 1) + W * clampi(y, 0, H - 1)) + (c)]
   for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++)
         for (int c = 0; c < 4; c++) {
            float want = 0.25f * 0.75f * T(x - 1, y, c) + 0.75f * 0.75f * T(x, y, c) +
                         0.25f * 0.25f * T(x - 1, y + 1, c) + 0.75f * 0.25f * T(x, y + 1, c);
            ck_assert_float_eq(out[4 * (x + W * y) + c], want);
         }
#undef T
   /* The corner (0,0), red channel, worked out by hand: in(0,0) = in[0] =
    * 0, in(0,1) = in[16] = 80 % 11 = 3: 0.75 * 0 + 0.25 * 3. */
   ck_assert_float_eq(out[0], 0.75f);
   xe_module_free(m);
}
END_TEST

/* Sampler-less read_imageui of RGBA uint8, write_imageui to RG uint16
 * (saturating), and the size, data type and order queries (the kernel
 * sees OpenCL's CLK_ values: the front end adds 0x10D0 / 0x10B0 to the
 * SPIR-V enumerants). */
START_TEST(uint_texels)
{
   xe_module *m = load("exec_image");
   enum { W = 3, H = 2 };
   uint8_t in[W * H * 4];
   uint16_t out[W * H * 2];
   int info[4] = {0};
   for (int i = 0; i < W * H * 4; i++) in[i] = (uint8_t)(i * 41 + 7);
   memset(out, 0xee, sizeof out);
   xe_launch l = { .kernel = "img_uint", .global = {W, H}, .local = {1, 1}, .dims = 2 };
   image(&l, 0, in, sizeof in, SpvImageChannelOrderRGBA, SpvImageChannelDataTypeUnsignedInt8, 2, W, H, 1);
   image(&l, 1, out, sizeof out, SpvImageChannelOrderRG, SpvImageChannelDataTypeUnsignedInt16, 2, W, H, 1);
   l.args[2].kind = XE_ARG_BUFFER; l.args[2].data = (uint8_t *)info; l.args[2].size = sizeof info;
   l.nargs = 3;
   run(m, &l);
   for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) {
         int t = x + W * y;
         ck_assert_uint_eq(out[2 * t], in[4 * t] * 3u + (unsigned)x);
         ck_assert_uint_eq(out[2 * t + 1], in[4 * t + 1] * 3u + (unsigned)y);
      }
   ck_assert_int_eq(info[0], W);
   ck_assert_int_eq(info[1], H);
   ck_assert_int_eq(info[2], 0x10D0 + SpvImageChannelDataTypeUnsignedInt8);  /* CLK_UNSIGNED_INT8 */
   ck_assert_int_eq(info[3], 0x10B0 + SpvImageChannelOrderRGBA);             /* CLK_RGBA */
   xe_module_free(m);
}
END_TEST

/* img_int over one row of w texels: read_imagei of BGRA int16 `in`
 * (memory order b, g, r, a), write_imagei to RGBA int8, red minus 200;
 * the output must be `want`. */
static void img_int_row(int w, const int16_t *in, const int8_t *want)
{
   xe_module *m = load("exec_image");
   int8_t out[16 * 4];
   ck_assert_int_le(w, 16);
   memset(out, 0x55, sizeof out);
   xe_launch l = { .kernel = "img_int", .global = {(uint64_t)w, 1}, .local = {(uint64_t)w, 1}, .dims = 2 };
   image(&l, 0, (void *)in, (size_t)w * 4 * sizeof *in, SpvImageChannelOrderBGRA,
         SpvImageChannelDataTypeSignedInt16, 2, w, 1, 1);
   image(&l, 1, out, (size_t)w * 4, SpvImageChannelOrderRGBA, SpvImageChannelDataTypeSignedInt8, 2, w, 1, 1);
   run(m, &l);
   for (int i = 0; i < w * 4; i++) ck_assert_msg(out[i] == want[i], "byte %d: %d, want %d", i, out[i], want[i]);
   xe_module_free(m);
}

/* The red channel minus 200 saturates at -128. */
START_TEST(int_texels)
{
   static const int16_t in[] = {1, 2, 300, 4, -5, 6, 70, -8, 9, 10, 250, 12, 13, -14, -150, 16};
   static const int8_t want[] = {100, 2, 1, 4, -128, 6, -5, -8, 50, 10, 9, 12, -128, -14, 13, 16};
   img_int_row(4, in, want);
}
END_TEST

/* write_imagei to a CL_SIGNED_INT8 image saturates at the top as well:
 * red 328 - 200 = 128 and 400 - 200 = 200 store 127 (not 128, which
 * would wrap to -128), 327 - 200 = 127 stays 127, the other channels pass
 * through. */
START_TEST(int_texels_saturate_high)
{
   static const int16_t in[] = {1, 2, 328, 3, 4, 5, 400, 6, 7, 8, 327, 9};
   static const int8_t want[] = {127, 2, 1, 3, 127, 5, 4, 6, 127, 8, 7, 9};
   img_int_row(3, in, want);
}
END_TEST

/* An image without an alpha channel reads alpha 1.0, inside the image and
 * as CLK_ADDRESS_CLAMP's border colour (0,0,0,1) outside it (OpenCL C
 * 8.3.1 and 8.2): img_shift on a CL_R input writes a.w + b.w = 2 into
 * every texel of an RGBA output, also where its second read (x + 2) is
 * outside.  On a CL_RGBA input the border is (0,0,0,0): there .w is the
 * clamped-to-edge texel's alpha alone. */
START_TEST(border_alpha)
{
   xe_module *m = load("exec_image");
   enum { W = 4, H = 2 };
   float in[W * H], out[W * H * 4];
   for (int i = 0; i < W * H; i++) in[i] = (float)i;
   for (int i = 0; i < W * H * 4; i++) out[i] = -99;
   xe_launch l = { .kernel = "img_shift", .global = {W, H}, .local = {W, 1}, .dims = 2 };
   image(&l, 0, in, sizeof in, SpvImageChannelOrderR, SpvImageChannelDataTypeFloat, 2, W, H, 1);
   image(&l, 1, out, sizeof out, SpvImageChannelOrderRGBA, SpvImageChannelDataTypeFloat, 2, W, H, 1);
   run(m, &l);
   for (int t = 0; t < W * H; t++) {
      ck_assert_float_eq(out[4 * t + 1], 0.0f);
      ck_assert_float_eq(out[4 * t + 2], 0.0f);
      ck_assert_float_eq(out[4 * t + 3], 2.0f);
   }

   float in4[W * H * 4], out4[W * H * 4];
   for (int i = 0; i < W * H * 4; i++) { in4[i] = (float)(i + 1); out4[i] = -99; }
   xe_launch l4 = { .kernel = "img_shift", .global = {W, H}, .local = {W, 1}, .dims = 2 };
   image(&l4, 0, in4, sizeof in4, SpvImageChannelOrderRGBA, SpvImageChannelDataTypeFloat, 2, W, H, 1);
   image(&l4, 1, out4, sizeof out4, SpvImageChannelOrderRGBA, SpvImageChannelDataTypeFloat, 2, W, H, 1);
   run(m, &l4);
   for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) {
         float a = in4[4 * (clampi(x - 1, 0, W - 1) + W * clampi(y + 1, 0, H - 1)) + 3];
         float b = x + 2 < W ? in4[4 * (x + 2 + W * y) + 3] : 0.0f;
         ck_assert_float_eq(out4[4 * (x + W * y) + 3], a + b);
      }
   xe_module_free(m);
}
END_TEST

/* 1-D: unorm8 R read as c / 255, written back times 2 as
 * convert_uchar_sat_rte(f * 255): 2c, saturated at 255. */
START_TEST(one_d_unorm)
{
   xe_module *m = load("exec_image");
   enum { W = 6 };
   uint8_t in[W] = {0, 1, 100, 127, 128, 250}, out[W];
   memset(out, 7, sizeof out);
   xe_launch l = { .kernel = "img_1d", .global = {W}, .local = {3} };
   image(&l, 0, in, sizeof in, SpvImageChannelOrderR, SpvImageChannelDataTypeUnormInt8, 1, W, 1, 1);
   image(&l, 1, out, sizeof out, SpvImageChannelOrderR, SpvImageChannelDataTypeUnormInt8, 1, W, 1, 1);
   run(m, &l);
   static const uint8_t want[W] = {2, 200, 254, 255, 255, 255};   /* in[x + 1], edge-clamped */
   for (int i = 0; i < W; i++) ck_assert_uint_eq(out[i], want[i]);
   xe_module_free(m);
}
END_TEST

/* 3-D trilinear at (x + 0.5, y + 0.5, z + 1): x and y on texel centres,
 * z halfway between slices z and z + 1 (clamped); plus the depth query. */
START_TEST(three_d)
{
   xe_module *m = load("exec_image");
   enum { W = 2, H = 3, D = 3 };
   uint16_t in[W * H * D];   /* half */
   float out[W * H * D * 4];
   for (int i = 0; i < W * H * D; i++) in[i] = (uint16_t)(0x3c00 + ((i % 12) << 10));   /* 2^(i % 12) */
   xe_launch l = { .kernel = "img_3d", .global = {W, H, D}, .local = {W, H, 1}, .dims = 3 };
   image(&l, 0, in, sizeof in, SpvImageChannelOrderR, SpvImageChannelDataTypeHalfFloat, 3, W, H, D);
   l.args[1].kind = XE_ARG_BUFFER; l.args[1].data = (uint8_t *)out; l.args[1].size = sizeof out;
   l.nargs = 2;
   run(m, &l);
   for (int z = 0; z < D; z++)
      for (int y = 0; y < H; y++)
         for (int x = 0; x < W; x++) {
            int i = x + W * (y + H * z), z1 = z + 1 < D ? z + 1 : D - 1;
            float want = 0.5f * ldexpf(1, i % 12) + 0.5f * ldexpf(1, (x + W * (y + H * z1)) % 12);
            ck_assert_float_eq(out[4 * i], want + D);
            ck_assert_float_eq(out[4 * i + 1], 0);
            ck_assert_float_eq(out[4 * i + 3], 1);   /* no alpha channel: 1 */
         }
   xe_module_free(m);
}
END_TEST

/* A sampler argument: normalized coordinates, every addressing mode and
 * both filters, on a 4 x 2 R float image with texel value x + 4y. */
START_TEST(sampler_arg)
{
   xe_module *m = load("exec_image_sampler");
   enum { W = 4, H = 2 };
   float in[W * H], out[W * H];
   for (int i = 0; i < W * H; i++) in[i] = (float)i;
   struct { uint32_t s; float x0, x3; } cases[] = {
      /* x = 0: s = 0.5 * 1.5 / 4 - 0.3 = -0.1125, t = 0.375 (v = 0.75).
       * repeat, linear: u = 0.8875 * 4 = 3.55, i0 = 3, i1 = 0, a = 0.05;
       * j0 = 0, j1 = 1, b = 0.25: rows 2.85 and 6.85, 3.85. */
      {XE_SAMPLER(SpvSamplerAddressingModeRepeat, 1, 1), 3.85f, NAN},
      /* repeat, nearest: u = 3.55 -> 3, v = 0.75 -> 0: 3. */
      {XE_SAMPLER(SpvSamplerAddressingModeRepeat, 1, 0), 3.0f, NAN},
      /* mirrored repeat, nearest: s' = |s - 2 rint(s / 2)| = 0.1125, u =
       * 0.45 -> 0. */
      {XE_SAMPLER(SpvSamplerAddressingModeRepeatMirrored, 1, 0), 0.0f, NAN},
      /* mirrored repeat, linear: u = 0.45, i0 = floor(-0.05) = -1 -> 0, i1
       * = 0; rows 0 and 4 with b = 0.25: 1.  x = 3: s' = |1.0125 - 2| =
       * 0.9875, u = 3.95, i0 = 3, i1 = 4 -> 3: rows 3 and 7: 4. */
      {XE_SAMPLER(SpvSamplerAddressingModeRepeatMirrored, 1, 1), 1.0f, 4.0f},
      /* clamp-to-edge, linear: u = -0.45, i0 = -1 -> 0, i1 = 0: 0 in row 0,
       * 4 in row 1: 1.  x = 3: s = 3.5 * 1.5 / 4 - 0.3 = 1.0125, u = 4.05,
       * i0 = 3, i1 = 4 -> 3: rows 3 and 7: 4. */
      {XE_SAMPLER(SpvSamplerAddressingModeClampToEdge, 1, 1), 1.0f, 4.0f},
      /* clamp (border 0 in red), nearest: u = -0.45 -> -1: border.  x = 3:
       * u = 4.05 -> 4: border. */
      {XE_SAMPLER(SpvSamplerAddressingModeClamp, 1, 0), 0.0f, 0.0f},
      /* clamp, linear at x = 0: i0 = -1 (border 0, weight 0.05 ... ) u - 0.5
       * = -0.95: i0 = -1 weight 0.95, i1 = 0 weight 0.05: rows 0 and 4 *
       * 0.05 = 0 and 0.2: 0.05. */
      {XE_SAMPLER(SpvSamplerAddressingModeClamp, 1, 1), 0.05f, NAN},
   };
   for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++) {
      for (int i = 0; i < W * H; i++) out[i] = -99;
      uint32_t s = cases[c].s;
      float scale = 1.5f;
      xe_launch l = { .kernel = "img_sampler_arg", .global = {W, H}, .local = {W, 1}, .dims = 2 };
      image(&l, 0, in, sizeof in, SpvImageChannelOrderR, SpvImageChannelDataTypeFloat, 2, W, H, 1);
      l.args[1].kind = XE_ARG_SAMPLER; l.args[1].data = (uint8_t *)&s; l.args[1].size = 4;
      image(&l, 2, out, sizeof out, SpvImageChannelOrderR, SpvImageChannelDataTypeFloat, 2, W, H, 1);
      l.args[3].kind = XE_ARG_SCALAR; l.args[3].data = (uint8_t *)&scale; l.args[3].size = 4;
      l.nargs = 4;
      run(m, &l);
      ck_assert_msg(fabsf(out[0] - cases[c].x0) < 1e-5f, "case %u: %g, want %g", c, out[0], cases[c].x0);
      if (!isnan(cases[c].x3))
         ck_assert_msg(fabsf(out[3] - cases[c].x3) < 1e-5f, "case %u: %g, want %g", c, out[3], cases[c].x3);
   }
   /* CLK_ADDRESS_NONE outside the image: undefined, so an out-of-bounds
    * fault on the image, not a value. */
   uint32_t s = XE_SAMPLER(SpvSamplerAddressingModeNone, 1, 0);
   float scale = 1.5f;
   xe_launch l = { .kernel = "img_sampler_arg", .global = {W, H}, .local = {W, 1}, .dims = 2 };
   image(&l, 0, in, sizeof in, SpvImageChannelOrderR, SpvImageChannelDataTypeFloat, 2, W, H, 1);
   l.args[1].kind = XE_ARG_SAMPLER; l.args[1].data = (uint8_t *)&s; l.args[1].size = 4;
   image(&l, 2, out, sizeof out, SpvImageChannelOrderR, SpvImageChannelDataTypeFloat, 2, W, H, 1);
   l.args[3].kind = XE_ARG_SCALAR; l.args[3].data = (uint8_t *)&scale; l.args[3].size = 4;
   l.nargs = 4;
   char *err = NULL;
   ck_assert(!xe_exec_run(m, &l, &err));
   ck_assert_int_eq(l.fault.kind, XE_FAULT_BOUNDS);
   ck_assert_uint_eq(l.fault.arg, 0);
   ck_assert_msg(strstr(err, "CLK_ADDRESS_NONE"), "%s", err);
   free(err);
   xe_module_free(m);
}
END_TEST

/* Writes: outside the image is an out-of-bounds fault; two work-items
 * writing one texel race. */
START_TEST(write_checks)
{
   xe_module *m = load("exec_image");
   float in[4 * 2], out[3 * 2];
   memset(in, 0, sizeof in);
   xe_launch l = { .kernel = "img_shift", .global = {4, 2}, .local = {4, 1}, .dims = 2 };
   image(&l, 0, in, sizeof in, SpvImageChannelOrderR, SpvImageChannelDataTypeFloat, 2, 4, 2, 1);
   image(&l, 1, out, sizeof out, SpvImageChannelOrderR, SpvImageChannelDataTypeFloat, 2, 3, 2, 1);
   char *err = NULL;
   ck_assert(!xe_exec_run(m, &l, &err));
   ck_assert_int_eq(l.fault.kind, XE_FAULT_BOUNDS);
   ck_assert_uint_eq(l.fault.arg, 1);
   ck_assert_msg(strstr(err, "image write at (3,0,0) outside the 3x2x1 image"), "%s", err);
   free(err);

   float r[4 * 4];
   xe_launch lr = { .kernel = "img_race", .global = {8}, .local = {8}, .racecheck = true };
   image(&lr, 0, r, sizeof r, SpvImageChannelOrderRGBA, SpvImageChannelDataTypeFloat, 2, 4, 1, 1);
   run(m, &lr);
   ck_assert_uint_ge(lr.races, 1);
   ck_assert_msg(strstr(lr.race, "write-write") && strstr(lr.race, "OpImageWrite"), "%s", lr.race);
   /* The race-free kernels report none. */
   float a[16], b[16];
   memset(a, 0, sizeof a);
   xe_launch lf = { .kernel = "img_linear", .global = {4, 4}, .local = {2, 2}, .dims = 2, .racecheck = true };
   image(&lf, 0, a, sizeof a, SpvImageChannelOrderR, SpvImageChannelDataTypeFloat, 2, 4, 4, 1);
   image(&lf, 1, b, sizeof b, SpvImageChannelOrderR, SpvImageChannelDataTypeFloat, 2, 4, 4, 1);
   run(m, &lf);
   ck_assert_uint_eq(lf.races, 0);
   xe_module_free(m);
}
END_TEST

/* `xeopt run` with image and sampler argument strings. */
START_TEST(cli)
{
   char *spv = tu_src("testdata/spv/exec_image.spv"), *out = NULL, *err = NULL;
   int rc = tu_sh(&out, &err, "%s run %s --kernel img_shift --global 4,3 --local 4,1 "
                  "--arg 0=image:r:float:4x3:iota --arg 1=image:r:float:4x3", tu_xeopt(), spv);
   ck_assert_msg(rc == 0, "%s", err);
   ck_assert_msg(strstr(out, "arg 1 (float[12]): 6 7 5 6 14 15 9 10 18 19 9 10"), "%s", out);
   free(out); free(err);
   rc = tu_sh(&out, &err, "%s run %s --kernel img_race --global 4 --arg 0=image:rgba:half:4 --racecheck",
              tu_xeopt(), spv);
   ck_assert_int_eq(rc, 1);
   ck_assert_msg(strstr(err, "data race (write-write)"), "%s", err);
   free(out); free(err);
   rc = tu_sh(&out, &err, "%s run %s --kernel img_race --global 4 --arg 0=image:rgbx:half:4",
              tu_xeopt(), spv);
   ck_assert_int_ne(rc, 0);   /* no such channel order */
   free(out); free(err);
   char *sspv = tu_src("testdata/spv/exec_image_sampler.spv");
   rc = tu_sh(&out, &err, "%s run %s --kernel img_sampler_arg --global 4,2 --local 4,1 "
              "--arg 0=image:r:float:4x2:iota --arg 1=sampler:repeat:normalized:linear "
              "--arg 2=image:r:float:4x2 --arg 3=float:1.5", tu_xeopt(), sspv);
   ck_assert_msg(rc == 0, "%s", err);
   ck_assert_msg(strstr(out, "arg 2 (float[8]): 3.85 "), "%s", out);
   free(out); free(err);
   free(spv); free(sspv);
}
END_TEST

/* --verify reaches the image kernels, and sees a changed sampler. */
START_TEST(verify)
{
   char *spv = tu_src("testdata/spv/exec_image.spv"), *o = tu_tmp("img_o2.spv"), *out = NULL, *err = NULL;
   int rc = tu_sh(&out, &err, "%s -O2 --verify %s -o %s", tu_xeopt(), spv, o);
   ck_assert_msg(rc == 0, "%s", err);
   static const char *kernels[] = {"img_shift", "img_linear", "img_uint", "img_int", "img_1d", "img_3d"};
   for (unsigned k = 0; k < sizeof kernels / sizeof kernels[0]; k++) {
      char want[96];
      snprintf(want, sizeof want, "kernel %s: 3 of 3 launches verified", kernels[k]);
      ck_assert_msg(strstr(err, want), "%s: %s", want, err);
   }
   /* img_race races on the launches where two work-items share a texel. */
   ck_assert_msg(strstr(err, "kernel img_race: launch 1 skipped, the input fails on every variant "
                        "tried: the input races on it"), "%s", err);
   free(out); free(err);
   /* The linear sampler of img_linear turned into a nearest one. */
   char *dis = tu_tmp("img.spvasm"), *bad = tu_tmp("img_bad.spv");
   rc = tu_sh(&out, &err, "spirv-dis --raw-id %s -o %s && sed -i 's/OpConstantSampler \\(%%[0-9]*\\) ClampToEdge 0 Linear/"
              "OpConstantSampler \\1 ClampToEdge 0 Nearest/' %s && spirv-as --target-env spv1.4 %s -o %s",
              spv, dis, dis, dis, bad);
   ck_assert_msg(rc == 0, "%s", err);
   free(out); free(err);
   tu_spirv_val(bad);
   rc = tu_sh(&out, &err, "%s run --compare %s %s", tu_xeopt(), spv, bad);
   ck_assert_int_eq(rc, 1);
   ck_assert_msg(strstr(err, "kernel img_linear: argument 1 differs at element"), "%s", err);
   free(out); free(err);
   free(spv); free(o); free(dis); free(bad);
}
END_TEST

/* An image of more dimensions than the kernel's coordinates: the missing
 * coordinates are 0.  img_uint reads its image2d_t with (x, y); given a
 * 3-D image of two slices it reads slice 0 (a missing z of 1 would read
 * slice 1, and fault on an image of one slice). */
START_TEST(fewer_coords)
{
   xe_module *m = load("exec_image");
   enum { W = 3, H = 2, D = 2 };
   uint8_t in[W * H * D * 4];
   uint16_t out[W * H * 2];
   int info[4] = {0};
   for (int i = 0; i < W * H * D * 4; i++) in[i] = (uint8_t)(i * 41 + 7);
   memset(out, 0xee, sizeof out);
   xe_launch l = { .kernel = "img_uint", .global = {W, H}, .local = {1, 1}, .dims = 2 };
   image(&l, 0, in, sizeof in, SpvImageChannelOrderRGBA, SpvImageChannelDataTypeUnsignedInt8, 3, W, H, D);
   image(&l, 1, out, sizeof out, SpvImageChannelOrderRG, SpvImageChannelDataTypeUnsignedInt16, 2, W, H, 1);
   l.args[2].kind = XE_ARG_BUFFER; l.args[2].data = (uint8_t *)info; l.args[2].size = sizeof info;
   l.nargs = 3;
   run(m, &l);
   for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) {
         int t = x + W * y;
         ck_assert_uint_eq(out[2 * t], in[4 * t] * 3u + (unsigned)x);
         ck_assert_uint_eq(out[2 * t + 1], in[4 * t + 1] * 3u + (unsigned)y);
      }
   /* A 1-D image read with img_1d's one coordinate, given a 2-D image of
    * two rows: row 0 (edge sampler, x + 1 clamped), times 2. */
   float in2[4 * 2], out1[4];
   for (int i = 0; i < 8; i++) in2[i] = (float)(i + 1);
   xe_launch l1 = { .kernel = "img_1d", .global = {4}, .local = {4}, .dims = 1 };
   image(&l1, 0, in2, sizeof in2, SpvImageChannelOrderR, SpvImageChannelDataTypeFloat, 2, 4, 2, 1);
   image(&l1, 1, out1, sizeof out1, SpvImageChannelOrderR, SpvImageChannelDataTypeFloat, 1, 4, 1, 1);
   run(m, &l1);
   for (int x = 0; x < 4; x++)
      ck_assert_float_eq(out1[x], 2.0f * in2[x + 1 < 4 ? x + 1 : 3]);
   xe_module_free(m);
}
END_TEST

/* Sampler argument texts: "sampler:ADDRESSING:normalized|unnormalized:
 * nearest|linear", nothing else, and the same text back from the value
 * (an addressing mode past the five OpenCL has prints as "?"). */
START_TEST(sampler_specs)
{
   static const char *const modes[] = {"none", "clamp_to_edge", "clamp", "repeat", "mirrored_repeat"};
   static const char *const norms[] = {"unnormalized", "normalized"};
   static const char *const filters[] = {"nearest", "linear"};
   char text[96], back[96];
   xe_arg_spec a;
   for (unsigned ad = 0; ad < 5; ad++)
      for (unsigned n = 0; n < 2; n++)
         for (unsigned f = 0; f < 2; f++) {
            snprintf(text, sizeof text, "sampler:%s:%s:%s", modes[ad], norms[n], filters[f]);
            ck_assert_msg(xe_arg_spec_parse(text, &a), "%s refused", text);
            ck_assert_int_eq(a.kind, XE_ARG_SAMPLER);
            ck_assert_uint_eq(a.sampler, XE_SAMPLER(ad, n, f));
            ck_assert_str_eq(xe_sampler_string(a.sampler, back, sizeof back), text);
         }
   static const char *const bad[] = {
      "sampler:repeat:normalized:cubic", "sampler:repeat:normalized:", "sampler:repeat:normalized:linearx",
      "sampler:repeat:normalized:nearest:", "sampler:repeat:normalised:linear", "sampler:wrap:normalized:linear",
      "sampler:repeat:normalized", "sampler:",
   };
   for (unsigned k = 0; k < sizeof bad / sizeof bad[0]; k++)
      ck_assert_msg(!xe_arg_spec_parse(bad[k], &a), "%s accepted", bad[k]);
   for (unsigned ad = 5; ad < 16; ad++)
      ck_assert_str_eq(xe_sampler_string(XE_SAMPLER(ad, 1, 0), back, sizeof back),
                       "sampler:?:normalized:nearest");
}
END_TEST

/* An image argument text starts with the whole word "image:": "image:r:
 * float:4" is an image, while "imageXr:float:4" or "image_r:float:4" (which
 * would read as the image r:float:4 past a six-character prefix if only
 * "image" were compared) is no argument kind at all and is refused. */
START_TEST(image_spec_prefix)
{
   xe_arg_spec a;
   ck_assert(xe_arg_spec_parse("image:r:float:4", &a));
   ck_assert_int_eq(a.kind, XE_ARG_IMAGE);
   static const char *const bad[] = {"imageXr:float:4", "image_r:float:4", "images:r:float:4x2"};
   for (unsigned k = 0; k < sizeof bad / sizeof bad[0]; k++)
      ck_assert_msg(!xe_arg_spec_parse(bad[k], &a), "%s accepted", bad[k]);
}
END_TEST

/* The launches --verify makes give an image parameter float or integer
 * texels by the kernel's own accesses (read_imagef / read_imagei /
 * read_imageui, sampled or not, and the writes): xe_exec_params says which. */
START_TEST(param_texel_kinds)
{
   xe_module *m = load("exec_image");
   static const struct { const char *kernel; unsigned arg; bool isf; unsigned dims; } want[] = {
      {"img_shift", 0, true, 2},    /* read_imagef with a sampler */
      {"img_shift", 1, true, 2},    /* write_imagef */
      {"img_linear", 0, true, 2},
      {"img_uint", 0, false, 2},    /* read_imageui without a sampler */
      {"img_uint", 1, false, 2},    /* write_imageui */
      {"img_int", 0, false, 2},     /* read_imagei with a sampler */
      {"img_int", 1, false, 2},     /* write_imagei */
      {"img_1d", 0, true, 1},
      {"img_3d", 0, true, 3},
   };
   for (unsigned k = 0; k < sizeof want / sizeof want[0]; k++) {
      enum xe_arg_kind kind[8];
      unsigned elem[8];
      bool isf[8];
      int n = xe_exec_params(m, want[k].kernel, kind, elem, isf, 8);
      ck_assert_int_gt(n, (int)want[k].arg);
      ck_assert_int_eq(kind[want[k].arg], XE_ARG_IMAGE);
      ck_assert_msg(isf[want[k].arg] == want[k].isf, "%s arg %u: %s texels, want %s", want[k].kernel,
                    want[k].arg, isf[want[k].arg] ? "float" : "integer", want[k].isf ? "float" : "integer");
      ck_assert_uint_eq(elem[want[k].arg], want[k].dims);
   }
   xe_module_free(m);
}
END_TEST

int main(void)
{
   Suite *s = suite_create("exec_image");
   TCase *tc = tcase_create("images");
   tcase_set_timeout(tc, 120);
   tcase_add_test(tc, shift_nearest);
   tcase_add_test(tc, linear);
   tcase_add_test(tc, uint_texels);
   tcase_add_test(tc, int_texels);
   tcase_add_test(tc, int_texels_saturate_high);
   tcase_add_test(tc, border_alpha);
   tcase_add_test(tc, one_d_unorm);
   tcase_add_test(tc, three_d);
   tcase_add_test(tc, sampler_arg);
   tcase_add_test(tc, write_checks);
   tcase_add_test(tc, cli);
   tcase_add_test(tc, verify);
   tcase_add_test(tc, fewer_coords);
   tcase_add_test(tc, sampler_specs);
   tcase_add_test(tc, image_spec_prefix);
   tcase_add_test(tc, param_texel_kinds);
   suite_add_tcase(s, tc);
   return tu_run_suite(s) ? 1 : 0;
}
