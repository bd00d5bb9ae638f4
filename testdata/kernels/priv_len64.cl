// xeopt-test: -O2
// priv_len64: private `int a[64]` whose indices are all provably below 16
// (`& 15`). The private-array pass may shrink it to 16 elements.
kernel void priv_len64(global const int *in, global int *out)
{
    size_t i = get_global_id(0);
    int a[64];
    for (int k = 0; k < 16; k++)
        a[k] = 0;
    for (int k = 0; k < 64; k++) {
        int v = in[i * 64 + k];
        a[v & 15] += v;
    }
    int s = 0;
    for (int k = 0; k < 16; k++)
        s += a[k] * k;
    out[i] = s;
}
