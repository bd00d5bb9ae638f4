// xeopt-test: -O2
// lanes_vloadn: vload4 from an address every lane shares is a memory read
// (OpExtInst OpenCL.std vloadn), not a pure function of its operands: the
// lane analysis must not call its result sub-group uniform, as it does not
// for an OpLoad (tests/test_lanes.c, vloadn_reads_memory).
__attribute__((intel_reqd_sub_group_size(16)))
kernel void lanes_vloadn(global const float *p, global float *out)
{
    size_t i = get_global_id(0);
    float4 v = vload4(0, p);
    out[i] = v.x + v.w;
}
