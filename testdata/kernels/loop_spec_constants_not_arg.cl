// xeopt-test: -O2
// The loop bound is loaded from memory, not a kernel argument: nothing to
// specialize (the pass must leave the module unchanged).
kernel void not_arg(global const float *a, global float *out, global const int *bounds)
{
    int i = get_global_id(0);
    int m = bounds[i];
    float acc = 0.0f;
    for (int j = 0; j < m; j++)
        acc += a[i * 32 + j];
    out[i] = acc;
}
