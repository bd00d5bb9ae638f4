// xeopt-test: -O2 spirv13
// Images for the interpreter (tests/test_exec_image.c): sampled reads with
// constant samplers (nearest and linear, clamp-to-edge and clamp), sampler-less reads, writes of float, int and uint texels to 1-D,
// 2-D and 3-D images, and the size and format queries.
const sampler_t edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
const sampler_t border = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
const sampler_t smooth = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;

// out(x, y) = in(x - 1, y + 1) clamped to the edge, plus in(x + 2, y) with
// a border outside.
kernel void img_shift(read_only image2d_t in, write_only image2d_t out)
{
   int x = get_global_id(0), y = get_global_id(1);
   float4 a = read_imagef(in, edge, (int2)(x - 1, y + 1));
   float4 b = read_imagef(in, border, (int2)(x + 2, y));
   write_imagef(out, (int2)(x, y), a + b);
}

// Bilinear sampling at a quarter-texel offset.
kernel void img_linear(read_only image2d_t in, write_only image2d_t out)
{
   int x = get_global_id(0), y = get_global_id(1);
   write_imagef(out, (int2)(x, y), read_imagef(in, smooth, (float2)(x + 0.25f, y + 0.75f)));
}

// Sampler-less integer reads and writes; the sizes and the format.
kernel void img_uint(read_only image2d_t in, write_only image2d_t out, global int *info)
{
   int x = get_global_id(0), y = get_global_id(1);
   uint4 v = read_imageui(in, (int2)(x, y));
   write_imageui(out, (int2)(x, y), v * 3u + (uint4)(x, y, 0, 1000));
   if (x == 0 && y == 0) {
      info[0] = get_image_width(in);
      info[1] = get_image_height(in);
      info[2] = get_image_channel_data_type(in);
      info[3] = get_image_channel_order(in);
   }
}

kernel void img_int(read_only image2d_t in, write_only image2d_t out)
{
   int x = get_global_id(0), y = get_global_id(1);
   int4 v = read_imagei(in, edge, (int2)(x, y));
   write_imagei(out, (int2)(x, y), v - (int4)(200, 0, 0, 0));
}

kernel void img_1d(read_only image1d_t in, write_only image1d_t out)
{
   int x = get_global_id(0);
   write_imagef(out, x, read_imagef(in, edge, x + 1) * 2.0f);
}

kernel void img_3d(read_only image3d_t in, global float4 *out)
{
   int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
   size_t i = x + get_global_size(0) * (y + get_global_size(1) * z);
   out[i] = read_imagef(in, smooth, (float4)(x + 0.5f, y + 0.5f, z + 1.0f, 0.0f)) +
            (float4)(get_image_depth(in), 0, 0, 0);
}

// Two work-items write the same texel: a race.
kernel void img_race(write_only image2d_t out)
{
   write_imagef(out, (int2)(get_global_id(0) / 2, 0), (float4)(get_global_id(0)));
}
