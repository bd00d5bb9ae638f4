// xeopt-test: -O2 subgroups
// sg_copy_block: sg_copy.cl written by hand with intel_sub_group_block_read /
// intel_sub_group_block_write (cl_intel_subgroups), i.e. what the block-load
// pass should produce from sg_copy. Reference for bench/isa's block counts.
__attribute__((reqd_work_group_size(32, 1, 1)))
__attribute__((intel_reqd_sub_group_size(16)))
kernel void sg_copy_block(global int *data, global const int *data2)
{
    size_t base = get_global_id(0) - get_sub_group_local_id();
    uint v = intel_sub_group_block_read((const global uint *)(data2 + base));
    intel_sub_group_block_write((global uint *)(data + base), v);
}
