// xeopt-test: -O2
// sg_copy: the GPU optimization guide's sub-group copy `data[i] = data2[i]`
// (int) with a fixed work-group size of 32 and sub-group size 16. Each
// sub-group touches 16 consecutive ints: the block-load pass should turn the
// scattered load/store into sub-group block reads/writes.
__attribute__((reqd_work_group_size(32, 1, 1)))
__attribute__((intel_reqd_sub_group_size(16)))
kernel void sg_copy(global int *data, global const int *data2)
{
    size_t i = get_global_id(0);
    data[i] = data2[i];
}
