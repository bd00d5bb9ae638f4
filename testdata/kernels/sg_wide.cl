// xeopt-test: -O2
// sg_wide: each sub-group reads p[base + k*16 + lane] for k = 0..7 with
// base = get_group_id(0)*128 (work-group 16 = one sub-group): eight
// lane-contiguous loads that can become block reads (or one 8-wide read).
__attribute__((reqd_work_group_size(16, 1, 1)))
__attribute__((intel_reqd_sub_group_size(16)))
kernel void sg_wide(global const float *p, global float *out)
{
    int lane = get_local_id(0);
    int base = get_group_id(0) * 128;
    float acc = 0.0f;
#pragma unroll
    for (int k = 0; k < 8; k++)
        acc += p[base + k * 16 + lane];
    out[get_global_id(0)] = acc;
}
