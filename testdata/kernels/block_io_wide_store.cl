// xeopt-test: -O2
// block_io_wide_store: four lane-contiguous loads stepping by 16 elements,
// with a store to the same buffer between the second and the third: the
// loads may merge only pairwise (a block read must not move across the
// write).
__attribute__((reqd_work_group_size(16, 1, 1)))
__attribute__((intel_reqd_sub_group_size(16)))
kernel void block_io_wide_store(global float *p, global float *out)
{
    int lane = get_local_id(0);
    int base = get_group_id(0) * 64;
    float a = p[base + lane];
    float b = p[base + 16 + lane];
    p[base + lane] = a * b;
    float c = p[base + 32 + lane];
    float d = p[base + 48 + lane];
    out[get_global_id(0)] = a + b + c + d;
}
