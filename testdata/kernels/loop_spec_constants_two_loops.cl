// xeopt-test: -O2
// Two loops bounded by the same argument `n`: one flag/value pair (and one
// select) serves both.
kernel void two_loops(global const float *a, global float *out, int n)
{
    int i = get_global_id(0);
    float s = 0.0f, m = 0.0f;
    for (int j = 0; j < n; j++)
        s += a[i * n + j];
    for (int j = 0; j < n; j++)
        m = fmax(m, a[i * n + j]);
    out[2 * i] = s;
    out[2 * i + 1] = m;
}
