// xeopt-test: -O2
// block_io_loop: a loop with a uniform trip count (k < n, n a kernel
// argument): every lane runs the same iterations, so the loop body is
// sub-group uniform and in[k * 4096 + i] can be a block read.  The second
// loop's bound depends on the lane (k < i): its body is divergent.
__attribute__((reqd_work_group_size(32, 1, 1)))
__attribute__((intel_reqd_sub_group_size(16)))
kernel void block_io_loop(global float *out, global const float *in, int n)
{
    size_t i = get_global_id(0);
    float acc = 0.0f;
    for (int k = 0; k < n; k++)
        acc += in[k * 4096 + i];
    for (size_t k = 0; k < i; k++)
        acc += in[k * 16 + i];
    out[i] = acc;
}
