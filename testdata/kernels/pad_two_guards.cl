// xeopt-test: -O2
// pad_two_guards: two guards on n. The first (plain copy) is removable; the
// second (atomic increment of a counter) is not.
kernel void pad_two_guards(global float *dst, global const float *src,
                           global int *count, int n)
{
    int i = get_global_id(0);
    if (i < n)
        dst[i] = src[i] * 0.5f;
    if (i < n && src[i] > 0.0f)
        atomic_inc(count);
}
