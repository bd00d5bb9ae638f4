// xeopt-test: -O2
// priv_volatile: a volatile private array. Private memory is observable by
// no other work-item, so the private-array pass drops Volatile (issue 6,
// rewrite 5) and IGC can keep the array in registers.
kernel void priv_volatile(global const int *in, global int *out)
{
    size_t i = get_global_id(0);
    volatile int a[16];
    for (int k = 0; k < 16; k++)
        a[k] = in[i * 16 + k];
    int s = 0;
    for (int k = 0; k < 16; k++)
        s += a[(k * 7) & 15];
    out[i] = s;
}
