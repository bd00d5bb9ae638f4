// xeopt-test: -O2
// histogram_private: the GPU optimization guide's histogram. A private
// `ulong histogram[32]` indexed by `x & 0x1F`, 256 iterations each taking 8
// byte-values out of one ulong read sub-group-contiguously (the guide's
// sg.load), results written to global memory. The 32 x 8-byte bins are too
// big for registers, so IGC puts the array in private (scratch) memory.
// The private-array pass should narrow the bins to uint (see hist_uint.cl).
#define NUM_BINS 32
#define BLOCK 256
__attribute__((reqd_work_group_size(64, 1, 1)))
__attribute__((intel_reqd_sub_group_size(16)))
kernel void histogram_private(global const ulong *input, global ulong *hist)
{
    int group = get_group_id(0);
    int gSize = get_local_size(0);
    int sgSize = get_sub_group_size();
    int sgGroup = get_sub_group_id();
    int lane = get_sub_group_local_id();

    ulong histogram[NUM_BINS];
    for (int k = 0; k < NUM_BINS; k++)
        histogram[k] = 0;
    for (int k = 0; k < BLOCK; k++) {
        ulong x = input[group * gSize * BLOCK + sgGroup * sgSize * BLOCK +
                        sgSize * k + lane];
#pragma unroll
        for (int i = 0; i < 8; i++) {
            uint c = x & 0x1FU;
            histogram[c] += 1;
            x = x >> 8;
        }
    }
    size_t gid = get_global_id(0);
    for (int k = 0; k < NUM_BINS; k++)
        hist[gid * NUM_BINS + k] = histogram[k];
}
