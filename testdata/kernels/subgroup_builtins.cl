// xeopt-test: -O2 subgroups
// subgroup_builtins: get_sub_group_local_id, sub_group_broadcast and
// intel_sub_group_shuffle (cl_intel_subgroups / SPV_INTEL_subgroups).
// Passes must keep the sub-group semantics intact.
__attribute__((intel_reqd_sub_group_size(16)))
kernel void subgroup_builtins(global const float *in, global float *out)
{
    size_t i = get_global_id(0);
    uint lane = get_sub_group_local_id();
    float v = in[i];
    float first = sub_group_broadcast(v, 0);
    float neighbour = intel_sub_group_shuffle(v, (lane + 1) & 15);
    out[i] = v + first + neighbour;
}
