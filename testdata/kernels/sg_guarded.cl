// xeopt-test: -O2
// sg_guarded: guarded copy `if (i < n) dst[i] = src[i];` with the sub-group
// attributes. Lanes may be inactive at the tail, so a block access is only
// legal if the pass proves the whole sub-group is in or out (it is not).
__attribute__((reqd_work_group_size(32, 1, 1)))
__attribute__((intel_reqd_sub_group_size(16)))
kernel void sg_guarded(global int *dst, global const int *src, int n)
{
    int i = get_global_id(0);
    if (i < n)
        dst[i] = src[i];
}
