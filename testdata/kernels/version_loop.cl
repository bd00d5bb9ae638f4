// xeopt-test: -O2
// version_loop: a bounds guard around a loop (column sums, `in[k*n + i]`),
// no sub-group or local size. Padding refuses the guard (the region has a
// loop); subgroup-versioning makes a fast copy without the guard in which
// the store after the loop is a block write.
kernel void version_loop(global float *out, global const float *in, int n, int m)
{
    int i = get_global_id(0);
    if (i < n) {
        float s = 0.0f;
        for (int k = 0; k < m; k++)
            s += in[k * n + i];
        out[i] = s;
    }
}
