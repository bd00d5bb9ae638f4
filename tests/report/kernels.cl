// Kernels for the HTML report's test (tests/report/run.py): one whose
// bounds check the padding pass removes with --assume-padded (a remark at
// the guard's line, "x < n" with characters the page must escape), and
// one whose lane-contiguous loads become sub-group block reads.
kernel void report_copy(global float *out, global const float *in, int n)
{
    int i = get_global_id(0);
    if (i < n)
        out[i] = in[i] * 2.0f;
}

__attribute__((reqd_work_group_size(16, 1, 1)))
__attribute__((intel_reqd_sub_group_size(16)))
kernel void report_wide(global const float *p, global float *out)
{
    int lane = get_local_id(0);
    int base = get_group_id(0) * 128;
    float acc = 0.0f;
#pragma unroll
    for (int k = 0; k < 8; k++)
        acc += p[base + k * 16 + lane];
    out[get_global_id(0)] = acc;
}
