// xeopt-test: -O2
// guarded_copy: bounds-checked copy `if (i < n) dst[i] = src[i];` on ints.
// Candidate for the padding pass (guard removable when the host pads).
kernel void guarded_copy(global int *dst, global const int *src, int n)
{
    int i = get_global_id(0);
    if (i < n)
        dst[i] = src[i];
}
