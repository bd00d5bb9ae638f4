// xeopt-test: -O0
// generic_helper: a non-kernel memcpy-like helper taking generic pointers,
// called from one kernel with a global and with a local source. Built at -O0
// so the helper and its generic-address-space casts survive.
void copy_n(int *dst, const int *src, int n)
{
    for (int k = 0; k < n; k++)
        dst[k] = src[k];
}

kernel void generic_helper(global int *out, global const int *in,
                           local int *tmp, int n)
{
    int l = get_local_id(0);
    tmp[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    int g = get_group_id(0);
    copy_n(out + g * 2 * n, in + g * n, n);
    copy_n(out + g * 2 * n + n, tmp, n);
}
