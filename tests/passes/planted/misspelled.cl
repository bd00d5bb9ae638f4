// Planted: `REMARKS:` is not a prefix of any run (the remarks prefix is
// REMARK), so FileCheck would skip the line and the test would check
// nothing; the runner must reject the file.
// EXPECT-FAIL: format misspelled\.cl:7: unknown directive REMARKS
// RUN: --passes=padding --assume-padded
// CHECK: OpFunction
// REMARKS: this line is never checked
kernel void guarded(global float *out, global const float *in, int n)
{
    int i = get_global_id(0);
    if (i < n)
        out[i] = in[i];
}
