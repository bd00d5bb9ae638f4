// padding_2d: 2-D guard `x < w && y < h` (clang: OpSelect) around a row-major
// access `y * w + x`.  Items with x >= w alias the next row, so the pass
// needs the same_index proof: they store exactly what the in-bounds item
// with the same index stores.
kernel void padding_2d(global float *out, global const float *in, int w, int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x < w && y < h)
        out[y * w + x] = in[y * w + x] + 1.0f;
}
