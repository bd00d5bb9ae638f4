// xeopt-test: -O2
// sg_copy_2d: 2-D copy indexed by `y * width + x` with work-group (32,4,1)
// and sub-group 16: x is lane-contiguous inside a sub-group, so the block
// pass may convert it (a sub-group never straddles a row).
__attribute__((reqd_work_group_size(32, 4, 1)))
__attribute__((intel_reqd_sub_group_size(16)))
kernel void sg_copy_2d(global int *dst, global const int *src, int width)
{
    int x = get_global_id(0);
    int y = get_global_id(1);
    dst[y * width + x] = src[y * width + x];
}
