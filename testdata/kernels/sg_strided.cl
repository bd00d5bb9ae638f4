// xeopt-test: -O2
// sg_strided: `dst[i] = src[2*i]`. The load has stride 2 across lanes and
// must NOT become a block read (the store may).
__attribute__((reqd_work_group_size(32, 1, 1)))
__attribute__((intel_reqd_sub_group_size(16)))
kernel void sg_strided(global int *dst, global const int *src)
{
    size_t i = get_global_id(0);
    dst[i] = src[2 * i];
}
