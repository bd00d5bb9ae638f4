// padding_early: early-return form `if (i >= n) return;` with a size_t index
// (64-bit arithmetic: no 32-bit index limit in the manifest).
kernel void padding_early(global float *out, global const float *in, uint n)
{
    size_t i = get_global_id(0);
    if (i >= n)
        return;
    out[i] = in[i] * 2.0f;
}
