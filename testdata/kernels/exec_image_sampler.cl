// xeopt-test: -O2
// A sampler_t kernel argument (tests/test_exec_image.c runs it with every
// addressing mode and both filters).  Its own file: llvm-spirv-15 declares
// OpTypeSampler twice when a module also has constant samplers.
kernel void img_sampler_arg(read_only image2d_t in, sampler_t s, write_only image2d_t out, float scale)
{
   int x = get_global_id(0), y = get_global_id(1);
   float2 c = (float2)((x + 0.5f) * scale / get_image_width(in) - 0.3f,
                       (y + 0.5f) * scale / get_image_height(in));
   write_imagef(out, (int2)(x, y), read_imagef(in, s, c));
}
