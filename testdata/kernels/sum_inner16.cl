// xeopt-test: -O2
// sum_inner16: sum_inner with the literal bound 16: what the spec-constant
// pass should make IGC see (fully unrolled loop) when inner is set to 16.
kernel void sum_inner16(global const float *a, global float *out)
{
    int i = get_global_id(0);
    float acc = 0.0f;
    for (int j = 0; j < 16; j++)
        acc += a[i * 16 + j];
    out[i] = acc;
}
