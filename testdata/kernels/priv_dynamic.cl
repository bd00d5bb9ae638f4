// xeopt-test: -O2
// priv_dynamic: private array indexed by a loaded value of unknown range
// (no mask). The pass can prove nothing about the index: leave it alone.
kernel void priv_dynamic(global const int *in, global const int *idx,
                         global int *out)
{
    size_t i = get_global_id(0);
    int a[32];
    for (int k = 0; k < 32; k++)
        a[k] = in[i * 32 + k];
    out[i] = a[idx[i]];
}
