// Planted: the pass applies the rewrite, but the REMARK line expects the
// note it prints without --assume-padded; the test must fail at the remarks.
// EXPECT-FAIL: remarks wrong-remark\.cl:5:\d+: error: REMARK. expected string not found
// RUN: --passes=padding --assume-padded
// REMARK: guarded: [padding] note: could remove guard
kernel void guarded(global float *out, global const float *in, int n)
{
    int i = get_global_id(0);
    if (i < n)
        out[i] = in[i];
}
