// xeopt-test: -O2
// Bounds through division and shift of unsigned/long arguments.
kernel void halves(global const float *a, global float *out, uint n, long m)
{
    int i = get_global_id(0);
    float acc = 0.0f;
    for (uint j = 0; j < n / 2; j++)
        acc += a[i + j];
    for (long j = 0; j < (m >> 1); j++)
        acc += a[i + j];
    out[i] = acc;
}
