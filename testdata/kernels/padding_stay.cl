// padding_stay: guards that must stay, one reason per kernel.
kernel void padding_atomic(global int *cnt, global const int *in, int n)
{
    int i = get_global_id(0);
    if (i < n)
        atomic_add(&cnt[in[i] & 15], 1);   // atomic in the body
}
kernel void padding_out0(global float *out, global const float *in, int n)
{
    int i = get_global_id(0);
    if (i < n)
        out[0] = in[i];                    // store not indexed by i
}
kernel void padding_gather(global float *out, global const float *in,
                           global const int *idx, int n)
{
    int i = get_global_id(0);
    if (i < n)
        out[i] = in[idx[i]];               // loaded value used as an address
}
kernel void padding_shift(global float *a, int n)
{
    int i = get_global_id(0);
    if (i < n)
        a[i] = a[i + 1];                   // item n would overwrite a[n], read by item n-1
}
kernel void padding_div(global int *out, global const int *a, global const int *b, int n)
{
    int i = get_global_id(0);
    if (i < n)
        out[i] = a[i] / b[i];              // item n may divide by a zero from the padding
}
