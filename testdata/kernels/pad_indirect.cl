// xeopt-test: -O2
// pad_indirect: the guarded body loads idx[i] and uses it as an address
// (gather). Padding idx does not make data[idx[i]] safe: the guard stays.
kernel void pad_indirect(global float *out, global const float *data,
                         global const int *idx, int n)
{
    int i = get_global_id(0);
    if (i < n)
        out[i] = data[idx[i]];
}
