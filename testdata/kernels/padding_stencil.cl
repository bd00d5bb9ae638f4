// padding_stencil: accesses the disjoint proof accepts although the
// same_index proof does not: an in-place update and a 2-point stencil
// (in needs one more element than the launch).
kernel void padding_inplace(global float *a, int n)
{
    int i = get_global_id(0);
    if (i < n)
        a[i] = a[i] * 0.5f;
}
kernel void padding_stencil(global float *out, global const float *in, int n)
{
    int i = get_global_id(0);
    if (i < n)
        out[i] = in[i] + in[i + 1];
}
