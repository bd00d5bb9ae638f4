// xeopt-test: -O0
// gas_memcpy_two_spaces: a generic-pointer memcpy helper called once with a
// global source and once with a local source. The generic-AS pass must clone
// (or keep generic) per address space; it cannot pick a single space.
void gmemcpy(float *dst, const float *src, int n)
{
    for (int k = 0; k < n; k++)
        dst[k] = src[k];
}

kernel void gas_memcpy_two_spaces(global float *out, global const float *in,
                                  local float *tile, int n)
{
    int l = get_local_id(0);
    tile[l] = in[get_global_id(0)] * 2.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        int g = get_group_id(0);
        gmemcpy(out + g * 2 * n, in + g * n, n);
        gmemcpy(out + g * 2 * n + n, tile, n);
    }
}
