// xeopt-test: -O2
// private_arrays_hist17: histogram_private.cl with 8192 blocks: a bin may reach
// 8192 * 8 = 65536, which needs 17 bits, so the bins become uint, not ushort.
#define NUM_BINS 32
#define BLOCK 8192
__attribute__((reqd_work_group_size(64, 1, 1)))
__attribute__((intel_reqd_sub_group_size(16)))
kernel void private_arrays_hist17(global const ulong *input, global ulong *hist)
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
