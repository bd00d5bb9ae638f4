// Planted: xeopt rejects the option (exit 1); the runner must report it.
// EXPECT-FAIL: xeopt xeopt exited 1.*\n.*error.*banana
// RUN: --passes=padding --subgroup-size=banana
// REMARK-NOT: {{.}}
kernel void guarded(global float *out, global const float *in, int n)
{
    int i = get_global_id(0);
    if (i < n)
        out[i] = in[i];
}
