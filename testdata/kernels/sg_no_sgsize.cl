// xeopt-test: -O2
// sg_no_sgsize: copy with reqd_work_group_size but no
// intel_reqd_sub_group_size. The sub-group size is unknown (IGC may pick 8,
// 16 or 32), so the block pass must leave it alone.
__attribute__((reqd_work_group_size(32, 1, 1)))
kernel void sg_no_sgsize(global int *data, global const int *data2)
{
    size_t i = get_global_id(0);
    data[i] = data2[i];
}
