// xeopt-test: -O2
// loop_const_bound: the loop bound is a value loaded from memory, not a kernel
// argument: the spec-constant pass has nothing to specialize.
kernel void loop_const_bound(global const float *a, global float *out,
                             global const int *bounds)
{
    int i = get_global_id(0);
    int m = bounds[i];
    float acc = 0.0f;
    for (int j = 0; j < m; j++)
        acc += a[i * 32 + j];
    out[i] = acc;
}
