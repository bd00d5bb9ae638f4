// Planted: RUN-OTHER has no OTHER, OTHER-REMARK or OTHER-MANIFEST line, so it
// would check nothing; the runner must reject the file.
// EXPECT-FAIL: format RUN-OTHER. no OTHER, OTHER-REMARK, OTHER-MANIFEST line checks this run
// RUN: --passes=padding
// REMARK: [padding] note
// RUN-OTHER: --passes=padding --assume-padded
kernel void guarded(global float *out, global const float *in, int n)
{
    int i = get_global_id(0);
    if (i < n)
        out[i] = in[i];
}
