// xeopt-test: -O2
// sg_copy_float: sg_copy on floats (block read/write of 32-bit floats goes
// through uint bitcasts).
__attribute__((reqd_work_group_size(32, 1, 1)))
__attribute__((intel_reqd_sub_group_size(16)))
kernel void sg_copy_float(global float *data, global const float *data2)
{
    size_t i = get_global_id(0);
    data[i] = data2[i];
}
