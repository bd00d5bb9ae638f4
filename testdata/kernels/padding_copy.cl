// padding_copy: the guarded copy `if (i < n) out[i] = in[i];` (32-bit index).
// The padding pass removes the guard with --assume-padded (proof: disjoint).
kernel void padding_copy(global float *out, global const float *in, int n)
{
    int i = get_global_id(0);
    if (i < n)
        out[i] = in[i];
}
