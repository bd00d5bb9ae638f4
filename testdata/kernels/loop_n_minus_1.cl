// xeopt-test: -O2
// loop_n_minus_1: loop bound `n - 1` derived from an argument (the argument
// still becomes the spec constant; the bound is an expression of it).
kernel void loop_n_minus_1(global const float *a, global float *out, int n)
{
    int i = get_global_id(0);
    float acc = 0.0f;
    for (int j = 0; j < n - 1; j++)
        acc += a[i * n + j] * a[i * n + j + 1];
    out[i] = acc;
}
