// xeopt-test: -O0
// gas_nested_helpers: a generic-pointer helper reached through another
// helper, called once with a global and once with a local source. The
// outer copies pass known spaces to the inner helper, so the pass must
// specialize both levels (a second round of cloning).
void copy_inner(int *dst, const int *src, int n)
{
    for (int k = 0; k < n; k++)
        dst[k] = src[k];
}

void copy_outer(int *dst, const int *src, int n)
{
    copy_inner(dst, src, n);
}

kernel void gas_nested_helpers(global int *out, global const int *in,
                               local int *tmp, int n)
{
    int l = get_local_id(0);
    tmp[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    int g = get_group_id(0);
    copy_outer(out + g * 2 * n, in + g * n, n);
    copy_outer(out + g * 2 * n + n, tmp, n);
}
