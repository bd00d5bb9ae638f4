// xeopt-test: -O2
// hist_ulong_exceeds: like histogram_private, but each bin adds a weight that
// is a kernel argument and the loop count is an argument too, so a bin can
// exceed 32 bits. The private-array pass must keep the ulong bins.
#define NUM_BINS 32
kernel void hist_ulong_exceeds(global const uint *input, global ulong *hist,
                               ulong weight, int count)
{
    size_t gid = get_global_id(0);
    ulong histogram[NUM_BINS];
    for (int k = 0; k < NUM_BINS; k++)
        histogram[k] = 0;
    for (int k = 0; k < count; k++) {
        uint x = input[gid * count + k];
        histogram[x & 0x1F] += weight;
    }
    for (int k = 0; k < NUM_BINS; k++)
        hist[gid * NUM_BINS + k] = histogram[k];
}
