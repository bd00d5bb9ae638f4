// padding_merged: two guards on the same bound, which clang merges into one
// region whose tail branches to the atomic.  The guard goes from the copy
// and stays on the branch to the atomic (`c && i < n`).
kernel void padding_merged(global float *dst, global const float *src,
                           global int *count, int n)
{
    int i = get_global_id(0);
    if (i < n)
        dst[i] = src[i] * 0.5f;
    if (i < n && src[i] > 0.0f)
        atomic_inc(count);
}
