// Planted: the CHECK line below is wrong (padding removes the guard, so no
// OpBranchConditional is left); the test must fail at the output check.
// EXPECT-FAIL: output wrong-output\.cl:6:\d+: error: CHECK. expected string not found
// RUN: --passes=padding --assume-padded
// CHECK-LABEL: %guarded = OpFunction
// CHECK: OpBranchConditional
kernel void guarded(global float *out, global const float *in, int n)
{
    int i = get_global_id(0);
    if (i < n)
        out[i] = in[i];
}
