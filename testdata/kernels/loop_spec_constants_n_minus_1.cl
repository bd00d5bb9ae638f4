// xeopt-test: -O2
// Loop bound `n - 1`: the argument reaches the exit compare through
// arithmetic; the guard clang adds before the loop (`n > 1`) uses it too.
kernel void n_minus_1(global const float *a, global float *out, int n)
{
    int i = get_global_id(0);
    float acc = 0.0f;
    for (int j = 0; j < n - 1; j++)
        acc += a[i * n + j] * a[i * n + j + 1];
    out[i] = acc;
}
