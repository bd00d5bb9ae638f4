// xeopt-test: -O2
// pad_store_out0: guard whose body also stores to out[0] (not indexed by the
// work-item). A padded lane would write out[0]: the guard must stay.
kernel void pad_store_out0(global float *out, global const float *in, int n)
{
    int i = get_global_id(0);
    if (i < n) {
        out[i + 1] = in[i];
        out[0] = in[i];
    }
}
